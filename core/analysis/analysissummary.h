// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "bottlenecks.h"
#include "breakdown.h"
#include "cluster.h"
#include "communication.h"
#include "kpis.h"
#include "memorycategories.h"
#include "model/session.h"
#include "ranks.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace stepscope::analysis {

/// Everything the analysis derives from a session, computed once (for the CLI and the GUI).
struct SessionAnalysis
{
    std::vector<StepBreakdown> breakdowns; ///< all ranks, by rank then step
    Kpis kpis;
    std::vector<MemorySummary> memory; ///< one per rank that has memory data
    std::optional<MemoryEstimate> estimate; ///< from the run config, even without memory data
    std::vector<Bottleneck> bottlenecks;
    RankTable ranks;
    std::vector<CollectiveRow> collectives;
    CommMatrix matrix;
    ClusterAnalysis cluster; ///< over all ranks (cluster.h)
    /// What the analysis had to assume (steps inferred from Optimizer.step#, one step over
    /// the whole trace): shown as `analysis_notes` / "Notes".
    model::LoadReport notes;
};
SessionAnalysis analyzeSession(const model::Session &session, const RunConfig &config);

/// Adds the analysis to the importer's summary object (issue 4 item 9): `steps` (array of
/// per-step objects with compute_us ... preparing_us, reference, tb_breakdown_us; rank and
/// step identify each), `kpis`, `bottlenecks`, `memory`, `ranks`, `communication`.
void addAnalysisToSummary(
    nlohmann::json &summary, const model::Session &session, const RunConfig &config);
void addAnalysisToSummary(nlohmann::json &summary, const SessionAnalysis &analysis);

/// The same as readable text tables for `stepscope summary`.
std::string analysisSummaryText(const model::Session &session, const RunConfig &config);
std::string analysisSummaryText(const SessionAnalysis &analysis);

} // namespace stepscope::analysis
