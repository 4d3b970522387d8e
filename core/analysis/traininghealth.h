// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/traininglog.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::analysis {

/// What a training-health finding is about (docs/metrics.md "Training health").
enum class HealthKind : std::uint8_t {
    NonFiniteLoss, ///< a loss became NaN/inf after finite values
    LossSpike, ///< robust z-score against the rolling median above the threshold
    LossRising, ///< a window's median loss above the previous window's
    LossFlat, ///< the last window's median loss within a small band of the first's
    GradNormExplosion, ///< grad norm above the ceiling (or non-finite)
    GradNormVanishing, ///< grad norm below the floor for a sustained stretch
    LossScaleCollapse, ///< fp16 loss scale fell far below its run maximum
    OverflowSkipped, ///< steps skipped on overflow
    StepTimeRegression, ///< recent step times slower than the early ones
    StepStall, ///< one step far slower than the rolling median
    LrStepLossStep, ///< an lr step change with a loss step right after it
    Eta, ///< time left from the recent step times and the total steps printed
};
std::string_view healthKindName(HealthKind k); ///< "non_finite_loss", "loss_spike", ...

enum class HealthSeverity : std::uint8_t { Info, Warning, Error };
std::string_view healthSeverityName(HealthSeverity s); ///< "info", "warning", "error"

/// One finding with its evidence: where (run, step, log line), what was seen (value), the
/// rule that fired and its threshold, and a sentence that says it all.
struct HealthFinding
{
    HealthKind kind = HealthKind::NonFiniteLoss;
    HealthSeverity severity = HealthSeverity::Warning;
    std::uint32_t run = 0; ///< index into TrainingLog::runs
    std::int64_t step = 0; ///< first step the rule fired at
    std::int64_t line = 0; ///< its 1-based log line (0 when the source has none)
    std::string series; ///< the series name as printed
    double value = std::numeric_limits<double>::quiet_NaN(); ///< the value at `step`
    std::string rule; ///< the rule in words ("robust z > 6 against the rolling median of 20")
    double threshold = 0; ///< the rule's threshold
    std::size_t count = 1; ///< points (or events) of this run matching the rule
    std::string evidence; ///< readable sentence with the numbers
};

/// The thresholds of every rule; defaults are the documented ones.
struct HealthRules
{
    std::size_t spikeWindow = 20; ///< previous finite points forming the rolling median
    std::size_t spikeMinHistory = 8; ///< points needed before a spike can be called
    double spikeZ = 6; ///< robust z-score (x - median) / (1.4826 MAD)
    double spikeMinRise = 0.05; ///< and x above the median by this share of it
    double trendWindowShare = 0.25; ///< window = this share of the run's points
    std::size_t trendMinPoints = 6; ///< fewer finite loss points: no trend finding
    double risingShare = 0.10; ///< a window's median this much above the previous one's
    std::size_t flatMinPoints = 50; ///< flat needs at least this many points
    double flatShare = 0.01; ///< last window's median within this share of the first's
    double gradExplosion = 1e5;
    double gradVanishing = 1e-3;
    std::size_t vanishingPoints = 10; ///< consecutive points below gradVanishing
    double lossScaleCollapse = 1024; ///< scale at or below max / this
    double stepTimeRegression = 0.20; ///< recent median above the early one by this share
    std::size_t stepTimeMinPoints = 8;
    double stallFactor = 5; ///< a step this many times the rolling median of 10
    double lrStepShare = 0.20; ///< lr change between two printed points at least this
    double lrStepContrast = 5; ///< and this many times the neighbours' median change
    double lossStepShare = 0.05; ///< loss median 5 points after vs before changes this much
    std::size_t etaWindow = 20; ///< recent step times for the ETA
    std::size_t maxPerKind = 10; ///< kept per kind, run and series name (the rest counted)
};

/// Findings for every run of `log`, in run order then by kind (the order of HealthKind),
/// then by step, then by series name. Every loss series is checked, whatever order the log
/// printed them in: the same series in another order give the same findings. Points
/// flagged duplicate are ignored.
std::vector<HealthFinding> trainingHealth(
    const model::TrainingLog &log, const HealthRules &rules = {});

/// Step-time value in seconds for a printed unit ("ms", "s", "us"); NaN when unknown.
double stepTimeSeconds(double value, std::string_view unit);

/// Median of `values` (copied); NaN when empty.
double medianOf(std::vector<double> values);

} // namespace stepscope::analysis
