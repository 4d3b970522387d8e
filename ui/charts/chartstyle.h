// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "axisticks.h"

#include <QPalette>

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
/// Puts the axis' ticks at `ticks.values` (display units) with as many decimals as the step
/// needs. With `keepRange` the axis spans [rangeLo, rangeHi] (a zoomed time window) and the
/// ticks are the round values inside it; otherwise it spans the ticks' own lo … hi.
void applyTicks(QValueAxis *axis, const AxisTicks &ticks);
void applyTicks(QValueAxis *axis, const AxisTicks &ticks, double rangeLo, double rangeHi);

} // namespace stepscope::ui
