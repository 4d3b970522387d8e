// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/analysissummary.h"
#include "analysis/compare.h"
#include "analysis/compareoutput.h"
#include "analysis/convergence.h"
#include "analysis/losscompare.h"
#include "model/traininglog.h"
#include "ui/loading/profileloader.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace stepscope::ui::compare {

/// One run of one training log: what a side's loss curve is read from.
struct LogRun
{
    std::shared_ptr<const model::TrainingLog> log; ///< null: no log
    std::uint32_t run = 0; ///< into log->runs
};
/// The run of `logs` a comparison compares: analysis::mainTrainingRun's (the run with the
/// most loss points), which `stepscope compare` gates on; the first log when none has a loss.
LogRun mainLogRun(const std::vector<std::shared_ptr<const model::TrainingLog>> &logs);

/// One run of a comparison: the loaded profile (with the loader's analysis) and the
/// breakdowns of the rank the comparison shows (RunComparison::beforeRank / afterRank).
struct CompareSide
{
    LoadedProfile profile;
    std::shared_ptr<const analysis::SessionAnalysis> analysis; ///< = profile.analysis, not null
    /// Into session->traces: the trace of the compared rank; -1 when that rank has no trace
    /// (steps from the profiler's table only).
    int traceIndex = 0;
    /// Of that trace's rank, by step: the comparison's beforeSteps / afterSteps.
    std::vector<analysis::StepBreakdown> breakdowns;
    /// The training logs the load read (session->trainingLogs: the log opened, the logs
    /// beside a profile), else those findTrainingLogs finds beside the profile; may be empty.
    std::vector<std::shared_ptr<const model::TrainingLog>> logs;
    LogRun mainLog; ///< mainLogRun(logs): the run compared

    QString name() const; ///< folder name of the profile
    /// The compared rank's step-lane segments (empty without its trace or a timeline).
    const std::vector<timeline::StepLaneSegment> &stepSegments() const;
    /// Session-relative [start, end) of breakdown `index` (timeline coordinates).
    std::pair<std::int64_t, std::int64_t> stepWindow(std::size_t index) const;
};

/// Everything a comparison of two runs shows that does not depend on the user's choices
/// (pairing override, aligned pair, zoom): both sides and analysis::compareRuns of them with
/// the automatic pairing (KPI, step, memory, bottleneck, kernel / op and loss rows). Built
/// once off the GUI thread (build()), then shared immutable as
/// `std::shared_ptr<const CompareData>`; safe to read from any thread.
/// The rank each side is asked to show; empty: the slowest rank of that run.
struct CompareRanks
{
    std::optional<std::int32_t> before;
    std::optional<std::int32_t> after;
};

struct CompareData
{
    CompareSide before;
    CompareSide after;
    CompareRanks ranks; ///< as asked; comparison says which ranks were used
    analysis::RunComparison comparison; ///< automatic pairing, each side's mainLog
    /// The convergence band and gate limits (compare's --tolerance and --max-*): the report
    /// and the Loss tab judge the curves with the ones the gate used.
    analysis::TrainingThresholds thresholds;

    /// Uses each profile's analysis (a profile without one is analysed here with a default
    /// run config), reads the training logs beside each profile when `findLogs`, then
    /// compareRuns on the ranks of `choice`. Never throws.
    static std::shared_ptr<const CompareData> build(LoadedProfile before, LoadedProfile after,
        bool findLogs = true, CompareRanks choice = {},
        const analysis::TrainingThresholds &thresholds = {});
    /// The same runs and logs compared on other ranks (compareRuns again, nothing reloaded).
    std::shared_ptr<const CompareData> withRanks(CompareRanks choice) const;

