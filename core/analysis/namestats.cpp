// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "namestats.h"

#include "commlanes.h"
#include "util/saturate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace stepscope::analysis {

namespace {

/// With `opLanes`, a device stream's communication tasks are the pieces of the operators on
/// the trace's communication lanes (HCCL's Notify Wait, Write Value, SDMA, event waits), not
/// kernels: the profiler's kernel table lists the operators, and the DB export puts the
/// pieces on the lanes alone.
bool inScope(const model::Track &track, std::uint32_t i, OpScope scope, bool opLanes)
{
    model::Category c = track.category(i);
    if (scope == OpScope::DeviceKernels)
        return c == model::Category::Compute || c == model::Category::Memcpy
            || c == model::Category::Memset || (c == model::Category::Communication && !opLanes);
    return c == model::Category::HostOp;
}

bool trackInScope(const model::Track &track, OpScope scope)
{
    return scope == OpScope::DeviceKernels ? track.info().kind == model::TrackKind::DeviceStream
                                           : track.info().kind == model::TrackKind::HostThread;
}

/// Running mean and sum of squared deviations of one name's durations (Welford): exact enough
/// where the variance is tiny beside the mean, where sum-of-squares cancels.
struct Moments
{
    double mean = 0;
    double m2 = 0;
    void add(double x, std::int64_t count)
    {
        const double delta = x - mean;
        mean += delta / static_cast<double>(count);
        m2 += delta * (x - mean);
    }
    /// Both parts' moments as one (Chan et al.); `n` and `m` their counts.
    void merge(const Moments &o, std::int64_t n, std::int64_t m)
    {
        const double total = static_cast<double>(n + m);
        const double delta = o.mean - mean;
        mean += delta * static_cast<double>(m) / total;
        m2 += o.m2 + delta * delta * static_cast<double>(n) * static_cast<double>(m) / total;
    }
};

struct Collected
{
    std::vector<std::pair<std::string, NameStats>> byName; ///< sorted by name
    std::int64_t totalNs = 0;
    std::int64_t count = 0;
};

/// The median of `values` (reordered): the middle one, or the mean of the two middle ones.
double median(std::int64_t *first, std::int64_t *last)
{
    const std::ptrdiff_t n = last - first;
    if (n == 0)
        return 0;
    std::int64_t *upper = first + n / 2;
    std::nth_element(first, upper, last);
    if (n % 2 == 1)
        return static_cast<double>(*upper);
    const std::int64_t lower = *std::max_element(first, upper);
    return (static_cast<double>(lower) + static_cast<double>(*upper)) / 2;
}

Collected collect(const model::Trace &trace, OpScope scope,
    std::optional<std::pair<std::int64_t, std::int64_t>> window)
{
    const bool opLanes = scope == OpScope::DeviceKernels && hasCommunicationLanes(trace);
    // Calls fn(trackIndex, track, i) for every event in scope, in track order.
    const auto forEach = [&](auto &&fn) {
        for (std::size_t t = 0; t < trace.tracks.size(); ++t) {
            const model::Track &track = trace.tracks[t];
            if (!trackInScope(track, scope))
                continue;
            for (std::uint32_t i = 0; i < track.size(); ++i) {
                if (!inScope(track, i, scope, opLanes))
                    continue;
                if (window && (track.start(i) < window->first || track.start(i) >= window->second))
                    continue;
                fn(t, track, i);
            }
        }
    };
    // Accumulate by interned id first (a slot per string id: one indexed load per event, where
    // a hash map costs tens of ns on tens of millions of kernels), then resolve names once.
    constexpr std::uint32_t NoSlot = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> slot(trace.strings.size(), NoSlot);
    std::vector<std::pair<model::StringId, NameStats>> byId;
    std::vector<Moments> moments; // beside byId
    Collected out;
    forEach([&](std::size_t t, const model::Track &track, std::uint32_t i) {
        const model::StringId name = track.name(i);
        if (name.value() >= slot.size())
            slot.resize(static_cast<std::size_t>(name.value()) + 1, NoSlot);
        std::uint32_t &k = slot[name.value()];
        const std::int64_t d = track.duration(i);
        if (k == NoSlot) {
            k = static_cast<std::uint32_t>(byId.size());
            NameStats first;
            first.minNs = d;
            first.maxNs = d;
            first.longest = model::EventRef {model::TrackId(static_cast<std::uint32_t>(t)), i};
            first.category = track.category(i);
            byId.emplace_back(name, first);
            moments.emplace_back();
        }
        NameStats &s = byId[k].second;
        ++s.count;
        moments[k].add(static_cast<double>(d), s.count);
        // Saturated: durations come from files (a few near INT64_MAX must not wrap).
        s.totalNs = util::satAdd(s.totalNs, d);
        s.minNs = std::min(s.minNs, d);
        if (d > s.maxNs) {
            s.maxNs = d;
            s.longest = model::EventRef {model::TrackId(static_cast<std::uint32_t>(t)), i};
            s.category = track.category(i);
        }
        out.totalNs = util::satAdd(out.totalNs, d);
        ++out.count;
    });
    // Ids of equal text cannot differ, but be safe: merge by text.
    std::map<std::string, std::size_t> groups; // name -> index into merged
    std::vector<std::pair<NameStats, Moments>> merged;
    std::vector<std::size_t> groupOf(byId.size());
    for (std::size_t k = 0; k < byId.size(); ++k) {
        const auto &[id, s] = byId[k];
        const auto [it, fresh] =
            groups.try_emplace(std::string(trace.strings.view(id)), merged.size());
        groupOf[k] = it->second;
        if (fresh) {
            merged.emplace_back(s, moments[k]);
            continue;
        }
        auto &[m, mm] = merged[it->second];
        mm.merge(moments[k], m.count, s.count);
        m.count += s.count;
        m.totalNs = util::satAdd(m.totalNs, s.totalNs);
        m.minNs = std::min(m.minNs, s.minNs);
        if (s.maxNs > m.maxNs || (s.maxNs == m.maxNs && s.longest < m.longest)) {
            m.maxNs = s.maxNs;
            m.longest = s.longest;
            m.category = s.category;
        }
    }
    // Medians: each name's durations side by side (one array of 8 bytes per event, filled by
    // a counting sort over the names), then the middle of each name's run.
    std::vector<std::size_t> fill(merged.size() + 1, 0);
    for (std::size_t g = 0; g < merged.size(); ++g)
        fill[g + 1] = fill[g] + static_cast<std::size_t>(merged[g].first.count);
    const std::vector<std::size_t> runs = fill;
    std::vector<std::int64_t> durations(fill.back());
    forEach([&](std::size_t, const model::Track &track, std::uint32_t i) {
        durations[fill[groupOf[slot[track.name(i).value()]]]++] = track.duration(i);
    });
    out.byName.reserve(groups.size());
    for (const auto &[name, g] : groups) {
        auto &[s, m] = merged[g];
        s.meanNs = s.count > 0 ? static_cast<double>(s.totalNs) / static_cast<double>(s.count) : 0;
        s.stddevNs =
            s.count > 1 ? std::sqrt(std::max(0.0, m.m2) / static_cast<double>(s.count - 1)) : 0.0;
        s.medianNs = median(durations.data() + runs[g], durations.data() + runs[g + 1]);
        s.share =
            out.totalNs > 0 ? static_cast<double>(s.totalNs) / static_cast<double>(out.totalNs) : 0;
        out.byName.emplace_back(name, s);
    }
    return out;
}

} // namespace

