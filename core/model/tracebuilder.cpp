// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "tracebuilder.h"

#include "util/parallel.h"
#include "util/release.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <numeric>
#include <stdexcept>

namespace stepscope::model {

TraceBuilder::TraceBuilder() = default;

TrackId TraceBuilder::addTrack(TrackInfo info)
{
    m_builders.emplace_back(std::move(info));
    return TrackId(static_cast<std::uint32_t>(m_builders.size() - 1));
}

void TraceBuilder::addFlow(EventRef from, EventRef to, StringId category)
{
    m_flows.push_back(Flow {from, to, category});
}

void TraceBuilder::addEventIds(const EventIds &ids)
{
    m_eventIds.push_back(ids);
}

void TraceBuilder::PendingIds::reserve(std::size_t n)
{
    m_track.reserve(n);
    m_index.reserve(n);
    m_correlation.reserve(n);
    m_externalId.reserve(n);
}

void TraceBuilder::PendingIds::push_back(const EventIds &ids)
{
    m_track.push_back(ids.event.track.value());
    m_index.push_back(ids.event.index);
    m_correlation.push_back(ids.correlation);
    m_externalId.push_back(ids.externalId);
}

EventIds TraceBuilder::PendingIds::operator[](std::size_t i) const
{
    return EventIds {EventRef {TrackId(m_track[i]), m_index[i]}, m_correlation[i], m_externalId[i]};
}

void TraceBuilder::addAllocatorEvent(const AllocatorEvent &event)
{
    m_allocatorEvents.push_back(event);
}

namespace {

/// A counter's points in time order (stable: equal times keep the order they came in).
void sortCounter(CounterSeries &c)
{
    std::vector<std::size_t> order(c.timestampsNs.size());
    std::iota(order.begin(), order.end(), std::size_t {0});
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return c.timestampsNs[a] < c.timestampsNs[b]; });
    CounterSeries sorted;
    sorted.timestampsNs.reserve(order.size());
    sorted.values.reserve(order.size());
    for (std::size_t k : order) {
        sorted.timestampsNs.push_back(c.timestampsNs[k]);
        sorted.values.push_back(c.values[k]);
    }
    c.timestampsNs = std::move(sorted.timestampsNs);
    c.values = std::move(sorted.values);
}

} // namespace

