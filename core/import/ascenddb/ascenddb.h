// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The Ascend DB export (docs/formats.md §11): torch_npu `export_type=db` writes, per rank,
// `ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_<rank>.db` (the timeline, memory and
// counters; standalone msprof writes `msprof_<timestamp>.db`, MindSpore
// `ascend_mindspore_profiler_<rank>.db` with the same base tables) and `analysis.db` (the
// profiler's step breakdown and communication summaries), beside `profiler_info_<rank>.json`.
//
// They become the same model as the text export (§2) of the same run: `Ascend Hardware`
// stream lanes, `HCCL` plane and group lanes, `Python` and `CANN` host lanes, HostToDevice /
// async_npu / async_task_queue / fwdbwd flows, STEP_TIME steps, memory curves, allocations,
// module memory and counters, and from analysis.db ReferenceStep rows (as
// step_trace_time.csv gives them), CollectiveStat and CommMatrixEntry rows (as
// communication.json / communication_matrix.json give them).
//
// Every table is optional (exports create tables lazily); a damaged file or table is
// dropped with a diagnostic naming the file and table while the rest loads. Times are int64
// ns since the Unix epoch; the trace origin is the earliest timestamp of the timeline and
// counter tables.

#include "import/importcontext.h"
#include "import/onefile.h"
#include "model/session.h"
#include "model/tracebuilder.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace stepscope::import::ascenddb {

/// The database files of one rank folder (in `ASCEND_PROFILER_OUTPUT/`, else the folder).
struct RankDbFiles
{
    std::optional<std::filesystem::path> profilerDb; ///< ascend_*_profiler*.db / msprof_*.db
    std::optional<std::filesystem::path> analysisDb; ///< analysis.db
    bool empty() const { return !profilerDb && !analysisDb; }
};
RankDbFiles findRankDbFiles(const std::filesystem::path &rankDir);

/// True when the rank folder also holds the text export's timeline or step table
/// (trace_view.json, kernel_details.csv or step_trace_time.csv): then the text files are
/// read and the DB files are not (the loader says so in a diagnostic).
bool hasTextExport(const std::filesystem::path &rankDir);

/// Reads a rank folder's DB export and profiler_info_<rank>.json (rank, level). Returns false
/// when nothing usable was found. Never throws except util::Cancelled.
bool readAscendDbRank(
    const std::filesystem::path &rankDir, const ImportContext &ctx, model::TraceBuilder &out);

/// Reads one Ascend database, told apart by its tables: a profiler DB (TASK, STRING_IDS,
/// META_DATA), an analysis.db (StepTraceTime, CommAnalyzer*), or both. `rank` fills the
/// rank of reference and collective rows when the file itself does not say (RANK_DEVICE_MAP).
bool readAscendDbFile(const std::filesystem::path &file, const ImportContext &ctx,
    model::TraceBuilder &out, std::optional<std::int32_t> rank = std::nullopt);

/// `cluster_analysis_output/cluster_analysis.db` (§11.6): ClusterStepTraceTime and
/// ClusterTimeSummary into session.clusterSteps, ClusterCommunicationTime/Bandwidth into
/// clusterCollectives, ClusterCommunicationMatrix into clusterMatrix,
/// CommunicationGroupMapping into communicationGroups. False when none was usable.
bool readClusterAnalysisDb(
    const std::filesystem::path &file, const ImportContext &ctx, model::Session &session);

/// For fuzzers and tools: one file in, the finished trace and the diagnostics out.
using FileResult = OneFileResult;
FileResult readAscendDbPath(const std::filesystem::path &file, bool keepArgs = true);

} // namespace stepscope::import::ascenddb
