// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// TimeChart: what is drawn where (the points, the value and tooltip at a time, positions).
#include "analysis/units.h"
#include "timechart_p.h"

#include <QChart>

#include <algorithm>
#include <cmath>

namespace stepscope::ui {

QList<QPointF> TimeChart::drawnPoints(int series) const
{
    const SeriesData &s = d->series.at(static_cast<std::size_t>(series));
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(s.drawnTs.size()));
    for (std::size_t i = 0; i < s.drawnTs.size(); ++i)
        points.append(QPointF(static_cast<double>(s.drawnTs[i]), s.drawnValues[i]));
    return points;
}

double TimeChart::valueAt(int series, std::int64_t tNs) const
{
    const SeriesData &s = d->series.at(static_cast<std::size_t>(series));
    if (s.stack >= 0) {
        const StackData &st = d->stacks[static_cast<std::size_t>(s.stack)];
        auto it = std::upper_bound(st.ts.begin(), st.ts.end(), tNs);
        if (it == st.ts.begin())
            return NaN;
        const auto i = static_cast<std::size_t>(it - st.ts.begin()) - 1;
        return static_cast<double>(st.rows[static_cast<std::size_t>(s.row)][i]);
    }
    auto it = std::upper_bound(s.ts.begin(), s.ts.end(), tNs);
    auto i = static_cast<std::size_t>(it - s.ts.begin());
    // Step back over "not recorded" points (bounded: a hover must stay cheap).
    for (int guard = 0; i > 0 && guard < 256; ++guard) {
        const double v = s.values[i - 1];
        if (!(s.skipNegative && v < 0) && !std::isnan(v))
            return v;
        --i;
    }
    return NaN;
}

QString TimeChart::toolTipAt(std::int64_t tNs) const
{
    QString text = QStringLiteral("<b>t = %1</b>")
                       .arg(QString::fromStdString(analysis::formatDuration(tNs - d->origin)));
    text += QStringLiteral("<table>");
    std::vector<double> stackTotals(d->stacks.size(), 0.0);
    for (std::size_t i = 0; i < d->series.size(); ++i) {
        const double v = valueAt(static_cast<int>(i), tNs);
        const SeriesData &s = d->series[i];
        if (s.stack >= 0 && !std::isnan(v))
            stackTotals[static_cast<std::size_t>(s.stack)] += v;
        QString exact;
        if (d->unit == ValueUnit::Bytes && !std::isnan(v))
            exact = QStringLiteral(" (%L1 B)").arg(static_cast<qlonglong>(std::llround(v)));
        text += QStringLiteral("<tr><td><span style='color:%1'>■</span> %2</td>"
                               "<td align='right'>&nbsp;%3%4</td></tr>")
                    .arg(s.color.name(), s.name.toHtmlEscaped(), formatValue(d->unit, v), exact);
    }
    for (std::size_t k = 0; k < d->stacks.size(); ++k)
        text += QStringLiteral("<tr><td>total</td><td align='right'>&nbsp;%1</td></tr>")
                    .arg(formatValue(d->unit, stackTotals[k]));
    text += QStringLiteral("</table>");
    return text;
}

QPoint TimeChart::widgetPosition(std::int64_t tNs, double value) const
{
    const QRectF plot = d->chart->plotArea();
    const double x0 = d->axisX->min();
    const double x1 = d->axisX->max();
    const double y0 = d->axisY->min();
    const double y1 = d->axisY->max();
    const double xv = d->toX(tNs);
    const double yv = value / d->yScale;
    const double px = plot.left() + (xv - x0) / std::max(1e-300, x1 - x0) * plot.width();
    const double py = plot.bottom() - (yv - y0) / std::max(1e-300, y1 - y0) * plot.height();
    const QPointF scenePos = d->chart->mapToScene(QPointF(px, py));
    const QPoint viewPos = d->view->mapFromScene(scenePos);
    return d->view->viewport()->mapTo(this, viewPos);
}

std::int64_t TimeChart::timeAt(const QPoint &widgetPos) const
{
    const QPoint viewPos = d->view->viewport()->mapFrom(this, widgetPos);
    const QPointF chartPos = d->chart->mapFromScene(d->view->mapToScene(viewPos));
    const QRectF plot = d->chart->plotArea();
    const double f = (chartPos.x() - plot.left()) / std::max(1.0, plot.width());
    const double xv = d->axisX->min() + f * (d->axisX->max() - d->axisX->min());
    return d->fromX(xv);
}

std::pair<std::int64_t, std::int64_t> TimeChart::dataExtent() const
{
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (const SeriesData &s : d->series)
        if (!s.ts.empty()) {
            lo = std::min(lo, s.ts.front());
            hi = std::max(hi, s.ts.back());
        }
    for (const StackData &st : d->stacks)
        if (!st.ts.empty()) {
            lo = std::min(lo, st.ts.front());
            hi = std::max(hi, st.ts.back());
        }
    for (const MarkerData &m : d->markers) {
        lo = std::min(lo, m.tNs);
        hi = std::max(hi, m.tNs);
    }
    if (lo > hi)
        return {0, 0};
    return {lo, hi};
}

} // namespace stepscope::ui
