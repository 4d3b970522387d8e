// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "bottlenecks.h"
#include "breakdown.h"
#include "deltarow.h"
#include "kpis.h"
#include "logdeltas.h"
#include "losscompare.h"
#include "memorycategories.h"
#include "model/session.h"
#include "model/trace.h"
#include "namestats.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::analysis {

struct SessionAnalysis; // analysissummary.h

// ---------------------------------------------------------------------------------------
// Step pairing: which step of "before" is shown against which step of "after".
// ---------------------------------------------------------------------------------------

enum class PairingMode : std::uint8_t {
    ByNumber, ///< equal step numbers (both runs number their steps and share some numbers)
    ByOrder, ///< i-th profiled step with i-th profiled step
    Manual, ///< the user picked one step on each side; neighbours follow by offset
};
std::string_view pairingModeName(PairingMode mode);

/// One pair: indices into the two step lists and the step numbers found there.
struct StepPair
{
    std::size_t beforeIndex = 0;
    std::size_t afterIndex = 0;
    std::int64_t beforeStep = 0;
    std::int64_t afterStep = 0;
};

/// The user's choice: step number `beforeStep` of "before" goes with `afterStep` of "after".
struct ManualAnchor
{
    std::int64_t beforeStep = 0;
    std::int64_t afterStep = 0;
};

/// Invariant: pairs sorted by beforeIndex, and afterIndex strictly increasing along them;
/// each index appears at most once.
struct StepPairing
{
    PairingMode mode = PairingMode::ByOrder;
    std::vector<StepPair> pairs;
    /// True when a manual anchor was asked for but one of its steps does not exist (the
    /// automatic pairing was used instead).
    bool anchorNotFound = false;

    /// The pair holding before-index i, or nullptr.
    const StepPair *findBefore(std::size_t beforeIndex) const;
    const StepPair *findAfter(std::size_t afterIndex) const;
};

/// Pairs two lists of step numbers (in profile order). Automatic: ByNumber when both lists
/// have unique numbers and share at least one (only shared numbers are paired) and
/// `byNumber`, else ByOrder over min(n, m) steps. With `anchor`: the anchored steps are
/// paired and the others by the same index offset (before[i + k] with after[j + k]).
StepPairing pairStepNumbers(const std::vector<std::int64_t> &before,
    const std::vector<std::int64_t> &after, std::optional<ManualAnchor> anchor = std::nullopt,
    bool byNumber = true);
StepPairing pairSteps(const std::vector<model::Step> &before, const std::vector<model::Step> &after,
    std::optional<ManualAnchor> anchor = std::nullopt);
/// Steps numbered by us on either side (StepOrigin other than Profiler) name no profiler
/// step: they are paired by order, never by number.
StepPairing pairSteps(const std::vector<StepBreakdown> &before,
    const std::vector<StepBreakdown> &after, std::optional<ManualAnchor> anchor = std::nullopt);

// ---------------------------------------------------------------------------------------
// Delta rows: before / after / delta / % with the direction that counts as better.
// ---------------------------------------------------------------------------------------

/// Better direction of a KPI key of kpis.h (step time, shares and memory lower; samples/s,
/// tokens/s, MFU higher).
Better kpiBetter(std::string_view key);
/// One row per KPI key present on either side, in "before"'s order then "after"'s extras.
std::vector<DeltaRow> kpiDeltaRows(const Kpis &before, const Kpis &after);

/// Rows for one pair of steps: step time then each segment kind, in us ("step_time_us",
/// "segment.<key>"). Every segment is better lower except Compute (Neither: doing the same
/// work faster shows in step time) and CommOverlapped (Higher: more hidden communication).
std::vector<DeltaRow> stepDeltaRows(const StepBreakdown &before, const StepBreakdown &after);
/// Same rows averaged over the paired steps (breakdowns of one rank per side, indices of
/// the pairing refer to these vectors). Empty when there is no pair.
std::vector<DeltaRow> meanStepDeltaRows(const std::vector<StepBreakdown> &before,
    const std::vector<StepBreakdown> &after, const StepPairing &pairing);

// ---------------------------------------------------------------------------------------
// Kernel and op deltas.
// ---------------------------------------------------------------------------------------

struct NameDelta
{
    std::string name;
    NameStats before;
    NameStats after;
    double deltaTotalNs = 0; ///< after - before, after normalisation (see options)
    bool onlyBefore = false;
    bool onlyAfter = false;
};

