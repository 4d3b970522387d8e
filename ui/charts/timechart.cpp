// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timechart.h"

#include "analysis/decimate.h"
#include "analysis/units.h"
#include "chartstyle.h"
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
#include <limits>
#include <optional>

namespace stepscope::ui {

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

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

/// One series as the user sees it: a line, or one row of a stack.
struct SeriesData
{
    QString name;
    QColor color;
    int stack = -1; ///< index into Impl::stacks, or -1 for a line
    int row = 0; ///< row within the stack
    std::vector<std::int64_t> ts;
    std::vector<double> values;
    bool skipNegative = false;
    QLineSeries *line = nullptr; ///< the line, or the stack row's upper edge
    std::vector<std::int64_t> drawnTs;
    std::vector<double> drawnValues;
};

struct StackData
{
    std::vector<std::int64_t> ts;
    std::vector<std::vector<std::int64_t>> rows;
    std::vector<int> series; ///< series index per row
    std::vector<QAreaSeries *> areas;
    QLineSeries *baseline = nullptr;
};

struct MarkerData
{
    QString label;
    QColor color;
    std::int64_t tNs = 0;
    double value = 0;
    QScatterSeries *series = nullptr;
};

struct TimeChart::Impl
{
    QChart *chart = nullptr;
    TimeChartView *view = nullptr;
    QValueAxis *axisX = nullptr;
    /// The time axis' labels while a break is cut short (axisX then runs in pixels).
    QCategoryAxis *axisCut = nullptr;
    timeline::AxisBreaks breaks; ///< empty stretches drawn short when long at the scale
    std::optional<TimeCuts> cuts; ///< of the window shown, as of the last refresh
    std::vector<QAreaSeries *> cutBands; ///< the shaded cuts, not series of ours
    QColor cutShade;
    QSizeF refreshedPlot; ///< the plot size of the last refresh
    QValueAxis *axisY = nullptr;
    ValueUnit unit = ValueUnit::Plain;
    QString valueTitle;
    std::vector<SeriesData> series;
    std::vector<StackData> stacks;
    std::vector<MarkerData> markers;
    bool windowSet = false;
    std::optional<std::pair<std::int64_t, std::int64_t>> home; ///< shown when not zoomed
    std::int64_t windowStart = 0;
    std::int64_t windowEnd = 0;
    std::int64_t origin = 0; ///< the time the axis calls 0
    double xScale = 1e6;
    double yScale = 1.0;
    int xTickCount = 0; ///< ticks inside the window at the last refresh

    /// Chart x of time t: its time from the origin in the tick unit, or with cuts its pixel.
    double toX(std::int64_t t) const
    {
        return cuts ? cuts->axis.toPx(t) : static_cast<double>(t - origin) / xScale;
    }
    std::int64_t fromX(double x) const
    {
        return cuts ? cuts->axis.toNs(x) : std::llround(x * xScale) + origin;
    }
    void makeCutBands()
    {
        cutBands = addCutBands(chart, axisX, axisY, breaks ? breaks->size() : 0, cutShade);
    }

    void attach(QAbstractSeries *s)
    {
        chart->addSeries(s);
        s->attachAxis(axisX);
        s->attachAxis(axisY);
    }
    std::pair<std::int64_t, std::int64_t> window(const TimeChart *q) const
    {
        if (windowSet)
            return std::make_pair(windowStart, windowEnd);
        return home ? *home : q->dataExtent();
    }
};

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
