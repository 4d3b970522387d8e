// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "eventids.h"

#include <algorithm>

namespace stepscope::model {

void EventIdTable::reserve(std::size_t n)
{
    m_events.reserve(n);
    m_correlation.reserve(n);
    m_externalId.reserve(n);
}

bool EventIdTable::append(const EventIds &ids)
{
    if (!m_events.empty() && !(m_events.back() < ids.event))
        return false;
    const auto narrow = [this](std::uint64_t key, std::int64_t v) {
        if (v > Wide && v <= std::numeric_limits<std::int32_t>::max())
            return static_cast<std::int32_t>(v);
        m_wide.emplace_back(key, v);
        return Wide;
    };
    const std::uint64_t key = static_cast<std::uint64_t>(m_events.size()) * 2;
    m_events.push_back(ids.event);
    m_correlation.push_back(narrow(key, ids.correlation));
    m_externalId.push_back(narrow(key + 1, ids.externalId));
    return true;
}

std::int64_t EventIdTable::id(std::size_t i, std::int32_t narrow, bool external) const
{
    if (narrow != Wide)
        return narrow;
    const std::uint64_t key = static_cast<std::uint64_t>(i) * 2 + (external ? 1 : 0);
    const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), key,
        [](const std::pair<std::uint64_t, std::int64_t> &w, std::uint64_t k) {
            return w.first < k;
        });
    return it != m_wide.end() && it->first == key ? it->second : -1;
}

EventIds EventIdTable::operator[](std::size_t i) const
{
    EventIds e;
    e.event = m_events[i];
    e.correlation = id(i, m_correlation[i], false);
    e.externalId = id(i, m_externalId[i], true);
    return e;
}

std::optional<EventIds> EventIdTable::find(EventRef event) const
{
    const auto it = std::lower_bound(m_events.begin(), m_events.end(), event);
    if (it == m_events.end() || *it != event)
        return std::nullopt;
    return (*this)[static_cast<std::size_t>(it - m_events.begin())];
}

std::size_t EventIdTable::memoryBytes() const
{
    return m_events.capacity() * sizeof(EventRef)
        + (m_correlation.capacity() + m_externalId.capacity()) * sizeof(std::int32_t)
        + m_wide.capacity() * sizeof(m_wide[0]);
}

} // namespace stepscope::model
