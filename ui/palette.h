// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/breakdown.h"
#include "model/category.h"
#include "model/memory.h"

#include <QColor>

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
QColor rangeSelectionColor(Theme theme = Theme::Light);
QColor flowColor(Theme theme = Theme::Light);

/// Step-lane / breakdown segments, by DESIGN.md's table.
enum class SegmentColor {
    Compute,
    CommExposed,
    CommOverlapped,
    HostWait,
    DataLoading,
    LaunchGap,
    OtherIdle,
    Bubble,
    Preparing,
};
inline constexpr int SegmentColorCount = 9;
QColor segmentColor(SegmentColor segment, Theme theme = Theme::Light);
const char *segmentLabel(SegmentColor segment);

/// The colour of an analysis segment kind (same hue as the SegmentColor of the same name).
SegmentColor toSegmentColor(analysis::SegmentKind kind);
inline QColor segmentColor(analysis::SegmentKind kind, Theme theme = Theme::Light)
{
    return segmentColor(toSegmentColor(kind), theme);
}

/// Memory categories: a fixed qualitative set, and the fixed bottom-to-top stacking order
/// (parameters, gradients, optimizer state, activations, input, autograd detail, temporary,
/// communication buffers, other).
QColor memoryCategoryColor(model::MemoryCategory category, Theme theme = Theme::Light);
const std::array<model::MemoryCategory, model::MemoryCategoryCount> &memoryCategoryStackOrder();

/// Text colour readable on top of `fill` (black or white by luminance).
QColor textOn(const QColor &fill);

} // namespace stepscope::ui