struct NameDeltaOptions
{
    OpScope scope = OpScope::DeviceKernels;
    std::size_t topN = 20;
    /// Events whose start lies in [first, second) (trace-relative ns) count; all when empty.
    std::optional<std::pair<std::int64_t, std::int64_t>> beforeWindow;
    std::optional<std::pair<std::int64_t, std::int64_t>> afterWindow;
    /// Totals are divided by these before the delta (e.g. the number of profiled steps of
    /// each side, to compare per step when the profiles cover different step counts).
    double beforeDivisor = 1;
    double afterDivisor = 1;
};

/// Invariants: `top` sorted by |deltaTotalNs| descending (ties by name), at most topN rows;
/// onlyBefore / onlyAfter sorted by their side's total descending (ties by name), complete.
struct NameDeltaTable
{
    std::vector<NameDelta> top;
    std::vector<NameDelta> onlyBefore;
    std::vector<NameDelta> onlyAfter;
    std::int64_t totalBeforeNs = 0; ///< all names in scope, before normalisation
    std::int64_t totalAfterNs = 0;
    std::size_t nameCountBefore = 0;
    std::size_t nameCountAfter = 0;
};

/// Kernel (or op) deltas between two traces.
NameDeltaTable nameDeltas(
    const model::Trace &before, const model::Trace &after, const NameDeltaOptions &options = {});

// ---------------------------------------------------------------------------------------
// Memory rows.
// ---------------------------------------------------------------------------------------

/// Peak allocated and reserved bytes, then each memory group at the peak ("memory.<key>"),
/// all better lower. Groups only when both sides have them.
std::vector<DeltaRow> memoryDeltaRows(const MemorySummary &before, const MemorySummary &after);
/// The peak of each memory group over time ("memory_peak.<key>", bytes, lower better); rows
/// only for groups seen on either side.
std::vector<DeltaRow> memoryGroupPeakRows(
    const MemoryGroupTimeline &before, const MemoryGroupTimeline &after);

// ---------------------------------------------------------------------------------------
// Everything the compare view shows, from two loaded sessions.
// ---------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------
// Which rank of each run is compared, and the per-rank deltas of two clusters.
// ---------------------------------------------------------------------------------------

/// How a side's rank was chosen.
enum class RankChoice : std::uint8_t {
    Slowest, ///< the default: defaultCompareRank (largest mean step time)
    Requested, ///< CompareOptions asked for it (picker, --rank / --before-rank / --after-rank)
};
std::string_view rankChoiceName(RankChoice choice); ///< "slowest", "requested"

/// The ranks of a run a comparison can show: every rank with step breakdowns or a trace,
/// ascending, each once.
std::vector<std::int32_t> comparableRanks(
    const model::Session &session, const SessionAnalysis &analysis);

/// One rank present in both runs: the mean over its paired steps (meanStepDeltaRows of that
/// rank's breakdowns, paired by pairSteps without anchor).
struct RankDelta
{
    std::int32_t rank = 0;
    std::size_t pairs = 0;
    std::vector<DeltaRow> rows; ///< "step_time_us" first, then "segment.<key>"
};

/// Rank × step matrix of step-time deltas (after − before, us) of the ranks both runs have.
/// Column c is before step number `steps[c]` (the union over ranks of their pairs' before
/// steps, ascending); a cell is empty (NaN) when that rank has no pair with that step.
struct RankStepDeltas
{
    std::vector<std::int32_t> ranks; ///< rows, ascending
    std::vector<std::int64_t> steps; ///< columns: before step numbers
    std::vector<double> deltaUs; ///< ranks.size() × steps.size(), row-major; NaN = no pair

    double at(std::size_t row, std::size_t column) const
    {
        return deltaUs[row * steps.size() + column];
    }
};

struct CompareOptions
{
    /// The rank of each side; default (or a rank the run does not have): the slowest rank,
    /// defaultCompareRank (cluster.h). RunComparison says which was used and why.
    std::optional<std::int32_t> beforeRank;
    std::optional<std::int32_t> afterRank;
    std::optional<ManualAnchor> anchor;
    std::size_t topN = 20;
};

