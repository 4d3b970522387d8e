// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Ascend `profiler_info_<rank>.json` (docs/formats.md §2.2) and `profiler_metadata.json` (§2.3).

#include "import/importcontext.h"
#include "model/trace.h"

#include <filesystem>
#include <optional>

namespace stepscope::import::ascend {

/// Fills metadata (format "ascend", rank, profilerLevel, extra facts: activities, schedule,
/// aic metrics, export type — a string or a list —, start/end info when present; the 2023
/// variant has no start_info). Returns the rank (`rank_id`, else the file-name suffix), or
/// nullopt when neither is known or the file is unreadable.
std::optional<std::int32_t> readProfilerInfo(
    const std::filesystem::path &path, const ImportContext &ctx, model::RunMetadata &metadata);

/// A rank folder's `profiler_info*.json` (the first by name when there are several).
std::optional<std::filesystem::path> findProfilerInfo(const std::filesystem::path &rankDir);

/// The rank readProfilerInfo returns, read quietly: for planning a load before it is read,
/// so the planned rank (what `--ranks` selects) is the one the rank is shown as.
std::optional<std::int32_t> profilerInfoRank(const std::filesystem::path &path);

/// `distributed_args` -> metadata.worldSize and extra ("tensor_model_parallel_size", ...);
/// `parallel_group_info` -> groups with kind "dp", "tp", "pp", "mp", "dp_cp", ... (name = the
/// group key). ENV_VARIABLES with a value go to extra as "env.<NAME>". False on a bad file.
bool readProfilerMetadata(const std::filesystem::path &path, const ImportContext &ctx,
    model::RunMetadata &metadata, std::vector<model::ParallelGroup> &groups);

} // namespace stepscope::import::ascend
