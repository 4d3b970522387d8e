// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "bottlenecks.h"

#include "units.h"
#include "util/saturate.h"

#include <algorithm>
#include <array>
#include <functional>

namespace stepscope::analysis {

namespace {

constexpr std::array<std::string_view, BottleneckKindCount> Keys = {"data_loading",
    "exposed_communication", "host_bound", "pipeline_bubble", "memory_pressure",
    "compute_efficiency", "device_idle"};
constexpr std::array<std::string_view, BottleneckKindCount> Names = {"Data loading",
    "Exposed communication", "Host / launch bound", "Pipeline bubble", "Memory pressure",
    "Compute efficiency", "Device idle"};

/// A time-based bottleneck: its share over the traced steps (an untraced step measured
/// nothing of the device: its "preparing" is no finding; a warm-up step is no steady state)
/// and the step where it was worst.
Bottleneck timeShare(BottleneckKind kind, const std::vector<StepBreakdown> &steps,
    const std::function<std::int64_t(const StepBreakdown &)> &ns, std::string_view what)
{
    Bottleneck b;
    b.kind = kind;
    std::int64_t total = 0;
    std::int64_t part = 0;
    const StepBreakdown *worst = nullptr;
    double worstShare = -1;
    for (const auto &s : steps) {
        if (s.outsideShares() || s.warmUp)
            continue;
        total = util::satAdd(total, s.durationNs()); // damaged times: held at the limit
        part = util::satAdd(part, ns(s));
        if (s.durationNs() <= 0)
            continue;
        // The step that lost the most time to it (a truncated 49 us tail step that is 100 %
        // idle is not the evidence users need).
        const double share = static_cast<double>(ns(s)) / static_cast<double>(s.durationNs());
        if (!worst || ns(s) > ns(*worst) || (ns(s) == ns(*worst) && share > worstShare)) {
            worstShare = share;
            worst = &s;
        }
    }
    b.share = total > 0 ? static_cast<double>(part) / static_cast<double>(total) : 0.0;
    if (worst) {
        b.rank = worst->rank;
        b.step = worst->step;
        // A step without a step id (-1: the file numbered none) is named as such, not "Step -1".
        const std::string stepName = worst->step >= 0 ? "Step " + std::to_string(worst->step)
                                                      : std::string("The step without an id");
        b.evidence = stepName + " on rank " + std::to_string(worst->rank) + ": "
            + formatDuration(ns(*worst)) + " of " + formatDuration(worst->durationNs()) + " ("
            + formatShare(worstShare) + ") " + std::string(what) + ".";
    }
    return b;
}

} // namespace

std::string_view bottleneckKindKey(BottleneckKind k)
{
    return Keys[static_cast<std::size_t>(k)];
}

std::string_view bottleneckKindName(BottleneckKind k)
{
    return Names[static_cast<std::size_t>(k)];
}

constexpr double MinListedShare = 0.0005;

std::vector<Bottleneck> rankBottlenecks(const std::vector<StepBreakdown> &breakdowns,
    const std::vector<MemorySummary> *memory, const Kpis *kpis)
{
    std::vector<Bottleneck> out;
    out.push_back(timeShare(
        BottleneckKind::DataLoading, breakdowns,
        [](const StepBreakdown &s) { return s.dataLoadingNs; },
        "with the device idle waiting for input data (a DataLoader on the host, or a step "
        "trace's iteration interval)"));
    out.push_back(timeShare(
        BottleneckKind::ExposedCommunication, breakdowns,
        [](const StepBreakdown &s) { return s.commExposedNs; },
        "in communication not hidden by compute"));
    out.push_back(timeShare(
        BottleneckKind::HostBound, breakdowns,
        [](const StepBreakdown &s) {
            return util::satAdd(util::satAdd(s.hostWaitNs, s.launchGapNs), s.preparingNs);
        },
        "with the device waiting for the host (preparing, launch gaps, host work)"));
    out.push_back(timeShare(
        BottleneckKind::PipelineBubble, breakdowns,
        [](const StepBreakdown &s) { return s.bubbleNs; }, "waiting for pipeline receives"));
    Bottleneck idle = timeShare(
        BottleneckKind::DeviceIdle, breakdowns, [](const StepBreakdown &s) { return s.freeNs; },
        "with the device idle");
    std::int64_t total = 0;
    std::int64_t free = 0;
    std::int64_t unexplained = 0;
    for (const auto &s : breakdowns) {
        if (s.outsideShares() || s.warmUp)
            continue;
        total = util::satAdd(total, s.durationNs());
        free = util::satAdd(free, s.freeNs);
        unexplained = util::satAdd(unexplained, s.otherIdleNs);
    }
    // Idle that nothing on the host explains is a finding of its own when it dominates the
    // step, or when it is the largest loss found: widedeep's device idles 44 % of its steps
    // with nothing recorded, and "Host / launch bound 0.1 %" alone hid that.
    const double unexplainedShare =
        total > 0 ? static_cast<double>(unexplained) / static_cast<double>(total) : 0.0;
    const bool largestLoss = unexplainedShare >= UnexplainedIdleListed
        && std::all_of(out.begin(), out.end(),
            [&](const Bottleneck &b) { return b.share < unexplainedShare; });
    if (idle.share >= DeviceIdleDominates || largestLoss) {
        idle.evidence += " Host wait, data loading and launch gaps explain "
            + formatShare(
                free > 0 ? 1.0 - static_cast<double>(unexplained) / static_cast<double>(free) : 0.0)
            + " of the idle time; the rest is idle with nothing recorded on the host.";
        out.push_back(idle);
    }
    if (kpis) {
        const Kpi *mfu = kpis->find("mfu");
        if (mfu && mfu->value) {
            const double m = *mfu->value;
            Bottleneck b = timeShare(
                BottleneckKind::ComputeEfficiency, breakdowns,
                [](const StepBreakdown &s) { return s.computeNs; }, "in compute");
            b.share *= std::max(0.0, 1.0 - m);
            b.evidence += " MFU is " + formatShare(m) + ", so most compute time is below peak.";
            out.push_back(b);
        }
    }
    if (memory) {
        const MemorySummary *worst = nullptr;
        double worstShare = 0;
        for (const auto &m : *memory) {
            const auto peak = m.peakReservedBytes ? m.peakReservedBytes : m.peakAllocatedBytes;
            if (!peak || !m.deviceMemoryBytes || *m.deviceMemoryBytes <= 0)
                continue;
            const double share =
                static_cast<double>(*peak) / static_cast<double>(*m.deviceMemoryBytes);
            if (share > worstShare) {
                worstShare = share;
                worst = &m;
            }
        }
        // Memory only becomes a bottleneck near the capacity (allocator retries, smaller
        // batches, recomputation): reported from 90 % of device memory.
        if (worst && worstShare >= 0.9) {
            Bottleneck b;
            b.kind = BottleneckKind::MemoryPressure;
            b.share = worstShare;
            b.rank = worst->rank;
            const auto peak =
                worst->peakReservedBytes ? *worst->peakReservedBytes : *worst->peakAllocatedBytes;
            b.evidence = "Rank " + std::to_string(worst->rank) + " peaks at " + formatBytes(peak)
                + " of " + formatBytes(*worst->deviceMemoryBytes) + " device memory ("
                + formatShare(worstShare) + ").";
            out.push_back(b);
        }
    }
    // A share that reads "0.0 %" (under 0.05 %) is no finding: "#1 Data loading 0.0 %".
    out.erase(std::remove_if(out.begin(), out.end(),
                  [](const Bottleneck &b) { return !(b.share >= MinListedShare); }),
        out.end());
    std::stable_sort(out.begin(), out.end(),
        [](const Bottleneck &a, const Bottleneck &b) { return a.share > b.share; });
    return out;
}

} // namespace stepscope::analysis
