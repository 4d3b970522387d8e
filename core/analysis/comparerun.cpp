// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// compareRuns: the rows of a whole comparison, from two analysed sessions (compare.h).
#include "analysissummary.h"
#include "compare.h"
#include "units.h"
#include "util/countof.h"
#include "util/joinfirst.h"
#include "warmup.h"

#include <algorithm>
#include <limits>
#include <map>

namespace stepscope::analysis {

namespace {

/// The rank a side shows: the requested one when the run has it, else the slowest.
std::int32_t chooseRank(const model::Session &session, const SessionAnalysis &analysis,
    const std::vector<std::int32_t> &ranks, std::optional<std::int32_t> requested,
    RankChoice &choice, std::optional<std::int32_t> &missing)
{
    if (requested) {
        if (std::binary_search(ranks.begin(), ranks.end(), *requested)) {
            choice = RankChoice::Requested;
            return *requested;
        }
        missing = requested;
    }
    choice = RankChoice::Slowest;
    return defaultCompareRank(session, analysis.breakdowns);
}

// [start of the first paired step, end of the last) on one side.
std::pair<std::int64_t, std::int64_t> pairedWindow(
    const std::vector<StepBreakdown> &steps, const StepPairing &pairing, bool before)
{
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const StepPair &p : pairing.pairs) {
        const StepBreakdown &s = steps[before ? p.beforeIndex : p.afterIndex];
        first = std::min(first, s.startNs);
        last = std::max(last, s.endNs);
    }
    return {first, last};
}

} // namespace

bool RunComparison::stepTimesComparable() const
{
    const auto wholeCapture = [](const std::vector<StepBreakdown> &steps) {
        return !steps.empty() && steps.front().origin == StepOrigin::WholeTrace;
    };
    return !wholeCapture(beforeSteps) && !wholeCapture(afterSteps);
}

void compareTrainingLogs(RunComparison &r, const model::TrainingLog *before,
    std::uint32_t beforeRun, const model::TrainingLog *after, std::uint32_t afterRun)
{
    r.loss.reset();
    r.crossCheck.clear();
    r.beforeLogSource.clear();
    r.afterLogSource.clear();
    if (before)
        r.beforeLogSource = before->source;
    if (after)
        r.afterLogSource = after->source;
    if (!before || !after)
        return;
    const model::LogSeries *sb = before->primaryLoss(beforeRun);
    const model::LogSeries *sa = after->primaryLoss(afterRun);
    if (sb && sa)
        r.loss = compareLoss(*sb, *sa);
    r.crossCheck = trainingDeltas(*before, beforeRun, *after, afterRun);
}

