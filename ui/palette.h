// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/breakdown.h"
#include "model/category.h"
#include "model/memory.h"

#include <QColor>
#include <QString>

#include <array>

namespace stepscope::ui {

/// The ONE colour palette of the application (DESIGN.md "Colours"): Okabe–Ito hues for event
/// categories and step segments, a separate qualitative set (Paul Tol "muted") for memory
/// categories. Every panel, legend and export takes its colours from here so a colour means
/// the same thing everywhere. The dark theme keeps the hues and raises the lightness so
/// colours stay distinct on a dark background; text and grid colours come from the system
/// QPalette, not from here.
///
/// Thread affinity: the functions with an explicit Theme are pure and thread-safe;
/// currentTheme() reads QGuiApplication::palette() and must run on the GUI thread.
enum class Theme { Light, Dark };

/// Dark when the application's window colour is dark.
Theme currentTheme();

/// What a raw timeline event is drawn with.
QColor categoryColor(model::Category category, Theme theme = Theme::Light);

/// The neutral colour of a merged run whose members have different categories.
QColor denseColor(Theme theme = Theme::Light);

/// Highlight colours (selection outline, search match, range selection fill).
QColor selectionColor(Theme theme = Theme::Light);
QColor searchMatchColor(Theme theme = Theme::Light);
/// Drawn wider under searchMatchColor's outline, so that a match shows on yellow fills too.
QColor searchHaloColor(Theme theme = Theme::Light);
QColor rangeSelectionColor(Theme theme = Theme::Light);
QColor flowColor(Theme theme = Theme::Light);

/// Step-lane / breakdown segments (analysis::SegmentKind), by DESIGN.md's table.
QColor segmentColor(analysis::SegmentKind kind, Theme theme = Theme::Light);
/// Steps outside the device timeline (StepBreakdown::untraced): time nothing measured, a pale
/// slate apart from the idle greys and Preparing's yellow.
QColor untracedColor(Theme theme = Theme::Light);
/// The name of the kind's segment in drawings: lanes, legends, stacked charts, delta strips
/// (analysis::segmentKindName: "Compute (not overlapped)").
QString segmentName(analysis::SegmentKind kind);
/// The name of the kind's figure in tables (analysis::figureKindName: "Compute", whole).
QString figureName(analysis::SegmentKind kind);
/// Every segment kind in analysis order (legends, delta strips).
const std::array<analysis::SegmentKind, analysis::SegmentKindCount> &segmentKinds();

/// The two runs of a comparison: the same "before" and "after" colour in the compare view's
/// bars, the loss plot and the report.
QColor beforeColor(Theme theme = Theme::Light);
QColor afterColor(Theme theme = Theme::Light);
/// Better / worse after a change (Δ cells, KPI deltas, delta strips: "after" spends less /
/// more time), non-finite loss values.
QColor betterColor(Theme theme = Theme::Light);
QColor worseColor(Theme theme = Theme::Light);
/// A reference drawn over data (the profiler's own step time, a peak marker).
QColor referenceMarkerColor(Theme theme = Theme::Light);
/// The memory panel's curves (allocator counters), its peak markers and the run-config
/// estimate bar.
enum class MemoryCurve { Allocated, Reserved, Active };
QColor memoryCurveColor(MemoryCurve curve, Theme theme = Theme::Light);
QColor peakMarkerColor(Theme theme = Theme::Light);
QColor estimateColor(Theme theme = Theme::Light);
/// A series without a colour of its own.
QColor fallbackSeriesColor(Theme theme = Theme::Light);
/// The i-th line of a chart of several runs or logs (Tableau 10 order, repeating after 8).
QColor runSeriesColor(std::size_t index, Theme theme = Theme::Light);
/// Markers of bad values (NaN or infinite losses) on a training chart.
QColor anomalyMarkerColor(Theme theme = Theme::Light);
/// Steps the trainer skipped (loss-scale overflow) on a training chart.
QColor skippedStepColor(Theme theme = Theme::Light);
/// Sequential blue scale of heat maps (ColorBrewer "Blues"), 0 = light / small, 1 = dark.
QColor heatScaleColor(double fraction);
/// Diverging scale of delta heat maps (ColorBrewer "RdBu" reversed): -1 blue (faster),
/// 0 near white, +1 red (slower).
QColor divergingScaleColor(double fraction);

/// Neutral inks of exported pictures drawn on white paper (titles, axes, grid, title bars).
QColor paperTextColor();
QColor paperMutedColor();
QColor paperGridColor();
QColor paperTitleBarColor();

/// Memory categories: a fixed qualitative set, and the fixed bottom-to-top stacking order
/// (parameters, gradients, optimizer state, activations, input, autograd detail, temporary,
/// communication buffers, other).
QColor memoryCategoryColor(model::MemoryCategory category, Theme theme = Theme::Light);
const std::array<model::MemoryCategory, model::MemoryCategoryCount> &memoryCategoryStackOrder();

/// Text colour readable on top of `fill` (black or white by luminance).
QColor textOn(const QColor &fill);

} // namespace stepscope::ui
