// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The timeline's overlays: search marks, selection and flows, the ruler (the legend is in
// geometrylegend.cpp).
#include "analysis/units.h"
#include "geometrybuilder_p.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_set>
#include <vector>

namespace stepscope::ui::timeline::detail {
namespace {

/// The digits `QString::number(n)` writes (its sign left out).
int digitCount(std::int64_t n)
{
    int digits = 1;
    for (std::uint64_t v = n < 0 ? 0 - static_cast<std::uint64_t>(n)
                                 : static_cast<std::uint64_t>(n);
         v >= 10; v /= 10)
        ++digits;
    return digits;
}

} // namespace

QRectF Builder::eventRect(const EventKey &e, const LaneBox &box) const
{
    const model::Track &track = m_model.track(e);
    const double y = box.rect.top() + 1 + track.row(e.index) * m_metrics.rowHeight;
    double x0 = x(m_model.startOf(e));
    double x1 = x(m_model.endOf(e));
    if (x1 - x0 < 3) {
        const double c = (x0 + x1) / 2;
        x0 = c - 1.5;
        x1 = c + 1.5;
    }
    return QRectF(x0, y, x1 - x0, m_metrics.rowHeight - 2);
}

void Builder::buildSearch()
{
    const auto &matches = m_view.searchMatches;
    if (!matches || matches->empty())
        return;
    OutlineBatch batch {searchMatchColor(m_view.theme), 2, {}};
    const std::int64_t t0 = m_view.axis.startNs();
    const std::int64_t t1 = m_view.axis.endNs();
    // One marker per pixel, lane and row at most, so a match count in the millions stays cheap.
    std::unordered_set<std::uint64_t> drawn;
    std::size_t visited = 0;
    auto it = std::lower_bound(
        matches->begin(), matches->end(), t0, [&](const EventKey &e, std::int64_t t) {
            return m_model.endOf(e) < t && m_model.startOf(e) < t;
        });
    for (; it != matches->end() && visited < 200000; ++it, ++visited) {
        const std::int64_t s = m_model.startOf(*it);
        if (s > t1)
            break;
        const int lane = m_model.laneOfTrack(it->traceIndex, it->trackIndex);
        if (lane < 0 || m_boxOfLane[static_cast<std::size_t>(lane)] < 0)
            continue;
        const LaneBox &box =
            m_g.layout.boxes[static_cast<std::size_t>(m_boxOfLane[static_cast<std::size_t>(lane)])];
        const QRectF r = eventRect(*it, box);
        const std::uint64_t key = (static_cast<std::uint64_t>(lane) << 40)
            ^ (static_cast<std::uint64_t>(r.top()) << 20)
            ^ static_cast<std::uint64_t>(std::max(0.0, r.left()));
        if (!drawn.insert(key).second)
            continue;
        const auto [top, bottom] = clipOf(box);
        if (r.top() >= top && r.bottom() <= bottom)
            batch.rects.push_back(r);
    }
    // A dark halo under the yellow: a yellow line alone vanishes on Preparing's yellow and on
    // the pale yellow of Python events.
    if (!batch.rects.empty()) {
        m_g.outlines.push_back({searchHaloColor(m_view.theme), 4, batch.rects});
        m_g.outlines.push_back(std::move(batch));
    }
    if (m_view.currentMatch >= 0
        && static_cast<std::size_t>(m_view.currentMatch) < matches->size()) {
        const EventKey &e = (*matches)[static_cast<std::size_t>(m_view.currentMatch)];
        const int lane = m_model.laneOfTrack(e.traceIndex, e.trackIndex);
        if (lane >= 0 && m_boxOfLane[static_cast<std::size_t>(lane)] >= 0) {
            const LaneBox &box =
                m_g.layout
                    .boxes[static_cast<std::size_t>(m_boxOfLane[static_cast<std::size_t>(lane)])];
            m_g.outlines.push_back(
                {segmentColor(analysis::SegmentKind::CommOverlapped, m_view.theme), 3,
                    {eventRect(e, box)}});
        }
    }
}

void Builder::buildSelection()
{
    const auto &scrollTop = m_g.layout.scrollTop;
    if (m_view.range) {
        const double x0 = std::max<double>(m_laneLeft, x(m_view.range->first));
        const double x1 = std::min(laneRight(), x(m_view.range->second));
        if (x1 > x0) {
            m_overlay.add(rangeSelectionColor(m_view.theme),
                QRectF(x0, m_metrics.rulerHeight, x1 - x0,
                    m_g.layout.scrollBottom - m_metrics.rulerHeight));
            const QColor edge =
                segmentColor(analysis::SegmentKind::Bubble, m_view.theme).darker(130);
            m_g.lines.push_back(
                {QLineF(x0, m_metrics.rulerHeight, x0, m_g.layout.scrollBottom), edge, 1});
            m_g.lines.push_back(
                {QLineF(x1, m_metrics.rulerHeight, x1, m_g.layout.scrollBottom), edge, 1});
        }
    }
    (void)scrollTop;
    if (m_view.selected) {
        const int lane =
            m_model.laneOfTrack(m_view.selected->traceIndex, m_view.selected->trackIndex);
        if (lane >= 0 && m_boxOfLane[static_cast<std::size_t>(lane)] >= 0) {
            const LaneBox &box =
                m_g.layout
                    .boxes[static_cast<std::size_t>(m_boxOfLane[static_cast<std::size_t>(lane)])];
            m_g.outlines.push_back(
                {selectionColor(m_view.theme), 2, {eventRect(*m_view.selected, box)}});
        }
    }
    const QColor flow = flowColor(m_view.theme);
    for (const FlowLink &f : m_view.selectedFlows) {
        const int la = m_model.laneOfTrack(f.from.traceIndex, f.from.trackIndex);
        const int lb = m_model.laneOfTrack(f.to.traceIndex, f.to.trackIndex);
        if (la < 0 || lb < 0 || m_boxOfLane[static_cast<std::size_t>(la)] < 0
            || m_boxOfLane[static_cast<std::size_t>(lb)] < 0)
            continue;
        const QRectF a = eventRect(f.from,
            m_g.layout.boxes[static_cast<std::size_t>(m_boxOfLane[static_cast<std::size_t>(la)])]);
        const QRectF b = eventRect(f.to,
            m_g.layout.boxes[static_cast<std::size_t>(m_boxOfLane[static_cast<std::size_t>(lb)])]);
        const QPointF p0(std::clamp(a.right(), m_laneLeft, laneRight()), a.center().y());
        const QPointF p1(std::clamp(b.left(), m_laneLeft, laneRight()), b.center().y());
        m_g.lines.push_back({QLineF(p0, p1), flow, 1.5});
        // Arrow head at the target.
        const QLineF back(p1, p0);
        if (back.length() > 6) {
            QLineF h1 = back;
            h1.setLength(7);
            h1.setAngle(back.angle() + 25);
            QLineF h2 = back;
            h2.setLength(7);
            h2.setAngle(back.angle() - 25);
            m_g.lines.push_back({h1, flow, 1.5});
            m_g.lines.push_back({h2, flow, 1.5});
        }
    }
}

void Builder::buildRuler()
{
    const double h = m_metrics.rulerHeight;
    m_bg.add(m_view.colors.headerBackground, QRectF(0, 0, m_size.width(), h));
    m_g.lines.push_back({QLineF(0, h - 0.5, m_size.width(), h - 0.5), m_view.colors.grid, 1});
    m_g.lines.push_back({QLineF(m_laneLeft - 0.5, 0, m_laneLeft - 0.5, m_g.layout.scrollBottom),
        m_view.colors.grid, 1});
    const TickSpacing spacing = tickSpacing(m_view.axis.nsPerPixel(), 90);
    const std::int64_t t0 = m_view.axis.startNs();
    const std::int64_t t1 = m_view.axis.endNs();
    const std::int64_t origin = m_view.rulerOriginNs;
    // The stretches drawn to scale, between the breaks the axis compresses: ticks in each,
    // each label kept clear of the next break.
    std::vector<std::pair<std::int64_t, std::int64_t>> pieces;
    std::int64_t from = t0;
    for (const AxisBreak &b : m_view.axis.breaks()) {
        if (!m_view.axis.compresses(b) || b.endNs <= t0)
            continue;
        if (b.startNs >= t1)
            break;
        pieces.emplace_back(from, b.startNs);
        from = b.endNs;
        buildBreak(b);
    }
    pieces.emplace_back(from, t1);
    int guard = 0;
    for (const auto &[a, z] : pieces) {
        // Ticks count from the ruler's zero, except past a break so far away that the label
        // would need more than six digits beyond the tick's own (an epoch-stamped fragment
        // after a relative one reads "1704161510.5 s"): there they count from that break's
        // end, "+0 ms", "+500 ms" (also when the break itself is off screen), and the
        // break's tooltip says how much was cut.
        std::int64_t breakEnd = origin; // end of the last compressed break at or before a
        for (const AxisBreak &b : m_view.axis.breaks()) {
            if (m_view.axis.compresses(b) && b.endNs <= a && b.endNs > origin)
                breakEnd = b.endNs;
        }
        const bool relative = breakEnd != origin
            && std::abs(static_cast<double>(breakEnd - origin))
                    / static_cast<double>(spacing.stepNs)
                > 1e6;
        const std::int64_t zero = relative ? breakEnd : origin;
        std::int64_t t = zero + ((a - zero) / spacing.stepNs) * spacing.stepNs;
        if (t < a)
            t += spacing.stepNs;
        const double right = std::min(laneRight(), x(z));
        for (; t <= z && guard < 1000; t += spacing.stepNs, ++guard) {
            const double px = x(t);
            if (px < m_laneLeft)
                continue;
            m_g.lines.push_back({QLineF(px, h * 0.45, px, h), m_view.colors.mutedText, 1});
            m_g.lines.push_back(
                {QLineF(px, h, px, m_g.layout.scrollBottom), m_view.colors.grid, 0});
            // A label that would run past the right edge (or into a break) is left out.
            const QString label = relative ? QStringLiteral("+") + tickLabel(t - zero, spacing)
                                           : tickLabel(t - origin, spacing);
            const double labelWidth = m_fm.horizontalAdvance(label) + 2;
            if (px + 3 + labelWidth <= right)
                text(QRectF(px + 3, 1, labelWidth, h * 0.5), label, m_view.colors.text,
                    Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
    // Step numbers of the first rank in view (all ranks share the timeline's zero).
    int traceIndex = 0;
    if (!m_g.layout.boxes.empty())
        traceIndex =
            m_model.lanes()[static_cast<std::size_t>(m_g.layout.boxes.front().lane)].traceIndex;
    if (m_model.session().traces.empty())
        return;
    // Measuring a label shapes its text, the dearest call of a frame: a step narrower than
    // half its digits' narrowest width cannot hold even its number, so it is not measured.
    // Zoomed out over 1 500 steps, measuring each took 4-7 ms of a frame's 5-7 ms of geometry.
    double digitPx = std::numeric_limits<double>::max();
    for (char16_t c = u'0'; c <= u'9'; ++c)
        digitPx = std::min(digitPx, m_fm.horizontalAdvance(QChar(c)));
    double lastLine = -StepBoundaryMinGapPx;
    for (const StepSpan &s : m_model.steps(traceIndex)) {
        if (s.endNs < t0 || s.startNs > t1)
            continue;
        const double x0 = std::max<double>(m_laneLeft, x(s.startNs));
        const double x1 = std::min(laneRight(), x(s.endNs));
        const QRectF r(x0, h * 0.5, x1 - x0, h * 0.5);
        if (r.width() >= 0.5 * digitPx * digitCount(s.number) + 2) {
            const QString full = QStringLiteral("step %1").arg(s.number);
            if (r.width() >= m_fm.horizontalAdvance(full) + 6)
                text(r, full, m_view.colors.text, Qt::AlignCenter, true);
            else if (r.width() >= m_fm.horizontalAdvance(QString::number(s.number)) + 2)
                text(r, QString::number(s.number), m_view.colors.text, Qt::AlignCenter);
        }
        if (x(s.startNs) >= m_laneLeft && x(s.startNs) - lastLine >= StepBoundaryMinGapPx) {
            m_g.lines.push_back(
                {QLineF(x(s.startNs), h * 0.5, x(s.startNs), h), m_view.colors.text, 1});
            lastLine = x(s.startNs);
        }
    }
    if (m_view.range) {
        const QString d = qs(analysis::formatDuration(m_view.range->second - m_view.range->first));
        text(QRectF(4, 0, m_laneLeft - 8, h), QStringLiteral("range ") + d, m_view.colors.text,
            Qt::AlignLeft | Qt::AlignVCenter, true);
    } else {
        text(QRectF(4, 0, m_laneLeft - 8, h),
            qs(analysis::formatDuration(m_view.axis.unbrokenNs(t0, t1)))
                + (m_view.axis.unbrokenNs(t0, t1) < t1 - t0 ? QStringLiteral(" in view, gaps cut")
                                                            : QStringLiteral(" in view")),
            m_view.colors.mutedText, Qt::AlignLeft | Qt::AlignVCenter);
    }
}

/*
 * A compressed break: a band over the ruler and the lanes, edged by two slanted strokes in
 * the ruler, so that nobody reads the stretch as drawn to scale. Its length is the band's
 * tooltip (TimelineView::tooltipAt).
 */
void Builder::buildBreak(const AxisBreak &b)
{
    const double h = m_metrics.rulerHeight;
    const double x0 = std::max<double>(m_laneLeft, x(b.startNs));
    const double x1 = std::min(laneRight(), x(b.endNs));
    if (x1 <= x0)
        return;
    m_overlay.add(m_view.colors.headerBackground, QRectF(x0, 0, x1 - x0, m_g.layout.scrollBottom));
    const QColor edge = m_view.colors.mutedText;
    for (const double e : {x0 + 3, x1 - 3}) {
        m_g.lines.push_back({QLineF(e - 3, h - 2, e + 3, 2), edge, 1.5});
        m_g.lines.push_back({QLineF(e, h, e, m_g.layout.scrollBottom), m_view.colors.grid, 1});
    }
}

} // namespace stepscope::ui::timeline::detail
