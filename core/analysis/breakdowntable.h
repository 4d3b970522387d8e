// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Breakdowns from a rank's step table (docs/metrics.md "The profiler's table is the
// truth"): internal to computeBreakdowns() / stepLaneSegments().

#include "breakdown.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::analysis::detail {

/// Our split of the idle time between the first and last device task of a step.
struct IdleParts
{
    std::int64_t hostWaitNs = 0;
    std::int64_t dataLoadingNs = 0;
    std::int64_t launchGapNs = 0;
    std::int64_t otherIdleNs = 0;
};

/// Where the step's preparing window ends: its first device task, or its end when it has
/// none (on a timeline step, the table's Preparing and the lane's both run to it).
inline std::int64_t firstDeviceNs(const StepBreakdown &b)
{
    return b.deviceStartNs >= 0 ? b.deviceStartNs : b.endNs;
}

/// A column of a profiler's row in ns (negative values as 0), 0 when the row lacks it.
std::int64_t columnNs(const model::ReferenceStep &row, const char *key);

/// The step's breakdown with every number from `row`; `measured` is our breakdown of the same
/// step window (nullptr when the step is not on the timeline) and `idle` its idle split,
/// fitted into the table's Free.
StepBreakdown tableBreakdown(const model::ReferenceStep &row, const model::Step &step,
    std::int32_t rank, const StepBreakdown *measured, const IdleParts &idle);

/// One block per category from the step's start, in the profiler's column order, cut at
/// `limitNs` (the next step's start: lane segments never overlap).
void appendTableSegments(const StepBreakdown &b, std::vector<LaneSegment> &out,
    std::int64_t limitNs = std::numeric_limits<std::int64_t>::max());

/// Whether the step's timeline holds the step: at least half the device time (compute and
/// communication) its table row lists. A trimmed trace does not (the msinsight GPT-3 ranks:
/// 20 kernel_details rows, 37 ms of a step the table gives 229 ms of), and a lane drawn from
/// it would read as idle where the Steps tab says compute: its lane is drawn from the table.
bool timelineHoldsStep(const StepBreakdown &b);

/// Where our timeline and the table disagree by more than 1 % of a step: the column that
/// differs most.
struct Disagreement
{
    std::int64_t step = 0;
    std::string source; ///< the table's file
    std::string column; ///< the profiler's column
    double stepUs = 0;
    double oursUs = 0;
    double referenceUs = 0;
    double differenceUs = 0; ///< ours - reference
    bool laneFromTable = false; ///< !timelineHoldsStep: the lane draws the table's figures
};

/// The step's disagreement (b must carry a reference); nullopt when they agree within 1 %.
std::optional<Disagreement> tableDisagreement(const StepBreakdown &b);

/// The `notes` of one rank's disagreements, as (source, message): one per table and column,
/// however many steps share it (a timeline without compute differs on every step), naming
/// the steps and the range of the differences.
std::vector<std::pair<std::string, std::string>> disagreementNotes(
    std::int32_t rank, const std::vector<Disagreement> &found);

} // namespace stepscope::analysis::detail
