// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "cluster.h"

#include "clusterdetail.h"
#include "model/metadatakeys.h"
#include "util/saturate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace stepscope::analysis {

namespace {

constexpr std::array<std::string_view, ClusterMetricCount> MetricKeys = {
    "step", "compute", "comm_exposed", "comm_overlapped", "free", "bubble", "preparing"};
constexpr std::array<std::string_view, ClusterMetricCount> MetricNames = {"Step time", "Compute",
    "Communication (exposed)", "Communication (overlapped)", "Free", "Pipeline bubble",
    "Preparing"};

ClusterMetric metricAt(int i)
{
    return static_cast<ClusterMetric>(i);
}

ClusterMatrix buildMatrix(const std::vector<StepBreakdown> &breakdowns)
{
    ClusterMatrix m;
    for (const auto &b : breakdowns) {
        m.ranks.push_back(b.rank);
        m.steps.push_back(b.step);
    }
    for (auto *v : {&m.steps}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    std::sort(m.ranks.begin(), m.ranks.end());
    m.ranks.erase(std::unique(m.ranks.begin(), m.ranks.end()), m.ranks.end());
    const std::size_t cells = m.ranks.size() * m.steps.size();
    for (auto &layer : m.cellsNs)
        layer.assign(cells, -1);
    for (const auto &b : breakdowns) {
        const std::size_t i = m.rankIndexOf(b.rank) * m.steps.size() + m.stepIndexOf(b.step);
        // A step id seen twice on one rank (two profiling windows) adds up.
        for (int k = 0; k < ClusterMetricCount; ++k) {
            std::int64_t &cell = m.cellsNs[static_cast<std::size_t>(k)][i];
            cell = util::satAdd(std::max<std::int64_t>(cell, 0), clusterMetricNs(b, metricAt(k)));
        }
    }
    return m;
}

/// Rows of the per-rank table (without deviation and straggler columns).
std::vector<ClusterRankRow> buildRows(const model::Session &session, const ClusterMatrix &m)
{
    std::vector<ClusterRankRow> rows;
    rows.reserve(m.ranks.size());
    const std::size_t steps = m.steps.size();
    std::vector<std::int64_t> durations;
    // Session::traceForRank is a linear search: one pass instead.
    std::vector<std::int32_t> timelineRanks;
    for (const auto &t : session.traces) {
        if (t->eventCount() > 0)
            timelineRanks.push_back(t->rank);
    }
    std::sort(timelineRanks.begin(), timelineRanks.end());
    for (std::size_t r = 0; r < m.ranks.size(); ++r) {
        ClusterRankRow row;
        row.rank = m.ranks[r];
        row.hasTimeline = std::binary_search(timelineRanks.begin(), timelineRanks.end(), row.rank);
        durations.clear();
        std::array<std::int64_t, ClusterMetricCount> sums {};
        for (std::size_t s = 0; s < steps; ++s) {
            if (!m.has(r, s))
                continue;
            durations.push_back(m.at(ClusterMetric::Step, r, s));
            for (int k = 0; k < ClusterMetricCount; ++k)
                sums[static_cast<std::size_t>(k)] =
                    util::satAdd(sums[static_cast<std::size_t>(k)], m.at(metricAt(k), r, s));
        }
        row.stepCount = static_cast<std::int64_t>(durations.size());
        if (row.stepCount > 0) {
            for (int k = 0; k < ClusterMetricCount; ++k)
                row.meanNs[static_cast<std::size_t>(k)] =
                    sums[static_cast<std::size_t>(k)] / row.stepCount;
            row.stepMeanNs = row.meanNs[0];
            row.stepMaxNs = *std::max_element(durations.begin(), durations.end());
            row.stepMedianNs = detail::median(durations);
        }
        rows.push_back(row);
    }
    return rows;
}

void addDeviations(std::vector<ClusterRankRow> &rows)
{
    std::vector<std::int64_t> means;
    for (const auto &r : rows) {
        if (r.stepCount > 0)
            means.push_back(r.stepMeanNs);
    }
    if (means.empty())
        return;
    const std::int64_t med = detail::median(means);
    for (auto &r : rows) {
        if (r.stepCount == 0)
            continue;
        r.deviationNs = r.stepMeanNs - med;
        r.deviationFraction =
            med > 0 ? static_cast<double>(r.deviationNs) / static_cast<double>(med) : 0.0;
    }
}

std::vector<PipelineStage> findStages(const model::Session &session)
{
    std::set<std::vector<std::int32_t>> sets;
    std::string source;
    for (const auto &s : session.clusterSteps) {
        if (s.kind == "stage" && !s.stageRanks.empty()) {
            auto r = s.stageRanks;
            std::sort(r.begin(), r.end());
            sets.insert(r);
            source = "cluster_step_trace_time.csv stage rows";
        }
    }
    if (sets.empty()) {
        // communication_group.json "p2p" groups: the ranks that exchange activations, one
        // group per pipeline stage when they are disjoint.
        std::set<std::int32_t> seen;
        bool disjoint = true;
        for (const auto &g : session.communicationGroups) {
            if (g.name.rfind("p2p[", 0) != 0 || g.ranks.size() < 2)
                continue;
            auto r = g.ranks;
            std::sort(r.begin(), r.end());
            for (auto x : r)
                disjoint = disjoint && seen.insert(x).second;
            sets.insert(r);
        }
        if (!disjoint || sets.size() < 2)
            sets.clear();
        else
            source = "communication_group.json p2p";
    }
    if (sets.empty()) {
        // MindInsight's cluster files name the stage count: each rank's stage (importer).
        std::map<std::string, std::vector<std::int32_t>> byStage;
        for (const auto &t : session.traces) {
            const auto it = t->metadata.extra.find(std::string(model::PipelineStageKey));
            if (it != t->metadata.extra.end())
                byStage[it->second].push_back(t->rank);
        }
        if (byStage.size() >= 2) {
            for (auto &[stage, ranks] : byStage) {
                std::sort(ranks.begin(), ranks.end());
                sets.insert(ranks);
            }
            source = "ascend_cluster_analyse_pipeline-parallel file names";
        }
    }
    std::vector<PipelineStage> stages;
    for (const auto &r : sets) {
        PipelineStage st;
        st.ranks = r;
        st.source = source;
        stages.push_back(std::move(st));
    }
    std::sort(stages.begin(), stages.end(),
        [](const PipelineStage &a, const PipelineStage &b) { return a.ranks < b.ranks; });
    for (std::size_t i = 0; i < stages.size(); ++i)
        stages[i].index = static_cast<std::int32_t>(i);
    return stages;
}

/// Stage index of each matrix rank (-1 when in none), the first stage listing it.
std::vector<std::int32_t> stageOfRanks(
    const std::vector<PipelineStage> &stages, const ClusterMatrix &m)
{
    std::vector<std::int32_t> out(m.ranks.size(), -1);
    for (const auto &st : stages) {
        for (auto r : st.ranks) {
            const std::size_t i = m.rankIndexOf(r);
            if (i < out.size() && out[i] < 0)
                out[i] = st.index;
        }
    }
    return out;
}

void fillStageFigures(
    std::vector<PipelineStage> &stages, const ClusterMatrix &m, const std::vector<std::int32_t> &of)
{
    for (auto &st : stages) {
        std::int64_t step = 0, bubble = 0, n = 0;
        for (std::size_t r = 0; r < m.ranks.size(); ++r) {
            if (of[r] != st.index)
                continue;
            for (std::size_t s = 0; s < m.steps.size(); ++s) {
                if (!m.has(r, s))
                    continue;
                step = util::satAdd(step, m.at(ClusterMetric::Step, r, s));
                const std::int64_t b = m.at(ClusterMetric::Bubble, r, s);
                bubble = util::satAdd(bubble, b);
                st.bubbleMaxNs = std::max(st.bubbleMaxNs, b);
                ++n;
            }
        }
        if (n > 0) {
            st.stepMeanNs = step / n;
            st.bubbleMeanNs = bubble / n;
        }
        st.bubbleShare = step > 0 ? static_cast<double>(bubble) / static_cast<double>(step) : 0;
    }
}

ClusterShares computeShares(const std::vector<StepBreakdown> &breakdowns)
{
    ClusterShares s;
    for (const auto &b : breakdowns) {
        s.stepNs = util::satAdd(s.stepNs, b.durationNs()); // damaged times: held at the limit
        s.computeNs = util::satAdd(s.computeNs, b.computeNs);
        s.commExposedNs = util::satAdd(s.commExposedNs, b.commExposedNs);
        s.bubbleNs = util::satAdd(s.bubbleNs, b.bubbleNs);
        s.freeNs = util::satAdd(s.freeNs, b.freeNs);
        s.preparingNs = util::satAdd(s.preparingNs, b.preparingNs);
    }
    if (s.stepNs > 0) {
        const auto total = static_cast<double>(s.stepNs);
        s.commShare = static_cast<double>(s.commExposedNs) / total;
        s.bubbleShare = static_cast<double>(s.bubbleNs) / total;
        s.commShareWithBubble =
            static_cast<double>(util::satAdd(s.commExposedNs, s.bubbleNs)) / total;
    }
    return s;
}

} // namespace

std::string_view clusterMetricKey(ClusterMetric metric)
{
    return MetricKeys[static_cast<std::size_t>(metric)];
}

std::string_view clusterMetricName(ClusterMetric metric)
{
    return MetricNames[static_cast<std::size_t>(metric)];
}

std::int64_t clusterMetricNs(const StepBreakdown &b, ClusterMetric metric)
{
    switch (metric) {
    case ClusterMetric::Step:
        return b.durationNs();
    case ClusterMetric::Compute:
        return b.computeNs;
    case ClusterMetric::CommExposed:
        return b.commExposedNs;
    case ClusterMetric::CommOverlapped:
        return b.commOverlappedNs;
    case ClusterMetric::Free:
        return b.freeNs;
    case ClusterMetric::Bubble:
        return b.bubbleNs;
    case ClusterMetric::Preparing:
        return b.preparingNs;
    }
    return 0;
}

std::string_view stragglerReasonKey(StragglerReason reason)
{
    switch (reason) {
    case StragglerReason::None:
        return "none";
    case StragglerReason::SlowCompute:
        return "slow_compute";
    case StragglerReason::CommunicationWait:
        return "communication_wait";
    case StragglerReason::PipelineBubble:
        return "pipeline_bubble";
    case StragglerReason::FreeTime:
        return "free_time";
    }
    return "none";
}

std::size_t ClusterMatrix::rankIndexOf(std::int32_t rank) const
{
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), rank);
    return it != ranks.end() && *it == rank ? static_cast<std::size_t>(it - ranks.begin())
                                            : ranks.size();
}

