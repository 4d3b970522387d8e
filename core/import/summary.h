// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// What `stepscope summary PATH [--json]` prints about a load (issue #3 item 9). The analysis
// layer adds its own fields to the same JSON object afterwards.

#include "model/session.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::import {

/// {"format", "ranks": [r...], "counts": {"events", "tracks", "flows", "counters",
/// "counter_points", "memory_points"}, "steps": [{"rank", "step", "start_ns",
/// "duration_us"}], "diagnostics": [{"severity", "file", "line", "offset", "message",
/// "count"}]}. `counters` is the number of counter series, `start_ns` absolute (trace origin
/// + step start), steps ordered by rank then start. Keys are sorted (nlohmann::json), so the
/// text is stable. Without `withSteps`, no "steps" key (the CLI writes them one at a time).
nlohmann::json importSummaryJson(const model::Session &session, bool withSteps = true);

/// The objects of "steps", {"rank", "step", "start_ns", "duration_us"}, each built when
/// asked for: the CLI writes a 10 000-rank cluster's 200 000 one at a time.
class StepSummaries
{
public:
    explicit StepSummaries(const model::Session &session);
    std::size_t size() const { return m_steps.size(); }
    nlohmann::json operator()(std::size_t i) const;

private:
    std::vector<std::pair<const model::Trace *, const model::Step *>> m_steps;
};

/// The same facts as readable text, one fact per line. Without `withSteps`, the steps as the
/// trace marks them are left to the caller (`stepscope summary` prints the analysed ones).
std::string importSummaryText(const model::Session &session, bool withSteps = true);

/// One diagnostic as JSON (shared with the dump).
nlohmann::json diagnosticJson(const model::Diagnostic &d);

/// util::jsonText (util/jsontext.h) for nlohmann::json.
std::string jsonText(const nlohmann::json &j, int indent = -1);

} // namespace stepscope::import
