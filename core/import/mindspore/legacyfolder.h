// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// One rank of a MindSpore legacy profiler folder (docs/formats.md §4): several ranks share the
// folder, every file name ends in `_<rank>` (before the extension or `_detail_time`).

#include "import/importcontext.h"
#include "import/tracemerge.h"

#include <filesystem>
#include <vector>

namespace stepscope::import::mindspore {

/// Reads every legacy file of `rank` in `dir` and returns the rank's trace parts, first the
/// device-tick clock part (origin = min_cycle_counter ticks × 10 ns when the file exists,
/// else the first step's or first op's start): step_trace_raw (steps, reference steps, Step
/// Trace lane, reduce lanes unless a timeline JSON has them), timeline_display /
/// ascend_timeline_display (through readTimelineDisplay; ts is relative to
/// min_cycle_counter), output_timeline_data (only when there is no timeline JSON),
/// hccl_raw, ascend_cluster_analyse_*, flops_summary, minddata_pipeline_raw. A
/// gpu_timeline_display (epoch clock, another run) comes as a second part with
/// sameClock = false. Empty when nothing of the rank could be read. Never throws except
/// util::Cancelled.
std::vector<TracePart> readLegacyRank(
    const std::filesystem::path &dir, std::int32_t rank, const ImportContext &ctx);

} // namespace stepscope::import::mindspore
