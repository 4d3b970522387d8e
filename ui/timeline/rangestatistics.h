// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "timelinemodel.h"

#include <QSet>
#include <QString>

#include <cstdint>
#include <vector>

namespace stepscope::ui::timeline {

/// One row of the range statistics table: one name on one rank.
struct RangeStat
{
    QString name;
    std::int32_t rank = 0;
    model::Category category = model::Category::Other;
    std::int64_t selfNs = 0; ///< time in the range when this name was the innermost event
    std::int64_t totalNs = 0; ///< summed durations, clipped to the range (children included)
    std::uint64_t count = 0; ///< events that intersect the range
    int lanes = 0; ///< lanes of the rank it ran on in the range
    /// selfNs / (range length × lanes): the share of the time of the lanes it ran on, so it
    /// never passes 100 % even when the name runs on several threads or streams at once.
    double share = 0;
};

/// Per-rank, per-name self and total times of every event that intersects [t0, t1)
/// (session-relative), over the lanes not in `hiddenLanes`, sorted by self time descending
/// (then rank, name). Self time is an event's clipped duration less what the events nested
/// one row below it cover. Each row is found by binary search (Track::visibleRange), so the
/// cost follows the events in the range.
std::vector<RangeStat> computeRangeStats(const TimelineModel &model, std::int64_t t0,
    std::int64_t t1, const QSet<QString> &hiddenLanes = {});

} // namespace stepscope::ui::timeline