std::size_t ClusterMatrix::stepIndexOf(std::int64_t step) const
{
    const auto it = std::lower_bound(steps.begin(), steps.end(), step);
    return it != steps.end() && *it == step ? static_cast<std::size_t>(it - steps.begin())
                                            : steps.size();
}

std::int64_t ClusterMatrix::at(
    ClusterMetric metric, std::size_t rankIndex, std::size_t stepIndex) const
{
    if (rankIndex >= ranks.size() || stepIndex >= steps.size())
        return -1;
    return cellsNs[static_cast<std::size_t>(metric)][rankIndex * steps.size() + stepIndex];
}

bool ClusterMatrix::has(std::size_t rankIndex, std::size_t stepIndex) const
{
    return at(ClusterMetric::Step, rankIndex, stepIndex) >= 0;
}

std::pair<std::int64_t, std::int64_t> ClusterMatrix::range(ClusterMetric metric) const
{
    std::int64_t lo = -1, hi = -1;
    for (std::int64_t v : cellsNs[static_cast<std::size_t>(metric)]) {
        if (v < 0)
            continue;
        lo = lo < 0 ? v : std::min(lo, v);
        hi = std::max(hi, v);
    }
    return lo < 0 ? std::pair<std::int64_t, std::int64_t> {0, 0} : std::pair {lo, hi};
}

