// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// The cluster view's rules (docs/metrics.md "Cluster"): stragglers per pipeline stage by
// median + k · MAD, each with its reason; stages from the `stage` rows, from the p2p groups
// of communication_group.json or from MindInsight's file names; the communication groups of the
// 16-rank GPT-3 sample, whose figures were computed by hand with
// tests/tools/check_cluster_groups.py.
#include "analysis/cluster.h"
#include "import/loader.h"
#include "model/metadatakeys.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace stepscope;
using analysis::StragglerReason;

namespace {

constexpr std::int64_t Ms = 1'000'000;

/// Two stages of six ranks (0–5, 6–11), steps 1 and 2. Stage 0: compute 100 ms, exposed
/// communication 150 ms, free 50 + j ms; stage 1: compute 100, exposed 40, bubble 180, free
/// 80 + j ms (j = rank % 6). Step 1: rank 2 computes 30 ms longer. Step 2: rank 4 waits 30 ms
/// longer in communication, rank 7 has 30 ms more free time.
std::vector<analysis::StepBreakdown> twoStageBreakdowns()
{
    std::vector<analysis::StepBreakdown> out;
    for (std::int32_t rank = 0; rank < 12; ++rank) {
        for (std::int64_t step : {1, 2}) {
            analysis::StepBreakdown b;
            b.rank = rank;
            b.step = step;
            const bool second = rank >= 6;
            b.computeNs = 100 * Ms;
            b.commExposedNs = (second ? 40 : 150) * Ms;
            b.bubbleNs = second ? 180 * Ms : 0;
            b.freeNs = ((second ? 80 : 50) + rank % 6) * Ms;
            if (step == 1 && rank == 2)
                b.computeNs += 30 * Ms;
            if (step == 2 && rank == 4)
                b.commExposedNs += 30 * Ms;
            if (step == 2 && rank == 7)
                b.freeNs += 30 * Ms;
            b.startNs = step * 1000 * Ms;
            b.endNs = b.startNs + b.computeNs + b.commExposedNs + b.bubbleNs + b.freeNs;
            out.push_back(b);
        }
    }
    return out;
}

model::ReferenceStep stageRow(std::int32_t first)
{
    model::ReferenceStep s;
    s.kind = "stage";
    s.rank = -1;
    s.step = 1;
    for (std::int32_t r = first; r < first + 6; ++r)
        s.stageRanks.push_back(r);
    return s;
}

const analysis::Straggler *find(
    const analysis::ClusterAnalysis &c, std::int32_t rank, std::int64_t step)
{
    for (const auto &s : c.stragglers)
        if (s.rank == rank && s.step == step)
            return &s;
    return nullptr;
}

/// The three stragglers of twoStageBreakdowns() with their stages' medians and thresholds,
/// worked out by hand in the comments.
void expectThreeStragglers(const analysis::ClusterAnalysis &c)
{
    ASSERT_EQ(c.stages.size(), 2u);
    ASSERT_EQ(c.stragglers.size(), 3u);
    // Step 1, stage 0: 300 301 332 303 304 305 ms -> median 303.5, |dev| 3.5 2.5 28.5 0.5 0.5
    // 1.5 -> MAD 2.0, threshold max(3 × 1.4826 × 2.0, 2 % × 303.5) = 8.8956 ms.
    const auto *s = find(c, 2, 1);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->stepNs, 332 * Ms);
    EXPECT_EQ(s->peerMedianNs, 303'500'000);
    EXPECT_EQ(s->thresholdNs, 8'895'600);
    EXPECT_EQ(s->reason, StragglerReason::SlowCompute);
    EXPECT_EQ(s->reasonExcessNs, 30 * Ms);
    // Step 2, stage 0: median 302.5, MAD 2.0; rank 4's exposed communication is 30 ms above.
    s = find(c, 4, 2);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->peerMedianNs, 302'500'000);
    EXPECT_EQ(s->thresholdNs, 8'895'600);
    EXPECT_EQ(s->reason, StragglerReason::CommunicationWait);
    EXPECT_EQ(s->reasonExcessNs, 30 * Ms);
    // Step 2, stage 1: 400 431 402 403 404 405 -> median 403.5, MAD 1.5; 3 × 1.4826 × 1.5 =
    // 6.6717 < 2 % × 403.5 = 8.07 ms: the floor. Free 111 vs the stage's median free 83.5.
    s = find(c, 7, 2);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->peerMedianNs, 403'500'000);
    EXPECT_EQ(s->thresholdNs, 8'070'000);
    EXPECT_EQ(s->reason, StragglerReason::FreeTime);
    EXPECT_EQ(s->reasonExcessNs, 27'500'000);
    EXPECT_NE(s->explanation.find("pipeline stage"), std::string::npos) << s->explanation;
    // The per-rank rows carry the count and reason.
    ASSERT_NE(c.row(2), nullptr);
    EXPECT_EQ(c.row(2)->stragglerSteps, 1);
    EXPECT_EQ(c.row(2)->reason, StragglerReason::SlowCompute);
    EXPECT_EQ(c.row(0)->stragglerSteps, 0);
    EXPECT_EQ(c.row(7)->stage, 1);
}

} // namespace

