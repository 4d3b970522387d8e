// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/decimate.h"
#include "analysis/units.h"
#include "chartstyle.h"
#include "timechart_p.h"
#include "timechartview.h"
#include "timecuts.h"
#include "ui/palette.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <optional>

namespace stepscope::ui {

QString formatValue(ValueUnit unit, double value)
{
    if (std::isnan(value))
        return QStringLiteral("–");
    switch (unit) {
    case ValueUnit::Bytes:
        return QString::fromStdString(analysis::formatBytes(std::llround(value)));
    case ValueUnit::Duration:
        return QString::fromStdString(analysis::formatDuration(std::llround(value)));
    case ValueUnit::Plain:
        return QString::fromStdString(analysis::formatSignificant(value));
    }
    return {};
}

TimeChart::TimeChart(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<Impl>())
{
    d->chart = new QChart();
    applyChartStyle(d->chart, palette());
    d->axisX = new QValueAxis(d->chart);
    d->axisY = new QValueAxis(d->chart);
    d->axisX->setLabelFormat(QStringLiteral("%.6g"));
    d->axisY->setLabelFormat(QStringLiteral("%.4g"));
    applyAxisStyle(d->axisX, palette());
    applyAxisStyle(d->axisY, palette());
    d->chart->addAxis(d->axisX, Qt::AlignBottom);
    d->chart->addAxis(d->axisY, Qt::AlignLeft);
    d->axisCut = new QCategoryAxis(d->chart);
    d->axisCut->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    applyAxisStyle(d->axisCut, palette());
    d->axisCut->setVisible(false);
    d->cutShade = palette().color(QPalette::Window).darker(112);
    d->chart->addAxis(d->axisCut, Qt::AlignBottom);
    d->view = new TimeChartView(d->chart, this);
    // Laid out at another size (a resize, or an export, which lays charts out with no event
    // loop): decimated, cut and ticked again for the plot as it is now.
    connect(d->chart, &QChart::plotAreaChanged, this, [this](const QRectF &plot) {
        if (std::abs(plot.width() - d->refreshedPlot.width()) >= 1
            || std::abs(plot.height() - d->refreshedPlot.height()) >= 1)
            refresh();
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->view);
}

TimeChart::~TimeChart() = default;

void TimeChart::setTitle(const QString &title)
{
    d->chart->setTitle(title);
}

void TimeChart::setValueUnit(ValueUnit unit)
{
    d->unit = unit;
}

void TimeChart::setLegendAlignment(Qt::Alignment alignment)
{
    d->chart->legend()->setAlignment(alignment);
}

Qt::Alignment TimeChart::legendAlignment() const
{
    return d->chart->legend()->alignment();
}

void TimeChart::setValueAxisTitle(const QString &title)
{
    d->valueTitle = title;
}

void TimeChart::clear()
{
    d->chart->removeAllSeries();
    d->makeCutBands(); // the old ones went with every series
    // The edges of the stacked areas are not chart series: they belong to us.
    for (StackData &st : d->stacks) {
        delete st.baseline;
        for (int i : st.series)
            delete d->series[static_cast<std::size_t>(i)].line;
    }
    d->series.clear();
    d->stacks.clear();
    d->markers.clear();
    d->windowSet = false;
}

int TimeChart::addLine(const QString &name, const QColor &color,
    std::vector<std::int64_t> timestampsNs, std::vector<double> values, bool skipNegative)
{
    SeriesData s;
    s.name = name;
    s.color = color;
    s.ts = std::move(timestampsNs);
    s.values = std::move(values);
    s.values.resize(s.ts.size(), NaN);
    s.skipNegative = skipNegative;
    s.line = new QLineSeries();
    s.line->setName(name);
    QPen pen(color);
    pen.setWidthF(1.5);
    s.line->setPen(pen);
    d->attach(s.line);
    d->series.push_back(std::move(s));
    refresh();
    return static_cast<int>(d->series.size()) - 1;
}

int TimeChart::addStack(const QStringList &names, const QList<QColor> &colors,
    std::vector<std::int64_t> timestampsNs, std::vector<std::vector<std::int64_t>> rows)
{
    const int firstSeries = static_cast<int>(d->series.size());
    StackData stack;
    stack.ts = std::move(timestampsNs);
    stack.rows = std::move(rows);
    for (auto &row : stack.rows)
        row.resize(stack.ts.size(), 0);
    stack.baseline = new QLineSeries(d->chart);
    const int stackIndex = static_cast<int>(d->stacks.size());
    QLineSeries *lower = stack.baseline;
    for (std::size_t k = 0; k < stack.rows.size(); ++k) {
        SeriesData s;
        s.name =
            k < static_cast<std::size_t>(names.size()) ? names[static_cast<int>(k)] : QString();
        s.color = k < static_cast<std::size_t>(colors.size()) ? colors[static_cast<int>(k)]
                                                              : fallbackSeriesColor();
        s.stack = stackIndex;
        s.row = static_cast<int>(k);
        s.line = new QLineSeries(d->chart);
        auto *area = new QAreaSeries(s.line, lower);
        area->setName(s.name);
        area->setColor(s.color);
        area->setBorderColor(s.color.darker(115));
        d->attach(area);
        stack.areas.push_back(area);
        stack.series.push_back(static_cast<int>(d->series.size()));
        lower = s.line;
        d->series.push_back(std::move(s));
    }
    d->stacks.push_back(std::move(stack));
    refresh();
    return firstSeries;
}

void TimeChart::addMarker(const QString &label, const QColor &color, std::int64_t tNs, double value)
{
    MarkerData m;
    m.label = label;
    m.color = color;
    m.tNs = tNs;
    m.value = value;
    m.series = new QScatterSeries();
    m.series->setName(label);
    m.series->setColor(color);
    m.series->setBorderColor(color.darker(140));
    m.series->setMarkerSize(11);
    m.series->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    d->attach(m.series);
    d->markers.push_back(std::move(m));
    refresh();
}

void TimeChart::setBreaks(std::vector<std::pair<std::int64_t, std::int64_t>> breaksNs)
{
    for (QAreaSeries *band : d->cutBands) {
        d->chart->removeSeries(band);
        delete band;
    }
    d->breaks = axisBreaks(std::move(breaksNs));
    d->makeCutBands();
    refresh();
}

int TimeChart::cutCount() const
{
    return d->cuts ? static_cast<int>(d->cuts->cuts.size()) : 0;
}

QStringList TimeChart::timeTickLabels() const
{
    return d->axisCut->isVisible() ? d->axisCut->categoriesLabels() : QStringList();
}

void TimeChart::setTimeWindow(std::int64_t startNs, std::int64_t endNs)
{
    endNs = std::max(endNs, startNs + 1);
    const bool changed = !d->windowSet || d->windowStart != startNs || d->windowEnd != endNs;
    d->windowSet = true;
    d->windowStart = startNs;
    d->windowEnd = endNs;
    refresh();
    if (changed)
        emit timeWindowChanged(startNs, endNs);
}

void TimeChart::setTimeOrigin(std::int64_t originNs)
{
    d->origin = originNs;
    refresh();
}

std::int64_t TimeChart::timeOrigin() const
{
    return d->origin;
}

void TimeChart::setHomeWindow(std::int64_t startNs, std::int64_t endNs)
{
    d->home = std::make_pair(startNs, std::max(endNs, startNs + 1));
    refresh();
}

std::pair<std::int64_t, std::int64_t> TimeChart::shownWindow() const
{
    return d->window(this);
}

void TimeChart::resetTimeWindow()
{
    const bool changed = d->windowSet;
    d->windowSet = false;
    refresh();
    if (changed)
        emit timeWindowReset();
}

int TimeChart::seriesCount() const
{
    return static_cast<int>(d->series.size());
}

QString TimeChart::seriesName(int series) const
{
    return d->series.at(static_cast<std::size_t>(series)).name;
}

namespace {

/// Points of a step function: each value holds until the next point, so a horizontal
/// segment is drawn before every rise or fall.
template <typename ToX>
QList<QPointF> stepPoints(const std::vector<std::int64_t> &ts, const std::vector<double> &values,
    const ToX &toX, double yScale)
{
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(ts.size() * 2));
    for (std::size_t i = 0; i < ts.size(); ++i) {
        const double x = toX(ts[i]);
        if (i > 0)
            points.append(QPointF(x, values[i - 1] / yScale));
        points.append(QPointF(x, values[i] / yScale));
    }
    return points;
}

} // namespace

int TimeChart::timeTickCount() const
{
    return d->xTickCount;
}

void TimeChart::refresh()
{
    // The ticks set the axis labels, whose width sets the plot's, which asks for a refresh
    // (plotAreaChanged) from inside this one. A few passes, one after the other, follow it;
    // labels flipping between two widths (an empty chart's 1 ns window: ticks of 5, then of
    // 0.5) recursed until the stack overflowed.
    if (d->refreshing) {
        d->plotMovedInRefresh = true;
        return;
    }
    d->refreshing = true;
    for (int pass = 0; pass < 3; ++pass) {
        d->plotMovedInRefresh = false;
        refreshOnce();
        if (!d->plotMovedInRefresh)
            break;
    }
    d->refreshing = false;
}

void TimeChart::refreshOnce()
{
    auto [w0, w1] = d->window(this);
    if (w1 <= w0)
        w1 = w0 + 1;
    int xTargets = std::clamp(static_cast<int>(d->chart->plotArea().width() / 90), 2, 10);
    AxisTicks xTicks = niceTicks(0, static_cast<double>(w1 - w0), TickUnit::Nanoseconds, xTargets);
    // The unit and step follow the span shown, ticks at its multiples from 0: two at least
    // inside the window (a 1.9 s window from 0.05 s at a step of 1 s showed "1" alone).
    const auto inside = [w0 = w0 - d->origin, w1 = w1 - d->origin](const AxisTicks &t) {
        const double lo = static_cast<double>(w0) / t.scale;
        const double hi = static_cast<double>(w1) / t.scale;
        return std::floor(hi / t.step) - std::ceil(lo / t.step) + 1;
    };
    for (int i = 0; i < 4 && inside(xTicks) < 2; ++i) {
        xTargets *= 2;
        xTicks = niceTicks(0, static_cast<double>(w1 - w0), TickUnit::Nanoseconds, xTargets);
    }
    d->xTickCount = static_cast<int>(inside(xTicks));
    d->xScale = xTicks.scale;
    const double widthPx = d->chart->plotArea().width();
    d->refreshedPlot = d->chart->plotArea().size();
    d->cuts = cutWindow(w0, w1, d->breaks, widthPx);
    const std::vector<WindowPart> parts =
        windowParts(d->cuts, w0, w1, std::max(50, static_cast<int>(widthPx)));

    double maxValue = 0;
    for (SeriesData &s : d->series) {
        if (s.stack >= 0)
            continue;
        analysis::DecimatedSeries dec = decimateParts(s.ts, s.values, parts, s.skipNegative);
        s.drawnTs = std::move(dec.timestampsNs);
        s.drawnValues = std::move(dec.values);
        for (double v : s.drawnValues)
            if (!std::isnan(v))
                maxValue = std::max(maxValue, v);
    }
    std::vector<analysis::StackedSeries> stacked;
    for (StackData &st : d->stacks) {
        std::vector<const std::vector<std::int64_t> *> rows;
        for (const auto &row : st.rows)
            rows.push_back(&row);
        stacked.push_back(stackParts(st.ts, rows, parts));
        const auto &tops = stacked.back().tops;
        if (!tops.empty())
            for (std::int64_t v : tops.back())
                maxValue = std::max(maxValue, static_cast<double>(v));
    }
    for (const MarkerData &m : d->markers)
        maxValue = std::max(maxValue, m.value);

    const TickUnit yUnit = d->unit == ValueUnit::Bytes ? TickUnit::Bytes
        : d->unit == ValueUnit::Duration               ? TickUnit::Nanoseconds
                                                       : TickUnit::Plain;
    const int yTargets = std::clamp(static_cast<int>(d->chart->plotArea().height() / 40), 2, 6);
    const AxisTicks yTicks = niceTicks(0, maxValue, yUnit, yTargets);
    d->yScale = yTicks.scale;
    QString yTitle = d->valueTitle;
    if (!yTicks.unit.isEmpty())
        yTitle += QStringLiteral(" (%1)").arg(yTicks.unit);

    const auto toX = [this](std::int64_t t) { return d->toX(t); };
    for (SeriesData &s : d->series)
        if (s.stack < 0)
            s.line->replace(stepPoints(s.drawnTs, s.drawnValues, toX, d->yScale));
    for (std::size_t k = 0; k < d->stacks.size(); ++k) {
        StackData &st = d->stacks[k];
        const analysis::StackedSeries &ss = stacked[k];
        std::vector<double> zeros(ss.timestampsNs.size(), 0.0);
        st.baseline->replace(stepPoints(ss.timestampsNs, zeros, toX, d->yScale));
        for (std::size_t r = 0; r < st.rows.size(); ++r) {
            SeriesData &s = d->series[static_cast<std::size_t>(st.series[r])];
            std::vector<double> top(ss.tops[r].begin(), ss.tops[r].end());
            s.line->replace(stepPoints(ss.timestampsNs, top, toX, d->yScale));
            s.drawnTs = ss.timestampsNs;
            s.drawnValues = std::move(top);
        }
    }
    for (MarkerData &m : d->markers)
        m.series->replace(QList<QPointF> {QPointF(d->toX(m.tNs), m.value / d->yScale)});

    applyTicks(d->axisX, xTicks, {std::make_pair(d->toX(w0), d->toX(w1))});
    const QString xTitle = QStringLiteral("Time (%1)").arg(xTicks.unit);
    d->axisX->setTitleText(xTitle);
    d->axisX->setVisible(!d->cuts);
    d->axisCut->setVisible(d->cuts.has_value());
    if (d->cuts) {
        // The cut axis: labels at round times of each segment, in the unit of the title.
        for (const QString &label : d->axisCut->categoriesLabels())
            d->axisCut->remove(label);
        d->axisCut->setRange(d->toX(w0), d->toX(w1));
        d->axisCut->setStartValue(d->toX(w0));
        const auto ticks = cutTicks(*d->cuts, d->origin, xTicks);
        for (const auto &[px, label] : ticks)
            d->axisCut->append(label, px);
        d->axisCut->setTitleText(xTitle);
        d->xTickCount = static_cast<int>(ticks.size());
    }
    applyTicks(d->axisY, yTicks);
    d->axisY->setTitleText(yTitle);
    placeCutBands(d->cutBands, d->cuts, d->axisY->max());
}

} // namespace stepscope::ui
