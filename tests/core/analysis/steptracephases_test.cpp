// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// A rank that only a step trace records (docs/metrics.md "A rank with a step trace only"):
// its phases are what the device did. Synthetic numbers chosen by hand; the real rank's by
// tests/tools/check_step_trace_phases.py.
#include "analysis/analysissummary.h"
#include "analysis/bottlenecks.h"
#include "analysis/breakdown.h"
#include "breakdown_testutil.h"
#include "import/loader.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace stepscope;
using model::Category;
using model::TrackKind;
using testsupport::expectIdentity;

namespace {

constexpr std::int64_t Us = 1000;

model::ReferenceStep phasesRow(std::int64_t step, double interval, double fpbp, double tail)
{
    model::ReferenceStep r;
    r.step = step;
    r.source = "step_trace_raw_10_detail_time.csv";
    r.valuesUs = {{"total", interval + fpbp + tail}, {"iteration_interval", interval},
        {"fp_and_bp", fpbp}, {"tail", tail}};
    return r;
}

/// Steps 1 [0, 1000) us and 2 [1000, 2000) us; step 1: interval 100, fp_and_bp 600, tail 300;
/// step 2: interval 200, fp_and_bp 500, tail 300. Reduces (the step trace's lanes): [500, 600)
/// inside step 1's fp_and_bp, [750, 850) in its tail. Step 2 has none (the reduce columns read
/// 0 there), so it lies after the last reduce.
struct StepTraceRank
{
    model::TraceBuilder b;

    StepTraceRank()
    {
        model::TrackInfo steps;
        steps.kind = TrackKind::Synthetic;
        steps.processName = "Step Trace";
        steps.threadName = "Steps";
        const auto stepTrack = b.addTrack(steps);
        b.track(stepTrack).add(0, 100 * Us, b.intern("iteration_interval"), Category::DataLoading);
        const auto reduces = addLane(TrackKind::CommunicationGroup, "stream_10");
        add(reduces, 500, 100, "stream_10_parallel_0", Category::Communication);
        add(reduces, 750, 100, "stream_10_parallel_1", Category::Communication);
        b.trace().steps.push_back(model::Step {1, 0, 1000 * Us});
        b.trace().steps.push_back(model::Step {2, 1000 * Us, 2000 * Us});
        b.trace().referenceSteps.push_back(phasesRow(1, 100, 600, 300));
        b.trace().referenceSteps.push_back(phasesRow(2, 200, 500, 300));
    }

    model::TrackId addLane(TrackKind kind, const char *thread)
    {
        model::TrackInfo lane;
        lane.kind = kind;
        lane.threadName = thread;
        return b.addTrack(lane);
    }

    void add(model::TrackId lane, std::int64_t startUs, std::int64_t durUs, const char *name,
        Category category)
    {
        b.track(lane).add(startUs * Us, durUs * Us, b.intern(name), category);
    }
};

const analysis::ReferenceCategory *column(const analysis::StepBreakdown &b, const char *name)
{
    if (!b.reference)
        return nullptr;
    for (const auto &c : b.reference->categories)
        if (c.column == name)
            return &c;
    return nullptr;
}

} // namespace

TEST(StepTracePhases, PhasesAreComputeDataLoadingAndTheTail)
{
    StepTraceRank rank;
    const model::Trace trace = rank.b.finish().trace;
    model::LoadReport notes;
    const auto pass = analysis::computeBreakdownPass(trace, &notes);
    ASSERT_EQ(pass.steps.size(), 2u);
    const analysis::StepBreakdown &s1 = pass.steps[0];
    EXPECT_EQ(s1.computeNs, 600 * Us); // fp_and_bp [100, 700)
    EXPECT_EQ(s1.commOverlappedNs, 100 * Us); // the reduce inside it
    EXPECT_EQ(s1.commExposedNs, 100 * Us); // the reduce in the tail
    EXPECT_EQ(s1.dataLoadingNs, 100 * Us); // iteration_interval
    EXPECT_EQ(s1.otherIdleNs, 200 * Us); // the tail less its reduce
    EXPECT_EQ(s1.preparingNs, 0);
    EXPECT_FALSE(s1.untraced);
    expectIdentity(s1);

    // After the last reduce, the phases still say what the device did: not untraced.
    const analysis::StepBreakdown &s2 = pass.steps[1];
    EXPECT_FALSE(s2.untraced);
    EXPECT_EQ(s2.computeNs, 500 * Us);
    EXPECT_EQ(s2.dataLoadingNs, 200 * Us);
    EXPECT_EQ(s2.otherIdleNs, 300 * Us);
    EXPECT_EQ(s2.commExposedNs + s2.commOverlappedNs, 0);
    expectIdentity(s2);
    EXPECT_TRUE(notes.empty()) << notes.toText();

    // The profiler's phases sit beside ours in `reference`, equal.
    for (const auto *s : {&s1, &s2}) {
        ASSERT_TRUE(s->reference);
        EXPECT_TRUE(s->reference->withinTolerance);
        const auto *fp = column(*s, "fp_and_bp");
        const auto *interval = column(*s, "iteration_interval");
        ASSERT_TRUE(fp && interval && column(*s, "total"));
        EXPECT_DOUBLE_EQ(fp->oursUs, fp->referenceUs);
        EXPECT_DOUBLE_EQ(interval->oursUs, interval->referenceUs);
    }

    // The lane draws what the numbers add up, per kind.
    std::int64_t compute = 0, overlapped = 0, data = 0, other = 0;
    for (const auto &seg : pass.segments) {
        if (seg.step != 1)
            continue;
        const std::int64_t ns = seg.endNs - seg.startNs;
        compute += seg.kind == analysis::SegmentKind::Compute ? ns : 0;
        overlapped += seg.kind == analysis::SegmentKind::CommOverlapped ? ns : 0;
        data += seg.kind == analysis::SegmentKind::DataLoading ? ns : 0;
        other += seg.kind == analysis::SegmentKind::OtherIdle ? ns : 0;
    }
    EXPECT_EQ(compute, s1.segmentNs(analysis::SegmentKind::Compute));
    EXPECT_EQ(overlapped, 100 * Us);
    EXPECT_EQ(data, 100 * Us);
    EXPECT_EQ(other, 200 * Us);

    // The finding reads the input wait, not a host-bound device.
    const auto findings = analysis::rankBottlenecks(pass.steps);
    ASSERT_FALSE(findings.empty());
    EXPECT_NE(findings.front().kind, analysis::BottleneckKind::HostBound);
}

