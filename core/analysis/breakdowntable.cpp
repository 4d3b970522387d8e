// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "breakdowntable.h"

#include "steps.h"
#include "units.h"
#include "util/saturate.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace stepscope::analysis::detail {

namespace {

/// Splits `freeNs` in proportion to our idle parts; the rounding remainder goes to the
/// largest part, all of it to other idle when we measured no idle time.
IdleParts fitIdle(std::int64_t freeNs, const IdleParts &ours)
{
    std::array<std::int64_t, 4> parts = {
        ours.hostWaitNs, ours.dataLoadingNs, ours.launchGapNs, ours.otherIdleNs};
    std::int64_t sum = 0;
    for (auto p : parts)
        sum += std::max<std::int64_t>(p, 0);
    std::array<std::int64_t, 4> fitted {};
    if (sum <= 0) {
        fitted[3] = freeNs;
    } else {
        std::int64_t given = 0;
        std::size_t largest = 0;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            const double share =
                static_cast<double>(std::max<std::int64_t>(parts[i], 0)) / static_cast<double>(sum);
            fitted[i] = static_cast<std::int64_t>(std::floor(share * static_cast<double>(freeNs)));
            given += fitted[i];
            if (parts[i] > parts[largest])
                largest = i;
        }
        fitted[largest] += freeNs - given;
    }
    return IdleParts {fitted[0], fitted[1], fitted[2], fitted[3]};
}

TimelineFigures figuresOf(const StepBreakdown &b)
{
    TimelineFigures t;
    t.startNs = b.startNs;
    t.endNs = b.endNs;
    t.computeNs = b.computeNs;
    t.commExposedNs = b.commExposedNs;
    t.commOverlappedNs = b.commOverlappedNs;
    t.freeNs = b.freeNs;
    t.hostWaitNs = b.hostWaitNs;
    t.dataLoadingNs = b.dataLoadingNs;
    t.launchGapNs = b.launchGapNs;
    t.otherIdleNs = b.otherIdleNs;
    t.bubbleNs = b.bubbleNs;
    t.preparingNs = b.preparingNs;
    // The table's Preparing holds the data loading before the step's first device task, and
    // its Free none of it: so do our figures beside it (the lane draws that time as preparing).
    const std::int64_t prepData = (firstDeviceNs(b) - b.startNs) - b.preparingNs;
    if (prepData > 0) {
        t.preparingNs += prepData;
        t.dataLoadingNs -= prepData;
        t.freeNs -= prepData;
    }
    return t;
}

} // namespace

std::int64_t columnNs(const model::ReferenceStep &row, const char *key)
{
    const double *v = row.find(key);
    return v ? std::max<std::int64_t>(usToNs(*v), 0) : 0;
}

StepBreakdown tableBreakdown(const model::ReferenceStep &row, const model::Step &step,
    std::int32_t rank, const StepBreakdown *measured, const IdleParts &idle)
{
    StepBreakdown b;
    b.rank = rank;
    b.step = step.number;
    b.basis = BreakdownBasis::ProfilerTable;
    b.computeNs = columnNs(row, "Computing");
    b.commOverlappedNs = std::min(columnNs(row, "Overlapped"), b.computeNs);
    b.bubbleNs = columnNs(row, "Bubble");
    b.commExposedNs =
        std::max<std::int64_t>(columnNs(row, "Communication(Not Overlapped)") - b.bubbleNs, 0);
    b.freeNs = columnNs(row, "Free");
    b.preparingNs = columnNs(row, "Preparing");
    if (row.find("Stage"))
        b.stageNs = columnNs(row, "Stage");
    const IdleParts fitted = fitIdle(b.freeNs, idle);
    b.hostWaitNs = fitted.hostWaitNs;
    b.dataLoadingNs = fitted.dataLoadingNs;
    b.launchGapNs = fitted.launchGapNs;
    b.otherIdleNs = fitted.otherIdleNs;
    b.startNs = step.startNs;
    // A table that gives the step's total (MindSpore's) keeps it as the step's length, also
    // where its parts sum to more (the importer notes by how much); else the parts make it.
    if (row.find("total"))
        b.endNs = b.startNs + columnNs(row, "total");
    else
        b.endNs = b.startNs + b.preparingNs + b.computeNs + b.commExposedNs + b.bubbleNs + b.freeNs;
    if (measured) {
        b.timeline = figuresOf(*measured);
        b.deviceStartNs = measured->deviceStartNs;
        b.deviceEndNs = measured->deviceEndNs;
    } else if (b.endNs > b.startNs + b.preparingNs) {
        b.deviceStartNs = b.startNs + b.preparingNs;
        b.deviceEndNs = b.endNs;
    }
    return b;
}

