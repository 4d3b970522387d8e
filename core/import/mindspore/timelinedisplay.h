// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// MindSpore legacy timeline: `timeline_display_<rank>.json`,
// `ascend_timeline_display_<rank>.json`, `gpu_timeline_display_<rank>.json` (docs/formats.md §4.3):
// a bare array of X events without metadata.
//
// Tracks: pid 1 -> DeviceStream (tid = stream), pid 9000 (AI CPU / data ops) ->
// DeviceStream, pid 10000 (per-step reduce lanes) -> Synthetic, others -> DeviceStream.
// Categories (by args.type, else the name): names/types containing AllReduce, AllGather,
// ReduceScatter, Broadcast, AllToAll, Send, Receive, Recv or starting with "Hcom"/"hcom" ->
// Communication; GetNext, InitData, InitDataSetQueue -> DataLoading; pid 10000 lanes ->
// Annotation; cuLaunchKernel-type GPU ops and pid 1 ops -> Compute; else Other.

#include "import/importcontext.h"
#include "model/tracebuilder.h"

#include <filesystem>

namespace stepscope::import::mindspore {

/// Reads one timeline_display file into `out` (metadata.format "mindspore-legacy" when
/// empty; rank from the file-name suffix when out has no tracks yet). Never throws (except
/// util::Cancelled); false when nothing usable was read.
bool readTimelineDisplay(
    const std::filesystem::path &path, const ImportContext &ctx, model::TraceBuilder &out);

} // namespace stepscope::import::mindspore
