// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/breakdown.h"
#include "breakdown_testutil.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <map>

using namespace stepscope;
using model::Category;
using model::TrackKind;
using testsupport::expectIdentity;

namespace {

constexpr std::int64_t Us = 1000; // the tests think in microseconds

struct Builder
{
    model::TraceBuilder b;
    model::TrackId host;
    model::TrackId stream;

    Builder()
    {
        model::TrackInfo h;
        h.threadId = "1";
        host = b.addTrack(h);
        model::TrackInfo d;
        d.kind = TrackKind::DeviceStream;
        d.threadId = "7";
        stream = b.addTrack(d);
    }
    model::TrackId addTrack(TrackKind kind, const std::string &threadName)
    {
        model::TrackInfo i;
        i.kind = kind;
        i.threadName = threadName;
        return b.addTrack(i);
    }
    void add(model::TrackId t, std::int64_t s, std::int64_t e, const std::string &name, Category c,
        const std::string &args = {})
    {
        model::ArgsId a;
        if (!args.empty())
            a = b.trace().args.add(args);
        b.track(t).add(s * Us, (e - s) * Us, b.intern(name), c, a);
    }
    /// An event with the correlation id the importer would have read from its args.
    void addCorrelated(model::TrackId t, std::int64_t s, std::int64_t e, const std::string &name,
        Category c, std::int64_t correlation)
    {
        const std::uint32_t i = b.track(t).add(s * Us, (e - s) * Us, b.intern(name), c, {});
        model::EventIds ids;
        ids.event = model::EventRef {t, i};
        ids.correlation = correlation;
        b.addEventIds(ids);
    }
    model::Trace finish() { return b.finish().trace; }
};

} // namespace

TEST(Breakdown, EveryCategoryOfOneStep)
{
    Builder t;
    t.add(t.host, 0, 1000, "ProfilerStep#3", Category::Annotation);
    t.add(t.host, 0, 200, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
        Category::DataLoading);
    t.add(t.host, 660, 680, "cudaLaunchKernel", Category::Runtime);
    t.add(t.host, 800, 900, "aten::copy_", Category::HostOp);
    t.add(t.stream, 250, 500, "gemm", Category::Compute);
    t.add(t.stream, 450, 650, "ncclKernel_AllReduce", Category::Communication);
    t.add(t.stream, 700, 800, "relu", Category::Compute);
    const auto trace = t.finish();

    const auto steps = analysis::computeBreakdowns(trace);
    ASSERT_EQ(steps.size(), 1u);
    const auto &s = steps[0];
    EXPECT_EQ(s.step, 3);
    EXPECT_EQ(s.durationNs(), 1000 * Us);
    EXPECT_EQ(s.computeNs, 350 * Us);
    EXPECT_EQ(s.commOverlappedNs, 50 * Us);
    EXPECT_EQ(s.commExposedNs, 150 * Us);
    EXPECT_EQ(s.bubbleNs, 0);
    EXPECT_EQ(s.preparingNs, 50 * Us); // [200, 250): after the data loader, before the gemm
    EXPECT_EQ(s.dataLoadingNs, 200 * Us); // before the first device task
    EXPECT_EQ(s.launchGapNs, 20 * Us);
    EXPECT_EQ(s.hostWaitNs, 100 * Us);
    EXPECT_EQ(s.otherIdleNs, 130 * Us);
    EXPECT_EQ(s.deviceStartNs, 250 * Us);
    EXPECT_EQ(s.deviceEndNs, 800 * Us);
    EXPECT_FALSE(s.reference.has_value());
    EXPECT_FALSE(s.tbBreakdown.has_value()); // not a Kineto trace
    expectIdentity(s);

    // The lane draws exactly these numbers, in order, without overlaps.
    const auto lane = analysis::stepLaneSegments(trace);
    std::map<analysis::SegmentKind, std::int64_t> sum;
    for (std::size_t i = 0; i < lane.size(); ++i) {
        sum[lane[i].kind] += lane[i].endNs - lane[i].startNs;
        EXPECT_EQ(lane[i].step, 3);
        if (i > 0) {
            EXPECT_LE(lane[i - 1].endNs, lane[i].startNs);
        }
    }
    for (int k = 0; k < analysis::SegmentKindCount; ++k) {
        const auto kind = static_cast<analysis::SegmentKind>(k);
        EXPECT_EQ(sum[kind], s.segmentNs(kind)) << analysis::segmentKindKey(kind);
    }
    EXPECT_EQ(lane.front().kind, analysis::SegmentKind::DataLoading);
    EXPECT_EQ(lane.back().kind, analysis::SegmentKind::OtherIdle);
}

