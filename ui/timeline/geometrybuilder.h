// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "geometry.h"
#include "timelinemodel.h"
#include "viewstate.h"

#include <QFont>
#include <QSize>

class QPainter;

namespace stepscope::ui::timeline {

/// The ONE builder of the timeline picture (STYLE.md §5): (model, view state, size) ->
/// geometry. The widget paints its result; image export calls the same function with the
/// export size, so an export matches the screen. Pure: reads only its arguments (and the
/// font metrics of `font`); safe to call from any thread that may use QFont.
Geometry buildGeometry(const TimelineModel &model, const ViewState &view, QSize size,
    const TimelineMetrics &metrics = {}, const QFont &font = QFont());

/// Paints a geometry list. No decisions are taken here: everything was decided by the builder.
void paintGeometry(QPainter &painter, const Geometry &geometry, const QFont &font = QFont());

/// Convenience for export: build and paint in one go at `size` (logical pixels). A one-line
/// legend that would end in "+N more" takes up to three lines instead.
void paintTimeline(QPainter &painter, const TimelineModel &model, const ViewState &view, QSize size,
    const TimelineMetrics &metrics = {}, const QFont &font = QFont());

/// Lines of TimelineMetrics::legendHeight the legend needs to show every entry at `width`.
int legendLinesNeeded(
    const TimelineModel &model, const ViewState &view, int width, const QFont &font = QFont());

/// "12.5 ms" style label of a ruler tick at t with the given spacing.
QString tickLabel(std::int64_t t, const TickSpacing &spacing);

} // namespace stepscope::ui::timeline
