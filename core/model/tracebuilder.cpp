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
    // Remapped in place and put in event order through 4-byte indices: the builder's list is
    // the only wide copy. The first ids given for an event win.
    std::vector<std::uint32_t> idsOrder;
    idsOrder.reserve(m_eventIds.size());
    for (std::size_t i = 0; i < m_eventIds.size(); ++i) {
        const EventIds &e = m_eventIds[i];
        const bool any = e.correlation != -1 || e.externalId != -1; // else: no ids to keep
        if (remap(m_eventIds[i].event) && any)
            idsOrder.push_back(static_cast<std::uint32_t>(i));
    }
    std::sort(idsOrder.begin(), idsOrder.end(), [this](std::uint32_t a, std::uint32_t b) {
        const EventRef x = m_eventIds[a].event;
        const EventRef y = m_eventIds[b].event;
        return x < y || (x == y && a < b);
    });
    for (const std::uint32_t i : idsOrder)
        m_trace.eventIds.append(m_eventIds[i]);
    m_trace.eventIds.compact();
    util::release(m_eventIds);
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
