// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/analysissummary.h"
#include "clockalignment.h"
#include "model/session.h"
#include "rowsummary.h"
#include "timeaxis.h"
#include "ui/palette.h"

#include <QString>

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace stepscope::ui::timeline {

/// What a lane of the timeline shows.
enum class LaneKind {
    Rank, ///< header of a rank group; its row is the rank's step lane
    Process, ///< header of a process group (no content)
    Track, ///< a host thread / device stream / communication group: one row per depth
    Counter, ///< one counter series drawn as a filled plot
};

/// One segment of a rank's step lane, session-relative ns.
struct StepLaneSegment
{
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    analysis::SegmentKind kind = analysis::SegmentKind::OtherIdle;
    std::int64_t step = -1;
    analysis::LaneSegment::Drawn drawn = analysis::LaneSegment::Drawn::AsHappened;
};

/// A step of one rank, session-relative ns (for the ruler's step numbers and [ / ]).
struct StepSpan
{
    std::int64_t number = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
};

struct Lane
{
    LaneKind kind = LaneKind::Track;
    int traceIndex = 0; ///< index into session->traces
    int trackIndex = -1; ///< Track lanes: index into trace.tracks
    int counterIndex = -1; ///< Counter lanes: index into trace.counters
    std::int32_t rank = 0;
    QString key; ///< stable id: "r0", "r0/p123", "r0/p123/t7", "r0/c/3"
    QString parentKey; ///< key of the group that collapses this lane ("" for ranks)
    QString rankKey; ///< key of the rank group
    QString label;
    QString tooltip;
    int indent = 0;
    int rows = 1; ///< content rows (Track: the track's rowCount)
    std::vector<RowSummary> summaries; ///< Track lanes: one per row
    double valueMin = 0; ///< Counter lanes: range of the series (0 included)
    double valueMax = 0;
};

/// An event of the session: trace, track, index (final index in the track).
struct EventKey
{
    int traceIndex = -1;
    int trackIndex = -1;
    std::uint32_t index = 0;

    bool isValid() const { return traceIndex >= 0 && trackIndex >= 0; }
    friend bool operator==(const EventKey &a, const EventKey &b)
    {
        return a.traceIndex == b.traceIndex && a.trackIndex == b.trackIndex && a.index == b.index;
    }
    friend bool operator!=(const EventKey &a, const EventKey &b) { return !(a == b); }
};

/// The timeline's read-only view of a loaded session: lanes in display order (rank ->
/// process -> thread / stream, then counters), each row's LOD summary, the step lane of every
/// rank (the lanes of the load's analysis::SessionAnalysis) and the steps. Built once after a
/// load, on the loading thread, and shared as `std::shared_ptr<const TimelineModel>`.
///
/// Times handed out are session-relative ns: a trace's own time t shows at
/// t + offsetNs(traceIndex). Immutable after build; safe to read from any thread.
///
/// Clock alignment: with `alignClocks`, a rank whose clock offset is known (RankClock) is
/// shifted by it, so offsetNs() includes it; a rank with weak evidence keeps its own clock and
/// its header tooltip says why. withClocks() gives the other variant cheaply (lanes and LOD
/// summaries are shared, only offsets, steps and step-lane segments move).
class TimelineModel
{
public:
    /// The step lane from `analysed` (its `lanes`, one per trace); without one the session
    /// is analysed here with a default run config (tests, tools without a loader).
    static std::shared_ptr<const TimelineModel> build(std::shared_ptr<const model::Session> session,
        bool alignClocks = true,
        std::shared_ptr<const analysis::SessionAnalysis> analysed = nullptr);
    /// The same model with clock offsets applied (aligned) or not (raw clocks).
    static std::shared_ptr<const TimelineModel> withClocks(
        const std::shared_ptr<const TimelineModel> &model, bool aligned);

    const model::Session &session() const { return *m_session; }
    const std::shared_ptr<const model::Session> &sessionPtr() const { return m_session; }
    const std::vector<Lane> &lanes() const { return *m_lanes; }
    /// A lane's tooltip; rank headers add their clock note, or for a rank known only from
    /// its step table, where its steps are drawn.
    QString laneTooltip(int lane) const;
    /// Per-trace clock evidence; empty when the session has fewer than two traces.
    const std::vector<RankClock> &clocks() const { return m_clocks; }
    /// True when built (or switched) with clock offsets applied where known.
    bool clocksAligned() const { return m_clocksAligned; }
    const model::Trace &trace(int traceIndex) const
    {
        return *m_session->traces[static_cast<std::size_t>(traceIndex)];
    }
    const model::Track &track(const EventKey &e) const
    {
        return trace(e.traceIndex).tracks[static_cast<std::size_t>(e.trackIndex)];
    }
    std::int64_t offsetNs(int traceIndex) const
    {
        return m_offsets[static_cast<std::size_t>(traceIndex)];
    }
    /// The lane of a track, -1 when none.
    int laneOfTrack(int traceIndex, int trackIndex) const;
    const std::vector<StepLaneSegment> &stepSegments(int traceIndex) const
    {
        return m_segments[static_cast<std::size_t>(traceIndex)];
    }
    /// Coverage pyramid of the step lane (session-relative; codes are SegmentKind + 1).
    const RowSummary &segmentSummary(int traceIndex) const
    {
        return m_segmentSummaries[static_cast<std::size_t>(traceIndex)];
    }
    const std::vector<StepSpan> &steps(int traceIndex) const
    {
        return m_steps[static_cast<std::size_t>(traceIndex)];
    }
    /// True when the step lane came from the analysis (false: plain step spans only).
    bool hasBreakdownSegments() const { return m_fromAnalysis; }
    /// Session-relative extent over every trace; {0, 1} when empty.
    std::pair<std::int64_t, std::int64_t> extent() const { return m_extent; }
    /// Empty stretches between the islands of content (two profiling windows, a rank's table
    /// steps far from another rank's trace) that the axis draws as breaks (axisbreaks.h);
    /// never nullptr, empty when there is none.
    const AxisBreaks &breaks() const { return m_breaks; }
    std::uint64_t eventCount() const { return m_eventCount; }
    /// Something to draw on a time axis: events or steps. Without, the window shows no
    /// timeline and no time counts from a ruler.
    bool hasTimeline() const;
    /// Per rank, the trace time the ruler shows as 0: the model's first time less the rank's
    /// offset, so it follows the clock alignment. Empty without a timeline. The window and the
    /// exports give it to the panels that show times (MemoryPanel::setTimeZeros).
    std::map<int, std::int64_t> rulerZeros() const;
    /// Bit c set when some event has model::Category c (the legend lists only those).
    std::uint32_t categoryMask() const { return m_categoryMask; }
    /// Bit k set when some step-lane segment has SegmentKind k.
    std::uint32_t segmentMask() const { return m_segmentMask; }

    /// Session-relative start / end of an event.
    std::int64_t startOf(const EventKey &e) const
    {
        return track(e).start(e.index) + offsetNs(e.traceIndex);
    }
    std::int64_t endOf(const EventKey &e) const
    {
        return track(e).end(e.index) + offsetNs(e.traceIndex);
    }
    QString nameOf(const EventKey &e) const;
    /// The step (of the event's rank) containing the event's start, -1 when none.
    std::int64_t stepOf(const EventKey &e) const;

    /// Every event whose name contains `needle` (case-insensitive), ordered by start.
    std::vector<EventKey> search(const QString &needle) const;

    std::size_t summaryBytes() const;

private:
    void applyClocks(bool aligned);
    void findIslands();
    std::pair<std::int64_t, std::int64_t> unionExtent() const;

    std::shared_ptr<const model::Session> m_session;
    std::shared_ptr<const std::vector<Lane>> m_lanes = std::make_shared<std::vector<Lane>>();
    std::vector<RankClock> m_clocks;
    std::vector<QString> m_tableOnlyNotes; // [trace]: where a rank without events is drawn
    bool m_clocksAligned = false;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_traceExtents; // own time; {1, 0}: none
    std::vector<std::int64_t> m_offsets;
    std::vector<std::vector<int>> m_trackLane; // [trace][track] -> lane
    std::vector<std::vector<StepLaneSegment>> m_segments;
    std::vector<std::vector<StepSpan>> m_steps;
    std::vector<RowSummary> m_segmentSummaries;
    std::pair<std::int64_t, std::int64_t> m_extent {0, 1};
    std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> m_islands; // own time
    std::int64_t m_breakMinGapNs = 0;
    AxisBreaks m_breaks = std::make_shared<std::vector<AxisBreak>>();
    std::uint64_t m_eventCount = 0;
    std::uint32_t m_categoryMask = 0;
    std::uint32_t m_segmentMask = 0;
    bool m_fromAnalysis = false;
};

} // namespace stepscope::ui::timeline
