// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "intervalset.h"

#include <algorithm>

namespace stepscope::analysis {

IntervalSet IntervalSet::fromUnsorted(std::vector<Interval> intervals)
{
    intervals.erase(std::remove_if(intervals.begin(), intervals.end(),
                        [](const Interval &i) { return i.second <= i.first; }),
        intervals.end());
    std::sort(intervals.begin(), intervals.end());
    IntervalSet s;
    for (const auto &i : intervals) {
        if (!s.m_intervals.empty() && i.first <= s.m_intervals.back().second)
            s.m_intervals.back().second = std::max(s.m_intervals.back().second, i.second);
        else
            s.m_intervals.push_back(i);
    }
    return s;
}

IntervalSet IntervalSet::single(std::int64_t start, std::int64_t end)
{
    IntervalSet s;
    if (end > start)
        s.m_intervals.emplace_back(start, end);
    return s;
}

std::int64_t IntervalSet::length() const
{
    std::int64_t n = 0;
    for (const auto &i : m_intervals)
        n += i.second - i.first;
    return n;
}

std::int64_t IntervalSet::lengthIn(std::int64_t t0, std::int64_t t1) const
{
    if (t1 <= t0)
        return 0;
    // First interval whose end is after t0.
    auto it = std::upper_bound(m_intervals.begin(), m_intervals.end(), t0,
        [](std::int64_t t, const Interval &i) { return t < i.second; });
    std::int64_t n = 0;
    for (; it != m_intervals.end() && it->first < t1; ++it)
        n += std::min(it->second, t1) - std::max(it->first, t0);
    return n;
}

IntervalSet IntervalSet::clipped(std::int64_t t0, std::int64_t t1) const
{
    IntervalSet s;
    if (t1 <= t0)
        return s;
    auto it = std::upper_bound(m_intervals.begin(), m_intervals.end(), t0,
        [](std::int64_t t, const Interval &i) { return t < i.second; });
    for (; it != m_intervals.end() && it->first < t1; ++it)
        s.m_intervals.emplace_back(std::max(it->first, t0), std::min(it->second, t1));
    return s;
}

IntervalSet IntervalSet::unite(const IntervalSet &other) const
{
    std::vector<Interval> all;
    all.reserve(m_intervals.size() + other.m_intervals.size());
    std::merge(m_intervals.begin(), m_intervals.end(), other.m_intervals.begin(),
        other.m_intervals.end(), std::back_inserter(all));
    IntervalSet s;
    for (const auto &i : all) {
        if (!s.m_intervals.empty() && i.first <= s.m_intervals.back().second)
            s.m_intervals.back().second = std::max(s.m_intervals.back().second, i.second);
        else
            s.m_intervals.push_back(i);
    }
    return s;
}

IntervalSet IntervalSet::intersect(const IntervalSet &other) const
{
    IntervalSet s;
    std::size_t i = 0;
    std::size_t j = 0;
    const auto &a = m_intervals;
    const auto &b = other.m_intervals;
    while (i < a.size() && j < b.size()) {
        const std::int64_t lo = std::max(a[i].first, b[j].first);
        const std::int64_t hi = std::min(a[i].second, b[j].second);
        if (lo < hi)
            s.m_intervals.emplace_back(lo, hi);
        if (a[i].second < b[j].second)
            ++i;
        else
            ++j;
    }
    return s;
}

IntervalSet IntervalSet::subtract(const IntervalSet &other) const
{
    IntervalSet s;
    const auto &b = other.m_intervals;
    std::size_t j = 0;
    for (const auto &iv : m_intervals) {
        std::int64_t cur = iv.first;
        while (j < b.size() && b[j].second <= cur)
            ++j;
        std::size_t k = j;
        while (k < b.size() && b[k].first < iv.second) {
            if (b[k].first > cur)
                s.m_intervals.emplace_back(cur, b[k].first);
            cur = std::max(cur, b[k].second);
            if (cur >= iv.second)
                break;
            ++k;
        }
        if (cur < iv.second)
            s.m_intervals.emplace_back(cur, iv.second);
    }
    return s;
}

} // namespace stepscope::analysis
