// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "import/importcontext.h"
#include "model/loadreport.h"
#include "model/traininglog.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::import::losslog {

/// Training-log formats of docs/formats.md §10, in detection priority (§10.1).
enum class LogFormat {
    Unknown,
    HfTrainerState, ///< §10.8 trainer_state.json
    MegatronGolden, ///< §10.6 golden values JSON
    TrainerLogJsonl, ///< §10.9 LLaMA-Factory trainer_log.jsonl
    MetricsCsv, ///< §10.10 Lightning metrics.csv / plain CSV
    ConsoleLog, ///< §10.2–10.5, 10.7, 10.11: line records (producer names which)
};
std::string_view logFormatName(LogFormat f);

/// A value the user's own script prints, read from console logs besides the built-in
/// records: `valueKey` is the text right before the number ("with Perplexity:", "val_ppl=");
/// with `stepKey` the step is the integer after it ("Step at "; a counter that goes back is
/// continued, as per-epoch counters are), else the step is the occurrence number (1, 2, …).
/// The series kind follows the name (…loss → Loss, eval/val…loss → EvalLoss, ppl/perplexity
/// → Perplexity, else Other).
struct UserPattern
{
    std::string name;
    std::string valueKey;
    std::string stepKey;
};

struct LogReadOptions
{
    std::vector<UserPattern> userPatterns;
};

/// Detects the format of `file` by content: whole-document JSON, first JSON line, CSV
/// header, else console records found in the first `scanBytes` (the records of some logs
/// start 150–180 KB in). Unknown when nothing matches or the file cannot be read.
LogFormat detectLogFormat(const std::filesystem::path &file, std::size_t scanBytes = 8u << 20);

/// Reads a training log of any §10 format. Every record kind found in a console log is
/// kept as its own series. Never throws: an unreadable file or one without records gives
/// an empty TrainingLog and an Error diagnostic; lines that look like records but do not
/// parse are counted in the log (issues, badLineCount) and summarised as one Warning per
/// kind of problem with the first line number. Checks the context's cancel token between
/// chunks (util::Cancelled propagates, as for every importer).
model::TrainingLog readTrainingLog(const std::filesystem::path &file, const ImportContext &context,
    const LogReadOptions &options = {});
/// Convenience: diagnostics go to `report`, paths relative to the file's folder.
model::TrainingLog readTrainingLog(const std::filesystem::path &file, model::LoadReport &report);

/// Training logs in `dir` and its subfolders (depth <= maxDepth), by content: *.log, *.txt,
/// *.out, *.json, *.jsonl, *.csv files up to 2 GiB (JSON up to 256 MiB). Of several
/// trainer_state.json (checkpoint-N/ copies hold prefixes of one history) only the one with
/// the largest global_step is returned. Sorted by path.
std::vector<std::filesystem::path> findTrainingLogs(
    const std::filesystem::path &dir, int maxDepth = 3);

} // namespace stepscope::import::losslog
