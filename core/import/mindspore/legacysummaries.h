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
/// numeric column in us). Returns the rows read. A pipeline-parallel file's name gives the
/// rank's stage, into metadata.extra[model::PipelineStageKey]: rank // (ranks / stages) + 1, the
/// stage MindInsight's ParallelAnalyser gives it.
std::size_t readClusterAnalyse(const std::filesystem::path &path, const ImportContext &ctx,
    std::int32_t rank, model::Trace &trace);

/// Gives the rows readClusterAnalyse read from `path` the step numbers of the rank's step
/// trace (`step_trace_raw`, reference rows with a `total`), by position: the file has no step
/// column, and its rows follow the steps in order (docs/formats.md §4.4). A row of the
/// pipeline- or model-parallel variant then also carries the profiler's split in the step
/// table's terms, which the analysis shows as the step's breakdown: `Computing` =
/// computation_time (or computation), `Communication(Not Overlapped)` =
/// communication_alone_time, `Bubble` = receive_alone_time, `Stage` = stage_time, `Free` =
/// the step trace's total minus computation and communication (0 when they exceed it, with
/// a note). Rows beyond the last step stay unnumbered and unused, with a note. Returns the
/// rows placed.
std::size_t placeClusterAnalyseRows(
    const std::filesystem::path &path, const ImportContext &ctx, model::Trace &trace);

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