    /// compareRuns again around `anchor` (empty: `comparison` itself), with the given logs
    /// (the Loss tab may replace them).
    analysis::RunComparison compare(std::optional<analysis::ManualAnchor> anchor,
        const LogRun &beforeLog, const LogRun &afterLog) const;
    /// Pairing of the shown ranks' steps, automatic or around `anchor`.
    analysis::StepPairing pairing(std::optional<analysis::ManualAnchor> anchor) const;
    /// Two training logs and no profile: neither side's session holds a trace, so the
    /// profile's views (timelines, steps, kernels) and report sections have nothing to show.
    bool logsOnly() const;
    /// What the outputs (JSON, Markdown, report) say about each run.
    analysis::CompareRunInfo beforeInfo() const;
    analysis::CompareRunInfo afterInfo() const;
};

/// The choice that makes a view of CompareData: pairing override and which pair is aligned.
/// A small ui-side value (STYLE.md §1: before/after pairing is view state).
struct CompareSelection
{
    std::optional<analysis::ManualAnchor> anchor;
    /// Into pairing.pairs: the aligned pair; empty = defaultPairIndex().
    std::optional<std::size_t> pairIndex;
};

/// The aligned pair of a selection, resolved to session-relative windows of both timelines.
struct AlignedPair
{
    bool valid = false;
    analysis::StepPair pair;
    std::int64_t beforeStartNs = 0; ///< session-relative (before's timeline)
    std::int64_t beforeEndNs = 0;
    std::int64_t afterStartNs = 0; ///< session-relative (after's timeline)
    std::int64_t afterEndNs = 0;
    std::int64_t longestNs() const
    {
        return std::max(beforeEndNs - beforeStartNs, afterEndNs - afterStartNs);
    }
};

/// The pair aligned when the user chose none: with an anchor the anchored pair; else the
/// second pair when there are at least three (the first profiled step of a capture often
/// carries warm-up work: the profiler starting, a first blocking copy), else the first.
std::size_t defaultPairIndex(
    const analysis::StepPairing &pairing, std::optional<analysis::ManualAnchor> anchor);

/// The selection's pair: its pairIndex or defaultPairIndex(), clamped to the pairs (0 when
/// there are none).
std::size_t selectedPairIndex(
    const analysis::StepPairing &pairing, const CompareSelection &selection);

/// The aligned pair: pairing.pairs[selectedPairIndex()]. Invalid when the
/// pairing is empty.
AlignedPair alignedPair(const CompareData &data, const analysis::StepPairing &pairing,
    const CompareSelection &selection);
/// Index of the pair of before step `beforeStep` (step number), else 0.
std::size_t pairIndexOf(const analysis::StepPairing &pairing, std::int64_t beforeStep);

/// Loss curves of the two runs for the Loss tab: the primary loss of each side's log; the
/// divergence figures and cross-check rows are analysis::compareTrainingLogs'.
struct LossOverlay
{
    QString beforeSource;
    QString afterSource;
    std::shared_ptr<const model::TrainingLog> beforeLog;
    std::shared_ptr<const model::TrainingLog> afterLog;
    const model::LogSeries *beforeSeries = nullptr; ///< into beforeLog
    const model::LogSeries *afterSeries = nullptr;
    std::optional<analysis::LossComparison> comparison; ///< both series present
    /// The verdict `stepscope compare` gives (smoothed curves, default tolerance): both logs.
    std::optional<analysis::Convergence> convergence;
    std::vector<analysis::TrainingDelta> crossCheck;

    bool hasAny() const { return beforeSeries || afterSeries; }
};
LossOverlay makeLossOverlay(
    const LogRun &before, const LogRun &after, const analysis::TrainingThresholds &thresholds = {});

/// Keys of the process lanes of `model` that hold no device stream (host threads only):
/// compare mode collapses them at first so the step lane and device streams of both runs
/// fit on screen and in the exported picture.
QStringList hostOnlyProcessKeys(const timeline::TimelineModel &model);

/// Reads a training log for the compare view (diagnostics into the log's own issue list);
/// nullptr when the file has no series.
std::shared_ptr<const model::TrainingLog> readLog(const QString &path);

} // namespace stepscope::ui::compare
