// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/track.h"
#include "rowsummary.h"
#include "timeaxis.h"

#include <cstdint>
#include <vector>

namespace stepscope::ui::timeline {

/// One drawable piece of a row: either one event at least a pixel wide, or a run of events
/// merged because each is narrower than a pixel. x is in lane-area pixels (0 = left edge).
struct RowRun
{
    double x0 = 0;
    double x1 = 0;
    std::uint8_t categoryCode = 0; ///< model::Category + 1 (colour of the widest member)
    bool merged = false; ///< a run of several sub-pixel events
    bool hasEvent = false; ///< `event` is the event this piece shows
    std::uint32_t event = 0;
};

/// Events at least this many pixels wide are drawn on their own.
inline constexpr double MinEventPx = 1.0;

/*
 * Level of detail for one row (STYLE.md §2), appended to `out` in x order:
 *
 * - Zoomed out (a pixel spans at least one level-0 bucket of the row's RowSummary): one
 *   lookup per pixel in the summary's level whose buckets are just narrower than a pixel;
 *   neighbouring pixels of the same category join one run. A run of 2 px or more is matched
 *   to the event under its middle (one binary search) so wide events keep their identity
 *   (labels, hover) without walking events. Cost: O(width + runs · log n).
 * - Zoomed in: the row's visible range by binary search (Track::visibleRange); each event of
 *   at least a pixel is its own piece; narrower ones start a run that absorbs neighbours
 *   touching its last pixel, and every event that ends inside the run's pixels is skipped with
 *   one binary search over the (sorted) ends instead of being visited. Cost: O(pieces · log n).
 *
 * Either way the pieces do not overlap except at shared pixel edges and number at most about
 * two per pixel of width, whatever the number of events.
 */
void collectRowRuns(const model::Track &track, std::uint32_t row, const RowSummary &summary,
    std::int64_t offsetNs, const TimeAxis &axis, std::vector<RowRun> &out);

/// The event of `row` under time t (track time), or the nearest one within `toleranceNs`;
/// false when none.
bool eventAtTime(const model::Track &track, std::uint32_t row, std::int64_t t,
    std::int64_t toleranceNs, std::uint32_t &event);

} // namespace stepscope::ui::timeline
