// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The "steps" of `stepscope summary --json`: the importer's step objects with the analysis'
// breakdowns merged in. Built in one document for the tests and the library callers
// (mergeSteps), and written one step at a time by the CLI (writeSummaryJson): a 10 000-rank
// cluster has 200 000 steps, whose document alone took several hundred MB.

#include "breakdown.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <vector>

namespace stepscope::analysis {

/// One analysed step as `summary --json` lists it (rank, step, start_us, duration_us,
/// compute_us … preparing_us, basis, reference, tb_breakdown_us). start_us is null when no
/// timeline holds the step (StepBreakdown::startMeasured).
nlohmann::json stepJson(const StepBreakdown &b);

/// Merges the breakdowns into `summary["steps"]` (the importer's step objects): each
/// breakdown's fields go into the first importer step of its rank and step; an importer step
/// no breakdown matched gets `"left_out": true` (a partial last ProfilerStep the analysis
/// left out: no reader may take its missing breakdown for zeros); breakdowns without an
/// importer step are appended in their order. A `steps` that is no array: the breakdowns go
/// to `step_breakdown` instead.
void mergeSteps(nlohmann::json &summary, const std::vector<StepBreakdown> &breakdowns);

/// Writes `summary` (an object without "steps") as util::jsonText(…, 2) would, with "steps"
/// in its place: mergeSteps' result for the `importerSteps` importer step objects
/// (`importerStep(i)`, import::StepSummaries), built and written one step at a time. The
/// text is the same, byte for byte, as mergeSteps on those objects in one document.
void writeSummaryJson(std::ostream &out, const nlohmann::json &summary, std::size_t importerSteps,
    const std::function<nlohmann::json(std::size_t)> &importerStep,
    const std::vector<StepBreakdown> &breakdowns);

} // namespace stepscope::analysis
