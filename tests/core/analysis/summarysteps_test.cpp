// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// `summary --json` writes its steps one at a time (writeSummaryJson): the text must be the
// one document the tests and library callers build (mergeSteps), byte for byte.
#include "analysis/analysissummary.h"
#include "analysis/summarysteps.h"
#include "analysis/trainingsummary.h"
#include "import/summary.h"
#include "sample_testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

namespace stepscope::analysis {
namespace {

/// The text `summary --json` printed before (one document) and prints now (streamed steps).
std::pair<std::string, std::string> bothTexts(const model::Session &session)
{
    const SessionAnalysis a = analyzeSession(session, RunConfig {});
    nlohmann::json whole = import::importSummaryJson(session);
    addAnalysisToSummary(whole, a);
    addTrainingLogToSummary(whole, session);
    nlohmann::json rest = import::importSummaryJson(session, false);
    addAnalysisToSummary(rest, a, false);
    addTrainingLogToSummary(rest, session);
    EXPECT_FALSE(rest.contains("steps"));
    std::ostringstream out;
    const import::StepSummaries steps(session);
    writeSummaryJson(out, rest, steps.size(), steps, a.breakdowns);
    return {import::jsonText(whole, 2), out.str()};
}

class StreamedSummary : public ::testing::TestWithParam<const char *>
{
};

TEST_P(StreamedSummary, IsTheDocumentByteForByte)
{
    const auto session = testsupport::loadSample(GetParam());
    ASSERT_TRUE(session);
    const auto [whole, streamed] = bothTexts(*session);
    EXPECT_GT(whole.size(), 100u);
    EXPECT_EQ(streamed, whole);
}

// Each format; one with a step the analysis left out (mi250), one with breakdowns of the
// profiler's table beside the timeline's (ascend), clusters, a log alone (no steps).
INSTANTIATE_TEST_SUITE_P(Samples, StreamedSummary,
    ::testing::Values("ascend_pt/msinsight-cnn-level2-2rank",
        "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed", "ascend_pt/mstt-advisor-fragments",
        "ascend_db/msinsight-cnn-db-level0-2rank", "kineto/hta-mi250-minitoy-rocm",
        "kineto/hta-ddp-a100-world2-nccl", "kineto/hta-sampled-2of128-ranks",
        "mindspore_legacy/mindinsight-cluster-pp-4rank", "nsys_sqlite/pipit-cloverleaf-cuda",
        "torch_memory/hta-memory-timeline-raw", "loss_logs/megatron-golden-values"));

StepBreakdown breakdown(std::int32_t rank, std::int64_t step, std::int64_t computeNs)
{
    StepBreakdown b;
    b.rank = rank;
    b.step = step;
    b.startNs = 0;
    b.endNs = 1000;
    b.computeNs = computeNs;
    return b;
}

/// The merge's edge cases, each the same in both forms: an importer step no breakdown
/// matches (left out), a key twice among the importer's steps (the first takes the
/// breakdowns), two breakdowns of one key (both merged, the last wins), a breakdown without
/// an importer step (appended), an entry that is no step object (kept as it is), and keys
/// sorted before and after "steps".
TEST(StreamedSummary, MergeEdgeCasesAreTheDocuments)
{
    const nlohmann::json importer = nlohmann::json::array({
        {{"rank", 0}, {"step", 1}, {"start_ns", 5}},
        {{"rank", 0}, {"step", 2}},
        {{"rank", 0}, {"step", 1}, {"start_ns", 7}},
        "not a step",
        {{"rank", 1}, {"number", 3}},
    });
    const std::vector<StepBreakdown> breakdowns {
        breakdown(0, 1, 10), breakdown(1, 3, 20), breakdown(1, 3, 30), breakdown(2, 9, 40)};
    nlohmann::json whole = {
        {"counts", {{"events", 1}}}, {"zeta", nlohmann::json::array()}, {"steps", importer}};
    mergeSteps(whole, breakdowns);
    const nlohmann::json &merged = whole["steps"];
    ASSERT_EQ(merged.size(), 6u);
    EXPECT_EQ(merged[0]["compute_us"], 0.01);
    EXPECT_EQ(merged[1]["left_out"], true);
    EXPECT_FALSE(merged[2].contains("compute_us"));
    EXPECT_FALSE(merged[2].contains("left_out"));
    EXPECT_EQ(merged[3], "not a step");
    EXPECT_EQ(merged[4]["compute_us"], 0.03);
    EXPECT_EQ(merged[5]["rank"], 2);

    nlohmann::json rest = whole;
    rest.erase("steps");
    std::ostringstream out;
    writeSummaryJson(
        out, rest, importer.size(), [&](std::size_t i) { return importer[i]; }, breakdowns);
    EXPECT_EQ(out.str(), import::jsonText(whole, 2));

    // No step at all, and nothing but the steps.
    std::ostringstream none;
    writeSummaryJson(
        none, nlohmann::json::object(), 0, [](std::size_t) { return nlohmann::json(); }, {});
    EXPECT_EQ(none.str(), import::jsonText(nlohmann::json {{"steps", nlohmann::json::array()}}, 2));
}

} // namespace
} // namespace stepscope::analysis
