// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Steps the device timeline does not cover (MindInsight writes the timeline of the first
// steps only; a cut trace stops inside a step): internal to computeBreakdowns().

#include "breakdown.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace stepscope::model {
class LoadReport;
struct Trace;
} // namespace stepscope::model

namespace stepscope::analysis::detail {

/// The first start and last end of device work on the rank.
using DeviceSpan = std::pair<std::int64_t, std::int64_t>;

/// Marks StepBreakdown::partlyTraced on the step the device timeline ends inside when steps
/// after it lie wholly past that end (and, alike, the step it begins inside when steps lie
/// wholly before it): the capture of the device stopped there. Their lane segments past the
/// timeline's end (before its start) are dropped: nothing was measured there.
void markPartlyTraced(
    std::vector<StepBreakdown> &steps, std::vector<LaneSegment> &segments, const DeviceSpan &span);

/// One warning per rank naming its untraced and partly traced steps.
void noteUntracedSteps(const model::Trace &trace, const std::vector<StepBreakdown> &steps,
    const DeviceSpan &span, model::LoadReport &notes);

} // namespace stepscope::analysis::detail
