// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// One Ascend rank folder (docs/formats.md §2.1): `<rankDir>/profiler_info_<rank>.json`,
// `profiler_metadata.json` and the files of `<rankDir>/ASCEND_PROFILER_OUTPUT/` (or of
// `<rankDir>` itself: the loose-fragments layout with kernel_details.csv / trace_view.json
// directly in the folder). Every file is optional; a bad file is dropped with a diagnostic
// while the others load.
//
// Time base: the trace origin is what readTraceView() chose when trace_view.json loaded;
// otherwise the earliest kernel start (kernel_details.csv), else the earliest memory
// timestamp. Memory curves, module series and allocations are relative to that origin like
// the tracks. Files of one folder may come from different runs (docs/formats.md §2.1): their
// times are kept as written, never realigned.

#include "import/importcontext.h"
#include "model/session.h"
#include "model/tracebuilder.h"

#include <filesystem>

namespace stepscope::import::ascend {

/// Which source feeds the device lanes. trace_view.json and kernel_details.csv hold the same
/// device tasks, so only one of them becomes tracks.
enum class KernelSource : std::uint8_t {
    Auto, ///< trace_view.json when it loaded, else kernel_details.csv
    TraceView, ///< trace_view.json only (kernel_details.csv not turned into tracks)
    KernelDetails, ///< kernel_details.csv for the device lanes; trace_view.json not read
};

struct RankFolderOptions
{
    KernelSource kernelSource = KernelSource::Auto;
    /// The trace view when it has another name (a loose file opened alone); empty: the
    /// folder's trace_view.json, else trace_view.json.gz.
    std::filesystem::path traceView;
};

/// Reads every known file of the rank folder into `out` (rank from profiler_info when known,
/// otherwise out.trace().rank is left as it was). Returns false when nothing usable was
/// found. Never throws except util::Cancelled.
bool readAscendRankFolder(const std::filesystem::path &rankDir, const ImportContext &ctx,
    model::TraceBuilder &out, const RankFolderOptions &options = {});

/// Reads `cluster_analysis_output/` (cluster_step_trace_time.csv,
/// cluster_communication.json, cluster_communication_matrix.json, communication_group.json)
/// into the session's cluster fields. Returns false when none of them was usable.
bool readAscendClusterFolder(
    const std::filesystem::path &clusterDir, const ImportContext &ctx, model::Session &session);

} // namespace stepscope::import::ascend
