// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// The profiler's step table is the truth (docs/metrics.md): synthetic traces with a
// step_trace_time-like row, numbers chosen by hand.
#include "analysis/analysissummary.h"
#include "analysis/breakdown.h"
#include "analysis/breakdowntable.h"
#include "analysis/steplist.h"
#include "analysis/steps.h"
#include "analysis/summarysteps.h"
#include "breakdown_testutil.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <limits>
#include <map>
#include <memory>

using namespace stepscope;
using model::Category;
using model::TrackKind;
using testsupport::expectIdentity;

namespace {

constexpr std::int64_t Us = 1000;

model::ReferenceStep row(std::int64_t step, double computing, double cno, double overlapped,
    double free, double bubble = 0, double preparing = -1)
{
    model::ReferenceStep r;
    r.step = step;
    r.source = "ASCEND_PROFILER_OUTPUT/step_trace_time.csv";
    r.valuesUs = {{"Computing", computing}, {"Communication(Not Overlapped)", cno},
        {"Overlapped", overlapped}, {"Communication", cno + overlapped}, {"Free", free},
        {"Stage", computing + cno + free - bubble}, {"Bubble", bubble}};
    if (preparing >= 0)
        r.valuesUs.emplace_back("Preparing", preparing);
    return r;
}

/// ProfilerStep#7 over [0, 1000) us: 100 us preparing, kernels [100, 400) and [800, 1000), an
/// HCCL op [300, 500) (100 us under the kernel), a host op over [500, 700) of the idle
/// [500, 800). Ours: compute 500, exposed 100, overlapped 100, Free (span idle) 300 of which
/// host wait 200, other idle 100; Stage 900; Preparing 100.
model::Trace tracedRank()
{
    model::TraceBuilder b;
    model::TrackInfo h;
    h.threadId = "1";
    const auto host = b.addTrack(h);
    model::TrackInfo d;
    d.kind = TrackKind::DeviceStream;
    d.threadId = "7";
    const auto stream = b.addTrack(d);
    model::TrackInfo g;
    g.kind = TrackKind::CommunicationGroup;
    const auto group = b.addTrack(g);
    b.track(host).add(0, 1000 * Us, b.intern("ProfilerStep#7"), Category::Annotation);
    b.track(host).add(500 * Us, 200 * Us, b.intern("aten::copy_"), Category::HostOp);
    b.track(stream).add(100 * Us, 300 * Us, b.intern("MatMul"), Category::Compute);
    b.track(stream).add(800 * Us, 200 * Us, b.intern("Add"), Category::Compute);
    b.track(group).add(300 * Us, 200 * Us, b.intern("hcom_allReduce_"), Category::Communication);
    return b.finish().trace;
}

} // namespace

