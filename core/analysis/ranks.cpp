// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ranks.h"

#include "commlanes.h"
#include "util/saturate.h"

#include <algorithm>
#include <map>
#include <string>

namespace stepscope::analysis {

namespace {

/// Absolute end times of each communication op, keyed by (name, occurrence).
using CollectiveEnds = std::map<std::pair<std::string, std::int64_t>, std::int64_t>;

CollectiveEnds collectiveEnds(const model::Trace &trace)
{
    // Communication ops: the top row of communication-group lanes when the trace has them,
    // else communication kernels on device streams.
    const bool groups = hasCommunicationLanes(trace);
    std::vector<std::pair<std::int64_t, std::pair<std::string, std::int64_t>>>
        events; // start, (name, end)
    for (const auto &t : trace.tracks) {
        const auto kind = t.info().kind;
        if (groups ? kind != model::TrackKind::CommunicationGroup
                   : kind != model::TrackKind::DeviceStream)
            continue;
        if (t.rowCount() == 0)
            continue;
        for (std::uint32_t i = t.rowBegin(0); i < t.rowEnd(0); ++i) {
            if (t.category(i) != model::Category::Communication)
                continue;
            events.push_back({t.start(i),
                {std::string(trace.strings.view(t.name(i))),
                    util::satAdd(trace.originNs, t.end(i))}});
        }
    }
    std::sort(events.begin(), events.end());
    CollectiveEnds ends;
    std::map<std::string, std::int64_t> seen;
    for (const auto &[start, ne] : events) {
        const std::int64_t k = seen[ne.first]++;
        ends[{ne.first, k}] = ne.second;
    }
    return ends;
}

std::int64_t median(std::vector<std::int64_t> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    if (n == 0)
        return 0;
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

} // namespace

std::vector<ClockOffset> estimateClockOffsets(const model::Session &session)
{
    std::vector<ClockOffset> out;
    if (session.traces.empty())
        return out;
    const CollectiveEnds ref = collectiveEnds(*session.traces.front());
    for (std::size_t i = 0; i < session.traces.size(); ++i) {
        ClockOffset o;
        o.rank = session.traces[i]->rank;
        if (i == 0) {
            o.known = true;
            out.push_back(o);
            continue;
        }
        const CollectiveEnds mine = collectiveEnds(*session.traces[i]);
        std::vector<std::int64_t> diffs;
        for (const auto &[key, end] : mine) {
            auto it = ref.find(key);
            if (it != ref.end())
                diffs.push_back(util::satSub(it->second, end));
        }
        o.matched = static_cast<std::int64_t>(diffs.size());
        if (!diffs.empty()) {
            o.offsetNs = median(diffs);
            std::vector<std::int64_t> deviations;
            deviations.reserve(diffs.size());
            for (auto d : diffs)
                deviations.push_back(
                    d > o.offsetNs ? util::satSub(d, o.offsetNs) : util::satSub(o.offsetNs, d));
            o.spreadNs = median(std::move(deviations));
            o.known = o.spreadNs <= 1'000'000;
            if (!o.known)
                o.offsetNs = 0;
        }
        out.push_back(o);
    }
    return out;
}

RankTable computeRankTable(
    const model::Session &session, const std::vector<StepBreakdown> &breakdowns)
{
    RankTable table;
    std::map<std::int32_t, std::vector<const StepBreakdown *>> byRank;
    for (const auto &t : session.traces)
        byRank[t->rank];
    for (const auto &b : breakdowns)
        byRank[b.rank].push_back(&b);
    // One lookup per rank (the table was quadratic in ranks when it scanned the offsets).
    std::map<std::int32_t, ClockOffset> offsets;
    for (const auto &o : estimateClockOffsets(session))
        offsets.emplace(o.rank, o);
    for (const auto &[rank, steps] : byRank) {
        RankStats r;
        r.rank = rank;
        r.stepCount = static_cast<std::int64_t>(steps.size());
        std::vector<std::int64_t> durations;
        std::int64_t sum = 0, compute = 0, exposed = 0, freeNs = 0, bubble = 0;
        for (const auto *s : steps) {
            durations.push_back(s->durationNs());
            sum = util::satAdd(sum, s->durationNs()); // damaged times: held at the limit
            compute = util::satAdd(compute, s->computeNs);
            exposed = util::satAdd(exposed, s->commExposedNs);
            freeNs = util::satAdd(freeNs, s->freeNs);
            bubble = util::satAdd(bubble, s->bubbleNs);
        }
        if (!steps.empty()) {
            const auto n = static_cast<std::int64_t>(steps.size());
            r.stepMeanNs = sum / n;
            r.stepMedianNs = median(durations);
            r.stepMaxNs = *std::max_element(durations.begin(), durations.end());
            r.computeMeanNs = compute / n;
            r.commExposedMeanNs = exposed / n;
            r.freeMeanNs = freeNs / n;
            r.bubbleMeanNs = bubble / n;
        }
        if (const auto it = offsets.find(rank); it != offsets.end()) {
            const ClockOffset &o = it->second;
            r.clockOffsetNs = o.offsetNs;
            r.offsetKnown = o.known;
            r.matchedCollectives = o.matched;
            r.clockSpreadNs = o.spreadNs;
        }
        table.ranks.push_back(r);
    }
    std::vector<std::int64_t> means;
    for (const auto &r : table.ranks) {
        if (r.stepCount > 0)
            means.push_back(r.stepMeanNs);
    }
    if (means.size() < 2)
        return table;
    const std::int64_t med = median(means);
    const RankStats *slowest = nullptr;
    for (const auto &r : table.ranks) {
        if (r.stepCount == 0)
            continue;
        if (!slowest || r.stepMeanNs > slowest->stepMeanNs)
            slowest = &r;
    }
    table.slowestRank = slowest->rank;
    table.slowestMarginNs = slowest->stepMeanNs - med;
    table.slowestMarginFraction =
        med > 0 ? static_cast<double>(table.slowestMarginNs) / static_cast<double>(med) : 0.0;
    return table;
}

} // namespace stepscope::analysis
