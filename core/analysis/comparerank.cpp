// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Which rank each side of a comparison shows, and the per-rank deltas of two clusters
// (compare.h).
#include "analysissummary.h"
#include "compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace stepscope::analysis {

namespace {

/// The breakdowns of every rank, in one pass (they are sorted by rank then step already;
/// a map keeps this true for any order).
std::map<std::int32_t, std::vector<StepBreakdown>> byRank(const SessionAnalysis &analysis)
{
    std::map<std::int32_t, std::vector<StepBreakdown>> out;
    for (const StepBreakdown &b : analysis.breakdowns)
        out[b.rank].push_back(b);
    return out;
}

} // namespace

std::string_view rankChoiceName(RankChoice choice)
{
    return choice == RankChoice::Requested ? "requested" : "slowest";
}

std::vector<std::int32_t> comparableRanks(
    const model::Session &session, const SessionAnalysis &analysis)
{
    std::vector<std::int32_t> out;
    out.reserve(session.traces.size());
    for (const auto &t : session.traces)
        out.push_back(t->rank);
    std::int32_t last = std::numeric_limits<std::int32_t>::min();
    bool any = false;
    for (const StepBreakdown &b : analysis.breakdowns) {
        if (any && b.rank == last)
            continue; // breakdowns come by rank: one push per run of a rank
        out.push_back(b.rank);
        last = b.rank;
        any = true;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void compareRanks(RunComparison &out, const SessionAnalysis &before, const SessionAnalysis &after)
{
    out.rankDeltas.clear();
    out.rankSteps = {};
    out.onlyBeforeRanks.clear();
    out.onlyAfterRanks.clear();
    std::set_difference(out.beforeRanks.begin(), out.beforeRanks.end(), out.afterRanks.begin(),
        out.afterRanks.end(), std::back_inserter(out.onlyBeforeRanks));
    std::set_difference(out.afterRanks.begin(), out.afterRanks.end(), out.beforeRanks.begin(),
        out.beforeRanks.end(), std::back_inserter(out.onlyAfterRanks));
    if (!out.bothClusters())
        return;
    const auto b = byRank(before);
    const auto a = byRank(after);
    // Pass 1: per-rank pairing and rows; the before step numbers seen in any pair.
    std::vector<StepPairing> pairings;
    std::vector<std::int64_t> steps;
    for (const auto &[rank, beforeSteps] : b) {
        const auto it = a.find(rank);
        if (it == a.end())
            continue;
        StepPairing pairing = pairSteps(beforeSteps, it->second);
        RankDelta d;
        d.rank = rank;
        d.pairs = pairing.pairs.size();
        d.rows = meanStepDeltaRows(beforeSteps, it->second, pairing);
        for (const StepPair &p : pairing.pairs)
            steps.push_back(p.beforeStep);
        out.rankDeltas.push_back(std::move(d));
        pairings.push_back(std::move(pairing));
    }
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    // Pass 2: the matrix.
    RankStepDeltas &m = out.rankSteps;
    m.steps = steps;
    m.deltaUs.assign(out.rankDeltas.size() * steps.size(), std::nan(""));
    for (std::size_t row = 0; row < out.rankDeltas.size(); ++row) {
        const std::int32_t rank = out.rankDeltas[row].rank;
        m.ranks.push_back(rank);
        const std::vector<StepBreakdown> &bs = b.at(rank);
        const std::vector<StepBreakdown> &as = a.at(rank);
        for (const StepPair &p : pairings[row].pairs) {
            const auto col = static_cast<std::size_t>(
                std::lower_bound(steps.begin(), steps.end(), p.beforeStep) - steps.begin());
            m.deltaUs[row * steps.size() + col] =
                (static_cast<double>(as[p.afterIndex].durationNs())
                    - static_cast<double>(bs[p.beforeIndex].durationNs()))
                / 1000.0; // in double: the int64 difference of two step times can overflow
        }
    }
}

} // namespace stepscope::analysis
