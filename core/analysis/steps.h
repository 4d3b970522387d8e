// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/loadreport.h"
#include "model/trace.h"

#include <cstdint>
#include <vector>

namespace stepscope::analysis {

/// How the steps of a trace were found.
enum class StepSource : std::uint8_t {
    Importer, ///< trace.steps as the importer filled them (format marks them)
    ProfilerStep, ///< `ProfilerStep#N` host ranges (CPU copy kept, GPU copy dropped)
    AscendStep, ///< `Step N` / `Iteration N` ranges (Ascend, CANN, MindSpore legacy)
    Optimizer, ///< inferred: one step ends at each repeated `Optimizer.step#…`
    WholeTrace, ///< none found: one span over the whole trace
    Empty, ///< the trace has no events and no steps
    ProfilerTable, ///< the rank's step table (step_trace_time.csv, a cluster row, analysis.db)
};

struct StepDetection
{
    std::vector<model::Step> steps; ///< sorted by start, non-overlapping
    StepSource source = StepSource::Empty;
    /// Source ProfilerTable only, parallel to steps: the step's table row (nullptr for a step
    /// of the timeline that the table does not list) and whether the step was found on the
    /// timeline (false: laid out from the table's durations, no timeline behind it).
    std::vector<const model::ReferenceStep *> rows;
    std::vector<bool> onTimeline;
};

/// A full step-table row: a rank's row holding `Computing` (not a cluster `stage` row).
bool isStepTableRow(const model::ReferenceStep &row);
/// The step's wall time by the table: Preparing + Computing + Communication(Not Overlapped)
/// + Free, in ns (= Preparing + Stage + Bubble within the profiler's rounding).
std::int64_t tableStepNs(const model::ReferenceStep &row);
/// us -> ns, rounded to the nearest ns.
std::int64_t usToNs(double us);

/// Finds the training steps of one rank. When the rank has a step table (isStepTableRow
/// rows), the table is the truth: one step per row with the row's id, at the window of the
/// timeline step with the same id (ProfilerStep#N keeps N), or of the single timeline step
/// when both have one; rows not on the timeline are laid out one after the other from the
/// end of the last timeline step (from 0 without a timeline) with the table's durations.
/// Timeline steps the table does not list are kept. Otherwise, in this order: the importer's
/// trace.steps (Kineto's host ProfilerStep#N: less a partial last step, as below);
/// `ProfilerStep#N` ranges (deduplicated by number: the host copy wins over the
/// `gpu_user_annotation` copy; a last one under a tenth of the others' median is the partial
/// step the profiler's stop closed, dropped with an Info note); `Step N`/`Iteration N`/`step_num`
/// ranges; steps inferred from a repeated `Optimizer.step#…` (step k = end of optimizer k−1 .. end
/// of optimizer k, the first from the trace start); else one step over the whole trace. The last
/// two add a diagnostic (Info) to `report` when given. Never throws.
StepDetection detectStepsWithSource(const model::Trace &trace, model::LoadReport *report);
std::vector<model::Step> detectSteps(const model::Trace &trace, model::LoadReport *report);

} // namespace stepscope::analysis
