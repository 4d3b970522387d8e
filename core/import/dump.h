// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// What `stepscope dump PATH [--json]` writes: everything the model holds, in a stable order,
// for golden tests and for anyone checking an import (issue #3 item 10).

#include "model/session.h"

#include <nlohmann/json.hpp>

#include <string>

namespace stepscope::import {

/// {"origin_ns": session origin, "tracks": [{"rank", "kind", "process", "process_id",
/// "thread", "thread_id", "events": [{"name", "category", "ts_ns", "dur_ns", "depth",
/// "args"}]}], "flows": [{"from": [track, event], "to": [track, event], "category"}],
/// "counters": [{"rank", "process", "name", "key", "points": [[ts_ns, value]]}],
/// "steps": [{"rank", "step", "start_ns", "end_ns"}], "memory": [{"rank",
/// "category_points", "curves", "allocations", "modules"}], "diagnostics": [...]}.
///
/// Tracks of all ranks in rank order, then in each trace's track order; their index in
/// "tracks" is the track number flows refer to; events in track order (row by row). ts_ns is
/// absolute (trace origin + offset); dur_ns is null for an event that never ended; args is
/// the event's args object (null when it has none); ids as they appear in the file.
nlohmann::json dumpJson(const model::Session &session);

/// The same as text: one line per track, event, flow and counter point.
std::string dumpText(const model::Session &session);

} // namespace stepscope::import
