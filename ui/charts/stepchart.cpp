// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "stepchart.h"

#include "analysis/units.h"
#include "axisticks.h"
#include "chartstyle.h"
#include "elide.h"
#include "ui/palette.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QFontMetrics>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace stepscope::ui {

namespace {

struct LineData
{
    QString name;
    QColor color;
    std::vector<std::int64_t> steps;
    std::vector<double> values;
    std::vector<std::int64_t> lines;
    QString source;
    QList<QPointF> drawn;
};

struct EventData
{
    QString name;
    QColor color;
    std::vector<std::int64_t> steps;
    std::vector<std::int64_t> lines;
    QString source;
    std::int64_t count = 0; ///< events in all (the legend's number)
};

/// The legend entry of a set of event markers: "name (count)".
QString legend(const EventData &e)
{
    return QStringLiteral("%1 (%L2)").arg(e.name).arg(e.count);
}

QString valueText(double v)
{
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::fromStdString(analysis::formatSignificant(v));
}

/// Powers of `base` in [lo, hi] (both > 0).
int powersIn(double lo, double hi, double base)
{
    const double a = std::ceil(std::log(lo) / std::log(base) - 1e-9);
    const double b = std::floor(std::log(hi) / std::log(base) + 1e-9);
    return static_cast<int>(std::max(0.0, b - a + 1));
}

/// The base of a logarithmic value axis over [lo, hi]: 10 when two powers of ten lie in it,
/// else the smallest of 2, 4 and 16 that puts two to five ticks in it. A loss scale of
/// 2 048 to 65 536 reads 4096, 16384, 65536, not one lone 10000.
double logAxisBase(double lo, double hi)
{
    if (powersIn(lo, hi, 10) >= 2)
        return 10;
    for (double base : {2.0, 4.0, 16.0}) {
        const int n = powersIn(lo, hi, base);
        if (n >= 2 && n <= 5)
            return base;
    }
    return 10;
}

} // namespace

struct StepChart::Impl
{
    QChart *chart = nullptr;
    QChartView *view = nullptr;
    QString title;
    QString valueTitle;
    bool log = false;
    std::vector<LineData> lines;
    std::vector<EventData> events;
    bool rangeSet = false;
    std::int64_t first = 0;
    std::int64_t last = 1;
    int nonFinite = 0;
    int nonPlotted = 0;
    double yLow = 0;
    double yHigh = 1;
    bool bytes = false; ///< values are bytes: the axis in binary units
    double nsPerUnit = 0; ///< values are durations of this many ns each (0: not durations)
    double yScale = 1; ///< data units per display unit of the value axis
    QString yUnit; ///< "MiB" when bytes, "×1e-5" for learning rates
    QAbstractAxis *valueAxis = nullptr;

    /// The value axis title as it fits the plot's height: whole, else its unit in
    /// parentheses, else elided in the middle (a vertical title Qt would cut to "samp…").
    void fitValueTitle()
    {
        if (!valueAxis)
            return;
        QString full = valueTitle;
        if (!yUnit.isEmpty())
            full = full.isEmpty() ? yUnit : QStringLiteral("%1 (%2)").arg(full, yUnit);
        const QFontMetrics fm(valueAxis->titleFont());
        const int room = static_cast<int>(chart->plotArea().height()) - 4;
        QString shown = full;
        if (room > 0 && fm.horizontalAdvance(full) > room) {
            const qsizetype open = full.lastIndexOf(QLatin1Char('('));
            const QString unit = open > 0 ? full.mid(open) : QString();
            shown = !unit.isEmpty() && fm.horizontalAdvance(unit) <= room
                ? unit
                : elideMiddle(full, fm, room);
        }
        if (valueAxis->titleText() != shown)
            valueAxis->setTitleText(shown);
    }

    struct Hit
    {
        std::int64_t step = 0;
        double value = 0;
        std::int64_t line = 0;
        QString source;
        QString name;
        bool found = false;
    };

    Hit nearest(std::int64_t step) const
    {
        Hit best;
        std::int64_t bestDistance = std::numeric_limits<std::int64_t>::max();
        for (const LineData &l : lines) {
            auto it = std::lower_bound(l.steps.begin(), l.steps.end(), step);
            for (auto c : {it, it == l.steps.begin() ? it : it - 1}) {
                if (c == l.steps.end())
                    continue;
                const std::int64_t dist = std::llabs(*c - step);
                if (dist < bestDistance) {
                    const auto i = static_cast<std::size_t>(c - l.steps.begin());
                    bestDistance = dist;
                    best = {*c, l.values[i], l.lines[i], l.source, l.name, true};
                }
            }
        }
        return best;
    }

