// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timecuts.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace stepscope::ui {

namespace {

constexpr double LabelPx = 70; // room one time label takes
constexpr double EdgePx = 28; // no label this close to a cut: it would cover the cut's mark

analysis::DecimateOptions optionsOf(const WindowPart &part)
{
    analysis::DecimateOptions options;
    options.buckets = part.buckets;
    options.startNs = part.startNs;
    options.endNs = part.endNs;
    return options;
}

} // namespace

timeline::AxisBreaks axisBreaks(std::vector<TimeSpan> spans)
{
    auto breaks = std::make_shared<std::vector<timeline::AxisBreak>>();
    std::sort(spans.begin(), spans.end());
    for (const auto &[s, e] : spans)
        if (e > s && (breaks->empty() || s >= breaks->back().endNs))
            breaks->push_back({s, e});
    return breaks;
}

std::optional<TimeCuts> cutWindow(
    std::int64_t w0, std::int64_t w1, const timeline::AxisBreaks &breaks, double widthPx)
{
    if (!breaks || breaks->empty() || w1 <= w0)
        return std::nullopt;
    TimeCuts out;
    out.axis = timeline::TimeAxis(w0, 1.0, std::max(1, static_cast<int>(widthPx)));
    out.axis.setBreaks(breaks);
    out.axis.fit(w0, w1);
    std::int64_t at = w0;
    for (const timeline::AxisBreak &b : *breaks) {
        const std::int64_t s = std::max(b.startNs, w0);
        const std::int64_t e = std::min(b.endNs, w1);
        if (e <= s || !out.axis.compresses(b))
            continue;
        out.cuts.emplace_back(s, e);
        if (s > at)
            out.segments.emplace_back(at, s);
        at = e;
    }
    if (out.cuts.empty())
        return std::nullopt;
    if (w1 > at)
        out.segments.emplace_back(at, w1);
    return out;
}

std::vector<WindowPart> windowParts(
    const std::optional<TimeCuts> &cuts, std::int64_t w0, std::int64_t w1, int plainBuckets)
{
    if (!cuts)
        return {{w0, w1, plainBuckets}};
    std::vector<WindowPart> parts;
    for (const TimeSpan &seg : cuts->segments) {
        const double px = cuts->axis.toPx(seg.second) - cuts->axis.toPx(seg.first);
        parts.push_back({seg.first, seg.second, std::max(2, static_cast<int>(std::lround(px)))});
    }
    return parts;
}

analysis::DecimatedSeries decimateParts(const std::vector<std::int64_t> &ts,
    const std::vector<double> &values, const std::vector<WindowPart> &parts, bool skipNegative)
{
    analysis::DecimatedSeries out;
    for (const WindowPart &part : parts) {
        analysis::DecimateOptions options = optionsOf(part);
        options.skipNegative = skipNegative;
        const analysis::DecimatedSeries dec = analysis::decimate(ts, values, options);
        for (std::size_t i = 0; i < dec.sourceIndex.size(); ++i) {
            if (!out.sourceIndex.empty() && dec.sourceIndex[i] <= out.sourceIndex.back())
                continue;
            out.timestampsNs.push_back(dec.timestampsNs[i]);
            out.values.push_back(dec.values[i]);
            out.sourceIndex.push_back(dec.sourceIndex[i]);
        }
    }
    return out;
}

analysis::StackedSeries stackParts(const std::vector<std::int64_t> &ts,
    const std::vector<const std::vector<std::int64_t> *> &rows,
    const std::vector<WindowPart> &parts)
{
    analysis::StackedSeries out;
    out.tops.resize(rows.size());
    for (const WindowPart &part : parts) {
        const analysis::StackedSeries st = analysis::stackSeries(ts, rows, optionsOf(part));
        for (std::size_t i = 0; i < st.sourceIndex.size(); ++i) {
            if (!out.sourceIndex.empty() && st.sourceIndex[i] <= out.sourceIndex.back())
                continue;
            out.timestampsNs.push_back(st.timestampsNs[i]);
            out.sourceIndex.push_back(st.sourceIndex[i]);
            for (std::size_t r = 0; r < rows.size() && r < st.tops.size(); ++r)
                out.tops[r].push_back(st.tops[r][i]);
        }
    }
    return out;
}

std::vector<QAreaSeries *> addCutBands(
    QChart *chart, QAbstractAxis *x, QAbstractAxis *y, std::size_t count, const QColor &shade)
{
    std::vector<QAreaSeries *> bands;
    for (std::size_t i = 0; i < count; ++i) {
        auto *upper = new QLineSeries();
        auto *lower = new QLineSeries();
        auto *band = new QAreaSeries(upper, lower);
        upper->setParent(band);
        lower->setParent(band);
        band->setColor(shade);
        band->setBorderColor(shade);
        chart->addSeries(band);
        band->attachAxis(x);
        band->attachAxis(y);
        for (QLegendMarker *m : chart->legend()->markers(band))
            m->setVisible(false);
        bands.push_back(band);
    }
    return bands;
}

void placeCutBands(
    const std::vector<QAreaSeries *> &bands, const std::optional<TimeCuts> &cuts, double yTop)
{
    for (std::size_t i = 0; i < bands.size(); ++i) {
        QList<QPointF> top;
        QList<QPointF> bottom;
        if (cuts && i < cuts->cuts.size()) {
            const double x0 = cuts->axis.toPx(cuts->cuts[i].first);
            const double x1 = cuts->axis.toPx(cuts->cuts[i].second);
            top = {QPointF(x0, yTop), QPointF(x1, yTop)};
            bottom = {QPointF(x0, 0), QPointF(x1, 0)};
        }
        bands[i]->upperSeries()->replace(top);
        bands[i]->lowerSeries()->replace(bottom);
    }
}

std::vector<std::pair<double, QString>> cutTicks(
    const TimeCuts &cuts, std::int64_t originNs, const AxisTicks &unit)
{
    std::vector<std::pair<double, QString>> out;
    QSet<QString> used;
    std::vector<double> cutPx;
    for (const TimeSpan &c : cuts.cuts) {
        cutPx.push_back(cuts.axis.toPx(c.first));
        cutPx.push_back(cuts.axis.toPx(c.second));
    }
    for (const TimeSpan &seg : cuts.segments) {
        const double px0 = cuts.axis.toPx(seg.first);
        const double px1 = cuts.axis.toPx(seg.second);
        const int targets = static_cast<int>((px1 - px0) / LabelPx);
        if (targets < 1)
            continue;
        const AxisTicks t = niceTicks(static_cast<double>(seg.first - originNs),
            static_cast<double>(seg.second - originNs), TickUnit::Nanoseconds, targets);
        // The segment's step in the axis' unit says how many decimals tell its ticks apart.
        const double step = t.step * t.scale / unit.scale;
        const int decimals =
            std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 9);
        for (double v : t.values) {
            const auto ns = static_cast<std::int64_t>(std::llround(v * t.scale)) + originNs;
            if (ns < seg.first || ns > seg.second)
                continue;
            const double px = cuts.axis.toPx(ns);
            const bool nearCut = std::any_of(
                cutPx.begin(), cutPx.end(), [px](double c) { return std::abs(c - px) < EdgePx; });
            const double shown = v * t.scale / unit.scale;
            const QString label =
                QString::number(std::abs(shown) < step * 1e-6 ? 0.0 : shown, 'f', decimals);
            if (nearCut || used.contains(label))
                continue;
            used.insert(label);
            out.emplace_back(px, label);
        }
    }
    return out;
}

} // namespace stepscope::ui