void appendTableSegments(
    const StepBreakdown &b, std::vector<LaneSegment> &out, std::int64_t limitNs)
{
    // Preparing first: it is the wait from the step's start to its first device task
    // (deviceStartNs), as on a traced rank's lane; then the profiler's columns in their order.
    std::int64_t t = b.startNs;
    const auto drawn =
        b.startMeasured ? LaneSegment::Drawn::FromTable : LaneSegment::Drawn::FromTableOnly;
    for (SegmentKind kind : {SegmentKind::Preparing, SegmentKind::Compute, SegmentKind::CommExposed,
             SegmentKind::Bubble, SegmentKind::CommOverlapped, SegmentKind::HostWait,
             SegmentKind::DataLoading, SegmentKind::LaunchGap, SegmentKind::OtherIdle}) {
        const std::int64_t ns = std::min(b.segmentNs(kind), limitNs - t);
        if (ns <= 0)
            continue;
        out.push_back(LaneSegment {t, t + ns, kind, drawn, b.step});
        t += ns;
    }
}

bool timelineHoldsStep(const StepBreakdown &b)
{
    if (!b.timeline)
        return false;
    const std::int64_t table = b.computeNs + b.commExposedNs + b.commOverlappedNs;
    const TimelineFigures &t = *b.timeline;
    const std::int64_t ours = t.computeNs + t.commExposedNs + t.commOverlappedNs;
    return 2 * ours >= table;
}

std::optional<Disagreement> tableDisagreement(const StepBreakdown &b)
{
    if (!b.reference)
        return std::nullopt;
    const double stepUs = static_cast<double>(b.durationNs()) / 1000.0;
    const ReferenceCategory *worst = nullptr;
    for (const auto &c : b.reference->categories) {
        if (!worst || std::abs(c.differenceUs) > std::abs(worst->differenceUs))
            worst = &c;
    }
    if (!worst || stepUs <= 0 || std::abs(worst->differenceUs) <= 0.01 * stepUs)
        return std::nullopt;
    return Disagreement {b.step, b.reference->source, worst->column, stepUs, worst->oursUs,
        worst->referenceUs, worst->differenceUs, !timelineHoldsStep(b)};
}

std::vector<std::pair<std::string, std::string>> disagreementNotes(
    std::int32_t rank, const std::vector<Disagreement> &found)
{
    const auto ns = [](double us) { return formatDuration(util::saturatingRound(us * 1000.0)); };
    // Grouped by table and column, in the order first seen.
    std::vector<std::vector<const Disagreement *>> groups;
    for (const Disagreement &d : found) {
        auto g = std::find_if(groups.begin(), groups.end(), [&](const auto &group) {
            return group.front()->source == d.source && group.front()->column == d.column;
        });
        if (g == groups.end())
            groups.push_back({&d});
        else
            g->push_back(&d);
    }
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto &group : groups) {
        const Disagreement &first = *group.front();
        const std::string tail =
            "our timeline differs from " + first.source + " in `" + first.column + "` by ";
        const bool lane = std::any_of(
            group.begin(), group.end(), [](const Disagreement *d) { return d->laneFromTable; });
        const std::string figures = "timeline " + ns(first.oursUs) + ", table "
            + ns(first.referenceUs) + "); the table's numbers are shown"
            + (lane ? ", on the step lane too: the timeline holds under half of the step's "
                      "device time (a trimmed trace?)"
                    : "");
        if (group.size() == 1) {
            out.emplace_back(first.source,
                "rank " + std::to_string(rank) + " step " + std::to_string(first.step) + ": " + tail
                    + ns(first.differenceUs) + " ("
                    + formatShare(std::abs(first.differenceUs) / first.stepUs) + " of the step; "
                    + figures);
            continue;
        }
        double lo = first.differenceUs;
        double hi = first.differenceUs;
        double shareLo = std::abs(first.differenceUs) / first.stepUs;
        double shareHi = shareLo;
        for (const Disagreement *d : group) {
            lo = std::min(lo, d->differenceUs);
            hi = std::max(hi, d->differenceUs);
            shareLo = std::min(shareLo, std::abs(d->differenceUs) / d->stepUs);
            shareHi = std::max(shareHi, std::abs(d->differenceUs) / d->stepUs);
        }
        out.emplace_back(first.source,
            "rank " + std::to_string(rank) + ", " + std::to_string(group.size()) + " steps ("
                + std::to_string(first.step) + " to " + std::to_string(group.back()->step)
                + "): " + tail + ns(lo) + " to " + ns(hi) + " (" + formatShare(shareLo) + " to "
                + formatShare(shareHi) + " of the step; step " + std::to_string(first.step) + ": "
                + figures);
    }
    return out;
}

} // namespace stepscope::analysis::detail
