// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// TimeChart's inside, shared by its files (timechart.cpp builds and refreshes the chart,
// timechartquery.cpp answers what is drawn where). Not for other code.
#pragma once

#include "timechart.h"
#include "timechartview.h"
#include "timecuts.h"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace stepscope::ui {

/// A value not recorded at a point (and what valueAt answers where there is none).
inline constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

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
    bool refreshing = false; ///< inside refresh(): the plot it resizes asks again, not now
    bool plotMovedInRefresh = false; ///< the plot changed size during the refresh
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

} // namespace stepscope::ui
