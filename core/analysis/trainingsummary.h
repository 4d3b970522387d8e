// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/session.h"
#include "traininghealth.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stepscope::analysis {

/// One run of a session's training logs. A session numbers its runs 0, 1, … over all its
/// logs in order (a folder of logs and a file with appended runs both offer several runs).
struct TrainingRun
{
    const model::TrainingLog *log = nullptr;
    std::uint32_t run = 0; ///< index into log->runs
    std::uint32_t index = 0; ///< session-wide run number
    /// "<file name>" or "<file name>, run 2 (from line 843)"; with as many of the file's last
    /// folders as tell apart logs of one name ("test_ds3_sft/pta_det.txt").
    std::string label;
};
std::vector<TrainingRun> trainingRuns(const model::Session &session);
/// The same over a list of logs (a compare side's).
std::vector<TrainingRun> trainingRuns(
    const std::vector<std::shared_ptr<const model::TrainingLog>> &logs);

/// The points a run logged, wall-clock series left out: what the Training panel's header and
/// the status bar count.
std::size_t loggedPoints(const TrainingRun &run);

/// The run to compare by default: the one whose primary loss has the most points (the
/// first of equals); nullptr when no run has a loss.
const TrainingRun *mainTrainingRun(const std::vector<TrainingRun> &runs);

/// `summary --json`'s "training_log" object: {"producer", "runs": [{index, source, label,
/// first_line, last_line, first_step, last_step}], "series": [{name, kind, unit, run, rank,
/// points: [[step, value], …]}] (non-finite values as "nan"/"inf"/"-inf"), "health":
/// [{kind, severity, run, step, line, series, value, rule, threshold, count, evidence}]}.
/// `run` is the session-wide run number.
nlohmann::json trainingLogJson(const model::Session &session, const HealthRules &rules = {});

/// Adds "training_log" to a summary object when the session has training logs.
void addTrainingLogToSummary(nlohmann::json &summary, const model::Session &session);

/// The same as text for `stepscope summary` ("" without logs): runs, then the findings.
std::string trainingLogText(const model::Session &session, const HealthRules &rules = {});

} // namespace stepscope::analysis