TEST(StepTable, ColumnsAndStepIdComeFromTheTable)
{
    model::Trace trace = tracedRank();
    // The table differs from the timeline: compute 520 instead of 500 (20 us of 1 020: 2 %).
    trace.referenceSteps.push_back(row(7, 520, 100, 100, 300, 0, 100));
    model::LoadReport notes;
    const auto steps = analysis::computeBreakdowns(trace, &notes);
    ASSERT_EQ(steps.size(), 1u);
    const auto &s = steps[0];
    EXPECT_EQ(s.step, 7);
    EXPECT_EQ(s.basis, analysis::BreakdownBasis::ProfilerTable);
    EXPECT_EQ(s.computeNs, 520 * Us);
    EXPECT_EQ(s.commExposedNs, 100 * Us);
    EXPECT_EQ(s.commOverlappedNs, 100 * Us);
    EXPECT_EQ(s.freeNs, 300 * Us);
    EXPECT_EQ(s.preparingNs, 100 * Us);
    EXPECT_EQ(s.stageNs, 920 * Us);
    EXPECT_EQ(s.durationNs(), 1020 * Us);
    expectIdentity(s);
    // Our idle split (host wait 200, other idle 100) fitted into the table's Free.
    EXPECT_EQ(s.hostWaitNs, 200 * Us);
    EXPECT_EQ(s.otherIdleNs, 100 * Us);
    // Our own figures stay beside the table's.
    ASSERT_TRUE(s.timeline.has_value());
    EXPECT_EQ(s.timeline->computeNs, 500 * Us);
    EXPECT_EQ(s.timeline->endNs - s.timeline->startNs, 1000 * Us);
    ASSERT_TRUE(s.reference.has_value());
    EXPECT_FALSE(s.reference->withinTolerance);
    // A diagnostic names the step and the column that differs.
    ASSERT_EQ(notes.diagnostics().size(), 1u);
    const auto &d = notes.diagnostics()[0];
    EXPECT_NE(d.message.find("step 7"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("Computing"), std::string::npos) << d.message;
}

TEST(StepTable, AgreementWithinOnePercentIsSilent)
{
    model::Trace trace = tracedRank();
    trace.referenceSteps.push_back(row(7, 503, 100, 100, 300, 0, 100));
    model::LoadReport notes;
    const auto steps = analysis::computeBreakdowns(trace, &notes);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].durationNs(), 1003 * Us);
    EXPECT_EQ(steps[0].computeNs, 503 * Us);
    EXPECT_TRUE(notes.diagnostics().empty()) << notes.toText();
}

TEST(StepTable, TracelessRankGetsTheTableStepsAndLane)
{
    model::Trace trace;
    trace.rank = 9;
    trace.referenceSteps.push_back(row(3, 80, 216, 8, 77, 178));
    trace.referenceSteps.push_back(row(2, 75, 146, 7, 70, 0, 12));
    const auto detection = analysis::detectStepsWithSource(trace, nullptr);
    EXPECT_EQ(detection.source, analysis::StepSource::ProfilerTable);
    const auto steps = analysis::computeBreakdowns(trace);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0].step, 2);
    EXPECT_EQ(steps[1].step, 3);
    EXPECT_EQ(steps[0].startNs, 0);
    EXPECT_EQ(steps[1].startNs, steps[0].endNs);
    EXPECT_EQ(steps[1].bubbleNs, 178 * Us);
    EXPECT_EQ(steps[1].commExposedNs, (216 - 178) * Us);
    EXPECT_EQ(steps[1].durationNs(), (80 + 216 + 77) * Us);
    EXPECT_EQ(steps[1].otherIdleNs, 77 * Us);
    EXPECT_FALSE(steps[1].timeline.has_value());
    EXPECT_FALSE(steps[1].reference.has_value());
    for (const auto &s : steps)
        expectIdentity(s);

    // The lane: one block per category, in the profiler's column order, summing per kind.
    const auto lane = analysis::stepLaneSegments(trace);
    std::vector<analysis::SegmentKind> kinds;
    for (const auto &seg : lane) {
        if (seg.step == 3)
            kinds.push_back(seg.kind);
    }
    using K = analysis::SegmentKind;
    EXPECT_EQ(kinds,
        (std::vector<K> {K::Compute, K::CommExposed, K::Bubble, K::CommOverlapped, K::OtherIdle}));
    // Preparing opens its step, up to the first device task, as on a traced rank's lane.
    ASSERT_EQ(lane.front().step, 2);
    EXPECT_EQ(lane.front().kind, K::Preparing);
    EXPECT_EQ(lane.front().startNs, steps[0].startNs);
    EXPECT_EQ(lane.front().endNs, steps[0].startNs + 12 * Us);
    EXPECT_EQ(lane.front().endNs, steps[0].deviceStartNs);
    for (std::size_t i = 1; i < lane.size(); ++i)
        EXPECT_EQ(lane[i].startNs, lane[i - 1].endNs);
    EXPECT_EQ(lane.back().endNs, steps[1].endNs);
    for (const auto &s : steps) {
        for (int k = 0; k < analysis::SegmentKindCount; ++k) {
            std::int64_t sum = 0;
            for (const auto &seg : lane) {
                if (seg.step == s.step && static_cast<int>(seg.kind) == k)
                    sum += seg.endNs - seg.startNs;
            }
            EXPECT_EQ(sum, s.segmentNs(static_cast<analysis::SegmentKind>(k))) << k;
        }
    }
}

