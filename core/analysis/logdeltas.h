// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The figures two runs' training logs print beside the loss (step time, throughput, memory,
// MFU, skipped steps), compared once: the compare window's and report's cross-check table,
// compare --json ("cross_check" and "training") and the regression gate all read these rows.

#include "deltarow.h"
#include "losscompare.h"
#include "model/traininglog.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stepscope::analysis {

/// Thresholds of the convergence verdict and of the regression gate (docs/metrics.md
/// "Convergence compare" and README "Regression gate"); shares, not percent.
struct TrainingThresholds
{
    double tolerance = 0.02; ///< smoothed loss curves within this relative band: "held"
    std::size_t smoothing = 5; ///< centred moving average over this many common points
    double stepTime = 0.05; ///< step time slower by more than this: regressed
    double throughput = 0.05; ///< throughput / MFU lower by more than this: regressed
    double memory = 0.05; ///< memory higher by more than this: regressed
};

/// One figure of the two logs. Series are paired by name and rank (a row per rank both sides
/// print), else by kind when each side has one series of that kind (another producer); a
/// series left unpaired gets a row of its own with the other side empty. Values are in the
/// printed unit; where the two sides print different units, step times are compared in
/// seconds and memory in bytes (other units: both values shown, no delta). The verdict is
/// the tables' (makeDeltaRow's 0.5 %); `failed` is the gate's, by TrainingThresholds
/// (never for skipped steps, which are no rule of the gate).
struct TrainingDelta
{
    /// "log.step_time", "log.throughput", "log.memory", ...; a kind's further rows add the
    /// series ("log.memory:allocated@rank4"), as do unpaired ones.
    std::string key;
    std::string label; ///< the series names, and the rank when the log names one
    std::string unit; ///< of before/after
    /// "median after warm-up", "peak", "total", "last"; "last / total" when the two sides
    /// summarise differently (skipped steps: a running total against per-step flags)
    std::string statistic;
    model::LogSeriesKind kind = model::LogSeriesKind::Other;
    std::int32_t rank = -1; ///< the series' rank (-1: not per rank)
    std::size_t countBefore = 0; ///< points summarised per side
    std::size_t countAfter = 0;
    std::optional<double> before;
    std::optional<double> after;
    std::optional<double> delta; ///< empty when a side is missing or the units differ
    std::optional<double> percent;
    Verdict verdict = Verdict::Unknown;
    bool failed = false; ///< worse than the gate's limit allows
};
std::vector<TrainingDelta> trainingDeltas(const model::TrainingLog &before, std::uint32_t runBefore,
    const model::TrainingLog &after, std::uint32_t runAfter, const TrainingThresholds &t = {});

/// The row as the delta tables show it (the window's and report's cross-check table, the
/// Markdown, `cross_check` in compare --json): labelled "name (statistic)", the same verdict
/// as `row.verdict`; both values and no delta when the units cannot be compared.
DeltaRow deltaRowOf(const TrainingDelta &row);

} // namespace stepscope::analysis
