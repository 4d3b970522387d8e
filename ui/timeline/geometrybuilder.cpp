// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "geometrybuilder.h"

#include "analysis/units.h"
#include "rowruns.h"

#include <QFontMetricsF>
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
    const double stepUnits = static_cast<double>(spacing.stepNs) / spacing.unitNs;
    const int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(stepUnits) - 1e-9)));
    return QString::number(static_cast<double>(t) / spacing.unitNs, 'f', decimals)
        + QStringLiteral(" ") + QString::fromUtf8(spacing.unit);
}

namespace {

constexpr double LabelMinPx = 40;

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

/// Elides in the middle by an average character width: exact elision per label would cost
/// more than the rest of the frame.
QString elideMiddle(const QString &s, double widthPx, double charPx)
{
    const int fit = static_cast<int>(widthPx / charPx);
    if (s.size() <= fit)
        return s;
    if (fit < 3)
        return QString();
    const int left = (fit - 1) / 2;
    const int right = fit - 1 - left;
    return s.left(left) + QStringLiteral("…") + s.right(right);
}

/// First segment in [it, end) whose end is after t, galloping from `it` (segments are sorted
/// and disjoint, so ends are sorted): O(log distance) for a left-to-right sweep.
std::vector<StepLaneSegment>::const_iterator gallopSegments(
    std::vector<StepLaneSegment>::const_iterator it,
    std::vector<StepLaneSegment>::const_iterator end, std::int64_t t)
{
    std::ptrdiff_t step = 1;
    auto lo = it;
    auto probe = it;
    while (probe != end && probe->endNs <= t) {
        lo = probe + 1;
        probe = (end - probe > step) ? probe + step : end;
        step *= 2;
    }
    return std::upper_bound(
        lo, probe, t, [](std::int64_t v, const StepLaneSegment &s) { return v < s.endNs; });
}

class Builder
{
public:
    Builder(const TimelineModel &model, const ViewState &view, QSize size,
        const TimelineMetrics &metrics, const QFont &font)
        : m_model(model)
        , m_view(view)
        , m_metrics(metrics)
        , m_size(size)
        , m_fm(font)
        , m_charPx(std::max(4.0, m_fm.averageCharWidth()))
        , m_laneLeft(metrics.headerWidth)
    {
        m_g.size = size;
        m_g.background = view.colors.background;
        m_g.layout = layoutLanes(model, view, metrics, size);
        m_boxOfLane.assign(model.lanes().size(), -1);
        for (std::size_t b = 0; b < m_g.layout.boxes.size(); ++b)
            m_boxOfLane[static_cast<std::size_t>(m_g.layout.boxes[b].lane)] = static_cast<int>(b);
    }

    Geometry build()
    {
        for (const LaneBox &box : m_g.layout.boxes)
            buildLane(box);
        buildSearch();
        buildSelection();
        buildRuler();
        buildLegend();
        m_g.backgrounds = m_bg.take();
        m_g.content = m_content.take();
        m_g.overlays = m_overlay.take();
        return std::move(m_g);
    }

private:
    double x(std::int64_t t) const { return m_laneLeft + m_view.axis.toPx(t); }
    double laneRight() const { return m_size.width(); }
    /// Visible y range of a box (unpinned boxes are clipped to the scroll area).
    std::pair<double, double> clipOf(const LaneBox &box) const
    {
        if (box.pinned)
            return {box.rect.top(), box.rect.bottom()};
        return {std::max<double>(box.rect.top(), m_g.layout.scrollTop),
            std::min<double>(box.rect.bottom(), m_g.layout.scrollBottom)};
    }
    void addClipped(RectBatcher &b, const QColor &c, QRectF r, const LaneBox &box)
    {
        const auto [top, bottom] = clipOf(box);
        r.setLeft(std::max(r.left(), static_cast<double>(m_laneLeft)));
        r.setRight(std::min(r.right(), laneRight()));
        r.setTop(std::max(r.top(), top));
        r.setBottom(std::min(r.bottom(), bottom));
        if (r.width() > 0 && r.height() > 0)
            b.add(c, r);
    }
    void text(const QRectF &r, const QString &s, const QColor &c, int flags, bool bold = false)
    {
        m_g.texts.push_back({r, s, c, flags, bold});
    }

    void buildLane(const LaneBox &box);
    void buildHeader(const LaneBox &box, const Lane &lane);
    void buildStepLane(const LaneBox &box, const Lane &lane);
    void buildTrack(const LaneBox &box, const Lane &lane);
    void buildCounter(const LaneBox &box, const Lane &lane);
    void buildSearch();
    void buildSelection();
    void buildRuler();
    void buildLegend();
    QRectF eventRect(const EventKey &e, const LaneBox &box) const;

