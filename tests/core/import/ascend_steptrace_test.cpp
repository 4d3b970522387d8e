// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ascend_fixture.h"
#include "import/ascend/steptrace.h"

#include <cmath>

using namespace stepscope;
using import::ascend::readClusterStepTraceTime;
using import::ascend::readStepTraceTime;
using testsupport::ascendData;

namespace {

class AscendStepTrace : public testsupport::AscendFixture
{
};

double value(const model::ReferenceStep &s, const std::string &key)
{
    const double *v = s.find(key);
    return v ? *v : std::nan("");
}

/// docs/formats.md §2.4 identities, which hold on every rank row of every sample.
void expectIdentities(const model::ReferenceStep &s)
{
    const double computing = value(s, "Computing");
    const double notOverlapped = value(s, "Communication(Not Overlapped)");
    EXPECT_NEAR(
        computing + notOverlapped + value(s, "Free"), value(s, "Stage") + value(s, "Bubble"), 0.4);
    EXPECT_NEAR(value(s, "Communication"), value(s, "Overlapped") + notOverlapped, 1e-6);
    EXPECT_NEAR(value(s, "Communication(Not Overlapped and Exclude Receive)"),
        notOverlapped - value(s, "Bubble"), 1e-6);
}

TEST_F(AscendStepTrace, TenColumnVariantWithPreparing)
{
    const auto steps = readStepTraceTime(ascendData("msinsight-cnn-level2-2rank/rank0_ascend_pt/"
                                                    "ASCEND_PROFILER_OUTPUT/step_trace_time.csv"),
        m_ctx, 0);
    ASSERT_EQ(steps.size(), 1u);
    const model::ReferenceStep &s = steps[0];
    EXPECT_EQ(s.step, 50);
    EXPECT_EQ(s.rank, 0);
    EXPECT_EQ(s.source,
        "msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
    ASSERT_EQ(s.valuesUs.size(), 9u); // every column but Step, in file order
    EXPECT_EQ(s.valuesUs.front().first, "Computing");
    EXPECT_EQ(s.valuesUs.back().first, "Preparing");
    EXPECT_DOUBLE_EQ(value(s, "Stage"), 129862.75);
    EXPECT_DOUBLE_EQ(value(s, "Preparing"), 17483.75);
    EXPECT_DOUBLE_EQ(value(s, "Computing"), 8868.240000000003);
    expectIdentities(s);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendStepTrace, AllRankFilesHoldTheIdentities)
{
    for (const char *rel :
        {"msinsight-cnn-level0-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
            "msinsight-cnn-level0-2rank/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
            "msinsight-cnn-level2-2rank/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
            "msinsight-gpt3-pp2-16rank-trimmed/test_rank_0/ASCEND_PROFILER_OUTPUT/"
            "step_trace_time.csv",
            "msinsight-gpt3-pp2-16rank-trimmed/test_rank_1/ASCEND_PROFILER_OUTPUT/"
            "step_trace_time.csv"}) {
        SCOPED_TRACE(rel);
        const auto steps = readStepTraceTime(ascendData(rel), m_ctx, 7);
        ASSERT_EQ(steps.size(), 1u);
        EXPECT_EQ(steps[0].rank, 7);
        expectIdentities(steps[0]);
    }
    // 2023 9-column variant (no Preparing), Step 2.
    const auto gpt = readStepTraceTime(ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_1/"
                                                  "ASCEND_PROFILER_OUTPUT/step_trace_time.csv"),
        m_ctx, 1);
    EXPECT_EQ(gpt[0].step, 2);
    EXPECT_EQ(gpt[0].valuesUs.size(), 8u);
    EXPECT_EQ(gpt[0].find("Preparing"), nullptr);
    EXPECT_DOUBLE_EQ(value(gpt[0], "Stage"), 294586.5);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendStepTrace, DeviceIdVariantEmptyStepAndBadRows)
{
    // [other output] Device_id first; Step may be empty; a text value skips its row.
    const auto p = writeTemp("step_trace_time.csv",
        "Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,"
        "Stage,Bubble,Communication(Not Overlapped and Exclude Receive),Preparing\n"
        "4,3,10,20,5,25,30,60,0,20,7\n"
        "4,,11,21,5,26,31,63,0,21,8\n"
        "4,x,1,1,1,1,1,1,1,1,1\n"
        "4,5,abc,1,1,1,1,1,1,1,1\n");
    std::string device;
    const auto steps = readStepTraceTime(p, m_ctx, 2, &device);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(device, "4");
    EXPECT_EQ(steps[0].step, 3);
    EXPECT_EQ(steps[0].valuesUs.size(), 9u); // Device_id is not a value
    EXPECT_EQ(steps[1].step, -1);
    EXPECT_DOUBLE_EQ(value(steps[1], "Preparing"), 8);
    const auto &d = m_report.diagnostics();
    ASSERT_EQ(d.size(), 2u) << m_report.toText();
    EXPECT_EQ(d[0].line, 4);
    EXPECT_EQ(d[1].line, 5);
    EXPECT_NE(d[1].message.find("Computing"), std::string::npos);
}

TEST_F(AscendStepTrace, ClusterRankAndStageRows)
{
    const auto rows =
        readClusterStepTraceTime(ascendData("msinsight-gpt3-pp2-16rank-trimmed/"
                                            "cluster_analysis_output/cluster_step_trace_time.csv"),
            m_ctx);
    ASSERT_EQ(rows.size(), 18u); // 16 rank rows + 2 stage rows
    int rankRows = 0;
    for (std::size_t i = 0; i < 16; ++i) {
        EXPECT_EQ(rows[i].kind, "rank");
        EXPECT_EQ(rows[i].rank, static_cast<int>(i));
        EXPECT_EQ(rows[i].step, 2);
        EXPECT_EQ(rows[i].valuesUs.size(), 8u);
        expectIdentities(rows[i]);
        ++rankRows;
    }
    EXPECT_EQ(rankRows, 16);
    // rank rows equal the per-rank step_trace_time.csv (docs/formats.md §2.4)
    EXPECT_DOUBLE_EQ(value(rows[0], "Computing"), 75174.57464453117);
    EXPECT_DOUBLE_EQ(value(rows[1], "Stage"), 294586.5);
    EXPECT_EQ(rows[16].kind, "stage");
    EXPECT_EQ(rows[16].rank, -1);
    EXPECT_EQ(rows[16].stageRanks, (std::vector<std::int32_t> {0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(rows[17].stageRanks, (std::vector<std::int32_t> {8, 9, 10, 11, 12, 13, 14, 15}));
    EXPECT_DOUBLE_EQ(value(rows[17], "Bubble"), 195498.28);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();

    const auto frag = readClusterStepTraceTime(
        ascendData("mstt-advisor-fragments/cluster_analysis_output/cluster_step_trace_time.csv"),
        m_ctx);
    ASSERT_EQ(frag.size(), 9u); // 8 ranks + 1 stage, empty Step
    for (const auto &r : frag)
        EXPECT_EQ(r.step, -1);
    EXPECT_EQ(frag[8].kind, "stage");
    EXPECT_DOUBLE_EQ(value(frag[8], "Stage"), 1754645.75);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

/// Rows appended twice (files concatenated, a rerun's rows added): each repeated row counts
/// once, the repeats are skipped and said; a row skipped as bad does not count, and rows of
/// one step and rank that differ (steps without an id) are all kept.
TEST_F(AscendStepTrace, RepeatedRowsCountOnce)
{
    const auto p = writeTemp("cluster_step_trace_time.csv",
        "Step,Type,Index,Computing,Free\n"
        "2,rank,0,10,1\n"
        "2,rank,1,11,2\n"
        "2,stage,\"(0, 1)\",12,3\n"
        "3,rank,0,x,4\n"
        "3,rank,0,13,5\n"
        "2,rank,0,10,1\n"
        "2,stage,\"(0, 1)\",12,3\n"
        ",rank,1,20,1\n"
        ",rank,1,21,1\n");
    const auto rows = readClusterStepTraceTime(p, m_ctx);
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_EQ(rows[3].step, 3);
    EXPECT_DOUBLE_EQ(value(rows[3], "Computing"), 13);
    const auto &d = m_report.diagnostics();
    ASSERT_EQ(d.size(), 2u) << m_report.toText();
    EXPECT_EQ(d[0].line, 5); // the bad value
    EXPECT_EQ(d[1].line, 7); // the first repeat; the second counted in the same line
    EXPECT_EQ(d[1].count, 2u);
    EXPECT_EQ(d[1].message, "the same row as one already read (a repeat); this one skipped");
}

TEST_F(AscendStepTrace, RankTuples)
{
    using import::ascend::parseRankTuple;
    EXPECT_EQ(parseRankTuple("(8, 9, 10)"), (std::vector<std::int32_t> {8, 9, 10}));
    EXPECT_EQ(parseRankTuple("[0,1]"), (std::vector<std::int32_t> {0, 1}));
    EXPECT_TRUE(parseRankTuple("(a, b)").empty());
    EXPECT_TRUE(parseRankTuple("").empty());
}

TEST_F(AscendStepTrace, MissingStepColumnDropsTheFile)
{
    const auto p = writeTemp("step_trace_time.csv", "Computing,Free\n1,2\n");
    EXPECT_TRUE(readStepTraceTime(p, m_ctx, 0).empty());
    ASSERT_EQ(m_report.diagnostics().size(), 1u);
    EXPECT_EQ(m_report.diagnostics()[0].severity, model::Severity::Error);
}

} // namespace
