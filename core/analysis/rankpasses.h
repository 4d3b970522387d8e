// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The part of analyzeSession that reads one rank at a time (steps, breakdown pass, memory,
// kernels), run on a few threads: a thousand-rank session spent 5.6 s here on one core, and a
// single 1 GB rank 1.6 s, its passes one after the other.

#include "analysis/breakdown.h"
#include "analysis/kpis.h"
#include "analysis/memorycategories.h"
#include "analysis/namestats.h"
#include "model/session.h"
#include "util/progress.h"

#include <cstdint>
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

/// While it runs, the breakdown pass and the memory pass each hold about 65 bytes per event
/// (216 and 225 MB on the 3.4 M events of the generated 1 GB Kineto trace, measured peaks).
/// The passes of a rank of more events run one after the other, so that the analysis of a
/// 20 GB trace adds one pass's memory to the load's, as docs/robustness.md's memory budget
/// measured, not two.
constexpr std::uint64_t PassesAtOnceUpToEvents = 8'000'000;

/// One RankPasses per trace of `session`, in trace order, the same whatever the thread count
/// (`threads` 0: the machine's cores, at most four): the passes of every rank, each pass on
/// its own (one after the other for a rank of more than `passesAtOnceUpToEvents` events), its
/// notes merged in pass order. Throws util::Cancelled when `cancel` is set, after every
/// thread has stopped.
std::vector<RankPasses> runRankPasses(const model::Session &session, const RunConfig &config,
    const util::CancelToken *cancel, unsigned threads = 0,
    std::uint64_t passesAtOnceUpToEvents = PassesAtOnceUpToEvents);

} // namespace stepscope::analysis
