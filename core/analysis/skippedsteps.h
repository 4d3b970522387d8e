// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The steps a training run skipped (fp16 overflow), counted once: what the health finding
// `overflow_skipped` and the Training panel's markers show.

#include "model/traininglog.h"

#include <cstdint>
#include <vector>

namespace stepscope::analysis {

/// Where a log says steps were skipped: a flag, or an increase of a running total.
struct SkippedSteps
{
    std::vector<std::int64_t> steps; ///< the steps it was said at, in the log's order
    std::vector<std::int64_t> lines; ///< beside `steps`: the log line saying so
    std::vector<double> values; ///< beside `steps`: the series' value there
    std::int64_t count = 0; ///< steps skipped in all (an increase of k counts k)
};

/// One Skipped series (points flagged duplicate left out).
SkippedSteps skippedSteps(const model::LogSeries &series);

/// The Skipped series of `run` that account for its skipped steps. A log can give each skipped
/// step twice: an event when it is skipped (DeepSpeed's OVERFLOW lines) and a running total
/// printed every few steps (`skipped=N`). The event series are kept when there are any, the
/// running totals only without them, so no skipped step counts twice. Only the lowest rank's
/// series count, and none that a series of the run already counts in (LogSeries::countedIn).
std::vector<const model::LogSeries *> skippedSources(
    const model::TrainingLog &log, std::uint32_t run);

/// The skipped steps of `run`: its skippedSources together.
SkippedSteps skippedSteps(const model::TrainingLog &log, std::uint32_t run);

} // namespace stepscope::analysis
