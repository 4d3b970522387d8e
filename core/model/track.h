// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "category.h"
#include "ids.h"
#include "packedcolumn.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::model {

/// Who a track belongs to and how it is labelled. Labels are the ids as the file wrote
/// them ("3254508960", "Spans", "stream 7"), names come from metadata when present.
struct TrackInfo
{
    TrackKind kind = TrackKind::HostThread;
    std::int32_t rank = 0;
    std::string processId; ///< pid as written in the file
    std::string processName; ///< from process_name metadata, else empty
    std::string threadId; ///< tid as written in the file
    std::string threadName; ///< from thread_name metadata, else empty
    std::int64_t processSortIndex = 0;
    std::int64_t threadSortIndex = 0;
};

/// One lane of events (a host thread, a device stream, a communication group, a synthetic
/// lane), stored as parallel arrays ("struct of arrays") for millions of events.
///
/// Times are int64 nanoseconds relative to the owning Trace's originNs.
///
/// Invariants (established by TrackBuilder::finish, checked by checkInvariants()):
/// - Events are grouped by row: row r holds indices [rowBegin(r), rowEnd(r)), rows in order.
/// - Within a row, events are sorted by start and never overlap (end(i) <= start(i+1)), so
///   both starts and ends are sorted and can be binary-searched.
/// - Nested events sit one row below their parent (row = nesting depth). An event that only
///   partially overlaps its neighbours goes to the nearest row at or below its depth where it
///   fits: nothing is ever dropped.
/// - duration(i) >= 0. An event that never ended (a `B` without `E`) is isUnfinished() and
///   lasts to the end of its trace.
/// Immutable once built; safe to read from any thread.
class Track
{
public:
    Track() = default;

    const TrackInfo &info() const { return m_info; }
    std::uint32_t size() const { return static_cast<std::uint32_t>(m_start.size()); }
    bool empty() const { return m_start.empty(); }

    std::int64_t start(std::uint32_t i) const { return m_start[i]; }
    std::int64_t duration(std::uint32_t i) const
    {
        const std::uint32_t d = m_duration[i];
        return d != LongDuration ? static_cast<std::int64_t>(d) : longDuration(i);
    }
    std::int64_t end(std::uint32_t i) const { return m_start[i] + duration(i); }
    StringId name(std::uint32_t i) const { return m_kinds[kind(i)].name; }
    Category category(std::uint32_t i) const
    {
        return static_cast<Category>(m_kinds[kind(i)].flags & CategoryMask);
    }
    bool isUnfinished(std::uint32_t i) const
    {
        return (m_kinds[kind(i)].flags & UnfinishedFlag) != 0;
    }
    ArgsId args(std::uint32_t i) const { return ArgsId(m_args[i]); }

    std::uint32_t rowCount() const { return static_cast<std::uint32_t>(m_rowBegin.size()) - 1; }
    std::uint32_t rowBegin(std::uint32_t row) const { return m_rowBegin[row]; }
    std::uint32_t rowEnd(std::uint32_t row) const { return m_rowBegin[row + 1]; }
    /// The row (depth) of event i.
    std::uint32_t row(std::uint32_t i) const;

    /// Events of `row` that intersect [t0, t1): indices [first, last). Touching counts only
    /// for zero-length events at t0. O(log n).
    std::pair<std::uint32_t, std::uint32_t> visibleRange(
        std::uint32_t row, std::int64_t t0, std::int64_t t1) const;

    /// Earliest start and latest end over all events; {0, 0} when empty.
    std::pair<std::int64_t, std::int64_t> extent() const;

    /// Bytes held by the event arrays (for the memory benchmark).
    std::size_t memoryBytes() const;

    /// Empty string when the invariants hold, else a description of the first violation.
    std::string checkInvariants() const;

private:
    friend class TrackBuilder;
    static constexpr std::uint8_t CategoryMask = 0x7f;
    static constexpr std::uint8_t UnfinishedFlag = 0x80;
    /// m_duration's mark for a duration of 2^32 - 1 ns (4.29 s) or more, kept in m_long.
    static constexpr std::uint32_t LongDuration = 0xffffffffU;

