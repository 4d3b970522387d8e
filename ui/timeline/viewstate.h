// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "timeaxis.h"
#include "timelinemodel.h"
#include "ui/palette.h"

#include <QColor>
#include <QSet>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace stepscope::ui::timeline {

/// Fixed metrics of the timeline picture, in logical pixels.
struct TimelineMetrics
{
    int headerWidth = 230; ///< lane headers on the left
    int rulerHeight = 36; ///< time labels + step numbers
    int rowHeight = 18; ///< one depth row of a track
    int groupHeight = 20; ///< process header lane
    int stepLaneHeight = 22;
    int counterHeight = 40;
    int legendHeight = 20; ///< legend strip at the bottom (0 = none); whole LegendLineHeights
};

/// One line of the legend: a legendHeight of two lines wraps it (image export makes room for
/// every entry rather than "+N more").
constexpr int LegendLineHeight = 20;

/// Colours that come from the system palette (text, grid, backgrounds), not from palette.h.
struct TimelineColors
{
    QColor text {0x20, 0x20, 0x20};
    QColor mutedText {0x70, 0x70, 0x70};
    QColor background {0xff, 0xff, 0xff};
    QColor headerBackground {0xf2, 0xf2, 0xf2};
    QColor stripe {0xf7, 0xf7, 0xf7};
    QColor grid {0xd8, 0xd8, 0xd8};
};

/// A flow of the selected event, resolved to session-relative points.
struct FlowLink
{
    EventKey from;
    EventKey to;
};

/// Everything the timeline picture depends on besides the model and the size: the visible
/// window, vertical scroll, collapsed / hidden / pinned lanes, selection, range, search and
/// hover. A small value owned by the widget (STYLE.md §1: view state lives in ui objects).
struct ViewState
{
    TimeAxis axis;
    int scrollY = 0; ///< vertical scroll of the unpinned lanes, in px
    QSet<QString> collapsed;
    QSet<QString> hidden;
    QStringList pinned; ///< lane keys shown in a fixed band under the ruler, in this order
    std::optional<EventKey> selected;
    std::vector<FlowLink> selectedFlows;
    std::optional<std::pair<std::int64_t, std::int64_t>> range; ///< session-relative ns
    std::shared_ptr<const std::vector<EventKey>> searchMatches; ///< sorted by start
    int currentMatch = -1;
    std::optional<EventKey> hovered;
    Theme theme = Theme::Light;
    TimelineColors colors;
    bool showLegend = true;
    /// The ruler labels times relative to this session-relative ns: the first event of the
    /// session (TimelineView::setModel: TimelineModel::extent().first, so a trace stamped in
    /// epoch time reads "0 ms", not its timestamp); compare mode: the aligned step's start,
    /// so both runs' rulers read alike.
    std::int64_t rulerOriginNs = 0;
};

} // namespace stepscope::ui::timeline