const ClusterRankRow *ClusterAnalysis::row(std::int32_t rank) const
{
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), rank,
        [](const ClusterRankRow &r, std::int32_t v) { return r.rank < v; });
    return it != ranks.end() && it->rank == rank ? &*it : nullptr;
}

std::string rankRunsText(
    const std::vector<std::pair<std::int32_t, std::int32_t>> &runs, std::size_t limit)
{
    std::string out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (i == limit)
            return out + ", …";
        const auto [first, last] = runs[i];
        out += (i ? ", " : "") + std::to_string(first)
            + (last == first ? std::string() : "–" + std::to_string(last));
    }
    return out;
}

namespace {

/// Ranks below the stated world size that the session holds nothing of: the gaps between the
/// ranks present, so that a bogus world size in a file costs nothing in memory or time.
void findMissingRanks(const model::Session &session, ClusterAnalysis &c)
{
    for (const auto &t : session.traces)
        c.worldSize = std::max(c.worldSize, t->metadata.worldSize);
    if (c.worldSize <= 0)
        return;
    std::vector<std::int32_t> present;
    for (const auto &t : session.traces)
        present.push_back(t->rank);
    for (const auto &r : c.ranks)
        present.push_back(r.rank);
    std::sort(present.begin(), present.end());
    present.erase(std::unique(present.begin(), present.end()), present.end());
    std::int64_t next = 0; // the first rank not yet accounted for
    const auto gapTo = [&](std::int64_t end) { // ranks [next, end) are missing
        if (end > next) {
            c.missingRanks.emplace_back(
                static_cast<std::int32_t>(next), static_cast<std::int32_t>(end - 1));
            c.missingRankCount += end - next;
        }
    };
    for (const std::int32_t r : present) {
        if (r < 0 || r >= c.worldSize)
            continue;
        gapTo(r);
        next = static_cast<std::int64_t>(r) + 1;
    }
    gapTo(c.worldSize);
}

} // namespace

