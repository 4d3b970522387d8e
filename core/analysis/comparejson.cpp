// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// compareJson: `stepscope compare --json`, every number from RunComparison.
#include "compareoutput.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace stepscope::analysis {

namespace {

nlohmann::json optional(const std::optional<double> &v)
{
    return v ? nlohmann::json(*v) : nlohmann::json();
}

std::string_view betterName(Better b)
{
    switch (b) {
    case Better::Lower:
        return "lower";
    case Better::Higher:
        return "higher";
    case Better::Neither:
        break;
    }
    return "neither";
}

nlohmann::json rowsJson(const std::vector<DeltaRow> &rows)
{
    nlohmann::json out = nlohmann::json::array();
    for (const DeltaRow &r : rows) {
        out.push_back({{"key", r.key}, {"label", rowTitle(r)}, {"unit", r.unit},
            {"before", optional(r.before)}, {"after", optional(r.after)},
            {"delta", optional(r.delta)}, {"percent", optional(r.percent)},
            {"better", std::string(betterName(r.better))},
            {"verdict", std::string(verdictName(r.verdict))}});
    }
    return out;
}

nlohmann::json statsJson(const NameStats &s)
{
    nlohmann::json j = {
        {"count", s.count}, {"total_ns", s.totalNs}, {"mean_ns", s.meanNs}, {"share", s.share}};
    // Durations of instances: none on a side without the name.
    const bool any = s.count > 0;
    j["median_ns"] = any ? nlohmann::json(s.medianNs) : nlohmann::json();
    j["min_ns"] = any ? nlohmann::json(s.minNs) : nlohmann::json();
    j["max_ns"] = any ? nlohmann::json(s.maxNs) : nlohmann::json();
    j["stddev_ns"] = any ? nlohmann::json(s.stddevNs) : nlohmann::json();
    return j;
}

nlohmann::json namesJson(const NameDeltaTable &t)
{
    const auto list = [](const std::vector<NameDelta> &names) {
        nlohmann::json out = nlohmann::json::array();
        for (const NameDelta &d : names) {
            out.push_back({{"name", d.name}, {"before", statsJson(d.before)},
                {"after", statsJson(d.after)}, {"delta_total_ns", d.deltaTotalNs},
                {"only_before", d.onlyBefore}, {"only_after", d.onlyAfter}});
        }
        return out;
    };
    return {{"top", list(t.top)}, {"only_before", list(t.onlyBefore)},
        {"only_after", list(t.onlyAfter)}, {"total_before_ns", t.totalBeforeNs},
        {"total_after_ns", t.totalAfterNs}, {"name_count_before", t.nameCountBefore},
        {"name_count_after", t.nameCountAfter}};
}

nlohmann::json bottlenecksJson(const std::vector<Bottleneck> &list)
{
    nlohmann::json out = nlohmann::json::array();
    for (const Bottleneck &b : list)
        out.push_back({{"kind", std::string(bottleneckKindKey(b.kind))}, {"share", b.share},
            {"evidence", b.evidence}});
    return out;
}

nlohmann::json lossJson(const RunComparison &c)
{
    if (!c.loss)
        return nullptr;
    const LossComparison &l = *c.loss;
    return {{"common_steps", l.points.size()}, {"only_before_steps", l.onlyBeforeCount},
        {"only_after_steps", l.onlyAfterCount}, {"max_abs_delta", optional(l.maxAbsDelta)},
        {"max_abs_delta_step", l.maxAbsDeltaStep}, {"max_relative", optional(l.maxRelative)},
        {"max_relative_step", l.maxRelativeStep}, {"final_relative", optional(l.finalRelative)},
        {"final_abs_delta", optional(l.finalAbsDelta)}, {"final_step", l.finalStep}};
}

nlohmann::json optionalRank(const std::optional<std::int32_t> &rank)
{
    return rank ? nlohmann::json(*rank) : nlohmann::json();
}

// Both runs clusters: per-rank rows and the rank × step matrix (null cells: no pair).
void addRankDeltas(nlohmann::json &j, const RunComparison &c)
{
    nlohmann::json ranks = nlohmann::json::array();
    for (const RankDelta &d : c.rankDeltas)
        ranks.push_back({{"rank", d.rank}, {"pairs", d.pairs}, {"rows", rowsJson(d.rows)}});
    j["rank_deltas"] = std::move(ranks);
    const RankStepDeltas &m = c.rankSteps;
    nlohmann::json matrix = nlohmann::json::array();
    for (std::size_t row = 0; row < m.ranks.size(); ++row) {
        nlohmann::json cells = nlohmann::json::array();
        for (std::size_t col = 0; col < m.steps.size(); ++col) {
            const double v = m.at(row, col);
            cells.push_back(std::isnan(v) ? nlohmann::json() : nlohmann::json(v));
        }
        matrix.push_back(std::move(cells));
    }
    j["rank_step_deltas"] = {
        {"ranks", m.ranks}, {"before_steps", m.steps}, {"step_time_delta_us", std::move(matrix)}};
    j["only_before_ranks"] = c.onlyBeforeRanks;
    j["only_after_ranks"] = c.onlyAfterRanks;
}

} // namespace