TraceBuilder::Result TraceBuilder::finish(bool keepEmptyTracks)
{
    Result result;
    const bool parallel = m_finishThreads > 1;
    // Tracks: sorted each on its own, the largest first, by this thread and (parallel) one
    // more; then kept in the order they were added.
    const std::size_t count = m_builders.size();
    std::vector<std::uint32_t> todo;
    std::vector<bool> kept(count, false);
    for (std::size_t i = 0; i < count; ++i) {
        kept[i] = m_builders[i].size() > 0 || keepEmptyTracks;
        if (kept[i])
            todo.push_back(static_cast<std::uint32_t>(i));
    }
    std::stable_sort(todo.begin(), todo.end(), [this](std::uint32_t a, std::uint32_t b) {
        return m_builders[a].size() > m_builders[b].size();
    });
    std::vector<TrackBuilder::Result> finished(count);
    std::atomic<std::size_t> taken {0};
    const auto finishTracks = [&] {
        for (std::size_t k; (k = taken.fetch_add(1, std::memory_order_relaxed)) < todo.size();)
            finished[todo[k]] = m_builders[todo[k]].finish();
    };
    util::runBoth(parallel && todo.size() > 1, finishTracks, finishTracks);
    std::vector<std::vector<std::uint32_t>> finalIndex(count);
    std::vector<TrackId> newId(count);
    for (std::size_t i = 0; i < count; ++i) {
        if (!kept[i])
            continue;
        TrackBuilder::Result &r = finished[i];
        result.partialOverlaps += r.partialOverlaps;
        finalIndex[i] = std::move(r.finalIndex);
        newId[i] = TrackId(static_cast<std::uint32_t>(m_trace.tracks.size()));
        m_trace.tracks.push_back(std::move(r.track));
    }
    util::release(finished);
    m_builders.clear();

    // Provisional -> final references; the rest reads finalIndex and newId only, so the event
    // ids (the longest part) are put in order on the other thread.
    const auto remap = [&](EventRef &r) {
        const std::uint32_t t = r.track.value();
        if (t >= newId.size() || !newId[t].isValid() || r.index >= finalIndex[t].size()) {
            assert(false && "an event reference must name an event added to this builder");
            return false;
        }
        r = EventRef {newId[t], finalIndex[t][r.index]};
        return true;
    };
    const auto flowsAndTheRest = [&] {
        m_trace.flows.reserve(m_flows.size());
        for (const Flow &f : m_flows) {
            EventRef from = f.from;
            EventRef to = f.to;
            if (!remap(from) || !remap(to)) {
                assert(false && "a flow must join two events added to this builder");
                continue;
            }
            m_trace.flows.push_back(Flow {from, to, f.category});
        }
        util::release(m_flows);
        auto &allocator = m_trace.memory.allocatorEvents;
        allocator.reserve(allocator.size() + m_allocatorEvents.size()); // no slack in the model
        for (AllocatorEvent &e : m_allocatorEvents) {
            if (remap(e.event))
                allocator.push_back(e);
        }
        util::release(m_allocatorEvents);
        std::stable_sort(allocator.begin(), allocator.end(),
            [](const AllocatorEvent &a, const AllocatorEvent &b) { return a.event < b.event; });
        std::stable_sort(m_trace.steps.begin(), m_trace.steps.end(),
            [](const Step &a, const Step &b) { return a.startNs < b.startNs; });
        for (CounterSeries &c : m_trace.counters)
            sortCounter(c);
    };
    const auto eventIds = [&] {
        // In event order, the first ids given for an event winning (EventIdTable::append
        // refuses the later ones): each entry's event as one dense key, the tracks' events one
        // after the other.
        std::vector<std::size_t> trackBase(m_trace.tracks.size() + 1, 0);
        for (std::size_t t = 0; t < m_trace.tracks.size(); ++t)
            trackBase[t + 1] = trackBase[t] + m_trace.tracks[t].size();
        const auto keyOf = [&](EventIds &e) {
            const bool any = e.correlation != -1 || e.externalId != -1; // else: no ids to keep
            return any && remap(e.event) ? trackBase[e.event.track.value()] + e.event.index
                                         : trackBase.back();
        };
        const auto append = [&](std::uint32_t i) {
            EventIds e = m_eventIds[i];
            remap(e.event);
            m_trace.eventIds.append(e);
        };
        constexpr std::uint32_t None = 0xffffffffu;
        if (m_eventIds.size() >= None)
            throw std::length_error("more than 2^32 - 1 event ids in one trace");
        if (m_eventIds.size() * 4 >= trackBase.back()) {
            // Ids on many of the events (Kineto: every host operator): a slot per event takes
            // its first entry, in two linear sweeps rather than a sort of the entries.
            std::vector<std::uint32_t> slot(trackBase.back(), None);
            for (std::size_t i = 0; i < m_eventIds.size(); ++i) {
                EventIds e = m_eventIds[i];
                const std::size_t key = keyOf(e);
                if (key < slot.size() && slot[key] == None)
                    slot[key] = static_cast<std::uint32_t>(i);
            }
            for (const std::uint32_t i : slot) {
                if (i != None)
                    append(i);
            }
        } else {
            std::vector<std::uint32_t> order;
            std::vector<std::size_t> keys(m_eventIds.size());
            for (std::size_t i = 0; i < m_eventIds.size(); ++i) {
                EventIds e = m_eventIds[i];
                keys[i] = keyOf(e);
                if (keys[i] < trackBase.back())
                    order.push_back(static_cast<std::uint32_t>(i));
            }
            std::stable_sort(order.begin(), order.end(),
                [&keys](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
            for (const std::uint32_t i : order)
                append(i);
        }
        m_trace.eventIds.compact();
        m_eventIds = PendingIds();
    };
    util::runBoth(parallel, flowsAndTheRest, eventIds);
    result.trace = std::move(m_trace);
    m_trace = Trace();
    return result;
}

} // namespace stepscope::model
