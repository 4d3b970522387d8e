// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The step list of `stepscope summary`'s text: each rank's steps with their start and
// duration, the figures `summary --json` gives in "steps" (a step's start as the trace marks
// it, its duration the analysis's: the profiler's table where it wrote one).

#include "analysissummary.h"
#include "model/session.h"

#include <string>

namespace stepscope::analysis {

/// "rank R steps (N):" and a line per step, in the importer's order, then any analysed step
/// the trace does not mark (a table row beyond the timeline). A step the analysis left out
/// keeps its span on the timeline and says so.
std::string stepListText(const model::Session &session, const SessionAnalysis &analysis);

} // namespace stepscope::analysis
