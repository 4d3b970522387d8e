// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Which rank each side of a comparison shows, and the per-rank deltas of two clusters.
#include "analysis/analysissummary.h"
#include "analysis/compare.h"
#include "analysis/compareoutput.h"
#include "import/loader.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace stepscope;
using namespace stepscope::analysis;

namespace {

// One trace per entry of `stepNs` (rank = index + firstRank): `steps` steps numbered from 1,
// each one gemm kernel filling the step.
std::shared_ptr<const model::Session> makeCluster(
    const std::vector<std::int64_t> &stepNs, int steps, std::int32_t firstRank = 0)
{
    auto session = std::make_shared<model::Session>();
    for (std::size_t r = 0; r < stepNs.size(); ++r) {
        model::TraceBuilder tb;
        model::TrackInfo dev;
        dev.kind = model::TrackKind::DeviceStream;
        dev.threadId = "7";
        model::TrackId d = tb.addTrack(dev);
        for (int i = 0; i < steps; ++i) {
            const std::int64_t t0 = i * stepNs[r];
            tb.trace().steps.push_back({1 + i, t0, t0 + stepNs[r]});
            tb.track(d).add(t0, stepNs[r], tb.intern("gemm"), model::Category::Compute);
        }
        model::Trace trace = tb.finish().trace;
        trace.rank = firstRank + static_cast<std::int32_t>(r);
        session->traces.push_back(std::make_shared<const model::Trace>(std::move(trace)));
    }
    return session;
}

const DeltaRow *findRow(const std::vector<DeltaRow> &rows, const std::string &key)
{
    for (const DeltaRow &r : rows)
        if (r.key == key)
            return &r;
    return nullptr;
}

} // namespace

TEST(CompareRank, DefaultIsTheSlowestRankOfEachRun)
{
    // before: rank 1 is the slowest; after: rank 0 is.
    auto before = makeCluster({1000, 3000}, 3);
    auto after = makeCluster({2500, 2000}, 3);
    RunComparison r = compareRuns(*before, *after, RunConfig {}, RunConfig {});
    EXPECT_EQ(r.beforeRank, 1);
    EXPECT_EQ(r.afterRank, 0);
    EXPECT_EQ(r.beforeRankChoice, RankChoice::Slowest);
    EXPECT_EQ(r.afterRankChoice, RankChoice::Slowest);
    EXPECT_TRUE(r.beforeHasTrace && r.afterHasTrace);
    const DeltaRow *step = findRow(r.meanStepRows, "step_time_us");
    ASSERT_NE(step, nullptr);
    EXPECT_DOUBLE_EQ(*step->before, 3.0); // rank 1 of before: 3000 ns
    EXPECT_DOUBLE_EQ(*step->after, 2.5); // rank 0 of after: 2500 ns
    EXPECT_EQ(rankCaption(r, false), "rank 1 (slowest of 2 ranks)");
    EXPECT_EQ(rankCaption(r, true), "rank 0 (slowest of 2 ranks)");
}

TEST(CompareRank, RequestedRanksAndAMissingOne)
{
    auto before = makeCluster({1000, 3000}, 3);
    auto after = makeCluster({2500, 2000}, 3);
    CompareOptions options;
    options.beforeRank = 0;
    options.afterRank = 7; // not in "after": the slowest is used, and said so
    RunComparison r = compareRuns(*before, *after, RunConfig {}, RunConfig {}, options);
    EXPECT_EQ(r.beforeRank, 0);
    EXPECT_EQ(r.beforeRankChoice, RankChoice::Requested);
    EXPECT_FALSE(r.beforeRankMissing);
    EXPECT_EQ(r.afterRank, 0);
    EXPECT_EQ(r.afterRankChoice, RankChoice::Slowest);
    ASSERT_TRUE(r.afterRankMissing);
    EXPECT_EQ(*r.afterRankMissing, 7);
    EXPECT_DOUBLE_EQ(*findRow(r.meanStepRows, "step_time_us")->before, 1.0);
    EXPECT_EQ(rankCaption(r, false), "rank 0 (chosen, of 2 ranks)");
    EXPECT_EQ(rankCaption(r, true), "rank 0 (slowest of 2 ranks; rank 7 is not in this run)");

    const nlohmann::json j = compareJson(r, {"b", "b", "x"}, {"a", "a", "x"});
    EXPECT_EQ(j["before"]["rank"], 0);
    EXPECT_EQ(j["before"]["rank_choice"], "requested");
    EXPECT_TRUE(j["before"]["rank_missing"].is_null());
    EXPECT_EQ(j["after"]["rank_choice"], "slowest");
    EXPECT_EQ(j["after"]["rank_missing"], 7);
    EXPECT_EQ(j["after"]["ranks"], nlohmann::json::array({0, 1}));
}