    void rebuild(const QPalette &palette)
    {
        chart->removeAllSeries();
        for (QAbstractAxis *a : chart->axes())
            chart->removeAxis(a), delete a;
        valueAxis = nullptr;
        nonFinite = 0;
        nonPlotted = 0;
        double lo = std::numeric_limits<double>::infinity();
        double hi = -lo;
        for (LineData &l : lines) {
            l.drawn.clear();
            for (std::size_t i = 0; i < l.steps.size(); ++i) {
                const double v = l.values[i];
                if (!std::isfinite(v)) {
                    ++nonFinite;
                    continue;
                }
                if (log && v <= 0) {
                    ++nonPlotted;
                    continue;
                }
                l.drawn.append(QPointF(static_cast<double>(l.steps[i]), v));
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
        }
        if (!(lo <= hi)) {
            lo = log ? 0.1 : 0;
            hi = 1;
        }
        yScale = 1;
        yUnit.clear();
        // Bytes in binary units, durations in the unit their span needs (a 400 s first step
        // reads "400 s", not "400000" ms), tiny values (learning rates) in a power of ten.
        AxisTicks unitTicks;
        if (!log && nsPerUnit > 0) {
            unitTicks = niceTicks(lo * nsPerUnit, hi * nsPerUnit, TickUnit::Nanoseconds);
            unitTicks.scale /= nsPerUnit; // data units per display unit
        } else if (!log) {
            unitTicks = niceTicks(lo, hi, bytes ? TickUnit::Bytes : TickUnit::Plain);
        }
        if (!log && (bytes || nsPerUnit > 0 || unitTicks.scale != 1)) {
            yScale = unitTicks.scale;
            yUnit = unitTicks.unit;
            for (LineData &l : lines)
                for (QPointF &p : l.drawn)
                    p.setY(p.y() / yScale);
            lo /= yScale;
            hi /= yScale;
        }
        if (log) {
            yLow = lo / 1.5;
            yHigh = hi * 1.5;
        } else {
            const double pad = hi > lo ? 0.06 * (hi - lo) : std::max(std::fabs(hi) * 0.05, 1e-9);
            yLow = lo - pad;
            yHigh = hi + pad;
        }
        auto *x = new QValueAxis;
        x->setLabelFormat(QStringLiteral("%d"));
        x->setTitleText(QStringLiteral("step"));
        QAbstractAxis *y = nullptr;
        if (log) {
            auto *ly = new QLogValueAxis;
            const double base = logAxisBase(yLow, yHigh);
            ly->setBase(base);
            // 1000, not 1e+03; 1e-05 stays short; powers of two whole (16777216).
            ly->setLabelFormat(
                base != 10 && yLow >= 1 ? QStringLiteral("%.0f") : QStringLiteral("%g"));
            ly->setRange(yLow, yHigh);
            y = ly;
        } else {
            auto *vy = new QValueAxis;
            // The small multiples are short: at most 4 labels, or Qt elides them to "...".
            const AxisTicks t = niceTicksAtMost(lo, hi, TickUnit::Plain, 4);
            applyTicks(vy, t);
            yLow = t.lo;
            yHigh = t.hi;
            y = vy;
        }
        valueAxis = y;
        fitValueTitle();
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        applyAxisStyle(x, palette);
        applyAxisStyle(y, palette);
        const auto attach = [&](QXYSeries *s) {
            chart->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(y);
        };
        QList<QPointF> bad;
        for (const LineData &l : lines) {
            auto *s = new QLineSeries;
            s->setName(l.name);
            QPen pen(l.color);
            pen.setWidthF(1.5);
            s->setPen(pen);
            s->replace(l.drawn);
            attach(s);
            if (l.drawn.size() == 1 || l.drawn.size() < 40) {
                auto *dots = new QScatterSeries; // few points: show where they are
                dots->setMarkerSize(5);
                dots->setColor(l.color);
                dots->setBorderColor(l.color);
                dots->replace(l.drawn);
                attach(dots);
                chart->legend()->markers(dots).value(0)->setVisible(false);
            }
            for (std::size_t i = 0; i < l.steps.size(); ++i) {
                if (!std::isfinite(l.values[i]))
                    bad.append(QPointF(static_cast<double>(l.steps[i]), yLow));
            }
        }
        if (!bad.isEmpty()) {
            auto *s = new QScatterSeries;
            s->setName(QStringLiteral("NaN/inf (%1)").arg(bad.size()));
            s->setMarkerShape(QScatterSeries::MarkerShapeStar);
            s->setMarkerSize(11);
            s->setColor(anomalyMarkerColor(currentTheme()));
            s->setBorderColor(anomalyMarkerColor(currentTheme()));
            s->replace(bad);
            attach(s);
        }
        for (const EventData &e : events) {
            QList<QPointF> pts;
            for (std::int64_t st : e.steps)
                pts.append(QPointF(static_cast<double>(st), yHigh));
            auto *s = new QScatterSeries;
            s->setName(legend(e));
            s->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
            s->setMarkerSize(10);
            s->setColor(e.color);
            s->setBorderColor(e.color);
            s->replace(pts);
            attach(s);
        }
        const auto [a, b] = rangeSet ? std::make_pair(first, last) : extent();
        const double xa = static_cast<double>(a);
        const double xb = static_cast<double>(std::max(b, a + 1));
        // Steps are whole numbers: ticks at round steps (1, 2 or 5 × 10^k), never 131, 262.
        AxisTicks xt = niceTicks(xa, xb, TickUnit::Plain);
        if (xt.step < 1) {
            xt.step = 1;
            xt.decimals = 0;
        }
        applyTicks(x, xt, {std::make_pair(xa, xb)});
        chart->setTitle(title);
    }

    std::pair<std::int64_t, std::int64_t> extent() const
    {
        std::int64_t a = std::numeric_limits<std::int64_t>::max();
        std::int64_t b = std::numeric_limits<std::int64_t>::min();
        for (const LineData &l : lines) {
            if (!l.steps.empty()) {
                a = std::min(a, l.steps.front());
                b = std::max(b, l.steps.back());
            }
        }
        for (const EventData &e : events) {
            for (std::int64_t s : e.steps)
                a = std::min(a, s), b = std::max(b, s);
        }
        return a <= b ? std::make_pair(a, b) : std::make_pair(std::int64_t {0}, std::int64_t {0});
    }
};

StepChart::StepChart(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<Impl>())
{
    d->chart = new QChart;
    applyChartStyle(d->chart, palette());
    d->view = new QChartView(d->chart, this);
    d->view->setRenderHint(QPainter::Antialiasing);
    d->view->setMouseTracking(true);
    d->view->viewport()->installEventFilter(this);
    d->view->viewport()->setMouseTracking(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->view);
    setMinimumHeight(170);
    connect(d->chart, &QChart::plotAreaChanged, this, [this] { d->fitValueTitle(); });
    d->rebuild(palette());
}

StepChart::~StepChart() = default;

void StepChart::setTitle(const QString &title)
{
    d->title = title;
    d->chart->setTitle(title);
}

QString StepChart::title() const
{
    return d->title;
}

void StepChart::setValueAxisTitle(const QString &title)
{
    d->valueTitle = title;
    d->rebuild(palette());
}

void StepChart::setBytes(bool bytes)
{
    d->bytes = bytes;
    d->rebuild(palette());
}

void StepChart::setDurationUnit(double nsPerUnit)
{
    d->nsPerUnit = nsPerUnit;
    d->rebuild(palette());
}

QString StepChart::shownValueAxisTitle() const
{
    return d->valueAxis ? d->valueAxis->titleText() : QString();
}

void StepChart::setLogScale(bool log)
{
    d->log = log;
    d->rebuild(palette());
}

bool StepChart::logScale() const
{
    return d->log;
}

QStringList StepChart::valueAxisLabels() const
{
    QStringList out;
    const auto *ly = qobject_cast<const QLogValueAxis *>(d->valueAxis);
    if (!ly || ly->min() <= 0)
        return out;
    const QByteArray format = ly->labelFormat().toLatin1();
    const double first = std::ceil(std::log(ly->min()) / std::log(ly->base()) - 1e-9);
    for (double k = first; std::pow(ly->base(), k) <= ly->max() * (1 + 1e-12); ++k)
        out << QString::asprintf(format.constData(), std::pow(ly->base(), k));
    return out;
}

void StepChart::clear()
{
    d->lines.clear();
    d->events.clear();
    d->rangeSet = false;
    d->rebuild(palette());
}

int StepChart::addLine(const QString &name, const QColor &color, std::vector<std::int64_t> steps,
    std::vector<double> values, std::vector<std::int64_t> lines, const QString &source)
{
    lines.resize(steps.size(), 0);
    values.resize(steps.size(), std::nan(""));
    d->lines.push_back(
        {name, color, std::move(steps), std::move(values), std::move(lines), source, {}});
    d->rebuild(palette());
    return static_cast<int>(d->lines.size()) - 1;
}

void StepChart::addEvents(const QString &name, const QColor &color, std::vector<std::int64_t> steps,
    std::vector<std::int64_t> lines, const QString &source, std::int64_t count)
{
    lines.resize(steps.size(), 0);
    const std::int64_t total = count >= 0 ? count : static_cast<std::int64_t>(steps.size());
    d->events.push_back({name, color, std::move(steps), std::move(lines), source, total});
    d->rebuild(palette());
}

void StepChart::setStepRange(std::int64_t first, std::int64_t last)
{
    d->rangeSet = true;
    d->first = first;
    d->last = last;
    d->rebuild(palette());
}

std::pair<std::int64_t, std::int64_t> StepChart::dataExtent() const
{
    return d->extent();
}

int StepChart::seriesCount() const
{
    return static_cast<int>(d->lines.size());
}

QString StepChart::seriesName(int series) const
{
    return series >= 0 && series < seriesCount() ? d->lines[static_cast<std::size_t>(series)].name
                                                 : QString();
}

QList<QPointF> StepChart::drawnPoints(int series) const
{
    return series >= 0 && series < seriesCount() ? d->lines[static_cast<std::size_t>(series)].drawn
                                                 : QList<QPointF>();
}

int StepChart::nonFiniteCount() const
{
    return d->nonFinite;
}

int StepChart::nonPlottedCount() const
{
    return d->nonPlotted;
}

int StepChart::eventCount() const
{
    int n = 0;
    for (const EventData &e : d->events)
        n += static_cast<int>(e.steps.size());
    return n;
}

QStringList StepChart::eventLegends() const
{
    QStringList out;
    for (const EventData &e : d->events)
        out << legend(e);
    return out;
}

QString StepChart::toolTipAt(std::int64_t step) const
{
    const Impl::Hit hit = d->nearest(step);
    if (!hit.found)
        return {};
    QString text =
        QStringLiteral("%1\nstep %2: %3").arg(hit.name).arg(hit.step).arg(valueText(hit.value));
    for (const EventData &e : d->events) {
        for (std::size_t i = 0; i < e.steps.size(); ++i) {
            if (e.steps[i] == hit.step)
                text += QStringLiteral("\n%1 (line %2)").arg(e.name).arg(e.lines[i]);
        }
    }
    if (hit.line > 0)
        text += QStringLiteral("\n%1, line %2 (click to open)").arg(hit.source).arg(hit.line);
    return text;
}

QPoint StepChart::widgetPosition(std::int64_t step, double value) const
{
    const QPointF scene =
        d->chart->mapToPosition(QPointF(static_cast<double>(step), value / d->yScale));
    return d->view->mapTo(this, d->view->mapFromScene(scene));
}

bool StepChart::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != d->view->viewport())
        return QWidget::eventFilter(watched, event);
    if (event->type() != QEvent::MouseMove && event->type() != QEvent::MouseButtonRelease)
        return QWidget::eventFilter(watched, event);
    auto *me = static_cast<QMouseEvent *>(event);
    const QPointF scene = d->view->mapToScene(me->position().toPoint());
    if (!d->chart->plotArea().contains(d->chart->mapFromScene(scene))) {
        QToolTip::hideText();
        return false;
    }
    const QPointF value = d->chart->mapToValue(d->chart->mapFromScene(scene));
    const auto step = static_cast<std::int64_t>(std::llround(value.x()));
    if (event->type() == QEvent::MouseMove) {
        QToolTip::showText(me->globalPosition().toPoint(), toolTipAt(step), d->view);
    } else if (me->button() == Qt::LeftButton) {
        const Impl::Hit hit = d->nearest(step);
        if (hit.found)
            emit pointClicked(hit.step, hit.line, hit.source);
    }
    return false;
}

} // namespace stepscope::ui