TEST(ClusterStragglers, PerPipelineStageFromStageRows)
{
    model::Session session;
    session.clusterSteps = {stageRow(0), stageRow(6)};
    const auto c = analysis::analyzeCluster(session, twoStageBreakdowns());
    expectThreeStragglers(c);
    EXPECT_EQ(c.stages[0].source, "cluster_step_trace_time.csv stage rows");
    // Stage bubble: stage 1 has 180 ms in every step, stage 0 none.
    EXPECT_EQ(c.stages[0].bubbleMeanNs, 0);
    EXPECT_EQ(c.stages[1].bubbleMeanNs, 180 * Ms);
    EXPECT_EQ(c.stages[1].bubbleMaxNs, 180 * Ms);
}

TEST(ClusterStragglers, PerPipelineStageFromCommunicationGroups)
{
    model::Session session;
    for (std::int32_t first : {0, 6}) {
        model::ParallelGroup g;
        g.name = "p2p[" + std::to_string(first / 6) + "]";
        for (std::int32_t r = first; r < first + 6; ++r)
            g.ranks.push_back(r);
        session.communicationGroups.push_back(g);
    }
    const auto c = analysis::analyzeCluster(session, twoStageBreakdowns());
    expectThreeStragglers(c);
    EXPECT_EQ(c.stages[1].source, "communication_group.json p2p");
}

TEST(ClusterStragglers, PerPipelineStageFromTheRanksStageNumbers)
{
    // MindInsight's ascend_cluster_analyse_pipeline-parallel_<stages>_<ranks>_<rank>.csv names
    // give each rank its stage (the importer writes it into the rank's metadata).
    model::Session session;
    for (std::int32_t rank = 0; rank < 12; ++rank) {
        auto t = std::make_shared<model::Trace>();
        t->rank = rank;
        t->metadata.extra[std::string(model::PipelineStageKey)] = rank < 6 ? "1" : "2";
        session.traces.push_back(std::move(t));
    }
    const auto c = analysis::analyzeCluster(session, twoStageBreakdowns());
    expectThreeStragglers(c);
    EXPECT_EQ(c.stages[0].source, "ascend_cluster_analyse_pipeline-parallel file names");

    // One stage named is no pipeline: every rank is a peer of every other.
    for (auto &t : session.traces)
        std::const_pointer_cast<model::Trace>(t)
            ->metadata.extra[std::string(model::PipelineStageKey)] = "1";
    EXPECT_TRUE(analysis::analyzeCluster(session, twoStageBreakdowns()).stages.empty());
}

TEST(ClusterStragglers, WithoutStagesAllRanksArePeers)
{
    // Pooled, step 1 is 300…305, 332, 400…405 ms: median 366, MAD 38.5, threshold 171 ms:
    // nobody stands out, which is why the rule compares a rank with its own stage.
    model::Session session;
    const auto c = analysis::analyzeCluster(session, twoStageBreakdowns());
    EXPECT_TRUE(c.stages.empty());
    EXPECT_TRUE(c.stragglers.empty());
    EXPECT_EQ(c.row(7)->stage, -1);
}

