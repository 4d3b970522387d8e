// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stepscope::model {

/// What a training-log series measures. Decides default plotting and comparison direction;
/// the printed name and unit are kept beside it.
enum class LogSeriesKind : std::uint8_t {
    Loss, ///< training loss (any printed loss: "loss", "lm loss", "wide_loss")
    EvalLoss, ///< evaluation / validation loss
    Perplexity, ///< perplexity printed by a user script
    LearningRate, ///< learning rate (first parameter group)
    GradNorm, ///< gradient norm
    StepTime, ///< time per step, in `unit` ("ms", "s")
    Throughput, ///< as printed, in `unit` ("samples/s", "samples/s/p", "TFLOP/s/GPU", "tokens/s")
    Memory, ///< as printed, in `unit` ("MB", "GB", "GiB", "bytes")
    Mfu, ///< model FLOPs utilisation in percent, only when the log prints it
    LossScale, ///< fp16 loss scale
    Skipped, ///< skipped / overflow / nan steps (a count or a 1 per skipped step)
    WallTime, ///< wall-clock time of the record, seconds since 1970 (naive, as printed)
    Epoch, ///< epoch of the record (fractional for some trainers)
    Other, ///< any other printed number (consumed samples, num zeros, rewards...)
};
inline constexpr int LogSeriesKindCount = 14;
std::string_view logSeriesKindName(LogSeriesKind k);

/// One named series of a training log: values at global steps.
///
/// Invariants: steps, values, lines and duplicate have the same length; points are in the
/// order the log printed them, which within one run is ascending by step (a step printed
/// twice keeps both points). NaN and +-inf values are kept: they are markers, not gaps to
/// drop. duplicate[i] != 0 when point i repeats an earlier record verbatim (same values and
/// timestamp under a new step number): such points must not count as independent samples.
struct LogSeries
{
    std::string name; ///< as printed ("lm loss", "elapsed time per iteration (ms)")
    LogSeriesKind kind = LogSeriesKind::Other;
    std::string unit; ///< as printed or implied by the name; empty when none
    std::uint32_t run = 0; ///< index into TrainingLog::runs
    std::int32_t rank = -1; ///< rank that printed it, -1 when unknown
    /// Values are running totals since the run started (DeepSpeed `skipped=`), so the last
    /// value, not the sum, is the run's figure.
    bool cumulative = false;
    /// Name of a series of the same run and rank whose values already count these (Megatron
    /// counts its nan iterations among its skipped iterations); empty when none.
    std::string countedIn;
    std::vector<std::int64_t> steps; ///< global step (see TrainingLog)
    std::vector<double> values;
    std::vector<std::int64_t> lines; ///< 1-based line (0 when the source has no lines)
    std::vector<std::uint8_t> duplicate;

    std::size_t size() const { return steps.size(); }
    bool empty() const { return steps.empty(); }
    void add(std::int64_t step, double value, std::int64_t line = 0, bool isDuplicate = false);
    /// Number of NaN/inf values.
    std::size_t nonFiniteCount() const;
};

/// One contiguous run inside a log. A file holds several when runs were appended to it or a
/// run was resumed: a new run starts wherever the step counter does not increase.
struct LogRun
{
    std::int64_t firstLine = 0; ///< 1-based, 0 when unknown
    std::int64_t lastLine = 0;
    std::string label; ///< e.g. "run 2 (from line 843)"
};

/// A line the reader could not use although it looked like a record.
struct LogIssue
{
    std::int64_t line = 0; ///< 1-based
    std::string message;
};

/// A training log (loss curve and friends) of one run or of several runs appended to one
/// file, independent of the program that wrote it.
///
/// Global steps: 1-based optimizer steps where the log numbers them that way; counters that
/// reset per epoch are turned into global steps ((epoch-1) * stepsPerEpoch + step) and
/// counters that restart open a new run. Steps are only comparable within one run.
/// Invariant: every series' run < runs.size() (at least one run when any series exists).
/// Immutable once read; safe to share between threads.
struct TrainingLog
{
    std::string source; ///< the file, as given to the reader
    std::string producer; ///< what wrote it, as detected ("Megatron iteration log", ...)
    std::vector<LogRun> runs;
    std::vector<LogSeries> series;
    /// Run-level numbers printed once (train_runtime s, iteration_timing_avg s, train_loss).
    std::vector<std::pair<std::string, double>> scalars;
    /// Printed configuration (key, value text) when the log shows it ("batch_size" -> "32").
    std::vector<std::pair<std::string, std::string>> config;
    /// Lines that looked like records but did not parse (first 1000; see badLineCount).
    std::vector<LogIssue> issues;
    std::uint64_t badLineCount = 0; ///< all such lines, including those not kept in issues
    std::uint64_t lineCount = 0; ///< lines (or JSON entries) read
    std::uint64_t recordCount = 0; ///< records used
    std::uint64_t controlLineCount = 0; ///< lines that carried ANSI, CR spinners or NUL bytes

    bool empty() const { return series.empty(); }
    /// The series with this exact name in `run` (any rank when rank < 0), or nullptr.
    const LogSeries *find(
        std::string_view name, std::uint32_t run = 0, std::int32_t rank = -1) const;
    /// The first series of `kind` in `run`, or nullptr.
    const LogSeries *findKind(LogSeriesKind kind, std::uint32_t run = 0) const;
    /// The training loss to plot and compare for `run`: the Loss series with the most points
    /// (a Perplexity series when the log prints no loss), or nullptr. Of series with as many
    /// points, the shortest name ("loss" before "aux_loss"), then the first name in byte
    /// order, then the lowest rank: never the order the log printed them in.
    const LogSeries *primaryLoss(std::uint32_t run = 0) const;
    /// The value of a run-level scalar, or nullptr.
    const double *scalar(std::string_view name) const;
    /// Records an issue; keeps the first 1000 and counts the rest.
    void addIssue(std::int64_t line, std::string message);
};

} // namespace stepscope::model
