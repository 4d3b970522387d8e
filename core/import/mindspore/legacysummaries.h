// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Small MindSpore legacy summary files (docs/formats.md §4.4, §4.5): what the profiler computed
// per step or per run, kept beside the timeline.

#include "import/importcontext.h"
#include "model/trace.h"

#include <filesystem>
#include <optional>

namespace stepscope::import::mindspore {

/// `ascend_cluster_analyse_<mode>_<stages>_<ranks>_<rank>.csv`: one row per step in ms and no
/// step column (pipeline-, data- and model-parallel variants; headers read by name, blanks
/// trimmed). Each row becomes a ReferenceStep (step -1, rows kept in file order, every
/// numeric column in us). Returns the rows read.
std::size_t readClusterAnalyse(const std::filesystem::path &path, const ImportContext &ctx,
    std::int32_t rank, model::Trace &trace);

/// `flops_summary_<rank>.json`: `{"FLOPs":..., "FLOPS":..., "FLOPS_Utilization":...}` into
/// metadata.extra as "flops.<key>". False (with a diagnostic) when unreadable.
bool readFlopsSummary(
    const std::filesystem::path &path, const ImportContext &ctx, model::Trace &trace);

/// `minddata_pipeline_raw_<rank>.csv`: the data pipeline's operators into metadata.extra as
/// "minddata.op<id>" = "<type> workers=<n> parent=<id> queue_usage=<rate>". Returns the ops.
std::size_t readMinddataPipeline(
    const std::filesystem::path &path, const ImportContext &ctx, model::Trace &trace);

/// `min_cycle_counter_<rank>.txt`: the tick (10 ns) that timeline_display `ts` = 0 stands for.
std::optional<std::int64_t> readMinCycleCounter(
    const std::filesystem::path &path, const ImportContext &ctx);

} // namespace stepscope::import::mindspore
