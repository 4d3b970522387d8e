// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "timelinemodel.h"
#include "viewstate.h"

#include <QPointF>
#include <QRectF>
#include <QSize>

#include <optional>
#include <vector>

namespace stepscope::ui::timeline {

/// Where one lane sits in the picture (widget coordinates, full width including the header).
struct LaneBox
{
    int lane = 0;
    QRectF rect;
    bool pinned = false;
};

/// The vertical layout of the lanes for one view state and size: pinned lanes in a fixed band
/// under the ruler, then the scrolled lanes, culled to what is visible. Pure.
struct LaneLayout
{
    std::vector<LaneBox> boxes; ///< visible lanes only, top to bottom
    int scrollTop = 0; ///< y where the scrolled area starts
    int scrollBottom = 0; ///< y where it ends (legend below)
    int contentHeight = 0; ///< height of every unpinned, shown lane (for the scroll bar)

    /// The box containing y, or nullptr.
    const LaneBox *boxAt(double y) const;
    const LaneBox *boxOfLane(int lane) const;
};

/// Height of a lane in px.
int laneHeight(const Lane &lane, const TimelineMetrics &metrics);
/// True when the lane is hidden or inside a collapsed group.
bool laneShown(const Lane &lane, const ViewState &view);

LaneLayout layoutLanes(
    const TimelineModel &model, const ViewState &view, const TimelineMetrics &metrics, QSize size);

/// What is under a point of the picture.
struct HitResult
{
    enum class Kind { Nothing, Ruler, Header, StepLane, Event, Counter, EmptyLane };
    Kind kind = Kind::Nothing;
    int lane = -1;
    EventKey event; ///< Kind::Event
    const StepLaneSegment *segment = nullptr; ///< Kind::StepLane (may be null between steps)
    std::int64_t timeNs = 0; ///< session-relative time under the point (lane area)
};

HitResult hitTest(const TimelineModel &model, const ViewState &view, const TimelineMetrics &metrics,
    QSize size, QPointF pos);

} // namespace stepscope::ui::timeline
