// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// MindSpore legacy `output_timeline_data_<rank>.txt` (docs/formats.md §4.3): header
// `op_name, stream_id, start_time(ms), duration(ms)`, one device op per row, start in ms on
// the tick clock (ticks / 1e5). The same ops as timeline_display pid 1: read it only when the
// rank has no timeline JSON.

#include "import/importcontext.h"
#include "model/tracebuilder.h"

#include <filesystem>

namespace stepscope::import::mindspore {

/// Adds one DeviceStream track per stream (process "1" "Device", thread = stream id), one
/// event per row named by the op's last path component with args {"fullname": op_name}.
/// Times exact (ms decimal text to ns), relative to out.trace().originNs. Category
/// Communication for HCCL-looking names (AllReduce, AllGather, ReduceScatter, Broadcast,
/// Send, Receive, Hcom...), else Compute. Returns the events read.
std::size_t readOutputTimelineData(const std::filesystem::path &path, const ImportContext &ctx,
    std::int32_t rank, model::TraceBuilder &out);

/// The first row's start in ns on the tick clock, or -1 (to pick an origin).
std::int64_t outputTimelineFirstStartNs(const std::filesystem::path &path);

} // namespace stepscope::import::mindspore