RunComparison compareRuns(
    const CompareInput &before, const CompareInput &after, const CompareOptions &options)
{
    RunComparison r;
    if (!before.session || !after.session || !before.analysis || !after.analysis)
        return r;
    const SessionAnalysis &ab = *before.analysis;
    const SessionAnalysis &aa = *after.analysis;
    r.kpiRows = kpiDeltaRows(ab.kpis, aa.kpis);
    r.beforeBottlenecks = ab.bottlenecks;
    r.afterBottlenecks = aa.bottlenecks;
    r.bottleneckRows = bottleneckDeltaRows(ab.bottlenecks, aa.bottlenecks);
    compareTrainingLogs(r, before.log, before.logRun, after.log, after.logRun);
    r.beforeRanks = comparableRanks(*before.session, ab);
    r.afterRanks = comparableRanks(*after.session, aa);
    r.beforeRank = chooseRank(*before.session, ab, r.beforeRanks, options.beforeRank,
        r.beforeRankChoice, r.beforeRankMissing);
    r.afterRank = chooseRank(
        *after.session, aa, r.afterRanks, options.afterRank, r.afterRankChoice, r.afterRankMissing);
    compareRanks(r, ab, aa);
    const model::Trace *tb = before.session->traceForRank(r.beforeRank);
    const model::Trace *ta = after.session->traceForRank(r.afterRank);
    r.beforeHasTrace = tb != nullptr;
    r.afterHasTrace = ta != nullptr;
    r.beforeSteps = breakdownsOfRank(ab, r.beforeRank);
    r.afterSteps = breakdownsOfRank(aa, r.afterRank);
    for (const auto &[steps, side] :
        {std::pair(&r.beforeSteps, "before"), std::pair(&r.afterSteps, "after")}) {
        if (steps->empty() || steps->front().origin == StepOrigin::Profiler)
            continue;
        if (steps->front().origin == StepOrigin::WholeTrace) {
            r.stepNotes.push_back(std::string(side) + ": no step markers, so the whole capture ("
                + formatDuration(steps->front().durationNs())
                + ") is one step; step time and throughput are not judged");
        } else {
            r.stepNotes.push_back(std::string(side) + ": no step markers; "
                + util::countOf(static_cast<std::int64_t>(steps->size()), "step", "steps")
                + " inferred from repeated Optimizer.step# ranges and numbered by StepScope, "
                  "so steps are paired by order");
        }
    }
    // The KPIs leave warm-up steps out (warmup.h); the step rows below pair them as measured.
    for (const auto &[analysis, side] : {std::pair(&ab, "before"), std::pair(&aa, "after")}) {
        std::map<std::int64_t, std::vector<std::int32_t>> warm;
        for (const StepBreakdown &b : analysis->breakdowns)
            if (b.warmUp)
                warm[b.step].push_back(b.rank);
        for (const auto &[step, ranks] : warm)
            r.stepNotes.push_back(std::string(side) + ": step " + std::to_string(step)
                + (ranks.size() == 1 ? " of rank " : " of ranks ") + util::joinFirst(ranks, 8)
                + " is a warm-up step (over " + std::to_string(static_cast<int>(WarmUpFactor))
                + " times the rank's median step): the KPIs and bottlenecks leave it out, the "
                  "step rows keep it");
    }
    r.pairing = pairSteps(r.beforeSteps, r.afterSteps, options.anchor);
    r.meanStepRows = meanStepDeltaRows(r.beforeSteps, r.afterSteps, r.pairing);
    for (const StepPair &p : r.pairing.pairs)
        r.pairRows.push_back(
            stepDeltaRows(r.beforeSteps[p.beforeIndex], r.afterSteps[p.afterIndex]));
    const MemorySummary *mb = memoryOfRank(ab, r.beforeRank);
    const MemorySummary *ma = memoryOfRank(aa, r.afterRank);
    if (mb || ma) {
        r.memoryRows = memoryDeltaRows(mb ? *mb : MemorySummary {}, ma ? *ma : MemorySummary {});
        if (tb && ta) {
            // The series the analyses computed (MemorySummary::groups), not a second pass.
            const MemoryGroupTimeline none;
            std::vector<DeltaRow> groupPeaks = memoryGroupPeakRows(
                mb && mb->groups ? *mb->groups : none, ma && ma->groups ? *ma->groups : none);
            r.memoryRows.insert(r.memoryRows.end(), groupPeaks.begin(), groupPeaks.end());
        }
    }
    if (!tb || !ta)
        return r; // steps from the profiler's table only: no kernels or ops to compare

    NameDeltaOptions kernelOptions;
    kernelOptions.topN = options.topN;
    if (!r.pairing.pairs.empty()) {
        r.perPairedStep = true;
        kernelOptions.beforeWindow = pairedWindow(r.beforeSteps, r.pairing, true);
        kernelOptions.afterWindow = pairedWindow(r.afterSteps, r.pairing, false);
        kernelOptions.beforeDivisor = static_cast<double>(r.pairing.pairs.size());
        kernelOptions.afterDivisor = static_cast<double>(r.pairing.pairs.size());
    }
    r.kernels = nameDeltas(*tb, *ta, kernelOptions);
    NameDeltaOptions opOptions = kernelOptions;
    opOptions.scope = OpScope::HostOps;
    r.ops = nameDeltas(*tb, *ta, opOptions);
    return r;
}

RunComparison compareRuns(const model::Session &before, const model::Session &after,
    const RunConfig &beforeConfig, const RunConfig &afterConfig, const CompareOptions &options)
{
    const SessionAnalysis ab = analyzeSession(before, beforeConfig);
    const SessionAnalysis aa = analyzeSession(after, afterConfig);
    return compareRuns({&before, &ab, nullptr}, {&after, &aa, nullptr}, options);
}

std::vector<DeltaRow> bottleneckDeltaRows(
    const std::vector<Bottleneck> &before, const std::vector<Bottleneck> &after)
{
    std::vector<DeltaRow> rows;
    for (int k = 0; k < BottleneckKindCount; ++k) {
        const auto kind = static_cast<BottleneckKind>(k);
        std::optional<double> b;
        std::optional<double> a;
        bool firstBefore = false;
        bool firstAfter = false;
        for (std::size_t i = 0; i < before.size(); ++i)
            if (before[i].kind == kind) {
                b = before[i].share;
                firstBefore = i == 0;
            }
        for (std::size_t i = 0; i < after.size(); ++i)
            if (after[i].kind == kind) {
                a = after[i].share;
                firstAfter = i == 0;
            }
        if (!b && !a)
            continue;
        std::string label(bottleneckKindName(kind));
        if (firstBefore && firstAfter)
            label += " (first before and after)";
        else if (firstBefore)
            label += " (first before)";
        else if (firstAfter)
            label += " (first after)";
        // Compute efficiency is 1 − MFU or the compute share: no direction for the latter.
        const Better better =
            kind == BottleneckKind::ComputeEfficiency ? Better::Neither : Better::Lower;
        rows.push_back(makeDeltaRow(
            "bottleneck." + std::string(bottleneckKindKey(kind)), label, "fraction", b, a, better));
    }
    return rows;
}

} // namespace stepscope::analysis
