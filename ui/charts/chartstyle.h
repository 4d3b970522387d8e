// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "axisticks.h"

#include <QPalette>

#include <optional>
#include <utility>

class QAbstractAxis;
class QChart;
class QValueAxis;

namespace stepscope::ui {

/// The look every chart of the adapter shares: background, text and grid from the system
/// palette (DESIGN.md: "text and grid from the system palette"), the legend at the bottom,
/// tight margins, no animation. Colours of the data come from ui/palette.
void applyChartStyle(QChart *chart, const QPalette &palette);
/// Axis labels, title and grid from the system palette.
void applyAxisStyle(QAbstractAxis *axis, const QPalette &palette);
/// How applyTicks lays round ticks on an axis.
struct TickOptions
{
    /// The axis spans this window (a zoomed time range, the steps of a chart) and the ticks
    /// are the round values inside it; unset: the axis spans the ticks' own lo … hi, so
    /// both ends carry a tick.
    std::optional<std::pair<double, double>> window;
};

/// The one tick routine of the charts: puts the axis' ticks at multiples of `ticks.step`
/// (display units, anchored at 0) with as many decimals as the step needs; steps finer than
/// 10⁻⁴ (learning rates) print with 3 significant digits instead of a row of zeros.
void applyTicks(QValueAxis *axis, const AxisTicks &ticks, const TickOptions &options = {});

} // namespace stepscope::ui
