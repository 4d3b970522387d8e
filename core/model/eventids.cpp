// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "eventids.h"

#include <algorithm>

namespace stepscope::model {

std::uint64_t EventIdTable::wideKey(TrackId track, std::uint32_t index, bool external)
{
    return (static_cast<std::uint64_t>(track.value()) << 33)
        | (static_cast<std::uint64_t>(index) << 1) | (external ? 1u : 0u);
}

std::int32_t EventIdTable::narrow(TrackId track, std::uint32_t index, bool external, std::int64_t v)
{
    if (v > Wide && v <= std::numeric_limits<std::int32_t>::max())
        return static_cast<std::int32_t>(v);
    m_wide.emplace_back(wideKey(track, index, external), v);
    return Wide;
}

std::int64_t EventIdTable::widen(
    TrackId track, std::uint32_t index, bool external, std::int32_t v) const
{
    if (v != Wide)
        return v;
    const std::uint64_t key = wideKey(track, index, external);
    const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), key,
        [](const std::pair<std::uint64_t, std::int64_t> &w, std::uint64_t k) {
            return w.first < k;
        });
    return it != m_wide.end() && it->first == key ? it->second : -1;
}

EventIds EventIdTable::idsAt(const TrackIds &t, std::size_t slot, std::uint32_t index) const
{
    EventIds e;
    e.event = EventRef {t.track, index};
    if (!t.correlation.empty())
        e.correlation = widen(t.track, index, false, t.correlation[slot]);
    if (!t.externalId.empty())
        e.externalId = widen(t.track, index, true, t.externalId[slot]);
    return e;
}

bool EventIdTable::append(const EventIds &ids)
{
    if (m_hasLast && !(m_last < ids.event))
        return false;
    m_hasLast = true;
    m_last = ids.event;
    if (ids.correlation == -1 && ids.externalId == -1)
        return true;
    if (m_tracks.empty() || m_tracks.back().track != ids.event.track) {
        compact();
        m_tracks.emplace_back();
        m_tracks.back().track = ids.event.track;
    }
    // The last track is built sparse with both columns; compact() picks its layout.
    TrackIds &t = m_tracks.back();
    const std::uint32_t i = ids.event.index;
    t.index.push_back(i);
    t.correlation.push_back(narrow(t.track, i, false, ids.correlation));
    t.externalId.push_back(narrow(t.track, i, true, ids.externalId));
    ++t.count;
    ++m_count;
    return true;
}

void EventIdTable::compact()
{
    if (m_tracks.empty() || m_tracks.back().dense)
        return;
    TrackIds &t = m_tracks.back();
    const auto unused = [](const std::vector<std::int32_t> &c) {
        return std::all_of(c.begin(), c.end(), [](std::int32_t v) { return v == -1; });
    };
    if (unused(t.correlation))
        t.correlation = {};
    if (unused(t.externalId))
        t.externalId = {};
    const std::size_t kinds = (t.correlation.empty() ? 0u : 1u) + (t.externalId.empty() ? 0u : 1u);
    const std::size_t events = t.index.empty() ? 0 : std::size_t {t.index.back()} + 1;
    if (events * kinds <= t.index.size() * (1 + kinds)) {
        const auto spread = [&](std::vector<std::int32_t> &c) {
            if (c.empty())
                return;
            std::vector<std::int32_t> d(events, -1);
            for (std::size_t k = 0; k < t.index.size(); ++k)
                d[t.index[k]] = c[k];
            c = std::move(d);
        };
        spread(t.correlation);
        spread(t.externalId);
        t.index = {};
        t.dense = true;
    }
    t.index.shrink_to_fit();
    t.correlation.shrink_to_fit();
    t.externalId.shrink_to_fit();
    m_wide.shrink_to_fit();
}

std::optional<EventIds> EventIdTable::find(EventRef event) const
{
    const auto t = std::lower_bound(m_tracks.begin(), m_tracks.end(), event.track,
        [](const TrackIds &x, TrackId track) { return x.track < track; });
    if (t == m_tracks.end() || t->track != event.track)
        return std::nullopt;
    if (t->dense) {
        const std::size_t n = std::max(t->correlation.size(), t->externalId.size());
        if (event.index >= n)
            return std::nullopt;
        const bool any = (!t->correlation.empty() && t->correlation[event.index] != -1)
            || (!t->externalId.empty() && t->externalId[event.index] != -1);
        if (!any)
            return std::nullopt;
        return idsAt(*t, event.index, event.index);
    }
    const auto it = std::lower_bound(t->index.begin(), t->index.end(), event.index);
    if (it == t->index.end() || *it != event.index)
        return std::nullopt;
    return idsAt(*t, static_cast<std::size_t>(it - t->index.begin()), event.index);
}

std::size_t EventIdTable::memoryBytes() const
{
    std::size_t bytes =
        m_tracks.capacity() * sizeof(TrackIds) + m_wide.capacity() * sizeof(m_wide[0]);
    for (const TrackIds &t : m_tracks)
        bytes += (t.index.capacity() + t.correlation.capacity() + t.externalId.capacity()) * 4;
    return bytes;
}

} // namespace stepscope::model
