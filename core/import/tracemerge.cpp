// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/tracemerge.h"

#include "model/tracebuilder.h"
#include "util/saturate.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace stepscope::import {

namespace {

using model::Trace;

using TrackKey = std::tuple<int, std::int32_t, std::string, std::string, std::string, std::string>;

TrackKey keyOf(const model::TrackInfo &info)
{
    return {static_cast<int>(info.kind), info.rank, info.processId, info.processName, info.threadId,
        info.threadName};
}

/// Earliest time (relative to the trace's origin) of anything drawn: events, steps, memory.
std::int64_t earliest(const Trace &t)
{
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    if (t.eventCount() > 0)
        lo = t.extent().first;
    for (const model::Step &s : t.steps)
        lo = std::min(lo, s.startNs);
    if (!t.memory.categories.timestampsNs.empty())
        lo = std::min(lo, t.memory.categories.timestampsNs.front());
    for (const model::MemoryCurve &c : t.memory.curves) {
        if (!c.timestampsNs.empty())
            lo = std::min(lo, c.timestampsNs.front());
    }
    for (const model::CounterSeries &c : t.counters) {
        if (!c.timestampsNs.empty())
            lo = std::min(lo, c.timestampsNs.front());
    }
    return lo == std::numeric_limits<std::int64_t>::max() ? 0 : lo;
}

/// Times of parts read from files are shifted with saturation: a damaged file's time near
/// the int64 limits is held there, never overflowed (undefined behaviour).
void shiftAll(std::vector<std::int64_t> &v, std::int64_t delta)
{
    for (std::int64_t &x : v)
        x = util::satAdd(x, delta);
}

void mergeMetadata(model::RunMetadata &into, model::RunMetadata &&from)
{
    const auto take = [](std::string &a, std::string &b) {
        if (a.empty())
            a = std::move(b);
    };
    take(into.format, from.format);
    take(into.device, from.device);
    take(into.deviceId, from.deviceId);
    take(into.profilerLevel, from.profilerLevel);
    into.worldSize = std::max(into.worldSize, from.worldSize);
    for (std::string &f : from.sourceFiles)
        into.sourceFiles.push_back(std::move(f));
    for (auto &[k, v] : from.extra)
        into.extra.emplace(k, std::move(v));
}

void mergeMemory(model::MemoryData &into, model::MemoryData &&from, std::int64_t delta)
{
    for (model::MemoryCurve &c : from.curves) {
        shiftAll(c.timestampsNs, delta);
        into.curves.push_back(std::move(c));
    }
    auto &cat = from.categories;
    shiftAll(cat.timestampsNs, delta);
    if (into.categories.timestampsNs.empty()) {
        into.categories = std::move(cat);
    } else if (!cat.timestampsNs.empty()
        && cat.timestampsNs.front() >= into.categories.timestampsNs.back()) {
        // Two captures one after the other: continue the timeline.
        auto &dst = into.categories;
        dst.timestampsNs.insert(
            dst.timestampsNs.end(), cat.timestampsNs.begin(), cat.timestampsNs.end());
        for (std::size_t c = 0; c < dst.bytes.size(); ++c)
            dst.bytes[c].insert(dst.bytes[c].end(), cat.bytes[c].begin(), cat.bytes[c].end());
    }
    for (model::Allocation &a : from.allocations) {
        a.allocatedNs = util::satAdd(a.allocatedNs, delta);
        if (a.releasedNs >= 0)
            a.releasedNs = util::satAdd(a.releasedNs, delta);
        into.allocations.push_back(std::move(a));
    }
    for (model::ModuleMemory &m : from.modules) {
        shiftAll(m.timestampsNs, delta);
        into.modules.push_back(std::move(m));
    }
    for (model::StaticAllocation &s : from.staticAllocations)
        into.staticAllocations.push_back(std::move(s));
}

template <typename T> void appendAll(std::vector<T> &into, std::vector<T> &from)
{
    for (T &x : from)
        into.push_back(std::move(x));
}

} // namespace