TEST(StepTracePhases, AReceiveInsideTheForwardBackwardSpanIsTheBubble)
{
    StepTraceRank rank;
    rank.add(rank.addLane(TrackKind::CommunicationGroup, "stream_48"), 200, 150,
        "stream_48_0_Receive-op663", Category::Communication);
    const model::Trace trace = rank.b.finish().trace;
    const auto steps = analysis::computeBreakdowns(trace);
    ASSERT_EQ(steps.size(), 2u);
    const analysis::StepBreakdown &s1 = steps[0];
    EXPECT_EQ(s1.bubbleNs, 150 * Us);
    EXPECT_EQ(s1.computeNs, 450 * Us); // fp_and_bp 600 less the receive
    EXPECT_EQ(s1.commOverlappedNs, 100 * Us);
    expectIdentity(s1);
    const auto *fp = column(s1, "fp_and_bp");
    ASSERT_TRUE(fp);
    EXPECT_DOUBLE_EQ(fp->oursUs, 600.0); // compute + bubble: the span, as the profiler has it
}

TEST(StepTracePhases, ADeviceTimelineMeasuresTheDeviceItself)
{
    // The same rank with one device task: the phases are a span with idle gaps in it, and
    // neither become compute nor are compared.
    StepTraceRank rank;
    rank.add(
        rank.addLane(TrackKind::DeviceStream, "stream 7"), 150, 50, "MatMul", Category::Compute);
    const model::Trace trace = rank.b.finish().trace;
    const auto steps = analysis::computeBreakdowns(trace);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0].computeNs, 50 * Us);
    EXPECT_EQ(column(steps[0], "fp_and_bp"), nullptr);
    EXPECT_EQ(column(steps[0], "iteration_interval"), nullptr);
    ASSERT_NE(column(steps[0], "total"), nullptr);
}

TEST(StepTracePhases, RealRankWithAStepTraceOnly)
{
    // PROF-2dev's rank 10: step_trace_raw_10_detail_time.csv and nothing else. By hand
    // (tests/tools/check_step_trace_phases.py ... 2): compute 17157.19 = fp_and_bp, overlapped
    // 3416.92, exposed 2022.62, data loading 90390.37 = iteration_interval, other idle
    // 20996.49 (tail 23019.11 less its reduces). The summary used to read compute 0,
    // preparing 90.5 ms, and steps 21 to 40 as outside the device timeline.
    util::Progress progress;
    const auto r = import::loadPath(std::string(STEPSCOPE_TEST_DATA)
            + "/mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev",
        progress);
    ASSERT_TRUE(r.session);
    const analysis::SessionAnalysis a = analysis::analyzeSession(*r.session, {});
    nlohmann::json j = nlohmann::json::object();
    analysis::addAnalysisToSummary(j, a);
    int rank10 = 0;
    for (const nlohmann::json &s : j["steps"]) {
        if (s["rank"] != 10)
            continue;
        ++rank10;
        EXPECT_FALSE(s.value("untraced", false)) << s["step"];
        EXPECT_EQ(s["preparing_us"].get<double>(), 0.0) << s["step"];
        EXPECT_TRUE(s["reference"]["within_1_percent"].get<bool>()) << s["step"];
        if (s["step"] != 2)
            continue;
        EXPECT_DOUBLE_EQ(s["compute_us"].get<double>(), 17157.19);
        EXPECT_DOUBLE_EQ(s["comm_overlapped_us"].get<double>(), 3416.92);
        EXPECT_DOUBLE_EQ(s["comm_exposed_us"].get<double>(), 2022.62);
        EXPECT_DOUBLE_EQ(s["data_loading_us"].get<double>(), 90390.37);
        EXPECT_DOUBLE_EQ(s["other_idle_us"].get<double>(), 20996.49);
    }
    EXPECT_EQ(rank10, 40);
    for (const nlohmann::json &n : j["analysis_notes"]) {
        const std::string m = n["message"];
        EXPECT_EQ(m.find("outside the device timeline"), std::string::npos) << m;
    }
    for (const nlohmann::json &f : j["bottlenecks"]) {
        if (f["rank"] == 10) {
            EXPECT_NE(f["kind"], "host_bound") << f["evidence"];
        }
    }
}
