// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "barchart.h"

#include "chartstyle.h"
#include "elide.h"
#include "sparselabels.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QFontMetrics>
#include <QLegend>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepscope::ui {

namespace {

constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

struct Scale
{
    double factor = 1;
    QString suffix;
};

} // namespace

struct BarChart::Impl
{
    QChart *chart = nullptr;
    QChartView *view = nullptr;
    QBarCategoryAxis *axisX = nullptr;
    /// Crowded integer categories (steps): every n-th labelled on this axis instead, the bars'
    /// own axis hidden. Null while every label fits.
    QCategoryAxis *sparseAxis = nullptr;
    int sparseEvery = 0;
    QValueAxis *axisY = nullptr;
    ValueUnit unit = ValueUnit::Plain;
    QString valueTitle;
    QString categoryTitle;
    QStringList categories;
    QList<BarSetData> sets;
    Mode mode = Mode::Stacked;
    QString markerName;
    QColor markerColor;
    QList<double> markers;
    Scale scale;
    double barWidth = 0.6;
};

BarChart::BarChart(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<Impl>())
{
    d->chart = new QChart();
    applyChartStyle(d->chart, palette());
    // Many sets (nine step segments): a vertical legend keeps every name readable.
    d->chart->legend()->setAlignment(Qt::AlignRight);
    d->view = new QChartView(d->chart, this);
    d->view->setRenderHint(QPainter::Antialiasing);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->view);
    // Category labels are elided to the room the plot gives them, re-done when it changes.
    connect(d->chart, &QChart::plotAreaChanged, this, [this] { elideCategories(); });
}

void BarChart::elideCategories()
{
    if (!d->axisX || d->categories.isEmpty())
        return;
    const QRectF plot = d->chart->plotArea();
    if (plot.width() <= 0)
        return;
    // Qt Charts gives each label axis width / (categories + 1) less twice its label padding,
    // and cuts what is wider at the end ("Opti..."): stay inside that. It measures through a
    // text document, a few pixels wider than QFontMetrics: a label at our limit came out
    // "Para……" (our ellipsis, then Qt's), so 8 px more are kept free.
    const int room =
        static_cast<int>(plot.width() / static_cast<double>(d->categories.size() + 1)) - 20;
    const QFontMetrics fm(d->axisX->labelsFont());
    if (useSparseLabels(plot.width(), room, fm))
        return;
    const int width = std::max(room, 8);
    // Whole when it fits; else on two lines at a space when each fits ("Communication" over
    // "buffers"); else elided in the middle, only then (the bar's tooltip has the name).
    QStringList shown = elideMiddleDistinct(d->categories, fm, width);
    for (int i = 0; i < d->categories.size(); ++i) {
        const QString &name = d->categories[i];
        if (fm.horizontalAdvance(name) <= width)
            continue;
        for (int cut = static_cast<int>(name.lastIndexOf(QLatin1Char(' '))); cut > 0;
             cut = static_cast<int>(name.lastIndexOf(QLatin1Char(' '), cut - 1))) {
            const QString a = name.left(cut);
            const QString b = name.mid(cut + 1);
            if (fm.horizontalAdvance(b) > width)
                break; // the second line only grows as the cut moves left
            if (fm.horizontalAdvance(a) <= width) {
                shown[i] = a.toHtmlEscaped() + QStringLiteral("<br>") + b.toHtmlEscaped();
                break;
            }
        }
    }
    if (shown != d->axisX->categories())
        d->axisX->setCategories(shown);
}

bool BarChart::useSparseLabels(double plotWidth, int room, const QFontMetrics &fm)
{
    // Step numbers too many to label each ("…" under every bar): every n-th one, whole.
    int widest = 0;
    bool integers = true;
    for (const QString &c : d->categories) {
        widest = std::max(widest, fm.horizontalAdvance(c));
        bool ok = false;
        c.toLongLong(&ok);
        integers = integers && ok;
    }
    if (!integers || widest <= room) {
        if (d->sparseAxis) {
            d->chart->removeAxis(d->sparseAxis);
            delete d->sparseAxis;
            d->sparseAxis = nullptr;
            d->sparseEvery = 0;
            d->axisX->setVisible(true);
        }
        return false;
    }
    const auto n = static_cast<double>(d->categories.size());
    const SparseLabels sparse = sparseCategoryLabels(d->categories, plotWidth / n, widest + 20);
    if (d->sparseAxis && sparse.every == d->sparseEvery)
        return true;
    if (d->sparseAxis) {
        d->chart->removeAxis(d->sparseAxis);
        delete d->sparseAxis;
    }
    auto *axis = new QCategoryAxis();
    axis->setRange(-0.5, n - 0.5);
    axis->setStartValue(-0.5);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    // Labels are the axis' keys: the blank ends differ by their length.
    if (!sparse.labels.empty() && sparse.labels.front().start > -0.5)
        axis->append(QStringLiteral(" "), sparse.labels.front().start);
    for (const SparseLabel &l : sparse.labels)
        axis->append(l.text, l.end);
    if (sparse.labels.empty() || sparse.labels.back().end < n - 0.5)
        axis->append(QStringLiteral("  "), n - 0.5);
    axis->setTitleText(d->categoryTitle);
    axis->setGridLineVisible(false);
    // Its ticks would fall between the labelled bars, where no label is: no line, no ticks.
    axis->setLineVisible(false);
    applyAxisStyle(axis, palette());
    axis->setLabelsFont(d->axisX->labelsFont());
    d->axisX->setVisible(false);
    d->chart->addAxis(axis, Qt::AlignBottom);
    d->sparseAxis = axis;
    d->sparseEvery = sparse.every;
    return true;
}

