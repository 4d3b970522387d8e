// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QPalette>

class QAbstractAxis;
class QChart;

namespace stepscope::ui {

/// The look every chart of the adapter shares: background, text and grid from the system
/// palette (DESIGN.md: "text and grid from the system palette"), the legend at the bottom,
/// tight margins, no animation. Colours of the data come from ui/palette.
void applyChartStyle(QChart *chart, const QPalette &palette);
/// Axis labels, title and grid from the system palette.
void applyAxisStyle(QAbstractAxis *axis, const QPalette &palette);

} // namespace stepscope::ui
