// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "breakdown.h"
#include "kpis.h"
#include "memorycategories.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::analysis {

enum class BottleneckKind : std::uint8_t {
    DataLoading,
    ExposedCommunication,
    HostBound, ///< preparing + launch gaps + host wait: the device waits for the host
    PipelineBubble,
    MemoryPressure,
    ComputeEfficiency,
    /// The device runs nothing (free) for most of the step time, whatever the cause: listed
    /// when it dominates even if host, data and launch gaps explain little of it.
    DeviceIdle,
};
inline constexpr int BottleneckKindCount = 7;

/// The device-idle finding is listed from this share of step time (free / step time).
inline constexpr double DeviceIdleDominates = 0.5;
/// ... or from this share of idle time that nothing on the host explains (other idle), when
/// that is more than any other time-based finding's share.
inline constexpr double UnexplainedIdleListed = 0.1;

/// "data_loading", "exposed_communication", "host_bound", "pipeline_bubble",
/// "memory_pressure", "compute_efficiency", "device_idle".
std::string_view bottleneckKindKey(BottleneckKind k);
std::string_view bottleneckKindName(BottleneckKind k);

struct Bottleneck
{
    BottleneckKind kind = BottleneckKind::ComputeEfficiency;
    /// Share of step time (sum over all steps and ranks of the kind's time / sum of step
    /// times); for MemoryPressure the peak reserved / device memory (listed from 90 %), for
    /// ComputeEfficiency compute share × (1 − MFU) (listed only when MFU is known); for
    /// DeviceIdle free / step time (listed from DeviceIdleDominates; overlaps the host,
    /// data-loading and launch-gap kinds, which are parts of it).
    double share = 0;
    std::string evidence; ///< one sentence naming the step (and rank) that lost most time to it
    std::int32_t rank = 0;
    std::int64_t step = 0;
};

/// Ordered by share, largest first; kinds with no time at all are left out. `memory` and
/// `kpis` are optional inputs (nullptr: that kind is judged without them or left out).
/// Untraced and partly traced steps (StepBreakdown::outsideShares) and warm-up steps
/// (StepBreakdown::warmUp) are left out of every share and evidence.
std::vector<Bottleneck> rankBottlenecks(const std::vector<StepBreakdown> &breakdowns,
    const std::vector<MemorySummary> *memory = nullptr, const Kpis *kpis = nullptr);

} // namespace stepscope::analysis
