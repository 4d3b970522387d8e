// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "cluster.h"

#include <nlohmann/json.hpp>

namespace stepscope::analysis {

namespace {

/// Matrices larger than this are left out of the JSON (the per-rank table stays).
constexpr std::size_t MaxJsonCells = 200000;

double us(std::int64_t ns)
{
    return static_cast<double>(ns) / 1000.0;
}

nlohmann::json optionalRank(const std::optional<std::int32_t> &r)
{
    return r ? nlohmann::json(*r) : nlohmann::json(nullptr);
}

nlohmann::json rankRow(const ClusterRankRow &r)
{
    nlohmann::json j = {{"rank", r.rank},
        {"stage", r.stage >= 0 ? nlohmann::json(r.stage) : nullptr},
        {"has_timeline", r.hasTimeline}, {"steps", r.stepCount}, {"step_mean_us", us(r.stepMeanNs)},
        {"step_median_us", us(r.stepMedianNs)}, {"step_max_us", us(r.stepMaxNs)},
        {"deviation_us", us(r.deviationNs)}, {"deviation_fraction", r.deviationFraction},
        {"straggler_steps", r.stragglerSteps}, {"straggler_reason", stragglerReasonKey(r.reason)}};
    nlohmann::json means = nlohmann::json::object();
    for (int k = 1; k < ClusterMetricCount; ++k) {
        const auto m = static_cast<ClusterMetric>(k);
        means[std::string(clusterMetricKey(m)) + "_us"] = us(r.meanNs[static_cast<std::size_t>(k)]);
    }
    j["mean"] = means;
    return j;
}

nlohmann::json matrixJson(const ClusterMatrix &m)
{
    nlohmann::json j = {{"ranks", m.ranks}, {"steps", m.steps}};
    if (m.ranks.size() * m.steps.size() > MaxJsonCells) {
        j["omitted"] =
            "more than " + std::to_string(MaxJsonCells) + " cells: see the per-rank table";
        return j;
    }
    for (int k = 0; k < ClusterMetricCount; ++k) {
        const auto metric = static_cast<ClusterMetric>(k);
        nlohmann::json rows = nlohmann::json::array();
        for (std::size_t r = 0; r < m.ranks.size(); ++r) {
            nlohmann::json row = nlohmann::json::array();
            for (std::size_t s = 0; s < m.steps.size(); ++s) {
                const std::int64_t v = m.at(metric, r, s);
                row.push_back(v < 0 ? nlohmann::json(nullptr) : nlohmann::json(us(v)));
            }
            rows.push_back(std::move(row));
        }
        j[std::string(clusterMetricKey(metric)) + "_us"] = std::move(rows);
    }
    return j;
}

nlohmann::json groupJson(const CommGroupSummary &g)
{
    nlohmann::json transports = nlohmann::json::array();
    for (const auto &t : g.transports) {
        transports.push_back(
            {{"transport", t.transport}, {"size_mb", t.sizeMb}, {"time_ms", t.timeMs},
                {"bandwidth_gbps", t.bandwidthGBps ? nlohmann::json(*t.bandwidthGBps) : nullptr},
                {"links", t.links}});
    }
    nlohmann::json ops = nlohmann::json::array();
    for (const auto &c : g.collectives) {
        ops.push_back({{"name", c.name}, {"calls", c.calls}, {"elapse_ms", c.elapseMs},
            {"wait_ms", c.waitMs}, {"transit_ms", c.transitMs}, {"wait_share", c.waitShare},
            {"slowest_rank", c.slowestRank}});
    }
    nlohmann::json link = nullptr;
    if (g.slowestLinkBandwidthGBps) {
        link = {{"src", *g.slowestLinkSrc}, {"dst", *g.slowestLinkDst},
            {"transport", g.slowestLinkTransport}, {"bandwidth_gbps", *g.slowestLinkBandwidthGBps}};
    }
    nlohmann::json slowLinks = nlohmann::json::array();
    for (const auto &l : g.slowestLinks) {
        slowLinks.push_back({{"transport", l.transport}, {"src", l.src}, {"dst", l.dst},
            {"bandwidth_gbps", l.bandwidthGBps}, {"size_mb", l.sizeMb}, {"time_ms", l.timeMs},
            {"links", l.links}});
    }
    return {{"group", g.group}, {"ranks", g.ranks}, {"p2p", g.p2p}, {"elapse_ms", g.elapseMs},
        {"wait_ms", g.waitMs}, {"transit_ms", g.transitMs}, {"slowest_rank", g.slowestRank},
        {"slowest_rank_transit_ms", g.slowestRankTransitMs}, {"slowest_link", link},
        {"slowest_links", slowLinks}, {"transports", transports}, {"collectives", ops}};
}

} // namespace

nlohmann::json clusterJson(const ClusterAnalysis &c)
{
    nlohmann::json j;
    j["rank_count"] = c.rankCount;
    j["timeline_ranks"] = c.timelineRanks;
    j["world_size"] = c.worldSize ? nlohmann::json(c.worldSize) : nlohmann::json();
    nlohmann::json missing = nlohmann::json::array();
    for (const auto &[first, last] : c.missingRanks)
        missing.push_back({first, last});
    j["missing_rank_count"] = c.missingRankCount;
    j["missing_ranks"] = std::move(missing);
    j["scope"] = "all ranks";
    j["step_source"] = c.stepSource;
    j["slowest_rank"] = optionalRank(c.slowestRank);
    const ClusterShares &s = c.shares;
    j["shares"] = {{"definition",
                       "comm_share = communication not overlapped, pipeline bubble excluded, over "
                       "the step time, summed over every rank and step (docs/metrics.md)"},
        {"step_us", us(s.stepNs)}, {"compute_us", us(s.computeNs)},
        {"comm_exposed_us", us(s.commExposedNs)}, {"bubble_us", us(s.bubbleNs)},
        {"free_us", us(s.freeNs)}, {"preparing_us", us(s.preparingNs)}, {"comm_share", s.commShare},
        {"bubble_share", s.bubbleShare}, {"comm_share_with_bubble", s.commShareWithBubble}};
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto &r : c.ranks)
        ranks.push_back(rankRow(r));
    j["ranks"] = std::move(ranks);
    nlohmann::json stages = nlohmann::json::array();
    for (const auto &st : c.stages) {
        stages.push_back({{"index", st.index}, {"ranks", st.ranks}, {"source", st.source},
            {"step_mean_us", us(st.stepMeanNs)}, {"bubble_mean_us", us(st.bubbleMeanNs)},
            {"bubble_max_us", us(st.bubbleMaxNs)}, {"bubble_share", st.bubbleShare}});
    }
    j["stages"] = std::move(stages);
    j["straggler_rule"] = {{"k", c.stragglerK}, {"min_fraction", c.stragglerMinFraction},
        {"text",
            "step time > median of the stage's ranks in that step + max(k * 1.4826 * MAD, "
            "min_fraction * median)"}};
    nlohmann::json stragglers = nlohmann::json::array();
    for (const auto &st : c.stragglers) {
        stragglers.push_back({{"rank", st.rank}, {"step", st.step}, {"step_us", us(st.stepNs)},
            {"peer_median_us", us(st.peerMedianNs)}, {"threshold_us", us(st.thresholdNs)},
            {"reason", stragglerReasonKey(st.reason)}, {"reason_excess_us", us(st.reasonExcessNs)},
            {"explanation", st.explanation}});
    }
    j["stragglers"] = std::move(stragglers);
    nlohmann::json groups = nlohmann::json::array();
    for (const auto &g : c.groups)
        groups.push_back(groupJson(g));
    j["groups"] = std::move(groups);
    j["matrix"] = matrixJson(c.matrix);
    return j;
}

} // namespace stepscope::analysis
