// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// `stepscope summary`'s step list says what `summary --json` "steps" says.

#include "analysis/steplist.h"
#include "import/loader.h"
#include "import/summary.h"
#include "sample_testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

using namespace stepscope;

namespace {

using testsupport::loadSample;

/// The DB export's step 50 is 143 741.870 us between its STEP_TIME marks, and 142 114.330 us
/// in analysis.db's StepTraceTime (Stage 124 219.742 + Preparing 17 894.588): the profiler's
/// table is what the Steps table and the JSON show, and the text's list showed the marks.
TEST(StepList, TheTextListsTheJsonsSteps)
{
    const auto session = loadSample("ascend_db/msinsight-cnn-db-level2-2rank");
    ASSERT_EQ(session->traces.size(), 2u);
    const analysis::SessionAnalysis a = analysis::analyzeSession(*session, {});
    nlohmann::json summary = import::importSummaryJson(*session);
    analysis::addAnalysisToSummary(summary, a);
    const std::string text = analysis::stepListText(*session, a);

    EXPECT_NE(text.find("rank 0 steps (1):\n  step 50: start 1736414119633143240 ns, duration "
                        "142114.330 us (profiler's table)\n"),
        std::string::npos)
        << text;
    ASSERT_EQ(summary["steps"].size(), 2u);
    for (const nlohmann::json &s : summary["steps"]) {
        char line[160];
        std::snprintf(line, sizeof line, "  step %lld: start %lld ns, duration %.3f us",
            static_cast<long long>(s["step"].get<std::int64_t>()),
            static_cast<long long>(s["start_ns"].get<std::int64_t>()),
            s["duration_us"].get<double>());
        EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
    }
    // The import's own list, still the marks, is no longer what the summary prints.
    EXPECT_NE(
        import::importSummaryText(*session).find("duration 143741.870 us"), std::string::npos);
    EXPECT_EQ(import::importSummaryText(*session, false).find("steps ("), std::string::npos);
}

/// A step the analysis leaves out keeps its marks, and says so.
TEST(StepList, AStepLeftOutOfTheAnalysisSaysSo)
{
    const auto session = loadSample("kineto/hta-mi250-minitoy-rocm");
    ASSERT_FALSE(session->traces.empty());
    analysis::SessionAnalysis a = analysis::analyzeSession(*session, {});
    ASSERT_FALSE(a.breakdowns.empty());
    const std::int64_t dropped = a.breakdowns.front().step;
    a.breakdowns.erase(a.breakdowns.begin());
    const std::string text = analysis::stepListText(*session, a);
    EXPECT_NE(text.find("  step " + std::to_string(dropped) + ": start "), std::string::npos)
        << text;
    EXPECT_NE(text.find("(timeline marker; left out of the analysis)"), std::string::npos) << text;
}

} // namespace
