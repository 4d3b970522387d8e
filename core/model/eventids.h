// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "ids.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace stepscope::model {

/// Ids a profiler gave an event to tie it to events on other tracks, as typed fields: the
/// importer reads them from its format (Kineto: the `correlation` and `External id` args), the
/// analysis reads only these. -1 = the event has no such id.
struct EventIds
{
    EventRef event;
    std::int64_t correlation = -1; ///< a launch and the device work it started share it
    std::int64_t externalId = -1; ///< device work and the host operator it ran for share it
};

/// The EventIds of a trace, by event. Ids are exact whatever their size: each is kept in 32
/// bits, the rare one outside int32 (other than -1) in a side table. Per track the table keeps
/// the smallest of these layouts:
/// - per id kind, a dense 4-byte column indexed by event (an event without that id reads -1),
///   or a sparse list of (event index, id): in a Kineto host thread every operator has an
///   External id (dense) and only launches a correlation (sparse);
/// - one sparse list of the events with ids, with a column per id kind beside it (8 or 12
///   bytes per event with ids): where the few events with ids carry both.
/// An event whose ids are both -1 has none: it is not stored and find() gives nothing.
///
/// Built by append() in event order, then compact() (TraceBuilder::finish does both); reads
/// are safe from any thread once built.
class EventIdTable
{
public:
    /// Adds the ids of an event after every event already in the table; false, and nothing
    /// added, when the event is not after them. Ids of -1 and -1 are accepted and not kept.
    bool append(const EventIds &ids);
    /// Puts the last track in its smallest layout and frees spare capacity. Appending after
    /// it is allowed (the last track is compacted again by the next call).
    void compact();
    /// Events with ids.
    std::size_t size() const { return m_count; }
    bool empty() const { return m_count == 0; }
    /// The ids of an event; nothing when it has none. O(log tracks + log events).
    std::optional<EventIds> find(EventRef event) const;
    /// Calls f(const EventIds &) for every event with ids, in event order.
    template <typename F> void forEach(F &&f) const;
    std::size_t memoryBytes() const;

private:
    /// Stands for an id kept in m_wide.
    static constexpr std::int32_t Wide = std::numeric_limits<std::int32_t>::min();
    /// One kind of id of one track.
    struct Column
    {
        enum class Layout : std::uint8_t {
            Absent, ///< no event of the track has this kind of id
            Dense, ///< value by event index
            Shared, ///< value by slot of TrackIds::index
            Own, ///< value by slot of index
        };
        Layout layout = Layout::Absent;
        std::vector<std::uint32_t> index; ///< Own: the events' indices, ascending
        std::vector<std::int32_t> value;
        /// The id of event i as kept (Wide: in m_wide), or -1.
        std::int32_t at(const std::vector<std::uint32_t> &shared, std::uint32_t i) const;
    };
    struct TrackIds
    {
        TrackId track;
        /// Events with ids, ascending: while the track is built, and for Shared columns.
        std::vector<std::uint32_t> index;
        Column correlation;
        Column externalId;
        bool compacted = false;
    };
    static std::uint64_t wideKey(TrackId track, std::uint32_t index, bool external);
    std::int32_t narrow(TrackId track, std::uint32_t index, bool external, std::int64_t v);
    std::int64_t widen(TrackId track, std::uint32_t index, bool external, std::int32_t v) const;
    /// The ids of event i from its kept values; nothing when both are -1.
    std::optional<EventIds> make(
        TrackId track, std::uint32_t i, std::int32_t correlation, std::int32_t externalId) const;
    /// Calls g(event index, correlation, externalId) with the kept values (Wide: in m_wide)
    /// of every event of t with ids, in event order.
    template <typename G> static void walk(const TrackIds &t, G &&g);
    /// Puts a compacted track back in the layout append() builds.
    static void reopen(TrackIds &t);

    std::vector<TrackIds> m_tracks; // by track
    std::size_t m_count = 0;
    bool m_hasLast = false;
    EventRef m_last;
    /// (wideKey, the id), ascending.
    std::vector<std::pair<std::uint64_t, std::int64_t>> m_wide;
};

template <typename F> void EventIdTable::forEach(F &&f) const
{
    for (const TrackIds &t : m_tracks) {
        walk(t, [&](std::uint32_t i, std::int32_t correlation, std::int32_t externalId) {
            if (const auto ids = make(t.track, i, correlation, externalId))
                f(*ids);
        });
    }
}

template <typename G> void EventIdTable::walk(const TrackIds &t, G &&g)
{
    using Layout = Column::Layout;
    const Column &c = t.correlation;
    const Column &x = t.externalId;
    if (c.layout == Layout::Shared || x.layout == Layout::Shared) {
        for (std::size_t k = 0; k < t.index.size(); ++k)
            g(t.index[k], c.layout == Layout::Shared ? c.value[k] : -1,
                x.layout == Layout::Shared ? x.value[k] : -1);
        return;
    }
    // Dense or Own columns: walk the events, each Own list with a cursor.
    const auto extent = [](const Column &col) -> std::size_t {
        if (col.layout == Layout::Dense)
            return col.value.size();
        return col.layout == Layout::Own && !col.index.empty() ? std::size_t {col.index.back()} + 1
                                                               : 0;
    };
    const std::size_t n = std::max(extent(c), extent(x));
    std::size_t cNext = 0;
    std::size_t xNext = 0;
    const auto value = [](const Column &col, std::size_t &next, std::uint32_t i) -> std::int32_t {
        if (col.layout == Layout::Dense)
            return i < col.value.size() ? col.value[i] : -1;
        if (col.layout == Layout::Own && next < col.index.size() && col.index[next] == i)
            return col.value[next++];
        return -1;
    };
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::int32_t cv = value(c, cNext, i);
        const std::int32_t xv = value(x, xNext, i);
        if (cv != -1 || xv != -1)
            g(i, cv, xv);
    }
}

} // namespace stepscope::model