model::Trace mergeTraces(std::vector<TracePart> parts, std::int32_t rank)
{
    if (parts.empty()) {
        Trace t;
        t.rank = rank;
        t.metadata.rank = rank;
        return t;
    }
    if (parts.size() == 1) {
        Trace t = std::move(parts.front().trace);
        t.rank = rank;
        t.metadata.rank = rank;
        return t;
    }

    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    for (const TracePart &p : parts) {
        if (p.sameClock)
            origin = std::min(origin, p.trace.originNs);
    }
    if (origin == std::numeric_limits<std::int64_t>::max())
        origin = parts.front().trace.originNs;
    // Where the same-clock parts start, relative to the merged origin.
    std::int64_t anchor = std::numeric_limits<std::int64_t>::max();
    for (const TracePart &p : parts) {
        if (p.sameClock)
            anchor = std::min(
                anchor, util::satAdd(util::satSub(p.trace.originNs, origin), earliest(p.trace)));
    }
    if (anchor == std::numeric_limits<std::int64_t>::max())
        anchor = 0;

    model::TraceBuilder builder;
    Trace &out = builder.trace();
    out.originNs = origin;
    out.rank = rank;
    std::map<TrackKey, model::TrackId> trackOf;

    for (TracePart &part : parts) {
        Trace &src = part.trace;
        const std::int64_t delta = part.sameClock ? util::satSub(src.originNs, origin)
                                                  : util::satSub(anchor, earliest(src));
        std::vector<model::TrackId> newTrack(src.tracks.size());
        std::vector<std::vector<std::uint32_t>> provisional(src.tracks.size());
        std::vector<model::StringId> names(src.strings.size());
        std::vector<bool> haveName(src.strings.size(), false);
        const auto name = [&](model::StringId id) {
            if (!id.isValid() || id.value() >= names.size())
                return model::StringId(0);
            if (!haveName[id.value()]) {
                names[id.value()] = builder.intern(src.strings.view(id));
                haveName[id.value()] = true;
            }
            return names[id.value()];
        };
        for (std::size_t ti = 0; ti < src.tracks.size(); ++ti) {
            const model::Track &track = src.tracks[ti];
            model::TrackInfo info = track.info();
            info.rank = rank;
            const TrackKey key = keyOf(info);
            auto it = trackOf.find(key);
            if (it == trackOf.end())
                it = trackOf.emplace(key, builder.addTrack(info)).first;
            newTrack[ti] = it->second;
            model::TrackBuilder &tb = builder.track(it->second);
            provisional[ti].resize(track.size());
            for (std::uint32_t i = 0; i < track.size(); ++i) {
                model::ArgsId args;
                if (track.args(i).isValid())
                    args = out.args.addFrom(src.args, track.args(i));
                provisional[ti][i] = tb.add(util::satAdd(track.start(i), delta), track.duration(i),
                    name(track.name(i)), track.category(i), args, track.isUnfinished(i));
            }
        }
        for (const model::Flow &f : src.flows) {
            const std::uint32_t a = f.from.track.value();
            const std::uint32_t b = f.to.track.value();
            builder.addFlow(model::EventRef {newTrack[a], provisional[a][f.from.index]},
                model::EventRef {newTrack[b], provisional[b][f.to.index]}, name(f.category));
        }
        const auto moved = [&](model::EventRef r) {
            const std::uint32_t t = r.track.value();
            return model::EventRef {newTrack[t], provisional[t][r.index]};
        };
        src.eventIds.forEach([&](model::EventIds ids) {
            ids.event = moved(ids.event);
            builder.addEventIds(ids);
        });
        for (model::AllocatorEvent e : src.memory.allocatorEvents) {
            e.event = moved(e.event);
            builder.addAllocatorEvent(e);
        }
        for (model::Step s : src.steps) {
            s.startNs = util::satAdd(s.startNs, delta);
            s.endNs = util::satAdd(s.endNs, delta);
            out.steps.push_back(s);
        }
        for (model::CounterSeries &c : src.counters) {
            shiftAll(c.timestampsNs, delta);
            auto same = std::find_if(
                out.counters.begin(), out.counters.end(), [&](const model::CounterSeries &o) {
                    return o.process == c.process && o.name == c.name && o.key == c.key;
                });
            if (same == out.counters.end()) {
                out.counters.push_back(std::move(c));
            } else {
                // TraceBuilder::finish sorts counter points by time.
                same->timestampsNs.insert(
                    same->timestampsNs.end(), c.timestampsNs.begin(), c.timestampsNs.end());
                same->values.insert(same->values.end(), c.values.begin(), c.values.end());
            }
        }
        mergeMemory(out.memory, std::move(src.memory), delta);
        appendAll(out.referenceSteps, src.referenceSteps);
        appendAll(out.collectives, src.collectives);
        appendAll(out.commMatrix, src.commMatrix);
        appendAll(out.opStatistics, src.opStatistics);
        appendAll(out.parallelGroups, src.parallelGroups);
        mergeMetadata(out.metadata, std::move(src.metadata));
        src = Trace(); // free the part as soon as it is copied
    }
    out.metadata.rank = rank;
    Trace result = builder.finish().trace;
    result.rank = rank;
    return result;
}

} // namespace stepscope::import
