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
#include "namestats.h"
#include "ranks.h"
#include "util/progress.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace stepscope::analysis {

/// Everything the analysis derives from a session, computed once per load (the loader's
/// worker thread builds it; the panels, the timeline's step lane, the compare view, the
/// report and the CLI read it, shared as `std::shared_ptr<const SessionAnalysis>`). A plain
/// struct: later parts add members.
struct SessionAnalysis
{
    RunConfig config; ///< what the config-dependent parts were computed with
    std::vector<StepBreakdown> breakdowns; ///< all ranks, by rank then step
    /// Step-lane segments, one vector per session trace (same order as session.traces),
    /// from the same breakdown pass as `breakdowns`.
    std::vector<std::vector<LaneSegment>> lanes;
    Kpis kpis;
    std::vector<MemorySummary> memory; ///< one per rank that has memory data
    std::vector<KernelSummary> kernels; ///< one per rank that has device kernels
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
/// One breakdown pass per trace (computeBreakdownPass), then everything derived from it.
/// With `cancel`, the token is checked before each trace's pass and between the passes over
/// the session, and util::Cancelled is thrown once it is set (a window's Cancel while
/// "Preparing the timeline"): the analysis of a 20 GB trace takes over a minute.
SessionAnalysis analyzeSession(const model::Session &session, const RunConfig &config,
    const util::CancelToken *cancel = nullptr);
/// `previous` with a new run config: KPIs, memory estimates and bottlenecks recomputed from
/// the existing breakdowns (no new breakdown pass).
SessionAnalysis withRunConfig(
    const SessionAnalysis &previous, const model::Session &session, const RunConfig &config);
/// The breakdowns of one rank, in step order.
std::vector<StepBreakdown> breakdownsOfRank(const SessionAnalysis &analysis, std::int32_t rank);
/// The memory summary of one rank, nullptr when the rank has no memory data.
const MemorySummary *memoryOfRank(const SessionAnalysis &analysis, std::int32_t rank);
/// The device kernels of one rank, nullptr when the rank has none.
const KernelSummary *kernelsOfRank(const SessionAnalysis &analysis, std::int32_t rank);

/// Adds the analysis to the importer's summary object (issue 4 item 9): `steps` (array of
/// per-step objects with compute_us ... preparing_us, reference, tb_breakdown_us; rank and
/// step identify each; mergeSteps), `kpis`, `bottlenecks`, `memory`, `ranks`,
/// `communication`. Without `withSteps`, `steps` is left to writeSummaryJson
/// (summarysteps.h), which writes them one at a time.
void addAnalysisToSummary(
    nlohmann::json &summary, const model::Session &session, const RunConfig &config);
void addAnalysisToSummary(
    nlohmann::json &summary, const SessionAnalysis &analysis, bool withSteps = true);

/// The same as readable text tables for `stepscope summary`, with the training logs'
/// sections (trainingLogText). A session of training logs alone has no steps, KPIs or
/// bottlenecks: only the logs' sections are printed.
std::string analysisSummaryText(const model::Session &session, const RunConfig &config);
std::string analysisSummaryText(const model::Session &session, const SessionAnalysis &analysis);
/// The analysis' tables alone.
std::string analysisSummaryText(const SessionAnalysis &analysis);

} // namespace stepscope::analysis
