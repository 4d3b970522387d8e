// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "eventids.h"

#include "util/release.h"

#include <algorithm>

namespace stepscope::model {

namespace {

/// The slot of event i in an ascending index list, or npos.
std::size_t slotOf(const std::vector<std::uint32_t> &index, std::uint32_t i)
{
    const auto it = std::lower_bound(index.begin(), index.end(), i);
    return it != index.end() && *it == i ? static_cast<std::size_t>(it - index.begin())
                                         : static_cast<std::size_t>(-1);
}

} // namespace

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

std::int32_t EventIdTable::Column::at(
    const std::vector<std::uint32_t> &shared, std::uint32_t i) const
{
    switch (layout) {
    case Layout::Absent:
        return -1;
    case Layout::Dense:
        return i < value.size() ? value[i] : -1;
    case Layout::Shared: {
        const std::size_t k = slotOf(shared, i);
        return k < value.size() ? value[k] : -1;
    }
    case Layout::Own: {
        const std::size_t k = slotOf(index, i);
        return k < value.size() ? value[k] : -1;
    }
    }
    return -1;
}

std::optional<EventIds> EventIdTable::make(
    TrackId track, std::uint32_t i, std::int32_t correlation, std::int32_t externalId) const
{
    if (correlation == -1 && externalId == -1)
        return std::nullopt;
    EventIds e;
    e.event = EventRef {track, i};
    e.correlation = widen(track, i, false, correlation);
    e.externalId = widen(track, i, true, externalId);
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
        m_tracks.back().correlation.layout = Column::Layout::Shared;
        m_tracks.back().externalId.layout = Column::Layout::Shared;
    }
    // The last track is built with both columns beside one index; compact() picks its layout.
    TrackIds &t = m_tracks.back();
    if (t.compacted)
        reopen(t);
    const std::uint32_t i = ids.event.index;
    t.index.push_back(i);
    t.correlation.value.push_back(narrow(t.track, i, false, ids.correlation));
    t.externalId.value.push_back(narrow(t.track, i, true, ids.externalId));
    ++m_count;
    return true;
}

void EventIdTable::reopen(TrackIds &t)
{
    TrackIds open;
    open.track = t.track;
    open.correlation.layout = Column::Layout::Shared;
    open.externalId.layout = Column::Layout::Shared;
    walk(t, [&](std::uint32_t i, std::int32_t correlation, std::int32_t externalId) {
        open.index.push_back(i);
        open.correlation.value.push_back(correlation);
        open.externalId.value.push_back(externalId);
    });
    t = std::move(open);
}

void EventIdTable::compact()
{
    if (m_tracks.empty() || m_tracks.back().compacted)
        return;
    TrackIds &t = m_tracks.back();
    t.compacted = true;
    using Layout = Column::Layout;
    const std::size_t withIds = t.index.size();
    const std::size_t events = t.index.empty() ? 0 : std::size_t {t.index.back()} + 1;
    // In 4-byte words: one index shared by the kinds used, or each kind on its own.
    std::size_t shared = withIds;
    std::size_t apart = 0;
    Column *const columns[] = {&t.correlation, &t.externalId};
    std::size_t used[2] = {};
    for (std::size_t j = 0; j < 2; ++j) {
        Column *c = columns[j];
        used[j] = static_cast<std::size_t>(std::count_if(
            c->value.begin(), c->value.end(), [](std::int32_t v) { return v != -1; }));
        if (used[j] == 0) {
            c->layout = Layout::Absent;
            util::release(c->value);
            continue;
        }
        shared += withIds;
        apart += std::min(events, 2 * used[j]);
    }
    if (apart < shared) {
        for (std::size_t j = 0; j < 2; ++j) {
            Column *c = columns[j];
            if (c->layout == Layout::Absent)
                continue;
            std::vector<std::int32_t> value;
            if (events <= 2 * used[j]) {
                c->layout = Layout::Dense;
                value.assign(events, -1);
                for (std::size_t k = 0; k < withIds; ++k)
                    value[t.index[k]] = c->value[k];
            } else {
                c->layout = Layout::Own;
                c->index.reserve(used[j]);
                value.reserve(used[j]);
                for (std::size_t k = 0; k < withIds; ++k) {
                    if (c->value[k] != -1) {
                        c->index.push_back(t.index[k]);
                        value.push_back(c->value[k]);
                    }
                }
            }
            c->value = std::move(value);
        }
        util::release(t.index);
    }
    for (Column *c : {&t.correlation, &t.externalId}) {
        c->index.shrink_to_fit();
        c->value.shrink_to_fit();
    }
    t.index.shrink_to_fit();
    m_wide.shrink_to_fit();
}

std::optional<EventIds> EventIdTable::find(EventRef event) const
{
    const auto t = std::lower_bound(m_tracks.begin(), m_tracks.end(), event.track,
        [](const TrackIds &x, TrackId track) { return x.track < track; });
    if (t == m_tracks.end() || t->track != event.track)
        return std::nullopt;
    return make(t->track, event.index, t->correlation.at(t->index, event.index),
        t->externalId.at(t->index, event.index));
}

std::size_t EventIdTable::memoryBytes() const
{
    std::size_t bytes =
        m_tracks.capacity() * sizeof(TrackIds) + m_wide.capacity() * sizeof(m_wide[0]);
    for (const TrackIds &t : m_tracks) {
        bytes += t.index.capacity() * 4;
        for (const Column *c : {&t.correlation, &t.externalId})
            bytes += (c->index.capacity() + c->value.capacity()) * 4;
    }
    return bytes;
}

} // namespace stepscope::model
