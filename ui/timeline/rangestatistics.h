// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "timelinemodel.h"

#include <QSet>
#include <QString>

#include <cstdint>
#include <vector>

namespace stepscope::ui::timeline {

/// One row of the range statistics table.
struct RangeStat
{
    QString name;
    model::Category category = model::Category::Other;
    std::int64_t totalNs = 0; ///< summed durations, clipped to the range
    std::uint64_t count = 0; ///< events that intersect the range
    double share = 0; ///< totalNs / range length (several lanes can add past 1)
};

/// Per-name totals of every event that intersects [t0, t1) (session-relative), over the lanes
/// not in `hiddenLanes`, sorted by total descending (then name). Each row is found by binary
/// search (Track::visibleRange), so the cost follows the events in the range.
std::vector<RangeStat> computeRangeStats(const TimelineModel &model, std::int64_t t0,
    std::int64_t t1, const QSet<QString> &hiddenLanes = {});

} // namespace stepscope::ui::timeline
