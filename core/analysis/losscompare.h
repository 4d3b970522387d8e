// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "deltarow.h"
#include "model/traininglog.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stepscope::analysis {

/// One step printed by both runs.
struct LossPoint
{
    std::int64_t step = 0;
    double before = 0;
    double after = 0;
    double delta = 0; ///< after - before (NaN when a side is NaN/inf)
    std::optional<double> relative; ///< |delta| / |before|; empty when before is 0 or not finite
};

/// Two loss curves overlaid on the step axis (convergence check).
///
/// Alignment is by step number, never by row: runs print every k steps and a step printed
/// by one run only does not shift the others. Points flagged duplicate in a series (a
/// record repeated verbatim under a new step, GRPO) are skipped; a step printed twice keeps
/// its first value. NaN/inf values are markers: listed per side, kept in `points` with a NaN
/// delta, never part of the divergence figures.
struct LossComparison
{
    std::vector<LossPoint> points; ///< steps in both runs, ascending
    std::size_t beforeCount = 0; ///< distinct steps used per side
    std::size_t afterCount = 0;
    std::size_t onlyBeforeCount = 0; ///< steps printed by one run only
    std::size_t onlyAfterCount = 0;
    std::size_t duplicatesSkipped = 0; ///< both sides
    std::vector<std::int64_t> nonFiniteBefore; ///< steps whose value is NaN/inf
    std::vector<std::int64_t> nonFiniteAfter;

    std::optional<double> maxAbsDelta; ///< over common steps with finite values
    std::int64_t maxAbsDeltaStep = 0;
    std::optional<double> maxRelative; ///< largest |delta| / |before|
    std::int64_t maxRelativeStep = 0;
    /// At the last common step where both values are finite.
    std::optional<double> finalRelative;
    std::optional<double> finalAbsDelta;
    std::int64_t finalStep = 0;

    /// Common steps where both values are finite (a resumed run prints "nan" before it).
    std::size_t finiteCount() const;
};

/// "100 common steps", or "100 common steps, 50 finite in both" when some are NaN/inf.
std::string commonStepsText(std::size_t common, std::size_t finite);

LossComparison compareLoss(const model::LogSeries &before, const model::LogSeries &after);

/// How a cross-check row summarises a series.
enum class CrossCheckStatistic : std::uint8_t {
    Median, ///< median of finite, non-duplicate values without the first (warm-up) point
    Peak, ///< largest value (memory)
    Total, ///< sum (skipped-step flags and per-interval counts)
    Last, ///< last value (running totals)
};
std::string_view crossCheckStatisticName(CrossCheckStatistic s);

/// One series summarised with `statistic` (see CrossCheckStatistic); empty when no point
/// qualifies. `count` receives the number of points used.
std::optional<double> summarise(
    const model::LogSeries &series, CrossCheckStatistic statistic, std::size_t *count = nullptr);

} // namespace stepscope::analysis
