// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "breakdown.h"
#include "model/session.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace stepscope::analysis {

/// One rank's row of the multi-rank table.
struct RankStats
{
    std::int32_t rank = 0;
    std::int64_t stepCount = 0;
    std::int64_t stepMeanNs = 0;
    std::int64_t stepMedianNs = 0;
    std::int64_t stepMaxNs = 0;
    std::int64_t computeMeanNs = 0;
    std::int64_t commExposedMeanNs = 0;
    std::int64_t freeMeanNs = 0;
    std::int64_t bubbleMeanNs = 0;
    /// Add to this rank's times to align it with the reference rank (the lowest rank):
    /// median difference of matched collective end times. 0 when unknown.
    std::int64_t clockOffsetNs = 0;
    bool offsetKnown = false;
    std::int64_t matchedCollectives = 0; ///< collectives the offset was computed from
    std::int64_t clockSpreadNs = 0; ///< ClockOffset::spreadNs
    // Whether a rank straggles is the cluster analysis' (ClusterRankRow::stragglerSteps): per
    // step and per pipeline stage, so that a whole stage of longer steps is not called slow.
};

struct RankTable
{
    std::vector<RankStats> ranks; ///< sorted by rank
    std::optional<std::int32_t> slowestRank;
    /// Slowest rank's mean step time minus the median rank's, ns and fraction of the median.
    std::int64_t slowestMarginNs = 0;
    double slowestMarginFraction = 0;
};

/// Per-rank clock offsets by aligning collective end times: the k-th occurrence of a
/// collective with the same name on two ranks ends at the same moment (every member leaves
/// the collective together), so the median difference of end times is the clock offset.
/// Result has one entry per trace in session order (reference rank = first trace, offset 0).
///
/// The offset is only trusted (known) when the matched end differences agree: their median
/// absolute deviation (spreadNs) is at most 1 ms. Ranks that never share a collective (two
/// sampled ranks of different groups) match by name only and scatter: offset unknown.
struct ClockOffset
{
    std::int32_t rank = 0;
    std::int64_t offsetNs = 0;
    bool known = false;
    std::int64_t matched = 0;
    std::int64_t spreadNs = 0; ///< median absolute deviation of the end differences
};
std::vector<ClockOffset> estimateClockOffsets(const model::Session &session);

/// The table from breakdowns of all ranks (computeBreakdowns of each trace, concatenated).
RankTable computeRankTable(
    const model::Session &session, const std::vector<StepBreakdown> &breakdowns);

} // namespace stepscope::analysis