/// Step lists, pairing and delta tables of one rank per side. Kernel and op deltas cover
/// the paired steps ([first paired start, last paired end) on each side) per paired step,
/// or the whole traces (divided by nothing) when no step pairs exist.
struct RunComparison
{
    std::int32_t beforeRank = 0; ///< the rank of "before" whose steps and kernels are compared
    std::int32_t afterRank = 0;
    RankChoice beforeRankChoice = RankChoice::Slowest;
    RankChoice afterRankChoice = RankChoice::Slowest;
    /// A requested rank the run does not have (the slowest rank was used instead).
    std::optional<std::int32_t> beforeRankMissing;
    std::optional<std::int32_t> afterRankMissing;
    std::vector<std::int32_t> beforeRanks; ///< comparableRanks of each run
    std::vector<std::int32_t> afterRanks;
    /// False when the compared rank has no trace (steps from the profiler's table only): no
    /// kernel, op or memory-over-time rows for that side.
    bool beforeHasTrace = false;
    bool afterHasTrace = false;
    /// A side whose steps are ours (StepOrigin Inferred or WholeTrace): what that means for
    /// the rows ("after: no step markers, so the whole capture (840 ms) is one step; …").
    std::vector<std::string> stepNotes;
    std::vector<StepBreakdown> beforeSteps;
    std::vector<StepBreakdown> afterSteps;
    /// False when a side's one step is its whole capture (StepOrigin::WholeTrace): its step
    /// time is the capture's, not a step's, and the gate does not judge step time or
    /// throughput.
    bool stepTimesComparable() const;
    StepPairing pairing;
    std::vector<DeltaRow> kpiRows; ///< whole sessions (all ranks), see kpiDeltaRows
    std::vector<DeltaRow> meanStepRows; ///< mean over the paired steps
    std::vector<std::vector<DeltaRow>> pairRows; ///< stepDeltaRows per pair, pairing order
    std::vector<DeltaRow> memoryRows; ///< memoryDeltaRows then memoryGroupPeakRows
    NameDeltaTable kernels;
    NameDeltaTable ops;
    bool perPairedStep = false; ///< kernel/op totals are per paired step
    std::vector<DeltaRow> bottleneckRows; ///< bottleneckDeltaRows of both analyses
    std::vector<Bottleneck> beforeBottlenecks; ///< each run's ranking, as analysed
    std::vector<Bottleneck> afterBottlenecks;
    /// Primary loss curves of both training logs (when both sides have one with a loss).
    std::optional<LossComparison> loss;
    std::vector<TrainingDelta> crossCheck; ///< both logs present (trainingDeltas)
    std::string beforeLogSource; ///< the logs' sources ("" = no log)
    std::string afterLogSource;
    /// Both runs clusters (two comparable ranks or more each): compareRanks.
    std::vector<RankDelta> rankDeltas; ///< ranks of both runs, ascending
    RankStepDeltas rankSteps;
    std::vector<std::int32_t> onlyBeforeRanks; ///< comparable in one run only
    std::vector<std::int32_t> onlyAfterRanks;

    bool bothClusters() const { return beforeRanks.size() > 1 && afterRanks.size() > 1; }
    /// Either run has several ranks: its KPIs then cover ranks the step rows do not
    /// (kpiScope, the Δ table's "whole runs" title, the compare view's KPI strip).
    bool anyCluster() const { return beforeRanks.size() > 1 || afterRanks.size() > 1; }
};

/// One side of a comparison: the loaded session, its analysis (analyzeSession, computed
/// once by the loader) and the training log found beside the profile (may be null).
struct CompareInput
{
    const model::Session *session = nullptr;
    const SessionAnalysis *analysis = nullptr;
    const model::TrainingLog *log = nullptr;
    std::uint32_t logRun = 0; ///< into log->runs: the run compared (mainTrainingRun's)
};

/// The only source of before/after rows (compare view, report, `compare --json`, Markdown).
/// Reads the breakdowns, KPIs, memory and bottlenecks of both analyses (no new breakdown
/// pass); scans the traces only for kernel / op names and memory groups over time. Never
/// throws; a session without traces gives empty tables. Null session or analysis: empty.
RunComparison compareRuns(
    const CompareInput &before, const CompareInput &after, const CompareOptions &options = {});
/// Same, analysing both sessions first (tests, callers without a loader).
RunComparison compareRuns(const model::Session &before, const model::Session &after,
    const RunConfig &beforeConfig, const RunConfig &afterConfig,
    const CompareOptions &options = {});

/// Per-rank deltas of two analyses (compareRuns calls it when both runs are clusters),
/// linear in the number of breakdowns: fills `rankDeltas`, `rankSteps`, `onlyBeforeRanks`
/// and `onlyAfterRanks` of `out` from its `beforeRanks` / `afterRanks`.
void compareRanks(RunComparison &out, const SessionAnalysis &before, const SessionAnalysis &after);

/// The loss part of a comparison (loss, crossCheck, the log sources) from the primary loss
/// of one run of each of two training logs; either log may be null (then only its source is
/// left empty).
void compareTrainingLogs(RunComparison &r, const model::TrainingLog *before,
    std::uint32_t beforeRun, const model::TrainingLog *after, std::uint32_t afterRun);

/// Bottleneck shares of both runs ("bottleneck.<key>", fraction): every kind either run
/// lists, in kind order; lower is better except compute efficiency (no direction).
std::vector<DeltaRow> bottleneckDeltaRows(
    const std::vector<Bottleneck> &before, const std::vector<Bottleneck> &after);

} // namespace stepscope::analysis
