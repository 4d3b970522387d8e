// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "ids.h"

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

/// The EventIds of a trace, sorted by event, in 16 bytes per event: the event and each id
/// in 32 bits. Ids are exact whatever their size: the rare one outside int32 (other than -1)
/// is kept in a side table. Nearly every event of a Kineto trace carries ids, so this is a
/// per-event cost of the model.
class EventIdTable
{
public:
    void reserve(std::size_t n);
    /// Appends the ids of an event after every event already in the table (TraceBuilder::finish
    /// appends them sorted); false, and nothing added, otherwise.
    bool append(const EventIds &ids);
    std::size_t size() const { return m_events.size(); }
    bool empty() const { return m_events.empty(); }
    EventIds operator[](std::size_t i) const;
    /// The ids of an event; nothing when it has none. O(log n).
    std::optional<EventIds> find(EventRef event) const;
    std::size_t memoryBytes() const;

private:
    /// Stands for an id kept in m_wide.
    static constexpr std::int32_t Wide = std::numeric_limits<std::int32_t>::min();
    std::int64_t id(std::size_t i, std::int32_t narrow, bool external) const;

    std::vector<EventRef> m_events;
    std::vector<std::int32_t> m_correlation;
    std::vector<std::int32_t> m_externalId;
    /// (entry index × 2 + 1 for the external id, the id), sorted.
    std::vector<std::pair<std::uint64_t, std::int64_t>> m_wide;
};

} // namespace stepscope::model
