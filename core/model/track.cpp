// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "track.h"

#include "util/nearsort.h"
#include "util/release.h"
#include "util/saturate.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>

namespace stepscope::model {

std::uint32_t Track::row(std::uint32_t i) const
{
    assert(i < size());
    auto it = std::upper_bound(m_rowBegin.begin(), m_rowBegin.end(), i);
    return static_cast<std::uint32_t>(it - m_rowBegin.begin()) - 1;
}

std::int64_t Track::longDuration(std::uint32_t i) const
{
    const auto it = std::lower_bound(m_long.begin(), m_long.end(), i,
        [](const std::pair<std::uint32_t, std::int64_t> &l, std::uint32_t k) {
            return l.first < k;
        });
    assert(it != m_long.end() && it->first == i);
    return it != m_long.end() && it->first == i ? it->second : LongDuration;
}

std::pair<std::uint32_t, std::uint32_t> Track::visibleRange(
    std::uint32_t row, std::int64_t t0, std::int64_t t1) const
{
    const std::uint32_t b = rowBegin(row);
    const std::uint32_t e = rowEnd(row);
    // Ends are sorted within a row (no overlaps): first event whose end is after t0.
    std::uint32_t lo = b;
    std::uint32_t hi = e;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        const std::int64_t endMid = end(mid);
        if (endMid > t0 || (endMid == t0 && m_duration[mid] == 0))
            hi = mid;
        else
            lo = mid + 1;
    }
    const std::uint32_t first = lo;
    // Starts are sorted within a row too: first event from `first` that starts at t1 or later.
    hi = e;
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (start(mid) < t1)
            lo = mid + 1;
        else
            hi = mid;
    }
    return {first, lo};
}

std::pair<std::int64_t, std::int64_t> Track::extent() const
{
    if (empty())
        return {0, 0};
    std::int64_t lo = m_start[0];
    std::int64_t hi = end(0);
    for (std::uint32_t r = 0; r < rowCount(); ++r) {
        if (rowBegin(r) == rowEnd(r))
            continue;
        lo = std::min(lo, m_start[rowBegin(r)]);
        hi = std::max(hi, end(rowEnd(r) - 1));
    }
    return {lo, hi};
}

std::size_t Track::memoryBytes() const
{
    return m_start.memoryBytes() + m_duration.capacity() * sizeof(std::uint32_t)
        + m_long.capacity() * sizeof(std::pair<std::uint32_t, std::int64_t>)
        + m_kinds.capacity() * sizeof(Kind) + m_kind.capacity() * sizeof(std::uint16_t)
        + m_kindWide.capacity() * sizeof(std::uint32_t) + m_args.memoryBytes()
        + m_rowBegin.capacity() * sizeof(std::uint32_t);
}

std::string Track::checkInvariants() const
{
    const std::size_t n = m_start.size();
    if (m_duration.size() != n || (m_kindWide.empty() ? m_kind.size() : m_kindWide.size()) != n
        || m_args.size() != n)
        return "column sizes differ";
    if (m_rowBegin.empty() || m_rowBegin.front() != 0 || m_rowBegin.back() != n)
        return "row offsets do not cover the events";
    for (std::uint32_t i = 0; i < n; ++i) {
        if (kind(i) >= m_kinds.size())
            return "event " + std::to_string(i) + " has no kind";
    }
    std::size_t marked = 0;
    for (std::uint32_t d : m_duration)
        marked += d == LongDuration ? 1 : 0;
    if (marked != m_long.size())
        return "long durations: " + std::to_string(marked) + " marked, "
            + std::to_string(m_long.size()) + " kept";
    for (std::size_t k = 0; k < m_long.size(); ++k) {
        if (m_long[k].first >= n || m_duration[m_long[k].first] != LongDuration
            || (k > 0 && m_long[k - 1].first >= m_long[k].first))
            return "long duration " + std::to_string(k) + " is not at a marked event in order";
    }
    for (std::uint32_t r = 0; r < rowCount(); ++r) {
        if (rowBegin(r) > rowEnd(r))
            return "row offsets decrease at row " + std::to_string(r);
        for (std::uint32_t i = rowBegin(r); i < rowEnd(r); ++i) {
            if (duration(i) < 0)
                return "negative duration at event " + std::to_string(i);
            if (i + 1 < rowEnd(r) && end(i) > m_start[i + 1])
                return "events " + std::to_string(i) + " and " + std::to_string(i + 1)
                    + " overlap in row " + std::to_string(r);
            if (i + 1 < rowEnd(r) && m_start[i] > m_start[i + 1])
                return "row " + std::to_string(r) + " is not sorted at event " + std::to_string(i);
        }
    }
    return {};
}