/// A step no timeline holds is laid out after the step before it, so its start is no
/// measurement: the summary's text and JSON said "start 0 ns" / 0.0 for every rank known only
/// from cluster_step_trace_time.csv. Now they say it is unknown, and the lane says how it is drawn.
TEST(StepTable, AStepNoTimelineHoldsHasNoMeasuredStart)
{
    auto session = std::make_shared<model::Session>();
    model::Trace traceless;
    traceless.rank = 9;
    traceless.referenceSteps.push_back(row(2, 75, 146, 7, 70));
    model::Trace traced = tracedRank(); // ProfilerStep#7 over [0, 1000) us
    traced.rank = 1;
    traced.referenceSteps.push_back(row(7, 500, 100, 100, 300, 0, 100));
    traced.referenceSteps.push_back(row(8, 10, 0, 0, 5)); // a row the timeline lacks
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(traced)));
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(traceless)));
    const analysis::SessionAnalysis analysed = analysis::analyzeSession(*session, {});
    std::map<std::pair<std::int32_t, std::int64_t>, const analysis::StepBreakdown *> byStep;
    for (const auto &b : analysed.breakdowns)
        byStep[{b.rank, b.step}] = &b;
    ASSERT_EQ(byStep.size(), 3u);
    const auto &onTimeline = *byStep.at({1, 7});
    const auto &afterIt = *byStep.at({1, 8});
    const auto &alone = *byStep.at({9, 2});
    EXPECT_TRUE(onTimeline.startMeasured);
    EXPECT_FALSE(afterIt.startMeasured);
    EXPECT_FALSE(alone.startMeasured);
    EXPECT_EQ(afterIt.startNs, 1000 * Us); // laid after step 7, as long as the table says
    EXPECT_EQ(afterIt.durationNs(), 15 * Us);

    EXPECT_EQ(analysis::stepJson(onTimeline).at("start_us"), 0.0);
    EXPECT_TRUE(analysis::stepJson(afterIt).at("start_us").is_null());
    EXPECT_TRUE(analysis::stepJson(alone).at("start_us").is_null());
    EXPECT_EQ(analysis::stepJson(alone).at("duration_us"), 75.0 + 146 + 70);
    // Its free time is the table's; splitting it takes a timeline (they read 0 ns, as if
    // measured): unknown, in the JSON and the text.
    EXPECT_EQ(analysis::stepJson(alone).at("free_us"), 70.0);
    for (const char *part : {"host_wait_us", "data_loading_us", "launch_gap_us", "other_idle_us"}) {
        EXPECT_TRUE(analysis::stepJson(alone).at(part).is_null()) << part;
        EXPECT_TRUE(analysis::stepJson(onTimeline).at(part).is_number()) << part;
    }
    const std::string table = analysis::analysisSummaryText(analysed);
    const std::size_t rank9 = table.find("\n    9      2");
    ASSERT_NE(rank9, std::string::npos) << table;
    const std::string line = table.substr(rank9 + 1, table.find('\n', rank9 + 1) - rank9 - 1);
    int dashes = 0;
    for (std::size_t at = line.find("—"); at != std::string::npos; at = line.find("—", at + 1))
        ++dashes;
    EXPECT_EQ(dashes, 4) << line;

    const std::string text = analysis::stepListText(*session, analysed);
    EXPECT_NE(
        text.find("step 7: start 0 ns, duration 1000.000 us (profiler's table)"), std::string::npos)
        << text;
    EXPECT_NE(
        text.find("step 8: start unknown (no timeline), duration 15.000 us"), std::string::npos)
        << text;
    EXPECT_NE(text.find("rank 9 steps (1):\n  step 2: start unknown (no timeline), duration "
                        "291.000 us (profiler's table)"),
        std::string::npos)
        << text;

    // The lanes: where it happened on the timeline, the table's blocks elsewhere.
    using Drawn = analysis::LaneSegment::Drawn;
    ASSERT_EQ(analysed.lanes.size(), 2u);
    for (const auto &seg : analysed.lanes[0])
        EXPECT_EQ(seg.drawn, seg.step == 7 ? Drawn::AsHappened : Drawn::FromTableOnly) << seg.step;
    ASSERT_FALSE(analysed.lanes[1].empty());
    for (const auto &seg : analysed.lanes[1])
        EXPECT_EQ(seg.drawn, Drawn::FromTableOnly);
}