    std::int64_t longDuration(std::uint32_t i) const;
    std::uint32_t kind(std::uint32_t i) const
    {
        return m_kindWide.empty() ? m_kind[i] : m_kindWide[i];
    }

    using ArgsColumn = PackedColumn<std::uint32_t, std::uint16_t, ArgsId::InvalidValue>;
    /// What events share: a name with its category and flags.
    struct Kind
    {
        StringId name;
        std::uint8_t flags = 0;
    };

    TrackInfo m_info;
    /// Starts in about 4 bytes each: they rise within a row, and a row is a run of indices.
    PackedInt64 m_start;
    /// Durations in 32 bits (4 bytes per event, not 8): nearly every event lasts less than
    /// 4.29 s; the others (steps, unfinished events) are LongDuration here and in m_long.
    std::vector<std::uint32_t> m_duration;
    std::vector<std::pair<std::uint32_t, std::int64_t>> m_long; ///< (index, duration), by index
    /// Each event's kind, in 2 bytes rather than 5: a track has few distinct names. Events
    /// index m_kinds with m_kind, or with m_kindWide (then m_kind is empty) when a track has
    /// more than 65 536 kinds.
    std::vector<Kind> m_kinds;
    std::vector<std::uint16_t> m_kind;
    std::vector<std::uint32_t> m_kindWide;
    /// Args ids in about 2 bytes each: within a row they rise with the file's order.
    ArgsColumn m_args;
    std::vector<std::uint32_t> m_rowBegin {0}; // rowCount()+1 offsets
};

/// Collects one track's events in any order, then sorts and lays them out in rows.
///
/// add() returns a provisional index (order of arrival); finish() returns the final index
/// of each provisional one so flows recorded during import can be remapped.
class TrackBuilder
{
public:
    explicit TrackBuilder(TrackInfo info = {});

    std::uint32_t add(std::int64_t start, std::int64_t duration, StringId name, Category category,
        ArgsId args = {}, bool unfinished = false);
    std::uint32_t size() const { return static_cast<std::uint32_t>(m_start.size()); }
    TrackInfo &info() { return m_info; }
    void reserve(std::size_t n);
    /// What add() does for each event, for whole columns at once: they are moved in when the
    /// builder is empty (no second copy of a lane at the peak of a load), else appended.
    /// `categoryFlags[i]` is event i's Category, or'ed with UnfinishedFlag when it is
    /// unfinished. Columns of different sizes throw std::invalid_argument. Returns the
    /// provisional index of the first event.
    static constexpr std::uint8_t UnfinishedFlag = Track::UnfinishedFlag;
    std::uint32_t adopt(std::vector<std::int64_t> &&start, std::vector<std::int64_t> &&duration,
        std::vector<StringId> &&name, std::vector<std::uint8_t> &&categoryFlags,
        std::vector<ArgsId> &&args);

    struct Result
    {
        Track track;
        std::vector<std::uint32_t> finalIndex; ///< provisional index -> index in track
        std::uint64_t partialOverlaps = 0; ///< events that overlapped without nesting
    };
    /// Sorts (start ascending, longer first on equal starts, then arrival order), assigns
    /// rows and groups them. The builder is empty afterwards.
    Result finish();

private:
    /// Sets t's kinds and kind columns from the names and flags (which it frees).
    void setKinds(Track &t, const std::vector<std::uint32_t> &finalIndex);

    TrackInfo m_info;
    std::vector<std::int64_t> m_start;
    std::vector<std::int64_t> m_duration;
    std::vector<StringId> m_name;
    std::vector<std::uint8_t> m_categoryFlags;
    std::vector<ArgsId> m_args;
};

} // namespace stepscope::model
