// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Keys of RunMetadata::extra that an importer writes and the analysis reads.

#include <string_view>

namespace stepscope::model {

/// The rank's pipeline stage as the profiler numbers it (MindInsight: 1-based, from the
/// `ascend_cluster_analyse_pipeline-parallel_<stages>_<ranks>_<rank>.csv` name).
inline constexpr std::string_view PipelineStageKey = "pipeline_stage";

} // namespace stepscope::model
