// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// CANN `PROF_*/device_<n>/` timeline JSON (docs/formats.md §3). Reads `start_info.<n>` (clock
// conversion: wall ns = collectionTimeBegin µs × 1000 + (ts ns − clockMonotonicRaw ns)),
// `info.json.<n>` (rank_id, device), and every `timeline/msprof_*.json` (which hold all of
// task_time/hccl/step_trace plus CANN and Overlap Analysis) into one trace.
//
// Tracks: "Ascend Hardware" streams -> DeviceStream (its "Step Trace(...)" thread ->
// Synthetic), "HCCL" -> CommunicationGroup, "Overlap Analysis" -> Synthetic, "CANN" ->
// HostThread. Categories: Task Type AI_CORE/AI_CPU -> Compute; NOTIFY_*, REDUCE_*, EVENT_*
// -> Communication; MEMCPY_ASYNC -> Memcpy; HCCL -> Communication; CANN -> Runtime; Step
// Trace lanes and Overlap Analysis -> Annotation. Steps from `Iteration Time` events
// (deduplicated by Iteration ID).

#include "import/importcontext.h"
#include "model/tracebuilder.h"

#include <filesystem>

namespace stepscope::import::cann {

/// Reads one `device_<n>` folder into `out` (metadata.format "cann-prof" when empty).
/// Never throws (except util::Cancelled); false when nothing usable was read.
bool readProfDevice(
    const std::filesystem::path &deviceDir, const ImportContext &ctx, model::TraceBuilder &out);

/// Reads a PROF folder's newer export, `mindstudio_profiler_output/` (docs/formats.md §3a):
/// its `msprof*.json` timelines of the newest export, slices in order, on the wall clock
/// already. `deviceDir` (may be empty) gives the rank by its info.json, else `fallbackRank`.
/// A timeline of several devices is read as one rank, with a warning. Never throws (except
/// util::Cancelled); false when nothing usable was read.
bool readProfExport(const std::filesystem::path &exportDir, const std::filesystem::path &deviceDir,
    std::int32_t fallbackRank, const ImportContext &ctx, model::TraceBuilder &out);

} // namespace stepscope::import::cann
