// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Warm-up steps: a rank's first step that lasts far longer than its others (graph
// compilation, first allocations, communicator set-up). The profiler's step tables keep it,
// and so do the Steps table, `summary --json` and compare; the KPIs and the bottleneck
// findings, which describe the steady state, leave it out (docs/metrics.md, "Warm-up").

#include "breakdown.h"

#include <cstddef>
#include <vector>

namespace stepscope::model {
class LoadReport;
} // namespace stepscope::model

namespace stepscope::analysis {

/// A rank's first step is warm-up when it lasts more than this many times the median of the
/// rank's other steps...
inline constexpr double WarmUpFactor = 3.0;
/// ... of which there are at least this many (fewer say nothing of a steady state).
inline constexpr std::size_t WarmUpMinOthers = 3;

/// Sets StepBreakdown::warmUp on each rank's first step (lowest step id) that is warm-up, among
/// the steps that measure the device (not StepBreakdown::outsideShares), and says which, once,
/// in `notes`.
void markWarmUpSteps(std::vector<StepBreakdown> &breakdowns, model::LoadReport &notes);

} // namespace stepscope::analysis
