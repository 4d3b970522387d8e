// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The ranks of `cluster_step_trace_time.csv` (docs/formats.md §2.4) as ranks of the session: a
// rank without its own folder becomes a trace-less Trace holding its rows as
// referenceSteps (its step table); a rank whose folder lacks a step of the cluster file gets
// that row added. A rank row that disagrees with the rank's own step_trace_time.csv by more
// than 0.01 % is reported (the rank's own file is kept). Rows that share no step with the
// rank folders' own step tables are another run's: the cluster summaries are dropped, said.

#include "import/importcontext.h"
#include "model/session.h"

namespace stepscope::import::ascend {

/// Call once the rank folders and the cluster folder are loaded, before the session is
/// shared (it completes traces in place). Linear in ranks + rows. Never throws.
void addClusterRanks(model::Session &session, const ImportContext &ctx);

} // namespace stepscope::import::ascend
