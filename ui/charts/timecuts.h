// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/decimate.h"
#include "axisticks.h"
#include "ui/timeline/timeaxis.h"

#include <QColor>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

class QAbstractAxis;
class QAreaSeries;
class QChart;

namespace stepscope::ui {

/// A time span [first, last] in ns.
using TimeSpan = std::pair<std::int64_t, std::int64_t>;

/// A TimeChart window drawn with its long empty stretches cut short, as the timeline draws
/// them: each break longer than timeline::TimeAxis::BreakPx pixels at the window's scale
/// takes that many pixels, and the time between breaks fills the rest of the plot at one
/// scale (the mapping is the timeline's own TimeAxis). Chart x is then in pixels from the
/// window's start.
struct TimeCuts
{
    timeline::TimeAxis axis; ///< fitted to the window on the plot's width
    std::vector<TimeSpan> cuts; ///< the breaks drawn short, clipped to the window, in order
    std::vector<TimeSpan> segments; ///< the parts of the window between them, to scale
};

/// Spans as the timeline's breaks: sorted, empty and overlapping ones left out.
timeline::AxisBreaks axisBreaks(std::vector<TimeSpan> spans);

/// The cuts of [w0, w1] on a plot `widthPx` wide; nullopt when no break of `breaks` is drawn
/// short there (the chart then keeps its plain linear axis).
std::optional<TimeCuts> cutWindow(
    std::int64_t w0, std::int64_t w1, const timeline::AxisBreaks &breaks, double widthPx);

/// A part of a chart's window and the buckets its decimation gets (about its width in px).
struct WindowPart
{
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    int buckets = 1;
};

/// The parts of the window [w0, w1] a chart decimates: the segments between its cuts, each
/// with its width in pixels, or the whole window with `plainBuckets`.
std::vector<WindowPart> windowParts(
    const std::optional<TimeCuts> &cuts, std::int64_t w0, std::int64_t w1, int plainBuckets);

/// analysis::decimate over each part, joined (a point two parts both keep, once).
analysis::DecimatedSeries decimateParts(const std::vector<std::int64_t> &ts,
    const std::vector<double> &values, const std::vector<WindowPart> &parts, bool skipNegative);
/// analysis::stackSeries over each part, joined.
analysis::StackedSeries stackParts(const std::vector<std::int64_t> &ts,
    const std::vector<const std::vector<std::int64_t> *> &rows,
    const std::vector<WindowPart> &parts);

/// `count` bands on `chart` (axes x and y) that shade cuts as the timeline shades its breaks,
/// empty until placed; they stay out of the legend. The chart owns them. Made once with the
/// breaks: a series added or removed while a chart lays out leaves its legend unlaid.
std::vector<QAreaSeries *> addCutBands(
    QChart *chart, QAbstractAxis *x, QAbstractAxis *y, std::size_t count, const QColor &shade);
/// Puts the first bands over the cuts (0 to yTop) and empties the rest.
void placeCutBands(
    const std::vector<QAreaSeries *> &bands, const std::optional<TimeCuts> &cuts, double yTop);

/// Labelled ticks of a cut axis, (pixel x, label), in order: round times inside each segment
/// wide enough for a label, in `unit`'s display unit (the axis title names it) with the
/// decimals the segment's step needs; times relative to `originNs`. Labels are distinct.
std::vector<std::pair<double, QString>> cutTicks(
    const TimeCuts &cuts, std::int64_t originNs, const AxisTicks &unit);

} // namespace stepscope::ui