ClusterAnalysis analyzeCluster(
    const model::Session &session, const std::vector<StepBreakdown> &breakdowns)
{
    ClusterAnalysis c;
    c.stepSource = session.clusterSteps.empty() ? "rank step tables and timelines"
                                                : "cluster_step_trace_time.csv";
    c.matrix = buildMatrix(breakdowns);
    c.ranks = buildRows(session, c.matrix);
    addDeviations(c.ranks);
    c.stages = findStages(session);
    const auto stageOf = stageOfRanks(c.stages, c.matrix);
    for (std::size_t i = 0; i < c.ranks.size(); ++i)
        c.ranks[i].stage = stageOf[i];
    fillStageFigures(c.stages, c.matrix, stageOf);
    c.stragglers = detail::findStragglers(c.matrix, stageOf, c.stragglerK, c.stragglerMinFraction);
    detail::summariseStragglers(c.stragglers, c.ranks);
    c.groups = detail::communicationGroups(session);
    c.shares = computeShares(breakdowns);
    findMissingRanks(session, c);
    for (const auto &r : c.ranks) {
        if (r.stepCount == 0)
            continue;
        ++c.rankCount;
        if (r.hasTimeline)
            ++c.timelineRanks;
        if (!c.slowestRank || r.stepMeanNs > c.row(*c.slowestRank)->stepMeanNs)
            c.slowestRank = r.rank;
    }
    return c;
}

std::int32_t defaultCompareRank(
    const model::Session &session, const std::vector<StepBreakdown> &breakdowns)
{
    // Mean step time per rank, linear in the breakdowns.
    std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>> sums; // rank -> (sum, n)
    for (const auto &b : breakdowns) {
        auto &s = sums[b.rank];
        s.first = util::satAdd(s.first, b.durationNs());
        ++s.second;
    }
    std::optional<std::int32_t> best;
    double bestMean = -1;
    for (const auto &[rank, s] : sums) {
        const double mean = static_cast<double>(s.first) / static_cast<double>(s.second);
        if (mean > bestMean) {
            bestMean = mean;
            best = rank;
        }
    }
    if (best)
        return *best;
    return session.traces.empty() ? 0 : session.traces.front()->rank;
}

} // namespace stepscope::analysis
