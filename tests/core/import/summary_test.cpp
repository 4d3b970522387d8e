// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/loader.h"
#include "import/summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

namespace stepscope::import {
namespace {

namespace fs = std::filesystem;

const fs::path Data = fs::path(STEPSCOPE_TEST_DATA);

std::shared_ptr<const model::Session> load(const fs::path &p)
{
    util::Progress progress;
    return loadPath(p, progress).session;
}

TEST(SummaryTest, LegacyClusterCountsAndSteps)
{
    const auto s = load(Data / "mindspore_legacy/mindinsight-cluster-pp-4rank");
    ASSERT_TRUE(s);
    const nlohmann::json j = importSummaryJson(*s);
    EXPECT_EQ(j["format"], "mindspore-legacy");
    EXPECT_EQ(j["ranks"], nlohmann::json({0, 1, 2, 3}));
    // Per rank (python3 over step_trace_raw_<r>): 5 step events + 14 phases + reduce entries
    // (485, 485, 1745, 1745) = 504 + 504 + 1764 + 1764; tracks 1 + 14/14/45/45 streams.
    EXPECT_EQ(j["counts"]["events"], 4536);
    EXPECT_EQ(j["counts"]["tracks"], 122);
    EXPECT_EQ(j["counts"]["flows"], 0);
    EXPECT_EQ(j["counts"]["counters"], 0);
    EXPECT_EQ(j["counts"]["memory_points"], 0);
    ASSERT_EQ(j["steps"].size(), 20u);
    const nlohmann::json &first = j["steps"][0];
    EXPECT_EQ(first["rank"], 0);
    EXPECT_EQ(first["step"], 1);
    EXPECT_EQ(first["start_ns"], 11624120793490LL); // 1162412079349 ticks x 10 ns
    EXPECT_DOUBLE_EQ(first["duration_us"].get<double>(), 178186.6); // 17818660 ticks
    EXPECT_EQ(j["steps"][19]["rank"], 3);
    EXPECT_EQ(j["steps"][19]["step"], 5);
    // Per rank, two notes on its cluster-analysis file: 6 rows for 5 steps, and step 1's
    // parts exceeding the step's total (tests/tools/check_mindspore_cluster_analyse.py).
    ASSERT_EQ(j["diagnostics"].size(), 8u) << j["diagnostics"].dump(1);
    for (const nlohmann::json &d : j["diagnostics"]) {
        EXPECT_EQ(d["severity"], "info");
        EXPECT_EQ(d["file"].get<std::string>().rfind("ascend_cluster_analyse_", 0), 0u) << d;
    }

    const std::string text = importSummaryText(*s);
    EXPECT_NE(text.find("format: mindspore-legacy\n"), std::string::npos) << text;
    EXPECT_NE(text.find("ranks: 0, 1, 2, 3\n"), std::string::npos);
    EXPECT_NE(text.find("events: 4536, tracks: 122"), std::string::npos);
    EXPECT_NE(text.find("  step 1: start 11624120793490 ns, duration 178186.600 us\n"),
        std::string::npos);
    // The text says each of the two notes once, with the three ranks that share it; the
    // JSON above keeps all eight.
    const std::string diagnostics = text.substr(text.find("diagnostics: 8\n"));
    EXPECT_EQ(std::count(diagnostics.begin(), diagnostics.end(), '\n'), 3) << diagnostics;
    EXPECT_NE(diagnostics.find("  info: ascend_cluster_analyse_pipeline-parallel_2_4_0.csv: 6 rows "
                               "for 5 steps"),
        std::string::npos)
        << diagnostics;
    EXPECT_NE(diagnostics.find("(and 3 more like it, in 4 files)\n"), std::string::npos)
        << diagnostics;
}

TEST(SummaryTest, KeysAreExactlyTheDocumentedOnes)
{
    const auto s = load(Data / "torch_memory/hta-memory-timeline-raw");
    ASSERT_TRUE(s);
    const nlohmann::json j = importSummaryJson(*s);
    std::vector<std::string> keys;
    for (const auto &[k, v] : j.items())
        keys.push_back(k);
    EXPECT_EQ(
        keys, (std::vector<std::string> {"counts", "diagnostics", "format", "ranks", "steps"}));
    std::vector<std::string> counts;
    for (const auto &[k, v] : j["counts"].items())
        counts.push_back(k);
    EXPECT_EQ(counts,
        (std::vector<std::string> {
            "counter_points", "counters", "events", "flows", "memory_points", "tracks"}));
    EXPECT_EQ(j["counts"]["memory_points"], 16845);
    EXPECT_EQ(j["format"], "torch-memory");
    // Stable text: the same load dumps to the same bytes.
    EXPECT_EQ(
        j.dump(), importSummaryJson(*load(Data / "torch_memory/hta-memory-timeline-raw")).dump());
}

TEST(SummaryTest, DiagnosticsCarryTheirPosition)
{
    const auto s = load(Data / "jax_xplane/tracelens-jax08-conv-mi300");
    ASSERT_TRUE(s);
    const nlohmann::json j = importSummaryJson(*s);
    EXPECT_EQ(j["format"], "jax-xplane");
    EXPECT_TRUE(j["ranks"].empty());
    ASSERT_EQ(j["diagnostics"].size(), 1u);
    const nlohmann::json &d = j["diagnostics"][0];
    EXPECT_EQ(d["severity"], "error");
    EXPECT_EQ(d["file"], "tw003.xplane.pb");
    EXPECT_EQ(d["line"], 0);
    EXPECT_EQ(d["offset"], -1);
    EXPECT_EQ(d["count"], 1);
    EXPECT_NE(d["message"].get<std::string>().find("not supported"), std::string::npos);
    EXPECT_NE(importSummaryText(*s).find("error: tw003.xplane.pb: JAX/XLA"), std::string::npos);

    model::Session withLine;
    withLine.report.add(model::Severity::Warning, "a.csv", "bad row", 7);
    withLine.report.add(model::Severity::Warning, "a.csv", "bad row", 9);
    const nlohmann::json w = importSummaryJson(withLine)["diagnostics"][0];
    EXPECT_EQ(w["line"], 7);
    EXPECT_EQ(w["count"], 2);
    EXPECT_NE(
        importSummaryText(withLine).find("warning: a.csv:7: bad row (2 times)"), std::string::npos);
}

} // namespace
} // namespace stepscope::import
