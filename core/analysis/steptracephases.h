// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The phases of a step trace (MindSpore / CANN step_trace_raw: iteration_interval, fp_and_bp,
// tail) as device intervals, for a rank whose profile holds no device task timeline
// (docs/metrics.md "A rank with a step trace only"): internal to computeBreakdowns().

#include "intervalset.h"
#include "model/trace.h"

#include <optional>
#include <vector>

namespace stepscope::analysis::detail {

/// Each step's phases laid end to end from its start, as the profiler reports them:
/// iteration_interval [start, start + interval), fp_and_bp after it, the tail to the end.
struct StepTracePhases
{
    /// fp_and_bp of every step: forward start to backward end (CANN "FP_BP Time", "FP/BP
    /// computation time"); the breakdown takes the pipeline receives in it as the bubble.
    std::vector<IntervalSet::Interval> compute;
    /// iteration_interval of every step: the wait for the next batch (CANN "Data_aug Bound").
    std::vector<IntervalSet::Interval> dataLoading;
};

/// The phases of `steps`, from the rank's step-trace rows (matched by step number); nullopt
/// when a device stream holds tasks (the timeline then measures the device itself) or no row
/// of the rank gives the phases. Each phase is cut at its step's end.
std::optional<StepTracePhases> stepTracePhases(
    const model::Trace &trace, const std::vector<model::Step> &steps);

} // namespace stepscope::analysis::detail