/// A trimmed timeline (the msinsight GPT-3 ranks: 20 kernel_details rows of a 292 ms step)
/// drew the lane from its few kernels, idle where the Steps tab said 75 ms of compute. Under
/// half the table's device time on the timeline: the lane is the table's, and the note says so.
TEST(StepTable, ATrimmedTimelineDrawsItsLaneFromTheTable)
{
    model::Trace trace = tracedRank(); // device time on the timeline: 500 + 100 + 100 us
    trace.referenceSteps.push_back(row(7, 1400, 100, 100, 300, 0, 100)); // the table: 1 600 us
    model::LoadReport notes;
    const auto pass = analysis::computeBreakdownPass(trace, &notes);
    ASSERT_EQ(pass.steps.size(), 1u);
    const auto &s = pass.steps[0];
    ASSERT_TRUE(s.timeline.has_value()); // our figures stay beside the table's
    EXPECT_EQ(s.timeline->computeNs, 500 * Us);
    EXPECT_FALSE(analysis::detail::timelineHoldsStep(s));
    using K = analysis::SegmentKind;
    std::vector<K> kinds;
    for (const auto &seg : pass.segments) {
        kinds.push_back(seg.kind);
        EXPECT_EQ(seg.drawn, analysis::LaneSegment::Drawn::FromTable); // in column order
    }
    EXPECT_TRUE(s.startMeasured); // the step's window is the timeline's
    EXPECT_EQ(kinds,
        (std::vector<K> {K::Preparing, K::Compute, K::CommExposed, K::CommOverlapped, K::HostWait,
            K::OtherIdle})); // Free as our idle split: host wait 200, other 100
    for (int k = 0; k < analysis::SegmentKindCount; ++k) {
        std::int64_t sum = 0;
        for (const auto &seg : pass.segments)
            if (static_cast<int>(seg.kind) == k)
                sum += seg.endNs - seg.startNs;
        EXPECT_EQ(sum, s.segmentNs(static_cast<K>(k))) << k;
    }
    ASSERT_EQ(notes.diagnostics().size(), 1u);
    EXPECT_NE(notes.diagnostics()[0].message.find("on the step lane too"), std::string::npos)
        << notes.diagnostics()[0].message;

    // A timeline holding half the table's device time keeps its own lane (where things ran).
    model::Trace held = tracedRank();
    held.referenceSteps.push_back(row(7, 1100, 100, 100, 300, 0, 100)); // 700 of 1 300 us
    const auto own = analysis::computeBreakdownPass(held);
    EXPECT_TRUE(analysis::detail::timelineHoldsStep(own.steps[0]));
    EXPECT_EQ(own.segments.size(), analysis::stepLaneSegments(tracedRank()).size());
}

