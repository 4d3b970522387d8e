// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "namestats.h"

#include "util/saturate.h"

#include <algorithm>
#include <limits>
#include <map>

namespace stepscope::analysis {

namespace {

bool inScope(const model::Track &track, std::uint32_t i, OpScope scope)
{
    model::Category c = track.category(i);
    if (scope == OpScope::DeviceKernels)
        return c == model::Category::Compute || c == model::Category::Communication
            || c == model::Category::Memcpy || c == model::Category::Memset;
    return c == model::Category::HostOp;
}

bool trackInScope(const model::Track &track, OpScope scope)
{
    return scope == OpScope::DeviceKernels ? track.info().kind == model::TrackKind::DeviceStream
                                           : track.info().kind == model::TrackKind::HostThread;
}

struct Collected
{
    std::vector<std::pair<std::string, NameStats>> byName; ///< sorted by name
    std::int64_t totalNs = 0;
    std::int64_t count = 0;
};

Collected collect(const model::Trace &trace, OpScope scope,
    std::optional<std::pair<std::int64_t, std::int64_t>> window)
{
    // Accumulate by interned id first (a slot per string id: one indexed load per event, where
    // a hash map costs tens of ns on tens of millions of kernels), then resolve names once.
    constexpr std::uint32_t NoSlot = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> slot(trace.strings.size(), NoSlot);
    std::vector<std::pair<model::StringId, NameStats>> byId;
    Collected out;
    for (std::size_t t = 0; t < trace.tracks.size(); ++t) {
        const model::Track &track = trace.tracks[t];
        if (!trackInScope(track, scope))
            continue;
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            if (!inScope(track, i, scope))
                continue;
            if (window && (track.start(i) < window->first || track.start(i) >= window->second))
                continue;
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
            }
            NameStats &s = byId[k].second;
            ++s.count;
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
        }
    }
    // Ids of equal text cannot differ, but be safe: merge by text.
    std::map<std::string, NameStats> byName;
    for (const auto &[id, s] : byId) {
        auto [it, fresh] = byName.try_emplace(std::string(trace.strings.view(id)), s);
        if (fresh)
            continue;
        NameStats &m = it->second;
        m.count += s.count;
        m.totalNs = util::satAdd(m.totalNs, s.totalNs);
        m.minNs = std::min(m.minNs, s.minNs);
        if (s.maxNs > m.maxNs || (s.maxNs == m.maxNs && s.longest < m.longest)) {
            m.maxNs = s.maxNs;
            m.longest = s.longest;
            m.category = s.category;
        }
    }
    out.byName.reserve(byName.size());
    for (auto &[name, s] : byName) {
        s.meanNs = s.count > 0 ? static_cast<double>(s.totalNs) / static_cast<double>(s.count) : 0;
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

KernelSummary summarizeKernels(const model::Trace &trace, std::size_t maxListed)
{
    Collected c = collect(trace, OpScope::DeviceKernels, std::nullopt);
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
