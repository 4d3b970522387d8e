// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// What `stepscope summary PATH [--json]` prints about a load (issue #3 item 9). The analysis
// layer adds its own fields to the same JSON object afterwards.

#include "model/session.h"

#include <nlohmann/json.hpp>

#include <string>

namespace stepscope::import {

/// {"format", "ranks": [r...], "counts": {"events", "tracks", "flows", "counters",
/// "counter_points", "memory_points"}, "steps": [{"rank", "step", "start_ns",
/// "duration_us"}], "diagnostics": [{"severity", "file", "line", "offset", "message",
/// "count"}]}. `counters` is the number of counter series, `start_ns` absolute (trace origin
/// + step start), steps ordered by rank then start. Keys are sorted (nlohmann::json), so the
/// text is stable.
nlohmann::json importSummaryJson(const model::Session &session);

/// The same facts as readable text, one fact per line. Without `withSteps`, the steps as the
/// trace marks them are left to the caller (`stepscope summary` prints the analysed ones).
std::string importSummaryText(const model::Session &session, bool withSteps = true);

/// One diagnostic as JSON (shared with the dump).
nlohmann::json diagnosticJson(const model::Diagnostic &d);

/// The text of `j` as every JSON output prints it (`summary --json`, `dump --json`, the
/// training-log dump): names and messages come from other machines' files and are often not
/// UTF-8 (a Latin-1 folder name), so each byte that is not valid UTF-8 is replaced by U+FFFD
/// (nlohmann's error_handler_t::replace) instead of throwing; the output is always valid
/// JSON. `indent` < 0: compact.
std::string jsonText(const nlohmann::json &j, int indent = -1);

} // namespace stepscope::import