TEST(CompareRank, PerRankDeltasAndTheRankStepMatrix)
{
    // before ranks 0..2, after ranks 1..3: ranks 1 and 2 in both.
    auto before = makeCluster({1000, 2000, 3000}, 2, 0);
    auto after = makeCluster({2600, 2400, 5000}, 3, 1);
    RunComparison r = compareRuns(*before, *after, RunConfig {}, RunConfig {});
    ASSERT_TRUE(r.bothClusters());
    EXPECT_EQ(r.onlyBeforeRanks, std::vector<std::int32_t>({0}));
    EXPECT_EQ(r.onlyAfterRanks, std::vector<std::int32_t>({3}));
    ASSERT_EQ(r.rankDeltas.size(), 2u);
    EXPECT_EQ(r.rankDeltas[0].rank, 1);
    EXPECT_EQ(r.rankDeltas[0].pairs, 2u); // steps 1, 2 (after's step 3 has no partner)
    const DeltaRow &r1 = r.rankDeltas[0].rows.front();
    EXPECT_EQ(r1.key, "step_time_us");
    EXPECT_DOUBLE_EQ(*r1.before, 2.0);
    EXPECT_DOUBLE_EQ(*r1.after, 2.6);
    EXPECT_EQ(r1.verdict, Verdict::Regressed);
    const DeltaRow &r2 = r.rankDeltas[1].rows.front();
    EXPECT_DOUBLE_EQ(*r2.delta, 2.4 - 3.0);
    EXPECT_EQ(r2.verdict, Verdict::Improved);

    const RankStepDeltas &m = r.rankSteps;
    EXPECT_EQ(m.ranks, std::vector<std::int32_t>({1, 2}));
    EXPECT_EQ(m.steps, std::vector<std::int64_t>({1, 2}));
    EXPECT_NEAR(m.at(0, 0), 0.6, 1e-12);
    EXPECT_NEAR(m.at(1, 1), -0.6, 1e-12);

    const auto largest = largestRankDeltas(r, 1);
    ASSERT_EQ(largest.size(), 1u);
    EXPECT_EQ(largest.front()->rank, 1); // |+0.6| ties |−0.6|: the lower rank first

    const nlohmann::json j = compareJson(r, {"b", "b", "x"}, {"a", "a", "x"});
    ASSERT_EQ(j["rank_deltas"].size(), 2u);
    EXPECT_EQ(j["rank_deltas"][1]["rank"], 2);
    EXPECT_EQ(j["rank_step_deltas"]["before_steps"], nlohmann::json::array({1, 2}));
    EXPECT_NEAR(j["rank_step_deltas"]["step_time_delta_us"][1][0].get<double>(), -0.6, 1e-12);
    EXPECT_EQ(j["only_after_ranks"], nlohmann::json::array({3}));
    const std::string md = compareMarkdown(r, {"b", "b", "x"}, {"a", "a", "x"});
    EXPECT_NE(md.find("## Per-rank step time"), std::string::npos);
    EXPECT_NE(md.find("Rank 2 of before against rank 3 of after"), std::string::npos) << md;
    // The KPIs are the whole runs', which the table's title and a sentence say.
    EXPECT_NE(md.find("## KPIs (whole runs, all ranks)\n\n" + kpiScope(r)), std::string::npos)
        << md;
    EXPECT_EQ(kpiScope(r),
        "These KPIs cover all ranks of each run (3 and 3 ranks; a step's time is its slowest "
        "rank's), not only rank 2 of before and rank 3 of after.");
}