TrackBuilder::TrackBuilder(TrackInfo info)
    : m_info(std::move(info))
{
}

namespace {
/// A reader's times come from files: an end before its start becomes a zero-length event, and
/// an end past int64 is held at INT64_MAX, so that end(i) = start + duration (and the row
/// assignment in finish()) never overflows.
std::int64_t heldDuration(std::int64_t start, std::int64_t duration)
{
    if (duration < 0)
        return 0;
    if (start > 0 && duration > util::Int64Max - start)
        return util::Int64Max - start;
    return duration;
}
} // namespace

std::uint32_t TrackBuilder::add(std::int64_t start, std::int64_t duration, StringId name,
    Category category, ArgsId args, bool unfinished)
{
    const auto index = static_cast<std::uint32_t>(m_start.size());
    m_start.push_back(start);
    m_duration.push_back(heldDuration(start, duration));
    m_name.push_back(name);
    m_categoryFlags.push_back(static_cast<std::uint8_t>(
        static_cast<std::uint8_t>(category) | (unfinished ? UnfinishedFlag : 0)));
    m_args.push_back(args);
    return index;
}

std::uint32_t TrackBuilder::adopt(std::vector<std::int64_t> &&start,
    std::vector<std::int64_t> &&duration, std::vector<StringId> &&name,
    std::vector<std::uint8_t> &&categoryFlags, std::vector<ArgsId> &&args)
{
    const std::size_t n = start.size();
    if (duration.size() != n || name.size() != n || categoryFlags.size() != n || args.size() != n)
        throw std::invalid_argument("TrackBuilder::adopt: columns of different sizes");
    for (std::size_t i = 0; i < n; ++i)
        duration[i] = heldDuration(start[i], duration[i]);
    const auto index = static_cast<std::uint32_t>(m_start.size());
    const auto take = [](auto &to, auto &from) {
        if (to.empty())
            to.swap(from);
        else
            to.insert(to.end(), from.begin(), from.end());
        util::release(from);
    };
    take(m_start, start);
    take(m_duration, duration);
    take(m_name, name);
    take(m_categoryFlags, categoryFlags);
    take(m_args, args);
    return index;
}

void TrackBuilder::reserve(std::size_t n)
{
    m_start.reserve(n);
    m_duration.reserve(n);
    m_name.reserve(n);
    m_categoryFlags.reserve(n);
    m_args.reserve(n);
}

void TrackBuilder::setKinds(Track &t, const std::vector<std::uint32_t> &finalIndex)
{
    const std::size_t n = m_name.size();
    std::vector<std::uint32_t> kindOf(n);
    // Names are dense string ids: a table by name finds the kind, unless this track's names
    // are few among many strings; a name seen with other flags goes through the map.
    std::uint32_t maxName = 0;
    for (const StringId name : m_name)
        maxName = std::max(maxName, name.isValid() ? name.value() : 0);
    constexpr std::uint32_t None = 0xffffffffU;
    std::vector<std::uint32_t> byName(maxName < 4 * n + 1024 ? maxName + std::size_t {1} : 0, None);
    std::unordered_map<std::uint64_t, std::uint32_t> byKey;
    for (std::size_t k = 0; k < n; ++k) {
        const StringId name = m_name[k];
        const std::uint8_t flags = m_categoryFlags[k];
        std::uint32_t *slot =
            name.isValid() && name.value() < byName.size() ? &byName[name.value()] : nullptr;
        if (slot && *slot != None && t.m_kinds[*slot].flags == flags) {
            kindOf[k] = *slot;
            continue;
        }
        const std::uint64_t key = (std::uint64_t {name.value()} << 8) | flags;
        const auto [it, added] =
            byKey.try_emplace(key, static_cast<std::uint32_t>(t.m_kinds.size()));
        if (added)
            t.m_kinds.push_back(Track::Kind {name, flags});
        if (slot && *slot == None)
            *slot = it->second;
        kindOf[k] = it->second;
    }
    t.m_kinds.shrink_to_fit();
    util::release(m_name);
    util::release(m_categoryFlags);
    const auto scatter = [&](auto &to) {
        to.resize(n);
        for (std::size_t k = 0; k < n; ++k)
            to[finalIndex[k]] = static_cast<std::remove_reference_t<decltype(to[0])>>(kindOf[k]);
    };
    if (t.m_kinds.size() <= 0x10000)
        scatter(t.m_kind);
    else
        scatter(t.m_kindWide);
}

