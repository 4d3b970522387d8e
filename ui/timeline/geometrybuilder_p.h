// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Internal to the timeline's geometry: the Builder that geometrybuilder.cpp (lanes) and
// geometryoverlays.cpp (search, selection, ruler, legend) share. Not part of the ui API.
#pragma once

#include "geometrybuilder.h"
#include "rowruns.h"
#include "ui/text.h"

#include <QFontMetricsF>

#include <algorithm>
#include <string_view>
#include <vector>

namespace stepscope::ui::timeline::detail {
constexpr double LabelMinPx = 40;
/// Step boundaries closer than this to the last one drawn are left out: zoomed out over
/// thousands of steps, one line per step would paint the step lane and the ruler black.
constexpr double StepBoundaryMinGapPx = 4;

/// `s` cut to `fit` characters with "…" in the middle (empty below 3).
inline QString elideChars(const QString &s, int fit)
{
    if (s.size() <= fit)
        return s;
    if (fit < 3)
        return QString();
    const int left = (fit - 1) / 2;
    const int right = fit - 1 - left;
    return s.left(left) + QStringLiteral("…") + s.right(right);
}

/// Elides in the middle so that the text fits `widthPx` as `fm` measures it: the count of
/// characters from the average width first, then one character less until the measured
/// text fits (wide glyphs). One measurement per label in the usual case; QFontMetrics's own
/// elidedText per label would cost more than the rest of the frame.
inline QString elideMiddle(const QString &s, double widthPx, double charPx, const QFontMetricsF &fm)
{
    int fit = static_cast<int>(widthPx / charPx);
    QString e = elideChars(s, fit);
    fit = static_cast<int>(e.size());
    while (!e.isEmpty() && fm.horizontalAdvance(e) > widthPx)
        e = elideChars(s, --fit);
    return e;
}

/// First segment in [it, end) whose end is after t, galloping from `it` (segments are sorted
/// and disjoint, so ends are sorted): O(log distance) for a left-to-right sweep.
inline std::vector<StepLaneSegment>::const_iterator gallopSegments(
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

inline QFont boldFont(QFont f)
{
    f.setBold(true);
    return f;
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
        , m_boldFm(boldFont(font))
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
    void buildBreak(const AxisBreak &b);
    void buildLegend();
    QRectF eventRect(const EventKey &e, const LaneBox &box) const;

    const TimelineModel &m_model;
    const ViewState &m_view;
    const TimelineMetrics &m_metrics;
    QSize m_size;
    QFontMetricsF m_fm;
    QFontMetricsF m_boldFm; // rank lanes' labels are bold
    double m_charPx;
    double m_laneLeft;
    Geometry m_g;
    RectBatcher m_bg;
    RectBatcher m_content;
    RectBatcher m_overlay;
    std::vector<int> m_boxOfLane;
    std::vector<RowRun> m_runs;
};

} // namespace stepscope::ui::timeline::detail
