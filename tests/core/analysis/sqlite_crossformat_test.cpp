// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The SQLite exports through the analysis: the Ascend DB sample's step breakdown against
// the profiler's own analysis.db StepTraceTime (docs/formats.md §11.4: the table is exactly the
// union/intersection arithmetic over TASK ⋈ COMPUTE_TASK_INFO and COMMUNICATION_OP).

#include "analysis/analysissummary.h"
#include "analysis/breakdown.h"
#include "import/loader.h"
#include "sample_testutil.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

using namespace stepscope;

namespace {

using testsupport::loadSample;

/// Our breakdown of `trace`'s one step, in us, as StepTraceTime's columns.
void expectBreakdownEqualsStepTraceTime(const model::Trace &trace)
{
    const auto breakdowns = analysis::computeBreakdowns(trace);
    ASSERT_EQ(breakdowns.size(), 1u);
    const analysis::StepBreakdown &b = breakdowns[0];
    ASSERT_EQ(trace.referenceSteps.size(), 1u);
    const model::ReferenceStep &ref = trace.referenceSteps[0];
    auto us = [](std::int64_t ns) { return static_cast<double>(ns) / 1000.0; };
    auto expectNear = [&](const char *column, double ours) {
        const double *theirs = ref.find(column);
        ASSERT_NE(theirs, nullptr) << column;
        EXPECT_LE(std::abs(ours - *theirs), 1e-4 * std::max(std::abs(*theirs), 1.0))
            << column << ": ours " << ours << " us, StepTraceTime " << *theirs << " us (rank "
            << trace.rank << ")";
    };
    // The step table is the breakdown's truth (issue 11): every column is the table's.
    EXPECT_EQ(b.basis, analysis::BreakdownBasis::ProfilerTable);
    expectNear("Computing", us(b.computeNs));
    expectNear("Communication(Not Overlapped)", us(b.commExposedNs + b.bubbleNs));
    expectNear("Overlapped", us(b.commOverlappedNs));
    expectNear("Free", us(b.freeNs));
    expectNear("Preparing", us(b.preparingNs));
    expectNear("Stage", us(b.stageNs));
    // Our own figures over the DB's timeline agree with the table too (docs/formats.md §11.4:
    // Computing = union of TASK ⋈ COMPUTE_TASK_INFO, Communication = union of
    // COMMUNICATION_OP, Stage = first to last of them).
    ASSERT_TRUE(b.timeline.has_value());
    const analysis::TimelineFigures &f = *b.timeline;
    expectNear("Computing", us(f.computeNs));
    expectNear("Communication(Not Overlapped)", us(f.commExposedNs));
    expectNear("Overlapped", us(f.commOverlappedNs));
    expectNear("Stage", us(b.deviceEndNs - b.deviceStartNs));
    ASSERT_TRUE(b.reference.has_value());
}

TEST(SqliteCrossFormat, AscendDbBreakdownEqualsStepTraceTime)
{
    for (const char *level : {"level0", "level2"}) {
        const auto session =
            loadSample(std::string("ascend_db/msinsight-cnn-db-") + level + "-2rank");
        ASSERT_EQ(session->traces.size(), 2u) << session->report.toText();
        for (const auto &trace : session->traces) {
            SCOPED_TRACE(std::string(level) + " rank " + std::to_string(trace->rank));
            expectBreakdownEqualsStepTraceTime(*trace);
        }
    }
}

/// The lane of a step the table gives says what the table says: the host's data loading before
/// the first device task (3.6 ms on rank 0) is drawn as preparing, where the table's Preparing
/// and our figures beside it count it, not as the data loading the table's row has none of.
TEST(SqliteCrossFormat, AscendDbLaneDrawsTheTablesPreparing)
{
    const auto session = loadSample("ascend_db/msinsight-cnn-db-level2-2rank");
    ASSERT_EQ(session->traces.size(), 2u);
    const analysis::SessionAnalysis a = analysis::analyzeSession(*session, {});
    ASSERT_EQ(a.lanes.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        SCOPED_TRACE("rank " + std::to_string(session->traces[i]->rank));
        const auto breakdowns = analysis::breakdownsOfRank(a, session->traces[i]->rank);
        ASSERT_EQ(breakdowns.size(), 1u);
        const analysis::StepBreakdown &b = breakdowns[0];
        ASSERT_EQ(b.basis, analysis::BreakdownBasis::ProfilerTable);
        ASSERT_TRUE(b.timeline.has_value());
        std::int64_t preparing = 0;
        std::int64_t data = 0;
        for (const analysis::LaneSegment &s : a.lanes[i]) {
            preparing += s.kind == analysis::SegmentKind::Preparing ? s.endNs - s.startNs : 0;
            data += s.kind == analysis::SegmentKind::DataLoading ? s.endNs - s.startNs : 0;
            EXPECT_FALSE(
                s.kind == analysis::SegmentKind::DataLoading && s.endNs <= b.deviceStartNs);
        }
        EXPECT_EQ(b.dataLoadingNs, 0);
        EXPECT_EQ(data, b.timeline->dataLoadingNs);
        EXPECT_EQ(preparing, b.timeline->preparingNs);
        // StepTraceTime's Preparing, to its ns.
        EXPECT_LE(std::abs(preparing - b.preparingNs), 1) << preparing << " " << b.preparingNs;
    }
}

} // namespace
