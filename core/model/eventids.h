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
/// whichever of two layouts is smaller:
/// - dense: one 4-byte column per id kind the track uses, indexed by event (an event without
///   ids reads -1), 4 or 8 bytes per event: the layout of a Kineto trace, where nearly every
///   event carries ids;
/// - sparse: the events' indices beside those columns, 8 or 12 bytes per event with ids.
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
    /// Puts the last track in its smaller layout and frees spare capacity. Appending after
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
    struct TrackIds
    {
        TrackId track;
        bool dense = false;
        /// Sparse: the events' indices, ascending; dense: empty.
        std::vector<std::uint32_t> index;
        /// Per entry (sparse) or per event index (dense); empty when no event of the track
        /// has that kind of id.
        std::vector<std::int32_t> correlation;
        std::vector<std::int32_t> externalId;
        std::uint32_t count = 0; ///< events with ids
    };
    static std::uint64_t wideKey(TrackId track, std::uint32_t index, bool external);
    std::int32_t narrow(TrackId track, std::uint32_t index, bool external, std::int64_t v);
    std::int64_t widen(TrackId track, std::uint32_t index, bool external, std::int32_t v) const;
    EventIds idsAt(const TrackIds &t, std::size_t slot, std::uint32_t index) const;

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
        if (!t.dense) {
            for (std::size_t k = 0; k < t.index.size(); ++k)
                f(idsAt(t, k, t.index[k]));
            continue;
        }
        const std::size_t n = std::max(t.correlation.size(), t.externalId.size());
        for (std::size_t k = 0; k < n; ++k) {
            const bool any = (!t.correlation.empty() && t.correlation[k] != -1)
                || (!t.externalId.empty() && t.externalId[k] != -1);
            if (any)
                f(idsAt(t, k, static_cast<std::uint32_t>(k)));
        }
    }
}

} // namespace stepscope::model