/*
 * Row assignment. Events are visited in (start, longer first, arrival) order with a stack of
 * the events that are still open. Popping every open event that ended at or before the new
 * start makes "starts where another ends" a sibling, not a child. What is left on the stack
 * encloses the new event (depth = stack size), unless the top only partially overlaps it;
 * that event is counted and still placed. The chosen row is the first one at or below the
 * depth whose last event ended by the new start, which keeps rows free of overlaps even
 * after partial overlaps shifted earlier events down.
 */
TrackBuilder::Result TrackBuilder::finish()
{
    const std::size_t n = m_start.size();
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0U);
    util::stableSortNearlySorted(order, [&](std::uint32_t a, std::uint32_t b) {
        if (m_start[a] != m_start[b])
            return m_start[a] < m_start[b];
        return m_duration[a] > m_duration[b];
    });

    Result result;
    std::vector<std::uint32_t> rowOf(n);
    std::vector<std::int64_t> rowLastEnd;
    std::vector<std::int64_t> openEnds; // stack of ends of the enclosing events
    for (std::uint32_t k : order) {
        const std::int64_t s = m_start[k];
        const std::int64_t e = s + m_duration[k];
        while (!openEnds.empty() && openEnds.back() <= s)
            openEnds.pop_back();
        if (!openEnds.empty() && e > openEnds.back())
            ++result.partialOverlaps;
        std::size_t row = openEnds.size();
        while (row < rowLastEnd.size() && rowLastEnd[row] > s)
            ++row;
        if (row == rowLastEnd.size())
            rowLastEnd.push_back(e);
        else
            rowLastEnd[row] = e;
        rowOf[k] = static_cast<std::uint32_t>(row);
        openEnds.push_back(e);
    }

    // Group by row, keeping the sorted order inside each row.
    const std::size_t rows = rowLastEnd.size();
    std::vector<std::uint32_t> rowBegin(rows + 1, 0);
    for (std::uint32_t k = 0; k < n; ++k)
        ++rowBegin[rowOf[k] + 1];
    std::partial_sum(rowBegin.begin(), rowBegin.end(), rowBegin.begin());
    std::vector<std::uint32_t> next(rowBegin.begin(), rowBegin.end() - 1);
    result.finalIndex.assign(n, 0);
    for (std::uint32_t k : order)
        result.finalIndex[k] = next[rowOf[k]]++;

    Track &t = result.track;
    t.m_info = std::move(m_info);
    const auto scatter = [&](auto &from, auto &to) {
        to.resize(n);
        for (std::size_t k = 0; k < n; ++k)
            to[result.finalIndex[k]] = from[k];
        from.clear();
        from.shrink_to_fit();
    };
    {
        std::vector<std::int64_t> starts;
        scatter(m_start, starts);
        t.m_start = PackedInt64::from(starts);
    }
    t.m_duration.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t to = result.finalIndex[k];
        const std::int64_t d = m_duration[k];
        if (d < static_cast<std::int64_t>(Track::LongDuration)) {
            t.m_duration[to] = static_cast<std::uint32_t>(d);
        } else {
            t.m_duration[to] = Track::LongDuration;
            t.m_long.emplace_back(to, d);
        }
    }
    std::sort(t.m_long.begin(), t.m_long.end());
    t.m_long.shrink_to_fit();
    m_duration.clear();
    m_duration.shrink_to_fit();
    setKinds(t, result.finalIndex);
    {
        std::vector<std::uint32_t> args(n);
        for (std::size_t k = 0; k < n; ++k)
            args[result.finalIndex[k]] = m_args[k].value();
        util::release(m_args);
        t.m_args = Track::ArgsColumn::from(args);
    }
    t.m_rowBegin = std::move(rowBegin);
    return result;
}

} // namespace stepscope::model