QStringList BarChart::shownCategories() const
{
    if (d->sparseAxis) {
        QStringList shown;
        for (const QString &l : d->sparseAxis->categoriesLabels()) {
            if (!l.trimmed().isEmpty())
                shown << l;
        }
        return shown;
    }
    return d->axisX ? d->axisX->categories() : QStringList();
}

int BarChart::labelEvery() const
{
    return d->sparseAxis ? d->sparseEvery : 1;
}

BarChart::~BarChart() = default;

void BarChart::setTitle(const QString &title)
{
    d->chart->setTitle(title);
}

void BarChart::setValueUnit(ValueUnit unit)
{
    d->unit = unit;
}

void BarChart::setValueAxisTitle(const QString &title)
{
    d->valueTitle = title;
}

void BarChart::setCategoryAxisTitle(const QString &title)
{
    d->categoryTitle = title;
}

void BarChart::setLegendAlignment(Qt::Alignment alignment)
{
    d->chart->legend()->setAlignment(alignment);
}

void BarChart::setData(const QStringList &categories, const QList<BarSetData> &sets, Mode mode)
{
    d->categories = categories;
    d->sets = sets;
    for (BarSetData &s : d->sets) {
        s.values.resize(categories.size(), NaN);
    }
    d->mode = mode;
    d->markers.clear();
    rebuild();
}

void BarChart::setMarkers(const QString &name, const QColor &color, const QList<double> &values)
{
    d->markerName = name;
    d->markerColor = color;
    d->markers = values;
    d->markers.resize(d->categories.size(), NaN);
    rebuild();
}

double BarChart::marker(int category) const
{
    return category >= 0 && category < d->markers.size() ? d->markers[category] : NaN;
}

void BarChart::rebuild()
{
    d->chart->removeAllSeries();
    if (d->sparseAxis) {
        d->chart->removeAxis(d->sparseAxis);
        delete d->sparseAxis;
        d->sparseAxis = nullptr;
        d->sparseEvery = 0;
    }
    if (d->axisX) {
        d->chart->removeAxis(d->axisX);
        delete d->axisX;
    }
    if (d->axisY) {
        d->chart->removeAxis(d->axisY);
        delete d->axisY;
    }
    double maxValue = 0;
    for (int c = 0; c < d->categories.size(); ++c) {
        if (d->mode == Mode::Stacked) {
            maxValue = std::max(maxValue, stackTotal(c));
        } else {
            for (const BarSetData &s : d->sets)
                if (!std::isnan(s.values[c]))
                    maxValue = std::max(maxValue, s.values[c]);
        }
        if (c < d->markers.size() && !std::isnan(d->markers[c]))
            maxValue = std::max(maxValue, d->markers[c]);
    }
    const TickUnit tickUnit = d->unit == ValueUnit::Bytes ? TickUnit::Bytes
        : d->unit == ValueUnit::Duration                  ? TickUnit::Nanoseconds
                                                          : TickUnit::Plain;
    const AxisTicks ticks = niceTicks(0, maxValue, tickUnit, 5);
    d->scale = {ticks.scale, ticks.unit};

    d->axisX = new QBarCategoryAxis();
    d->axisX->append(d->categories);
    d->axisX->setTitleText(d->categoryTitle);
    d->axisY = new QValueAxis();
    d->axisY->setLabelFormat(QStringLiteral("%.4g"));
    d->axisY->setTitleText(d->scale.suffix.isEmpty()
            ? d->valueTitle
            : QStringLiteral("%1 (%2)").arg(d->valueTitle, d->scale.suffix));
    applyAxisStyle(d->axisX, palette());
    applyAxisStyle(d->axisY, palette());
    d->chart->addAxis(d->axisX, Qt::AlignBottom);
    d->chart->addAxis(d->axisY, Qt::AlignLeft);

    QAbstractBarSeries *series = nullptr;
    if (d->mode == Mode::Stacked)
        series = new QStackedBarSeries();
    else
        series = new QBarSeries();
    series->setBarWidth(d->barWidth);
    for (const BarSetData &s : d->sets) {
        auto *set = new QBarSet(s.name);
        set->setColor(s.color);
        set->setBorderColor(s.color.darker(120));
        QList<qreal> values;
        values.reserve(s.values.size());
        for (double v : s.values)
            values.append(std::isnan(v) ? 0.0 : v / d->scale.factor);
        set->append(values);
        series->append(set);
    }
    d->chart->addSeries(series);
    series->attachAxis(d->axisX);
    series->attachAxis(d->axisY);
    connect(series, &QAbstractBarSeries::clicked, this, [this, series](int index, QBarSet *set) {
        emit barClicked(index, static_cast<int>(series->barSets().indexOf(set)));
    });
    connect(series, &QAbstractBarSeries::hovered, this,
        [this, series](bool status, int index, QBarSet *set) {
            if (status)
                QToolTip::showText(QCursor::pos(),
                    toolTipFor(static_cast<int>(series->barSets().indexOf(set)), index), this);
            else
                QToolTip::hideText();
        });

    if (!d->markers.isEmpty()) {
        auto *marker = new QScatterSeries();
        marker->setName(d->markerName);
        marker->setColor(d->markerColor);
        marker->setBorderColor(d->markerColor.darker(150));
        marker->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
        marker->setMarkerSize(9);
        QList<QPointF> points;
        for (int c = 0; c < d->markers.size(); ++c)
            if (!std::isnan(d->markers[c]))
                points.append(QPointF(c, d->markers[c] / d->scale.factor));
        marker->replace(points);
        d->chart->addSeries(marker);
        marker->attachAxis(d->axisX);
        marker->attachAxis(d->axisY);
    }
    applyTicks(d->axisY, ticks);
    elideCategories();
}