TEST(ClusterStragglers, TwoPeersSayNothing)
{
    auto all = twoStageBreakdowns();
    std::vector<analysis::StepBreakdown> two;
    std::copy_if(all.begin(), all.end(), std::back_inserter(two),
        [](const analysis::StepBreakdown &b) { return b.rank == 2 || b.rank == 3; });
    model::Session session;
    EXPECT_TRUE(analysis::analyzeCluster(session, two).stragglers.empty());
}

TEST(ClusterGroups, SixteenRankSampleGroupsFromTheClusterFiles)
{
    util::Progress progress;
    const auto r = import::loadPath(std::string(STEPSCOPE_TEST_DATA)
            + "/ascend_pt/msinsight-gpt3-pp2-16rank-trimmed/cluster_analysis_output",
        progress);
    ASSERT_TRUE(r.session);
    std::vector<analysis::StepBreakdown> none;
    const auto c = analysis::analyzeCluster(*r.session, none);
    ASSERT_EQ(c.groups.size(), 2u);
    // By elapse, largest first (check_cluster_groups.py).
    const auto &tp = c.groups[0];
    EXPECT_EQ(tp.group, "(0, 1, 2, 3, 4, 5, 6, 7)");
    EXPECT_EQ(tp.ranks, (std::vector<std::int32_t> {0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_FALSE(tp.p2p);
    EXPECT_NEAR(tp.elapseMs, 15.007247531, 1e-8);
    EXPECT_NEAR(tp.waitMs, 9.397135953, 1e-8);
    EXPECT_NEAR(tp.transitMs, 0.005079504, 1e-8);
    EXPECT_EQ(tp.slowestRank, 1);
    EXPECT_NEAR(tp.slowestRankTransitMs, 0.00316, 1e-9);
    ASSERT_EQ(tp.slowestLinks.size(), 1u);
    EXPECT_EQ(tp.slowestLinks[0].transport, "HCCS");
    EXPECT_EQ(tp.slowestLinks[0].src, 1);
    EXPECT_EQ(tp.slowestLinks[0].dst, 0);
    EXPECT_NEAR(tp.slowestLinks[0].bandwidthGBps, 0.0247, 1e-9);
    EXPECT_EQ(tp.slowestLinks[0].links, 2);
    ASSERT_EQ(tp.collectives.size(), 2u);
    EXPECT_EQ(tp.collectives[0].name, "hcom_broadcast__483_0");
    EXPECT_EQ(tp.collectives[0].calls, 2);
    EXPECT_NEAR(tp.collectives[0].waitMs, 8.616021754, 1e-8);
    EXPECT_NEAR(tp.collectives[0].waitShare, 1.0, 1e-9);
    EXPECT_EQ(tp.collectives[1].name, "hcom_broadcast__483_1");
    EXPECT_NEAR(tp.collectives[1].waitShare, 0.993539, 1e-6);
    EXPECT_EQ(tp.collectives[1].slowestRank, 1);

    const auto &p2p = c.groups[1];
    EXPECT_EQ(p2p.group, "p2p");
    EXPECT_TRUE(p2p.p2p);
    // Members: the p2p lists of communication_group.json (0–15).
    EXPECT_EQ(p2p.ranks.size(), 16u);
    EXPECT_NEAR(p2p.elapseMs, 1.793066910, 1e-8);
    EXPECT_EQ(p2p.slowestRank, 1);
    // The RDMA send 0 -> 8 belongs to the p2p group, the only one holding both ranks.
    ASSERT_EQ(p2p.slowestLinks.size(), 1u);
    EXPECT_EQ(p2p.slowestLinks[0].transport, "RDMA");
    EXPECT_EQ(p2p.slowestLinks[0].src, 0);
    EXPECT_EQ(p2p.slowestLinks[0].dst, 8);
    EXPECT_NEAR(p2p.slowestLinks[0].bandwidthGBps, 24.2778, 1e-9);
    ASSERT_TRUE(p2p.slowestLinkBandwidthGBps.has_value());
    EXPECT_EQ(p2p.slowestLinkTransport, "RDMA");

    const auto j = analysis::clusterJson(c);
    EXPECT_EQ(j["groups"][1]["slowest_links"][0]["transport"], "RDMA");
    EXPECT_EQ(j["step_source"], "cluster_step_trace_time.csv");
}