nlohmann::json compareJson(
    const RunComparison &c, const CompareRunInfo &before, const CompareRunInfo &after)
{
    nlohmann::json j;
    j["before"] = {{"name", before.name}, {"path", before.path}, {"format", before.format},
        {"rank", c.beforeRank}, {"rank_choice", std::string(rankChoiceName(c.beforeRankChoice))},
        {"rank_missing", optionalRank(c.beforeRankMissing)}, {"ranks", c.beforeRanks},
        {"rank_has_trace", c.beforeHasTrace}, {"log", c.beforeLogSource}};
    j["after"] = {{"name", after.name}, {"path", after.path}, {"format", after.format},
        {"rank", c.afterRank}, {"rank_choice", std::string(rankChoiceName(c.afterRankChoice))},
        {"rank_missing", optionalRank(c.afterRankMissing)}, {"ranks", c.afterRanks},
        {"rank_has_trace", c.afterHasTrace}, {"log", c.afterLogSource}};
    j["pairing"] = std::string(pairingModeName(c.pairing.mode));
    j["step_notes"] = c.stepNotes;
    j["step_times_comparable"] = c.stepTimesComparable();
    j["kpis"] = rowsJson(c.kpiRows);
    j["mean_step"] = rowsJson(c.meanStepRows);
    nlohmann::json steps = nlohmann::json::array();
    for (std::size_t i = 0; i < c.pairing.pairs.size() && i < c.pairRows.size(); ++i) {
        const StepPair &p = c.pairing.pairs[i];
        steps.push_back({{"before_step", p.beforeStep}, {"after_step", p.afterStep},
            {"rows", rowsJson(c.pairRows[i])}});
    }
    j["steps"] = std::move(steps);
    j["memory"] = rowsJson(c.memoryRows);
    j["bottlenecks"] = rowsJson(c.bottleneckRows);
    j["bottlenecks_before"] = bottlenecksJson(c.beforeBottlenecks);
    j["bottlenecks_after"] = bottlenecksJson(c.afterBottlenecks);
    j["per_paired_step"] = c.perPairedStep;
    j["kernels"] = namesJson(c.kernels);
    j["host_ops"] = namesJson(c.ops);
    j["loss"] = lossJson(c);
    nlohmann::json cross = nlohmann::json::array();
    for (const TrainingDelta &r : c.crossCheck)
        cross.push_back({{"name", r.label}, {"rank", r.rank}, {"statistic", r.statistic},
            {"row", rowsJson({deltaRowOf(r)}).front()}});
    j["cross_check"] = std::move(cross);
    addRankDeltas(j, c);
    return j;
}

} // namespace stepscope::analysis