std::vector<std::pair<std::string, NameStats>> collectNameStats(const model::Trace &trace,
    OpScope scope, std::optional<std::pair<std::int64_t, std::int64_t>> window)
{
    return collect(trace, scope, window).byName;
}

KernelSummary summarizeKernels(const model::Trace &trace, std::size_t maxListed,
    std::optional<std::pair<std::int64_t, std::int64_t>> window)
{
    Collected c = collect(trace, OpScope::DeviceKernels, window);
    KernelSummary out;
    out.rank = trace.rank;
    out.totalNs = c.totalNs;
    out.count = c.count;
    out.nameCount = c.byName.size();
    const auto larger = [](const auto &a, const auto &b) {
        return a.second.totalNs != b.second.totalNs ? a.second.totalNs > b.second.totalNs
                                                    : a.first < b.first;
    };
    const std::size_t kept = std::min(maxListed, c.byName.size());
    std::partial_sort(c.byName.begin(), c.byName.begin() + static_cast<std::ptrdiff_t>(kept),
        c.byName.end(), larger);
    c.byName.resize(kept);
    out.top = std::move(c.byName);
    if (window)
        return out;
    out.opTypes = trace.opStatistics;
    std::stable_sort(out.opTypes.begin(), out.opTypes.end(),
        [](const model::OpStatistic &a, const model::OpStatistic &b) {
            if (a.totalUs != b.totalUs)
                return a.totalUs > b.totalUs;
            return a.name != b.name ? a.name < b.name : a.coreType < b.coreType;
        });
    return out;
}

} // namespace stepscope::analysis
