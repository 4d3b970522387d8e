// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "compare.h"
#include "logdeltas.h"
#include "losscompare.h"
#include "model/session.h"
#include "model/traininglog.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stepscope::analysis {

enum class ConvergenceVerdict : std::uint8_t {
    Held, ///< smoothed curves within the band over every common step
    Drifted, ///< a common step outside the band (firstStepOutside)
    Diverged, ///< a run goes NaN/inf after finite values, or its loss rises
    NoData, ///< no loss on a side, or no common step
};
std::string_view convergenceVerdictName(ConvergenceVerdict v); ///< "held", "drifted", ...

/// One common step of the two loss curves.
struct ConvergencePoint
{
    std::int64_t step = 0;
    double before = 0; ///< as printed (may be NaN/inf)
    double after = 0;
    double smoothBefore = 0; ///< centred moving average over finite common points (NaN if none)
    double smoothAfter = 0;
    double relDelta = 0; ///< |smoothAfter - smoothBefore| / max(|smoothBefore|, floor)
};

/// Two runs' loss curves aligned by global step (never by row: different logging strides
/// meet at their common steps), with the verdict of docs/metrics.md "Convergence compare".
struct Convergence
{
    std::string metric; ///< the loss series compared ("lm loss", or "loss / lm loss")
    std::string beforeLabel;
    std::string afterLabel;
    double tolerance = 0;
    std::size_t commonSteps = 0; ///< steps printed by both runs
    std::size_t finiteCommonSteps = 0; ///< of which both values are finite
    std::optional<double> maxRelDelta; ///< of the smoothed curves
    std::int64_t maxRelDeltaStep = 0;
    std::optional<double> maxRelDeltaRaw; ///< of the printed values
    std::optional<std::int64_t> firstStepOutside;
    ConvergenceVerdict verdict = ConvergenceVerdict::NoData;
    std::string reason; ///< one sentence: why this verdict, with the numbers
    std::vector<ConvergencePoint> points;
};

Convergence compareConvergence(const model::TrainingLog &before, std::uint32_t runBefore,
    const model::TrainingLog &after, std::uint32_t runAfter, const TrainingThresholds &t = {});

/// Everything the two sessions' training logs say, for compare --json / --markdown and the
/// gate. Empty (hasLogs false) when either session has no log with a loss.
struct TrainingComparison
{
    bool hasLogs = false;
    Convergence convergence;
    std::vector<TrainingDelta> rows;
    /// Gate failures in words ("convergence drifted at step 120", "log.step_time +12 %").
    std::vector<std::string> regressions;
    /// The keys of the rows those failures are about ("log.step_time").
    std::set<std::string> failedKeys;
};
TrainingComparison compareTraining(
    const model::Session &before, const model::Session &after, const TrainingThresholds &t = {});

/// compare --json's "convergence" object: {metric, common_steps, max_rel_delta,
/// first_step_outside, verdict, tolerance, reason, …} and "training" array.
nlohmann::json convergenceJson(const Convergence &c);
nlohmann::json trainingDeltasJson(const std::vector<TrainingDelta> &rows);
/// Adds "convergence" and "training" to a compare JSON object when there are logs.
void addTrainingToCompareJson(nlohmann::json &out, const TrainingComparison &c);
/// Gate failures from a profile comparison's JSON rows (`kpis`, `memory` of compare --json):
/// step_time_median_us up, samples_per_s / tokens_per_s / mfu down,
/// memory_peak_allocated_bytes up by more than the thresholds. Appends sentences to `out`
/// (one per key) and the keys to `failedKeys`.
void profileRegressions(const nlohmann::json &compare, const TrainingThresholds &t,
    std::vector<std::string> &out, std::set<std::string> *failedKeys = nullptr);
/// The (key, title) of rows the tables mark "regressed" (a 0.5 % tolerance) that did not fail the
/// gate: within its limits, or not one of its rules (communication share, a memory group).
/// The gate's Markdown names them, so that "No regression." never sits unexplained above a
/// "regressed" row.
std::vector<std::pair<std::string, std::string>> regressedNotFailed(
    const std::vector<DeltaRow> &profileRows, const std::vector<TrainingDelta> &trainingRows,
    const std::set<std::string> &failedKeys);
/// A Markdown section for a CI comment ("" without logs).
std::string trainingMarkdown(const TrainingComparison &c);
/// One plain-text paragraph on the convergence (the compare report's "Loss curves").
std::string convergenceText(const Convergence &c);

} // namespace stepscope::analysis