TEST(Breakdown, ReceiveIsBubbleAndCommunicationOpsWinOverStreamTasks)
{
    Builder t;
    const auto group = t.addTrack(TrackKind::CommunicationGroup, "Group 0 Communication");
    t.add(group, 100, 300, "hcom_receive__822_0", Category::Communication);
    t.add(group, 400, 500, "hcom_allReduce__271_0_1", Category::Communication);
    // A stream wait task spanning everything: plumbing, not communication, when ops exist.
    t.add(t.stream, 0, 600, "Notify Wait", Category::Communication);
    const auto compute = t.addTrack(TrackKind::DeviceStream, "Stream 2");
    t.add(compute, 250, 450, "MatMul", Category::Compute);
    t.b.trace().steps.push_back(model::Step {2, 0, 1000 * Us});
    model::ReferenceStep ref;
    ref.step = 2;
    ref.source = "ASCEND_PROFILER_OUTPUT/step_trace_time.csv";
    ref.valuesUs = {{"Computing", 200.5}, {"Communication(Not Overlapped)", 200},
        {"Overlapped", 100}, {"Bubble", 150}, {"Free", 30}, {"Preparing", 100}};
    t.b.trace().referenceSteps.push_back(ref);
    const auto trace = t.finish();

    const auto steps = analysis::computeBreakdowns(trace);
    ASSERT_EQ(steps.size(), 1u);
    const auto &s = steps[0];
    // The table's numbers are the breakdown (docs/metrics.md); ours stay in `timeline`.
    EXPECT_EQ(s.basis, analysis::BreakdownBasis::ProfilerTable);
    EXPECT_EQ(s.computeNs, 200500);
    EXPECT_EQ(s.bubbleNs, 150 * Us);
    EXPECT_EQ(s.commExposedNs, 50 * Us); // Communication(Not Overlapped) − Bubble
    EXPECT_EQ(s.freeNs, 30 * Us);
    EXPECT_EQ(s.otherIdleNs, 30 * Us); // we measured no idle inside the device span
    expectIdentity(s);
    ASSERT_TRUE(s.timeline.has_value());
    const auto &o = *s.timeline;
    EXPECT_EQ(o.computeNs, 200 * Us);
    EXPECT_EQ(o.bubbleNs, 150 * Us); // receive [100, 250) not under compute
    EXPECT_EQ(o.commExposedNs, 50 * Us); // [450, 500)
    EXPECT_EQ(o.commOverlappedNs, 100 * Us);
    EXPECT_EQ(o.preparingNs, 100 * Us);
    EXPECT_EQ(o.otherIdleNs, 500 * Us);

    ASSERT_TRUE(s.reference.has_value());
    EXPECT_EQ(s.reference->source, "ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
    ASSERT_EQ(s.reference->categories.size(), 6u);
    std::map<std::string, analysis::ReferenceCategory> byKey;
    for (const auto &c : s.reference->categories)
        byKey[c.key] = c;
    EXPECT_DOUBLE_EQ(byKey["compute"].differenceUs, -0.5);
    EXPECT_LT(byKey["compute"].relativeDifference, 0.01);
    EXPECT_DOUBLE_EQ(byKey["comm_exposed"].oursUs, 200); // exposed + bubble, as Ascend counts it
    EXPECT_DOUBLE_EQ(byKey["bubble"].differenceUs, 0);
    EXPECT_DOUBLE_EQ(byKey["preparing"].oursUs, 100);
    EXPECT_DOUBLE_EQ(byKey["free"].oursUs, 0); // no idle between first and last device task
    EXPECT_DOUBLE_EQ(byKey["free"].relativeDifference, 1.0);
    EXPECT_FALSE(s.reference->withinTolerance);
}

TEST(Breakdown, OverlapAnalysisLanesAreTheReferenceWithoutStepTraceFile)
{
    Builder t;
    t.add(t.host, 0, 100, "ProfilerStep#1", Category::Annotation);
    t.add(t.stream, 10, 60, "Conv2D", Category::Compute);
    const auto computing = t.addTrack(TrackKind::Synthetic, "Computing");
    t.add(computing, 10, 60, "Computing", Category::Annotation);
    const auto freeLane = t.addTrack(TrackKind::Synthetic, "Free");
    t.add(freeLane, 60, 70, "Free", Category::Annotation);
    const auto trace = t.finish();
    const auto steps = analysis::computeBreakdowns(trace);
    ASSERT_EQ(steps.size(), 1u);
    ASSERT_TRUE(steps[0].reference.has_value());
    EXPECT_EQ(steps[0].reference->source, "Overlap Analysis");
    ASSERT_EQ(steps[0].reference->categories.size(), 2u);
    EXPECT_EQ(steps[0].reference->categories[0].column, "Computing");
    EXPECT_DOUBLE_EQ(steps[0].reference->categories[0].referenceUs, 50);
    EXPECT_DOUBLE_EQ(steps[0].reference->categories[0].oursUs, 50);
    // Ours has no idle inside the device span (one kernel): the lane's 10 us differ.
    EXPECT_DOUBLE_EQ(steps[0].reference->categories[1].differenceUs, -10);
}

TEST(Breakdown, SegmentKindKeysRoundTrip)
{
    for (int k = 0; k < analysis::SegmentKindCount; ++k) {
        const auto kind = static_cast<analysis::SegmentKind>(k);
        EXPECT_EQ(analysis::segmentKindFromKey(analysis::segmentKindKey(kind)), kind);
        EXPECT_FALSE(analysis::segmentKindName(kind).empty());
    }
    EXPECT_FALSE(analysis::segmentKindFromKey("nope").has_value());
}

TEST(TbBreakdown, PriorityAndDeviceStepBoundaries)
{
    Builder t;
    t.b.trace().metadata.format = "kineto";
    t.add(t.host, 0, 100, "ProfilerStep#1", Category::Annotation);
    t.add(t.host, 100, 200, "ProfilerStep#2", Category::Annotation);
    t.add(t.host, 0, 10, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
        Category::DataLoading);
    t.addCorrelated(t.host, 10, 20, "cudaLaunchKernel", Category::Runtime, 1);
    t.add(t.host, 20, 40, "aten::add", Category::HostOp);
    t.addCorrelated(t.host, 110, 120, "cudaLaunchKernel", Category::Runtime, 2);
    t.addCorrelated(t.stream, 50, 150, "gemm", Category::Compute, 1);
    t.addCorrelated(t.stream, 160, 260, "gemm", Category::Compute, 2);
    const auto trace = t.finish();

    const auto tb = analysis::computeTbBreakdowns(trace);
    ASSERT_EQ(tb.size(), 2u);
    // Step 1 reaches its kernel's end (150); step 2 starts there and ends at 260.
    EXPECT_EQ(tb[0].step, 1);
    EXPECT_EQ(tb[0].startNs, 0);
    EXPECT_EQ(tb[0].endNs, 150 * Us);
    EXPECT_EQ(tb[0].kernelNs, 100 * Us);
    EXPECT_EQ(tb[0].runtimeNs, 10 * Us);
    EXPECT_EQ(tb[0].dataLoaderNs, 10 * Us);
    EXPECT_EQ(tb[0].cpuExecNs, 20 * Us);
    EXPECT_EQ(tb[0].otherNs, 10 * Us);
    EXPECT_EQ(tb[0].totalNs(), tb[0].endNs - tb[0].startNs);
    EXPECT_EQ(tb[1].startNs, 150 * Us);
    EXPECT_EQ(tb[1].endNs, 260 * Us);
    EXPECT_EQ(tb[1].kernelNs, 100 * Us);
    EXPECT_EQ(tb[1].otherNs, 10 * Us);
    EXPECT_EQ(tb[1].runtimeNs, 0); // the launch at 110 lies under step 1's kernel
    EXPECT_EQ(tb[1].totalNs(), 110 * Us);

    const auto steps = analysis::computeBreakdowns(trace);
    ASSERT_EQ(steps.size(), 2u);
    ASSERT_TRUE(steps[1].tbBreakdown.has_value());
    EXPECT_EQ(steps[1].tbBreakdown->kernelNs, 100 * Us);
}

TEST(TbBreakdown, DropsATrailingStepThatLaunchedTooLittle)
{
    Builder t;
    t.b.trace().metadata.format = "kineto";
    t.add(t.host, 0, 100, "ProfilerStep#1", Category::Annotation);
    t.add(t.host, 100, 200, "ProfilerStep#2", Category::Annotation);
    for (int i = 0; i < 5; ++i)
        t.addCorrelated(t.host, 10 + i * 10, 15 + i * 10, "cudaLaunchKernel", Category::Runtime, i);
    for (int i = 0; i < 5; ++i)
        t.addCorrelated(t.stream, 20 + i * 10, 25 + i * 10, "k", Category::Compute, i);
    t.addCorrelated(t.host, 110, 115, "cudaLaunchKernel", Category::Runtime, 9);
    t.addCorrelated(t.stream, 120, 125, "k", Category::Compute, 9);
    const auto trace = t.finish();
    const auto tb = analysis::computeTbBreakdowns(trace);
    ASSERT_EQ(tb.size(), 1u); // 1 task < 80 % of 5
    EXPECT_EQ(tb[0].step, 1);
}