/// A table step laid on the timeline is cut at the next step's start: lane segments never
/// overlap (the lane's summary and hit tests need them disjoint).
TEST(StepTable, TableLanesStopAtTheNextStep)
{
    analysis::StepBreakdown b;
    b.step = 4;
    b.startNs = 1000;
    b.computeNs = 300;
    b.commExposedNs = 200;
    b.freeNs = 100;
    b.otherIdleNs = 100;
    std::vector<analysis::LaneSegment> lane;
    analysis::detail::appendTableSegments(b, lane, 1400); // the next step starts at 1 400
    ASSERT_EQ(lane.size(), 2u);
    EXPECT_EQ(lane[0].endNs, 1300);
    EXPECT_EQ(lane[1].startNs, 1300);
    EXPECT_EQ(lane[1].endNs, 1400);
    lane.clear();
    analysis::detail::appendTableSegments(b, lane); // no next step: the whole 600 ns
    ASSERT_EQ(lane.size(), 3u);
    EXPECT_EQ(lane.back().endNs, 1600);
}

TEST(StepTable, StepOnARankWithoutDeviceEventsIsKept)
{
    // A trace with host events only (no device task): the table's step survives with its id.
    model::TraceBuilder b;
    model::TrackInfo h;
    h.threadId = "1";
    const auto host = b.addTrack(h);
    b.track(host).add(0, 50 * Us, b.intern("aten::add"), Category::HostOp);
    model::Trace trace = b.finish().trace;
    trace.referenceSteps.push_back(row(12, 10, 5, 1, 3));
    const auto steps = analysis::computeBreakdowns(trace);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].step, 12);
    EXPECT_EQ(steps[0].computeNs, 10 * Us);
    EXPECT_EQ(steps[0].durationNs(), 18 * Us);
}

TEST(StepTable, TimelineStepsTheTableDoesNotListAreKept)
{
    model::Trace trace = tracedRank();
    trace.referenceSteps.push_back(row(9, 10, 0, 0, 5));
    const auto steps = analysis::computeBreakdowns(trace);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0].step, 7);
    EXPECT_EQ(steps[0].basis, analysis::BreakdownBasis::Timeline);
    EXPECT_EQ(steps[1].step, 9);
    EXPECT_EQ(steps[1].basis, analysis::BreakdownBasis::ProfilerTable);
    EXPECT_GE(steps[1].startNs, steps[0].endNs);
    // Each lacks the other: perhaps one step numbered twice, so the notes say so.
    model::LoadReport notes;
    analysis::detectSteps(trace, &notes);
    ASSERT_EQ(notes.diagnostics().size(), 1u) << notes.toText();
    EXPECT_EQ(notes.diagnostics()[0].severity, model::Severity::Warning);
    EXPECT_EQ(notes.diagnostics()[0].message,
        "rank 0: the table's step ids (9) match none of the timeline's, and the timeline's (7) "
        "have no row: both are shown, the table's after the timeline's. Were they the same "
        "steps, the table would come from another run or have been edited");

    // A table listing more steps than a trimmed timeline holds is no such doubt.
    trace.referenceSteps.push_back(row(7, 500, 100, 100, 300));
    model::LoadReport trimmed;
    EXPECT_EQ(analysis::detectSteps(trace, &trimmed).size(), 2u);
    EXPECT_TRUE(trimmed.empty()) << trimmed.toText();
}

TEST(StepTable, StageRowsAreNotAStepTable)
{
    model::Trace trace = tracedRank();
    auto stage = row(7, 1, 1, 1, 1);
    stage.kind = "stage";
    trace.referenceSteps.push_back(stage);
    const auto steps = analysis::computeBreakdowns(trace);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].basis, analysis::BreakdownBasis::Timeline);
    EXPECT_EQ(steps[0].computeNs, 500 * Us);
}

// A table row of huge microsecond values used to overflow the step sum (UBSan: signed
// overflow), and llround beyond int64 is unspecified: both are held at the int64 limits.
TEST(StepTable, ValuesBeyondInt64AreHeldAtTheLimits)
{
    constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
    EXPECT_EQ(analysis::usToNs(1e300), max);
    EXPECT_EQ(analysis::usToNs(-1e300), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(analysis::usToNs(1.5), 1500);
    model::ReferenceStep row;
    row.valuesUs = {{"Computing", 6e15}, {"Free", 6e15}};
    EXPECT_EQ(analysis::tableStepNs(row), max);
}
