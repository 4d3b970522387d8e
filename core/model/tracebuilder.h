// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "packedcolumn.h"
#include "trace.h"

#include <vector>

namespace stepscope::model {

/// Assembles one Trace during import. Events go into per-track builders in any order; flows
/// are recorded against provisional event indices; finish() sorts every track, remaps the
/// flows and sorts steps and counters, so the result satisfies Trace's invariants.
class TraceBuilder
{
public:
    TraceBuilder();

    /// The trace under construction: fill strings, args, steps, counters, metadata directly.
    Trace &trace() { return m_trace; }
    StringId intern(std::string_view s) { return m_trace.strings.intern(s); }

    TrackId addTrack(TrackInfo info);
    TrackBuilder &track(TrackId id) { return m_builders.at(id.value()); }
    std::size_t trackCount() const { return m_builders.size(); }
    /// `from` and `to` use provisional indices (as returned by TrackBuilder::add).
    void addFlow(EventRef from, EventRef to, StringId category);
    /// Room for `count` more addFlow() calls (as reserveEventIds).
    void reserveFlows(std::size_t count) { m_flows.reserve(m_flows.size() + count); }
    /// Ids of one event (`ids.event` provisional); finish() remaps and sorts them into
    /// trace().eventIds.
    void addEventIds(const EventIds &ids);
    /// Room for `count` more addEventIds() calls: a reader that knows about how many events
    /// carry ids saves the list's regrowth (a copy of it, at the peak of a load).
    void reserveEventIds(std::size_t count) { m_eventIds.reserve(m_eventIds.size() + count); }
    /// An allocator event (`event.event` provisional); finish() remaps it into
    /// trace().memory.allocatorEvents, in (track, index) order.
    void addAllocatorEvent(const AllocatorEvent &event);

    struct Result
    {
        Trace trace;
        std::uint64_t partialOverlaps = 0; ///< summed over tracks
    };
    /// Threads finish() may use (this one included): with two or more, tracks are sorted two
    /// at a time and the event ids are put in order beside the flows. The result is the same.
    void setFinishThreads(unsigned threads) { m_finishThreads = threads; }
    /// Builds the trace. Empty tracks are dropped unless keepEmptyTracks is set.
    Result finish(bool keepEmptyTracks = false);

private:
    /// The ids given to addEventIds, in about 12 bytes each rather than 24 (they wait, beside
    /// the staged events, through the peak of a load): tracks and provisional indices rise as
    /// events are added, and so, mostly, do the ids.
    class PendingIds
    {
    public:
        std::size_t size() const { return m_track.size(); }
        void reserve(std::size_t n);
        void push_back(const EventIds &ids);
        EventIds operator[](std::size_t i) const;

    private:
        using U32Column = PackedColumn<std::uint32_t, std::uint16_t, 0xffffffffu>;
        U32Column m_track;
        U32Column m_index;
        PackedId m_correlation;
        PackedId m_externalId;
    };

    Trace m_trace;
    std::vector<TrackBuilder> m_builders;
    std::vector<Flow> m_flows;
    PendingIds m_eventIds;
    std::vector<AllocatorEvent> m_allocatorEvents;
    unsigned m_finishThreads = 1;
};

} // namespace stepscope::model
