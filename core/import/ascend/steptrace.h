// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Ascend `step_trace_time.csv` (docs/formats.md §2.4) and the cluster summary
// `cluster_analysis_output/cluster_step_trace_time.csv`: the profiler's own per-step
// breakdown in us. Columns are read by name; every numeric column other than `Step`,
// `Device_id`, `Type` and `Index` becomes a value keyed by its header text, in file order
// (so the 9-, 10- and 11-column variants and future columns all load).

#include "import/importcontext.h"
#include "model/trace.h"

#include <filesystem>
#include <vector>

namespace stepscope::import::ascend {

/// One rank's file. `Step` may be empty (step = -1). Rows whose values are not numbers are
/// skipped with a diagnostic. `Device_id`, when present, is returned in deviceId (first row).
std::vector<model::ReferenceStep> readStepTraceTime(const std::filesystem::path &path,
    const ImportContext &ctx, std::int32_t rank, std::string *deviceId = nullptr);

/// The cluster file: `Type` = "rank" rows (rank = `Index`) and "stage" rows (`Index` a quoted
/// rank tuple such as "(8, 9, 10)"; rank = -1, stageRanks filled). kind is the `Type`.
std::vector<model::ReferenceStep> readClusterStepTraceTime(
    const std::filesystem::path &path, const ImportContext &ctx);

/// "(8, 9, 10)" or "[0,1]" -> {8, 9, 10}; empty when the text holds no integer list.
std::vector<std::int32_t> parseRankTuple(std::string_view text);

} // namespace stepscope::import::ascend
