// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/traininglog.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace stepscope::import::losslog {

/// Fills one TrainingLog while a reader walks a file: finds or creates series by
/// (name, run, rank), opens runs, counts records. Not thread-safe (one per file).
class LogBuilder
{
public:
    LogBuilder();

    /// The series `name` of `run` and `rank`, created with kind and unit on first use.
    model::LogSeries &series(std::string_view name, model::LogSeriesKind kind,
        std::string_view unit, std::uint32_t run, std::int32_t rank = -1);
    void add(std::string_view name, model::LogSeriesKind kind, std::string_view unit,
        std::uint32_t run, std::int64_t step, double value, std::int64_t line,
        std::int32_t rank = -1, bool duplicate = false);
    /// Opens a new run starting at `line` and returns its index. Run 0 exists from the start.
    std::uint32_t openRun(std::int64_t line);
    /// Extends the line range of `run` to include `line`.
    void touchRun(std::uint32_t run, std::int64_t line);
    void countRecord() { ++m_log.recordCount; }
    /// Notes the total step count a record states ("iteration 5/ 100"): the scalar
    /// "total_steps" (the last one printed wins), used for the ETA.
    void noteTotalSteps(std::int64_t total);
    /// Notes the record kind seen; the first one in detection priority names the producer.
    void noteProducer(int priority, std::string_view name);

    /// Notes what the reader did with values that are not errors (left out as not
    /// recorded), said as an info line of the load.
    void note(std::string message) { m_notes.push_back(std::move(message)); }
    const std::vector<std::string> &notes() const { return m_notes; }

    model::TrainingLog &log() { return m_log; }
    /// Drops an unused run 0, labels the runs and returns the log.
    model::TrainingLog finish();

private:
    model::TrainingLog m_log;
    std::vector<std::string> m_notes;
    std::map<std::tuple<std::string, std::uint32_t, std::int32_t>, std::size_t> m_index;
    int m_producerPriority = 1000;
    std::size_t m_hint = 0; ///< index after the series returned last
};

/// Turns a step counter that only goes forward within a run into (run, step): a value that
/// does not increase opens a new run in the builder.
class RunTracker
{
public:
    /// splitOnEqual: a repeated step opens a run too (off for sparse logs that print train
    /// and eval rows at the same step).
    explicit RunTracker(bool splitOnEqual = true)
        : m_splitOnEqual(splitOnEqual)
    {
    }
    /// The run of a record of `step` by `rank` (-1: no rank prefix): a new one when the step
    /// goes back against that rank's last, so that ranks' interleaved lines stay one run.
    std::uint32_t observe(
        LogBuilder &builder, std::int64_t step, std::int64_t line, std::int32_t rank = -1);
    std::uint32_t run() const { return m_run; }
    std::optional<std::int64_t> lastStep() const { return m_last; }

private:
    bool m_splitOnEqual = true;
    std::uint32_t m_run = 0;
    std::optional<std::int64_t> m_last;
    std::map<std::int32_t, std::int64_t> m_lastByRank; // in the current run
};

/// Turns a counter that resets (per epoch, no epoch printed) into a global step: after a
/// decrease the count continues from the largest value seen. Does not open runs.
class ResetCounter
{
public:
    std::int64_t observe(std::int64_t step);
    std::int64_t last() const { return m_last; }

private:
    std::int64_t m_offset = 0;
    std::int64_t m_previous = -1;
    std::int64_t m_last = 0;
};

// --- text helpers shared by the line readers -------------------------------------------

/// A number as logs print it: decimal or scientific, nan/inf (any case), "-0.0"; with
/// allowThousands also "177,138". nullopt when the text is not one number.
std::optional<double> parseNumber(std::string_view text, bool allowThousands = false);
/// A step number read as a double (JSON, CSV, console logs) as an integer: nullopt when it is
/// not finite or not inside +-2^62 (a cast of a double beyond int64 is undefined behaviour).
std::optional<std::int64_t> stepFromDouble(std::optional<double> v);
/// Leading number of `text` (e.g. "1410ms" -> 1410, rest "ms"); nullopt when none.
std::optional<double> parseLeadingNumber(std::string_view text, std::string_view *rest = nullptr);
/// Non-negative integer from the start of `s` (after blanks); advances s. nullopt if none.
std::optional<std::int64_t> takeInt(std::string_view &s);
void skipBlanks(std::string_view &s);
/// If s starts with prefix, removes it and returns true.
bool consume(std::string_view &s, std::string_view prefix);
std::string_view trim(std::string_view s);
/// Position of `key` in `s`, searched by its last character (':' or '=' in our keys), which
/// is much rarer in log text than the first letters of words: npos when absent.
std::size_t findAnchored(std::string_view s, std::string_view key);
/// Splits on `sep`, trimming parts and dropping empty ones.
std::vector<std::string_view> splitTrim(std::string_view s, std::string_view sep);
/// "YYYY-MM-DD HH:MM:SS" with optional ",mmm" / ".ffffff" at the start of s: seconds since
/// 1970 (the printed clock, no zone), and the length used. nullopt when s does not start so.
std::optional<double> parseTimestamp(std::string_view s, std::size_t *length = nullptr);
/// Python timedelta text "H:MM:SS" or "D day(s), H:MM:SS" -> seconds.
std::optional<double> parseTimedelta(std::string_view s);
/// The unit in a key's trailing parentheses: "elapsed time per iteration (ms)" -> "ms".
std::string_view unitInParens(std::string_view key);

} // namespace stepscope::import::losslog