TEST(CompareRank, OneRankRunsHaveNoRankDeltas)
{
    auto before = makeCluster({1000}, 2);
    auto after = makeCluster({1000, 2000}, 2);
    RunComparison r = compareRuns(*before, *after, RunConfig {}, RunConfig {});
    EXPECT_FALSE(r.bothClusters());
    EXPECT_TRUE(r.rankDeltas.empty());
    EXPECT_TRUE(r.rankSteps.ranks.empty());
    EXPECT_EQ(rankCaption(r, false), "rank 0 (the only rank)");
    EXPECT_EQ(kpiScope(r),
        "These KPIs cover all ranks of each run (1 and 2 ranks; a step's time "
        "is its slowest rank's), not only rank 0 of before and rank 1 of after.");
    // A side with no rank (a training log alone) has no profile, not "the only rank".
    const model::Session logOnly;
    EXPECT_EQ(
        rankCaption(compareRuns(*before, logOnly, RunConfig {}, RunConfig {}), true), "no profile");
    const RunComparison one = compareRuns(*before, *before, RunConfig {}, RunConfig {});
    EXPECT_EQ(kpiScope(one), "");
    const std::string md = compareMarkdown(one, {"b", "b", "x"}, {"a", "a", "x"});
    EXPECT_NE(md.find("## KPIs\n\n| metric"), std::string::npos) << md;
}

// The two 2-rank CNN samples (numbers: tests/tools/check_compare_ranks.py, from each rank's
// step_trace_time.csv).
TEST(CompareRank, AscendCnnSamplesByRank)
{
    util::Progress progress;
    const std::string root = std::string(STEPSCOPE_TEST_DATA) + "/ascend_pt/";
    auto l0 = import::loadPath(root + "msinsight-cnn-level0-2rank", progress).session;
    auto l2 = import::loadPath(root + "msinsight-cnn-level2-2rank", progress).session;
    ASSERT_TRUE(l0 && l2);
    RunComparison def = compareRuns(*l0, *l2, RunConfig {}, RunConfig {});
    EXPECT_EQ(def.beforeRank, 0); // 135 609.182 > 119 522.23 us
    EXPECT_EQ(def.afterRank, 0); // 147 346.625 > 147 081.272 us
    EXPECT_NEAR(*findRow(def.meanStepRows, "step_time_us")->before, 135609.182, 0.01);

    CompareOptions options;
    options.beforeRank = 1;
    options.afterRank = 1;
    RunComparison r = compareRuns(*l0, *l2, RunConfig {}, RunConfig {}, options);
    EXPECT_EQ(r.beforeRank, 1);
    EXPECT_EQ(r.afterRank, 1);
    const DeltaRow *step = findRow(r.meanStepRows, "step_time_us");
    ASSERT_NE(step, nullptr);
    EXPECT_NEAR(*step->before, 119522.23, 0.01);
    EXPECT_NEAR(*step->after, 147081.272, 0.01);
    ASSERT_EQ(r.rankDeltas.size(), 2u);
    EXPECT_NEAR(*r.rankDeltas[0].rows.front().delta, 11737.443, 0.01);
    EXPECT_NEAR(*r.rankDeltas[1].rows.front().delta, 27559.042, 0.01);
    ASSERT_EQ(r.rankSteps.steps, std::vector<std::int64_t>({50}));
    EXPECT_NEAR(r.rankSteps.at(1, 0), 27559.042, 0.01);
}
