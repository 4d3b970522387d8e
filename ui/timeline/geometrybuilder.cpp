// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/units.h"
#include "geometrybuilder_p.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace stepscope::ui::timeline {

void RectBatcher::add(const QColor &color, const QRectF &rect)
{
    const QRgb key = color.rgba();
    auto it = m_index.constFind(key);
    std::size_t i = 0;
    if (it == m_index.constEnd()) {
        i = m_batches.size();
        m_index.insert(key, i);
        m_batches.push_back({color, {}});
    } else {
        i = it.value();
    }
    m_batches[i].rects.push_back(rect);
}

std::size_t Geometry::rectCount() const
{
    std::size_t n = 0;
    for (const auto &b : content)
        n += b.rects.size();
    return n;
}

QString tickLabel(std::int64_t t, const TickSpacing &spacing)
{
    // The spacing's unit, or a larger one once the value has five digits in it (the first
    // tick after a break of the axis reads "460.2 s", not "460200 ms").
    double unitNs = spacing.unitNs;
    const char *unit = spacing.unit;
    static constexpr std::pair<double, const char *> Larger[] = {
        {1e3, "µs"}, {1e6, "ms"}, {1e9, "s"}};
    for (const auto &[ns, name] : Larger) {
        if (ns > unitNs && std::abs(static_cast<double>(t)) >= 1e4 * unitNs) {
            unitNs = ns;
            unit = name;
        }
    }
    const double stepUnits = static_cast<double>(spacing.stepNs) / unitNs;
    const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(stepUnits) - 1e-9)));
    return QString::number(static_cast<double>(t) / unitNs, 'f', decimals) + QStringLiteral(" ")
        + QString::fromUtf8(unit);
}
namespace detail {

void Builder::buildLane(const LaneBox &box)
{
    const Lane &lane = m_model.lanes()[static_cast<std::size_t>(box.lane)];
    const auto [top, bottom] = clipOf(box);
    if (bottom <= top)
        return;
    if (lane.kind == LaneKind::Track && (box.lane % 2) == 1)
        addClipped(
            m_bg, m_view.colors.stripe, QRectF(m_laneLeft, top, laneRight(), bottom - top), box);
    buildHeader(box, lane);
    switch (lane.kind) {
    case LaneKind::Rank:
        buildStepLane(box, lane);
        break;
    case LaneKind::Track:
        buildTrack(box, lane);
        break;
    case LaneKind::Counter:
        buildCounter(box, lane);
        break;
    case LaneKind::Process:
        break;
    }
    if (lane.kind == LaneKind::Rank || lane.kind == LaneKind::Process)
        m_g.lines.push_back(
            {QLineF(0, bottom - 0.5, laneRight(), bottom - 0.5), m_view.colors.grid, 1});
}

void Builder::buildHeader(const LaneBox &box, const Lane &lane)
{
    const auto [top, bottom] = clipOf(box);
    m_bg.add(m_view.colors.headerBackground, QRectF(0, top, m_laneLeft, bottom - top));
    if (box.rect.top() < top - 1 || bottom - top < 12)
        return; // partly scrolled away: no label
    QString label = lane.label;
    if (lane.kind == LaneKind::Rank || lane.kind == LaneKind::Process)
        label = (m_view.collapsed.contains(lane.key) ? QStringLiteral("▸ ") : QStringLiteral("▾ "))
            + label;
    if (box.pinned)
        label = QStringLiteral("• ") + label;
    const double left = 4 + lane.indent * 12;
    const QRectF r(left, top, m_laneLeft - left - 4,
        std::min<double>(
            bottom - top, lane.kind == LaneKind::Track ? m_metrics.rowHeight : bottom - top));
    text(r, elideMiddle(label, r.width(), m_charPx, lane.kind == LaneKind::Rank ? m_boldFm : m_fm),
        lane.kind == LaneKind::Process ? m_view.colors.mutedText : m_view.colors.text,
        Qt::AlignLeft | Qt::AlignVCenter, lane.kind == LaneKind::Rank);
}

void Builder::buildStepLane(const LaneBox &box, const Lane &lane)
{
    const double y = box.rect.top() + 2;
    const double h = box.rect.height() - 4;
    const auto &segs = m_model.stepSegments(lane.traceIndex);
    const std::int64_t t0 = m_view.axis.startNs();
    const std::int64_t t1 = m_view.axis.endNs();
    const RowSummary &summary = m_model.segmentSummary(lane.traceIndex);
    const int level = summary.levelFor(m_view.axis.nsPerPixel());
    if (level >= 0) {
        // Zoomed out: one pyramid lookup per pixel, neighbouring pixels of a kind joined.
        const std::int64_t bw = summary.bucketNs(level);
        const auto count = static_cast<std::int64_t>(summary.bucketCount(level));
        const int width = m_view.axis.widthPx();
        int runStart = -1;
        std::uint8_t runCode = 0;
        auto flushRun = [&](int p) {
            if (runStart >= 0 && runCode != 0)
                addClipped(m_content,
                    segmentColor(static_cast<analysis::SegmentKind>(runCode - 1), m_view.theme),
                    QRectF(m_laneLeft + runStart, y, p - runStart, h), box);
            runStart = -1;
        };
        for (int p = 0; p < width; ++p) {
            const std::int64_t rel0 = m_view.axis.toNs(p) - summary.originNs();
            const std::int64_t rel1 = m_view.axis.toNs(p + 1) - summary.originNs();
            std::uint8_t code = 0;
            if (rel1 > 0 && rel0 < count * bw) {
                const std::int64_t b0 = std::max<std::int64_t>(0, rel0 / bw);
                const std::int64_t b1 =
                    std::min(count - 1, std::max<std::int64_t>(0, (rel1 - 1) / bw));
                int bestCoverage = 0;
                for (std::int64_t b = b0; b <= b1; ++b) {
                    const int c = summary.coverage(level, static_cast<std::size_t>(b));
                    if (c > bestCoverage) {
                        bestCoverage = c;
                        code = summary.categoryCode(level, static_cast<std::size_t>(b));
                    }
                }
            }
            if (code != runCode || runStart < 0) {
                flushRun(p);
                if (code != 0)
                    runStart = p;
                runCode = code;
            }
        }
        flushRun(width);
    } else if (!segs.empty()) {
        // Like a track row: segments of a pixel or more are drawn as they are; a pixel of
        // sub-pixel segments takes the kind of the segment at its centre, and the segments
        // ending inside it are skipped with one search, so the cost follows the width.
        const auto byEnd = [](std::int64_t t, const StepLaneSegment &s) { return t < s.endNs; };
        auto it = std::upper_bound(segs.begin(), segs.end(), t0, byEnd);
        double runX0 = 0;
        double runX1 = -1;
        analysis::SegmentKind runKind = analysis::SegmentKind::OtherIdle;
        auto flush = [&] {
            if (runX1 > runX0)
                addClipped(m_content, segmentColor(runKind, m_view.theme),
                    QRectF(runX0, y, runX1 - runX0, h), box);
            runX1 = -1;
        };
        auto extend = [&](double a, double b, analysis::SegmentKind kind) {
            if (runX1 >= 0 && kind == runKind && std::abs(a - runX1) < 0.5) {
                runX1 = b;
                return;
            }
            flush();
            runX0 = a;
            runX1 = b;
            runKind = kind;
        };
        while (it != segs.end() && it->startNs < t1) {
            const double x0 = x(it->startNs);
            const double x1 = x(it->endNs);
            if (x1 - x0 >= 1) {
                extend(x0, x1, it->kind);
                ++it;
                continue;
            }
            const double px = std::floor(x0);
            const std::int64_t centre = m_view.axis.toNs(px + 0.5 - m_laneLeft);
            auto c = gallopSegments(it, segs.end(), centre);
            const analysis::SegmentKind kind =
                (c != segs.end() && c->startNs <= centre) ? c->kind : it->kind;
            extend(std::max(px, x0), px + 1, kind);
            const std::int64_t boundary = m_view.axis.toNs(px + 1 - m_laneLeft);
            auto next = gallopSegments(c, segs.end(), boundary);
            it = next > it ? next : it + 1; // always advance
        }
        flush();
    }
    // Step spans: boundaries (at least StepBoundaryMinGapPx apart); alternate shading when the
    // analysis gave no segments.
    const auto &steps = m_model.steps(lane.traceIndex);
    double lastLine = -StepBoundaryMinGapPx;
    for (std::size_t k = 0; k < steps.size(); ++k) {
        const StepSpan &s = steps[k];
        if (s.endNs < t0 || s.startNs > t1)
            continue;
        const double x0 = x(s.startNs);
        const double x1 = x(s.endNs);
        if (segs.empty())
            addClipped(m_content,
                segmentColor(
                    k % 2 ? analysis::SegmentKind::LaunchGap : analysis::SegmentKind::OtherIdle,
                    m_view.theme),
                QRectF(x0, y, x1 - x0, h), box);
        if (x0 >= m_laneLeft && x0 - lastLine >= StepBoundaryMinGapPx) {
            m_g.lines.push_back(
                {QLineF(x0, box.rect.top(), x0, box.rect.bottom()), m_view.colors.text, 1});
            lastLine = x0;
        }
    }
}

void Builder::buildTrack(const LaneBox &box, const Lane &lane)
{
    const model::Track &track =
        m_model.trace(lane.traceIndex).tracks[static_cast<std::size_t>(lane.trackIndex)];
    const std::int64_t offset = m_model.offsetNs(lane.traceIndex);
    const auto [top, bottom] = clipOf(box);
    const model::Trace &trace = m_model.trace(lane.traceIndex);
    for (std::uint32_t row = 0; row < track.rowCount(); ++row) {
        const double y = box.rect.top() + 1 + row * m_metrics.rowHeight;
        if (y + m_metrics.rowHeight <= top || y >= bottom)
            continue;
        m_runs.clear();
        collectRowRuns(track, row, lane.summaries[row], offset, m_view.axis, m_runs);
        ++m_g.rowsDrawn;
        m_g.maxPiecesPerRow = std::max(m_g.maxPiecesPerRow, m_runs.size());
        const bool fullRow = y >= top && y + m_metrics.rowHeight <= bottom;
        for (const RowRun &r : m_runs) {
            const double x0 = m_laneLeft + std::max(r.x0, 0.0);
            const double x1 =
                m_laneLeft + std::min(r.x1, static_cast<double>(m_view.axis.widthPx()));
            if (x1 <= x0)
                continue;
            const auto category = static_cast<model::Category>(r.categoryCode - 1);
            const QColor fill = r.merged ? categoryColor(category, m_view.theme).darker(115)
                                         : categoryColor(category, m_view.theme);
            addClipped(m_content, fill, QRectF(x0, y, x1 - x0, m_metrics.rowHeight - 2), box);
            if (r.merged)
                ++m_g.mergedRuns;
            else
                ++m_g.eventRects;
            if (r.hasEvent && fullRow && x1 - x0 >= LabelMinPx) {
                const QRectF tr(x0 + 3, y, x1 - x0 - 6, m_metrics.rowHeight - 2);
                const QString name = elideMiddle(
                    qs(trace.strings.view(track.name(r.event))), tr.width(), m_charPx, m_fm);
                if (!name.isEmpty())
                    text(tr, name, textOn(fill), Qt::AlignLeft | Qt::AlignVCenter);
            }
        }
    }
}

void Builder::buildCounter(const LaneBox &box, const Lane &lane)
{
    const model::CounterSeries &series =
        m_model.trace(lane.traceIndex).counters[static_cast<std::size_t>(lane.counterIndex)];
    const auto &ts = series.timestampsNs;
    if (ts.empty() || box.pinned == false ? (box.rect.top() < m_g.layout.scrollTop) : false)
        return;
    const std::int64_t offset = m_model.offsetNs(lane.traceIndex);
    const double bottom = box.rect.bottom() - 2;
    const double height = box.rect.height() - 6;
    const double range = std::max(1e-12, lane.valueMax - lane.valueMin);
    auto yOf = [&](double v) { return bottom - (v - lane.valueMin) / range * height; };
    const int width = m_view.axis.widthPx();
    const int pStart =
        std::max(0, static_cast<int>(std::floor(m_view.axis.toPx(ts.front() + offset))));
    // The value holds until the next sample; the last one until the end of the trace.
    const std::int64_t lastT = std::max(ts.back(), m_model.extent().second - offset);
    const int pEnd = std::min(width, static_cast<int>(std::ceil(m_view.axis.toPx(lastT + offset))));
    if (pEnd <= pStart)
        return;
    QPolygonF poly;
    poly.reserve(2 * (pEnd - pStart) + 2);
    poly << QPointF(m_laneLeft + pStart, bottom);
    auto it = std::upper_bound(ts.begin(), ts.end(), m_view.axis.toNs(pStart) - offset);
    std::size_t idx = static_cast<std::size_t>(it - ts.begin());
    double current = idx > 0 ? series.values[idx - 1] : lane.valueMin;
    for (int p = pStart; p < pEnd; ++p) {
        const std::int64_t pixelEnd = m_view.axis.toNs(p + 1) - offset;
        double peak = current;
        // Samples inside this pixel: keep the maximum so peaks survive.
        const auto next = static_cast<std::size_t>(
            std::lower_bound(ts.begin() + static_cast<std::ptrdiff_t>(idx), ts.end(), pixelEnd)
            - ts.begin());
        for (std::size_t k = idx; k < next && k < idx + 64; ++k)
            peak = std::max(peak, series.values[k]);
        if (next > idx) {
            if (next - idx > 64) // many samples: the max of a subset, then the carried value
                peak = std::max(peak, series.values[next - 1]);
            current = series.values[next - 1];
        }
        idx = next;
        poly << QPointF(m_laneLeft + p, yOf(peak)) << QPointF(m_laneLeft + p + 1, yOf(peak));
    }
    poly << QPointF(m_laneLeft + pEnd, bottom);
    QColor fill = segmentColor(analysis::SegmentKind::Bubble, m_view.theme);
    QColor outline = fill.darker(140);
    fill.setAlpha(150);
    m_g.polygons.push_back({poly, fill, outline});
    text(QRectF(m_laneLeft + 4, box.rect.top(), 200, 14),
        QStringLiteral("max ") + qs(analysis::formatSignificant(lane.valueMax))
            + QStringLiteral(" ") + qs(series.key),
        m_view.colors.mutedText, Qt::AlignLeft | Qt::AlignTop);
}

} // namespace detail