    const TimelineModel &m_model;
    const ViewState &m_view;
    const TimelineMetrics &m_metrics;
    QSize m_size;
    QFontMetricsF m_fm;
    double m_charPx;
    double m_laneLeft;
    Geometry m_g;
    RectBatcher m_bg;
    RectBatcher m_content;
    RectBatcher m_overlay;
    std::vector<int> m_boxOfLane;
    std::vector<RowRun> m_runs;
};

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
    text(r, elideMiddle(label, r.width(), m_charPx),
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
    // Step spans: boundaries always; alternate shading when the analysis gave no segments.
    const auto &steps = m_model.steps(lane.traceIndex);
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
        if (x0 >= m_laneLeft)
            m_g.lines.push_back(
                {QLineF(x0, box.rect.top(), x0, box.rect.bottom()), m_view.colors.text, 1});
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
                const QString name =
                    elideMiddle(qs(trace.strings.view(track.name(r.event))), tr.width(), m_charPx);
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
    if (!batch.rects.empty())
        m_g.outlines.push_back(std::move(batch));
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
    std::int64_t t = origin + ((t0 - origin) / spacing.stepNs) * spacing.stepNs;
    if (t < t0)
        t += spacing.stepNs;
    for (int guard = 0; t <= t1 && guard < 1000; t += spacing.stepNs, ++guard) {
        const double px = x(t);
        if (px < m_laneLeft)
            continue;
        m_g.lines.push_back({QLineF(px, h * 0.45, px, h), m_view.colors.mutedText, 1});
        m_g.lines.push_back({QLineF(px, h, px, m_g.layout.scrollBottom), m_view.colors.grid, 0});
        // A label that would run past the right edge is left out rather than cut.
        const QString label = tickLabel(t - origin, spacing);
        const double labelWidth = m_fm.horizontalAdvance(label) + 2;
        if (px + 3 + labelWidth <= laneRight())
            text(QRectF(px + 3, 1, labelWidth, h * 0.5), label, m_view.colors.text,
                Qt::AlignLeft | Qt::AlignVCenter);
    }
    // Step numbers of the first rank in view (all ranks share the timeline's zero).
    int traceIndex = 0;
    if (!m_g.layout.boxes.empty())
        traceIndex =
            m_model.lanes()[static_cast<std::size_t>(m_g.layout.boxes.front().lane)].traceIndex;
    if (m_model.session().traces.empty())
        return;
    for (const StepSpan &s : m_model.steps(traceIndex)) {
        if (s.endNs < t0 || s.startNs > t1)
            continue;
        const double x0 = std::max<double>(m_laneLeft, x(s.startNs));
        const double x1 = std::min(laneRight(), x(s.endNs));
        const QRectF r(x0, h * 0.5, x1 - x0, h * 0.5);
        const QString full = QStringLiteral("step %1").arg(s.number);
        if (r.width() >= m_fm.horizontalAdvance(full) + 6)
            text(r, full, m_view.colors.text, Qt::AlignCenter, true);
        else if (r.width() >= m_fm.horizontalAdvance(QString::number(s.number)) + 2)
            text(r, QString::number(s.number), m_view.colors.text, Qt::AlignCenter);
        if (x(s.startNs) >= m_laneLeft)
            m_g.lines.push_back(
                {QLineF(x(s.startNs), h * 0.5, x(s.startNs), h), m_view.colors.text, 1});
    }
    if (m_view.range) {
        const QString d = qs(analysis::formatDuration(m_view.range->second - m_view.range->first));
        text(QRectF(4, 0, m_laneLeft - 8, h), QStringLiteral("range ") + d, m_view.colors.text,
            Qt::AlignLeft | Qt::AlignVCenter, true);
    } else {
        text(QRectF(4, 0, m_laneLeft - 8, h),
            qs(analysis::formatDuration(m_view.axis.spanNs())) + QStringLiteral(" in view"),
            m_view.colors.mutedText, Qt::AlignLeft | Qt::AlignVCenter);
    }
}

void Builder::buildLegend()
{
    if (!m_view.showLegend || m_metrics.legendHeight <= 0)
        return;
    const double top = m_size.height() - m_metrics.legendHeight;
    m_bg.add(
        m_view.colors.headerBackground, QRectF(0, top, m_size.width(), m_metrics.legendHeight));
    m_g.lines.push_back({QLineF(0, top + 0.5, m_size.width(), top + 0.5), m_view.colors.grid, 1});
    double px = 6;
    auto item = [&](const QColor &c, const QString &label) {
        const double w = m_fm.horizontalAdvance(label);
        if (px + 14 + w > m_size.width())
            return;
        m_content.add(c, QRectF(px, top + 5, 10, 10));
        text(QRectF(px + 13, top, w + 4, m_metrics.legendHeight), label, m_view.colors.text,
            Qt::AlignLeft | Qt::AlignVCenter);
        px += 13 + w + 12;
    };
    auto heading = [&](const QString &label) {
        const double w = m_fm.horizontalAdvance(label);
        text(QRectF(px, top, w + 4, m_metrics.legendHeight), label, m_view.colors.mutedText,
            Qt::AlignLeft | Qt::AlignVCenter);
        px += w + 8;
    };
    if (m_model.segmentMask() != 0)
        heading(QStringLiteral("step lane:"));
    for (const analysis::SegmentKind kind : segmentKinds()) {
        if (m_model.segmentMask() & (1u << static_cast<unsigned>(kind)))
            item(segmentColor(kind, m_view.theme), segmentName(kind));
    }
    if (m_model.segmentMask() != 0)
        px += 12;
    if (m_model.categoryMask() != 0)
        heading(QStringLiteral("events:"));
    for (int c = 0; c < model::CategoryCount; ++c) {
        if (m_model.categoryMask() & (1u << c))
            item(categoryColor(static_cast<model::Category>(c), m_view.theme),
                qs(model::categoryName(static_cast<model::Category>(c))));
    }
}

} // namespace

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
    paintGeometry(painter, buildGeometry(model, view, size, metrics, font), font);
}

} // namespace stepscope::ui::timeline
