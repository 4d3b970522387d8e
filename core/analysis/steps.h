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
};

struct StepDetection
{
    std::vector<model::Step> steps; ///< sorted by start, non-overlapping
    StepSource source = StepSource::Empty;
};

/// Finds the training steps of one rank, in this order: the importer's trace.steps;
/// `ProfilerStep#N` ranges (deduplicated by number: the host copy wins over the
/// `gpu_user_annotation` copy); `Step N`/`Iteration N`/`step_num` ranges; steps inferred
/// from a repeated `Optimizer.step#…` (step k = end of optimizer k−1 .. end of optimizer k,
/// the first from the trace start); else one step over the whole trace. The last two add a
/// diagnostic (Info) to `report` when given. Never throws.
StepDetection detectStepsWithSource(const model::Trace &trace, model::LoadReport *report);
std::vector<model::Step> detectSteps(const model::Trace &trace, model::LoadReport *report);

} // namespace stepscope::analysis
