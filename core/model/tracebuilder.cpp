// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "tracebuilder.h"

#include "util/release.h"

#include <algorithm>
#include <cassert>
#include <numeric>

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

TraceBuilder::Result TraceBuilder::finish(bool keepEmptyTracks)
{
    Result result;
    std::vector<std::vector<std::uint32_t>> finalIndex(m_builders.size());
    std::vector<TrackId> newId(m_builders.size());
    for (std::size_t i = 0; i < m_builders.size(); ++i) {
        if (m_builders[i].size() == 0 && !keepEmptyTracks)
            continue;
        TrackBuilder::Result r = m_builders[i].finish();
        result.partialOverlaps += r.partialOverlaps;
        finalIndex[i] = std::move(r.finalIndex);
        newId[i] = TrackId(static_cast<std::uint32_t>(m_trace.tracks.size()));
        m_trace.tracks.push_back(std::move(r.track));
    }
    m_builders.clear();

    m_trace.flows.reserve(m_flows.size());
    for (const Flow &f : m_flows) {
        const std::uint32_t ft = f.from.track.value();
        const std::uint32_t tt = f.to.track.value();
        if (ft >= newId.size() || tt >= newId.size() || !newId[ft].isValid() || !newId[tt].isValid()
            || f.from.index >= finalIndex[ft].size() || f.to.index >= finalIndex[tt].size()) {
            assert(false && "a flow must join two events added to this builder");
            continue;
        }
        m_trace.flows.push_back(Flow {EventRef {newId[ft], finalIndex[ft][f.from.index]},
            EventRef {newId[tt], finalIndex[tt][f.to.index]}, f.category});
    }
    m_flows.clear();

    // Event ids and allocator events: provisional -> final references, then event order.
    const auto remap = [&](EventRef &r) {
        const std::uint32_t t = r.track.value();
        if (t >= newId.size() || !newId[t].isValid() || r.index >= finalIndex[t].size()) {
            assert(false && "an event reference must name an event added to this builder");
            return false;
        }
        r = EventRef {newId[t], finalIndex[t][r.index]};
        return true;
    };
    // Put in event order through each entry's remapped event, (track, index) in one 64-bit
    // key, and 4-byte indices. The first ids given for an event win.
    std::vector<std::uint32_t> idsOrder;
    std::vector<std::uint64_t> idsKey(m_eventIds.size());
    for (std::size_t i = 0; i < m_eventIds.size(); ++i) {
        EventIds e = m_eventIds[i];
        const bool any = e.correlation != -1 || e.externalId != -1; // else: no ids to keep
        if (remap(e.event) && any) {
            idsOrder.push_back(static_cast<std::uint32_t>(i));
            idsKey[i] = (static_cast<std::uint64_t>(e.event.track.value()) << 32) | e.event.index;
        }
    }
    std::sort(idsOrder.begin(), idsOrder.end(), [&idsKey](std::uint32_t a, std::uint32_t b) {
        return idsKey[a] < idsKey[b] || (idsKey[a] == idsKey[b] && a < b);
    });
    for (const std::uint32_t i : idsOrder) {
        EventIds e = m_eventIds[i];
        e.event = EventRef {TrackId(static_cast<std::uint32_t>(idsKey[i] >> 32)),
            static_cast<std::uint32_t>(idsKey[i])};
        m_trace.eventIds.append(e);
    }
    m_trace.eventIds.compact();
    m_eventIds = PendingIds();
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
    for (CounterSeries &c : m_trace.counters) {
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
    result.trace = std::move(m_trace);
    m_trace = Trace();
    return result;
}

} // namespace stepscope::model