int BarChart::categoryCount() const
{
    return static_cast<int>(d->categories.size());
}

int BarChart::setCount() const
{
    return static_cast<int>(d->sets.size());
}

double BarChart::value(int set, int category) const
{
    return d->sets.at(set).values.at(category);
}

double BarChart::stackTotal(int category) const
{
    double total = 0;
    for (const BarSetData &s : d->sets) {
        const double v = s.values.at(category);
        if (!std::isnan(v))
            total += v;
    }
    return total;
}

QString BarChart::toolTipFor(int set, int category) const
{
    if (set < 0 || set >= d->sets.size() || category < 0 || category >= d->categories.size())
        return {};
    const double v = value(set, category);
    QString text = QStringLiteral("<b>%1</b><br>%2: %3")
                       .arg(d->categories[category].toHtmlEscaped(),
                           d->sets[set].name.toHtmlEscaped(), formatValue(d->unit, v));
    const double total = stackTotal(category);
    if (d->mode == Mode::Stacked && total > 0 && !std::isnan(v))
        text += QStringLiteral(" (%1 %)").arg(v / total * 100.0, 0, 'f', 1);
    if (d->unit == ValueUnit::Bytes && !std::isnan(v))
        text += QStringLiteral("<br>%L1 B").arg(static_cast<qlonglong>(std::llround(v)));
    if (d->mode == Mode::Stacked)
        text += QStringLiteral("<br>total: %1").arg(formatValue(d->unit, total));
    if (category < d->markers.size() && !std::isnan(d->markers[category]))
        text += QStringLiteral("<br>%1: %2")
                    .arg(d->markerName.toHtmlEscaped(), formatValue(d->unit, d->markers[category]));
    return text;
}

QPoint BarChart::barCenter(int set, int category) const
{
    const QRectF plot = d->chart->plotArea();
    const int n = std::max(1, static_cast<int>(d->categories.size()));
    double x = category;
    double y = 0;
    if (d->mode == Mode::Stacked) {
        double below = 0;
        for (int s = 0; s < set; ++s) {
            const double v = d->sets[s].values[category];
            if (!std::isnan(v))
                below += v;
        }
        const double v = d->sets[set].values[category];
        y = (below + (std::isnan(v) ? 0 : v) / 2) / d->scale.factor;
    } else {
        const double w = d->barWidth / std::max<qsizetype>(1, d->sets.size());
        x = category - d->barWidth / 2 + (set + 0.5) * w;
        const double v = d->sets[set].values[category];
        y = (std::isnan(v) ? 0 : v) / 2 / d->scale.factor;
    }
    const double px = plot.left() + (x + 0.5) / n * plot.width();
    const double y1 = d->axisY->max();
    const double py = plot.bottom() - y / std::max(1e-300, y1) * plot.height();
    const QPoint viewPos = d->view->mapFromScene(d->chart->mapToScene(QPointF(px, py)));
    return d->view->viewport()->mapTo(this, viewPos);
}

} // namespace stepscope::ui
