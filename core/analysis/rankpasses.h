// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The part of analyzeSession that reads one rank at a time (steps, breakdown pass, memory,
// kernels), run for every rank on a few threads: a thousand-rank session spent 5.6 s here on
// one core.

#include "analysis/breakdown.h"
#include "analysis/kpis.h"
#include "analysis/memorycategories.h"
#include "analysis/namestats.h"
#include "model/session.h"
#include "util/progress.h"

#include <optional>
#include <vector>

namespace stepscope::analysis {

/// What one rank's passes found.
struct RankPasses
{
    std::vector<StepBreakdown> breakdowns;
    std::vector<LaneSegment> lanes;
    std::optional<MemorySummary> memory; ///< when the rank has memory data
    std::optional<KernelSummary> kernels; ///< when the rank has kernels or op types
    model::LoadReport notes; ///< what the passes noted, merged by the caller in rank order
};

/// One RankPasses per trace of `session`, in trace order, the same whatever the thread count
/// (`threads` 0: the machine's cores, at most four). Throws util::Cancelled when `cancel` is
/// set, after every thread has stopped.
std::vector<RankPasses> runRankPasses(const model::Session &session, const RunConfig &config,
    const util::CancelToken *cancel, unsigned threads = 0);

} // namespace stepscope::analysis