using detail::Builder;

Geometry buildGeometry(const TimelineModel &model, const ViewState &view, QSize size,
    const TimelineMetrics &metrics, const QFont &font)
{
    return Builder(model, view, size, metrics, font).build();
}

void paintGeometry(QPainter &painter, const Geometry &g, const QFont &font)
{
    painter.save();
    painter.fillRect(QRect(QPoint(0, 0), g.size), g.background);
    painter.setPen(Qt::NoPen);
    auto fill = [&](const std::vector<RectBatch> &batches) {
        for (const RectBatch &b : batches) {
            painter.setBrush(b.color);
            painter.drawRects(b.rects.data(), static_cast<int>(b.rects.size()));
        }
    };
    fill(g.backgrounds);
    fill(g.content);
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const PolygonItem &p : g.polygons) {
        painter.setBrush(p.fill);
        painter.setPen(QPen(p.outline, 1));
        painter.drawPolygon(p.polygon);
    }
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(Qt::NoPen);
    fill(g.overlays);
    painter.setBrush(Qt::NoBrush);
    for (const OutlineBatch &o : g.outlines) {
        painter.setPen(QPen(o.color, o.width));
        painter.drawRects(o.rects.data(), static_cast<int>(o.rects.size()));
    }
    for (const LineItem &l : g.lines) {
        painter.setPen(QPen(l.color, l.width));
        painter.drawLine(l.line);
    }
    QFont bold = font;
    bold.setBold(true);
    painter.setFont(font);
    bool isBold = false;
    for (const TextItem &t : g.texts) {
        if (t.bold != isBold) {
            painter.setFont(t.bold ? bold : font);
            isBold = t.bold;
        }
        painter.setPen(t.color);
        painter.drawText(t.rect, t.flags, t.text);
    }
    painter.restore();
}

void paintTimeline(QPainter &painter, const TimelineModel &model, const ViewState &view, QSize size,
    const TimelineMetrics &metrics, const QFont &font)
{
    // A picture cannot be hovered: its legend shows every entry, on up to three lines.
    TimelineMetrics m = metrics;
    if (view.showLegend && m.legendHeight == LegendLineHeight)
        m.legendHeight =
            LegendLineHeight * std::min(3, legendLinesNeeded(model, view, size.width(), font));
    paintGeometry(painter, buildGeometry(model, view, size, m, font), font);
}

} // namespace stepscope::ui::timeline
