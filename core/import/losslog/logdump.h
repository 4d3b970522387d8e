// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/traininglog.h"

#include <string>

namespace stepscope::import::losslog {

/// Stable JSON text of a training log for the command line and golden tests: source,
/// producer, counts, runs, scalars, config, the first 20 issues, and per series its name,
/// kind, unit, run, rank, point count, non-finite and duplicate counts, first and last point
/// (and every point with `withPoints`). Non-finite values are written as the strings "nan",
/// "inf", "-inf" (JSON has no literal for them). Series keep the log's order.
std::string trainingLogToJson(const model::TrainingLog &log, bool withPoints = false);

/// A few human-readable lines: producer, runs with their line ranges, and per run the
/// primary loss (points, first and last value) and the other series names.
std::string describeTrainingLog(const model::TrainingLog &log);

} // namespace stepscope::import::losslog
