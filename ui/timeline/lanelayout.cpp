// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "lanelayout.h"

#include "rowruns.h"

#include <algorithm>
#include <cmath>

namespace stepscope::ui::timeline {

const LaneBox *LaneLayout::boxAt(double y) const
{
    for (const LaneBox &b : boxes) {
        if (y >= b.rect.top() && y < b.rect.bottom())
            return &b;
    }
    return nullptr;
}

const LaneBox *LaneLayout::boxOfLane(int lane) const
{
    for (const LaneBox &b : boxes) {
        if (b.lane == lane)
            return &b;
    }
    return nullptr;
}

int laneHeight(const Lane &lane, const TimelineMetrics &metrics)
{
    switch (lane.kind) {
    case LaneKind::Rank:
        return metrics.stepLaneHeight;
    case LaneKind::Process:
        return metrics.groupHeight;
    case LaneKind::Track:
        return lane.rows * metrics.rowHeight + 2;
    case LaneKind::Counter:
        return metrics.counterHeight;
    }
    return metrics.rowHeight;
}

bool laneShown(const Lane &lane, const ViewState &view)
{
    if (view.hidden.contains(lane.key))
        return false;
    if (lane.kind != LaneKind::Rank && view.collapsed.contains(lane.rankKey))
        return false;
    if (lane.kind != LaneKind::Process && lane.kind != LaneKind::Rank
        && view.collapsed.contains(lane.parentKey))
        return false;
    return true;
}

LaneLayout layoutLanes(
    const TimelineModel &model, const ViewState &view, const TimelineMetrics &metrics, QSize size)
{
    LaneLayout layout;
    const auto &lanes = model.lanes();
    const double width = size.width();
    int y = metrics.rulerHeight;
    // Pinned band: in the user's pin order, never scrolled.
    for (const QString &key : view.pinned) {
        for (std::size_t i = 0; i < lanes.size(); ++i) {
            if (lanes[i].key != key || view.hidden.contains(key))
                continue;
            const int h = laneHeight(lanes[i], metrics);
            layout.boxes.push_back({static_cast<int>(i), QRectF(0, y, width, h), true});
            y += h;
        }
    }
    if (!view.pinned.isEmpty())
        y += 3; // separator under the pinned band
    layout.scrollTop = y;
    const int legend = view.showLegend ? metrics.legendHeight : 0;
    layout.scrollBottom = std::max(layout.scrollTop, size.height() - legend);
    int contentY = 0;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        const Lane &lane = lanes[i];
        if (!laneShown(lane, view) || view.pinned.contains(lane.key))
            continue;
        const int h = laneHeight(lane, metrics);
        const int top = layout.scrollTop + contentY - view.scrollY;
        if (top + h > layout.scrollTop && top < layout.scrollBottom)
            layout.boxes.push_back({static_cast<int>(i), QRectF(0, top, width, h), false});
        contentY += h;
    }
    layout.contentHeight = contentY;
    return layout;
}

HitResult hitTest(const TimelineModel &model, const ViewState &view, const TimelineMetrics &metrics,
    QSize size, QPointF pos)
{
    HitResult hit;
    const double laneX = pos.x() - metrics.headerWidth;
    hit.timeNs = view.axis.toNs(laneX);
    if (pos.y() < metrics.rulerHeight) {
        hit.kind = HitResult::Kind::Ruler;
        return hit;
    }
    const LaneLayout layout = layoutLanes(model, view, metrics, size);
    const LaneBox *box = layout.boxAt(pos.y());
    if (!box || (!box->pinned && (pos.y() < layout.scrollTop || pos.y() >= layout.scrollBottom)))
        return hit;
    hit.lane = box->lane;
    if (laneX < 0) {
        hit.kind = HitResult::Kind::Header;
        return hit;
    }
    const Lane &lane = model.lanes()[static_cast<std::size_t>(box->lane)];
    switch (lane.kind) {
    case LaneKind::Rank: {
        hit.kind = HitResult::Kind::StepLane;
        const auto &segs = model.stepSegments(lane.traceIndex);
        auto it = std::upper_bound(segs.begin(), segs.end(), hit.timeNs,
            [](std::int64_t t, const StepLaneSegment &s) { return t < s.endNs; });
        if (it != segs.end() && it->startNs <= hit.timeNs)
            hit.segment = &*it;
        return hit;
    }
    case LaneKind::Process:
        hit.kind = HitResult::Kind::Header;
        return hit;
    case LaneKind::Counter:
        hit.kind = HitResult::Kind::Counter;
        return hit;
    case LaneKind::Track:
        break;
    }
    hit.kind = HitResult::Kind::EmptyLane;
    const int row =
        static_cast<int>(std::floor((pos.y() - box->rect.top() - 1) / metrics.rowHeight));
    if (row < 0 || row >= lane.rows)
        return hit;
    const model::Track &track =
        model.trace(lane.traceIndex).tracks[static_cast<std::size_t>(lane.trackIndex)];
    const std::int64_t offset = model.offsetNs(lane.traceIndex);
    const auto tolerance = static_cast<std::int64_t>(std::ceil(2.0 * view.axis.nsPerPixel()));
    std::uint32_t e = 0;
    if (eventAtTime(track, static_cast<std::uint32_t>(row), hit.timeNs - offset, tolerance, e)) {
        hit.kind = HitResult::Kind::Event;
        hit.event = {lane.traceIndex, lane.trackIndex, e};
    }
    return hit;
}

} // namespace stepscope::ui::timeline
