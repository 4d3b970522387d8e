// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "import/loader.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

/// The headless commands' command lines, each parsed with QCommandLineParser: every option
/// in `stepscope COMMAND --help`, a bad value an error naming the option (exit 2), numbers
/// read without anything that throws.
namespace stepscope::app {

/// The outcome of parsing one command line.
struct ParseOutcome
{
    enum class Action { Run, Help, Error };
    Action action = Action::Run;
    QString text; ///< the help (Help) or the error naming the option (Error)
};

/// What every loading command takes about the load itself: `--ranks LIST` (read only these
/// ranks) and `--no-memory-check` (load even when the memory estimate says it does not fit).
struct LoadLimits
{
    std::vector<std::int32_t> ranks; ///< empty: every rank
    bool memoryCheck = true;

    /// The loader's options these ask for.
    import::LoadOptions loadOptions() const;
};

/// `summary PATH [--json] [--config FILE]` and `dump PATH [--json]`, with LoadLimits.
struct LoadArgs
{
    std::string path;
    bool json = false;
    std::string config;
    LoadLimits limits;
};

/// `export PATH --out DIR [...]`.
struct ExportArgs
{
    std::string path;
    std::string out;
    std::string view = "all";
    std::string config;
    std::optional<std::int64_t> step;
    std::optional<std::pair<std::int64_t, std::int64_t>> rangeUs;
    std::optional<std::pair<int, int>> size; ///< width, height in px
    double scale = 1.0;
    std::string format = "png";
    LoadLimits limits;
};

/// `compare BEFORE AFTER [--report DIR] [--json] [--rank R | --before-rank R --after-rank R]`.
struct CompareArgs
{
    std::vector<std::string> paths;
    std::string reportDir;
    bool json = false;
    std::string markdown; ///< --markdown FILE
    bool failOnRegression = false; ///< --fail-on regression
    /// --tolerance, --max-step-time, --max-throughput-drop, --max-memory as shares (PCT / 100).
    std::optional<double> tolerance;
    std::optional<double> maxStepTime;
    std::optional<double> maxThroughputDrop;
    std::optional<double> maxMemory;
    /// --rank R (both sides), --before-rank R / --after-rank R (one side, over --rank);
    /// empty: the slowest rank of that run. `*RankOption` names the option that set it.
    std::optional<std::int32_t> beforeRank;
    std::optional<std::int32_t> afterRank;
    std::string beforeRankOption;
    std::string afterRankOption;
    bool memoryCheck = true; ///< --no-memory-check turns it off for both runs
};

/// A rank number of --rank / --before-rank / --after-rank: a whole number 0..2^31-1.
std::optional<std::int32_t> parseRankNumber(const QString &text);

/// A rank list of --ranks ("0-7,12"), or nullopt (import::parseRankList).
std::optional<std::vector<std::int32_t>> parseRankListOption(const QString &text);
/// The error for a --ranks value that is not a rank list, naming the option.
QString rankListError(const QString &text);

/// `arguments` starts with the command name ("summary", "dump", ...).
ParseOutcome parseLoadArgs(const QStringList &arguments, bool allowConfig, LoadArgs *out);
ParseOutcome parseExportArgs(const QStringList &arguments, ExportArgs *out);
ParseOutcome parseCompareArgs(const QStringList &arguments, CompareArgs *out);

/// The arguments after the program name, as Qt strings (local 8-bit, as argv is).
QStringList toArguments(const std::vector<std::string> &args);

} // namespace stepscope::app
