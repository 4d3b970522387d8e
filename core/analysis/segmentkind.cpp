// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "breakdown.h"

#include <array>

namespace stepscope::analysis {

namespace {

constexpr std::array<std::string_view, SegmentKindCount> Keys = {"compute", "comm_exposed",
    "comm_overlapped", "host_wait", "data_loading", "launch_gap", "other_idle", "bubble",
    "preparing"};
constexpr std::array<std::string_view, SegmentKindCount> Names = {"Compute (not overlapped)",
    "Communication (exposed)", "Communication (overlapped)", "Host wait", "Data loading",
    "Launch gaps", "Other idle", "Pipeline bubble", "Preparing"};

} // namespace

std::string_view segmentKindKey(SegmentKind kind)
{
    return Keys[static_cast<std::size_t>(kind)];
}

std::string_view segmentKindName(SegmentKind kind)
{
    return Names[static_cast<std::size_t>(kind)];
}

std::string_view figureKindName(SegmentKind kind)
{
    return kind == SegmentKind::Compute ? std::string_view("Compute") : segmentKindName(kind);
}

std::optional<SegmentKind> segmentKindFromKey(std::string_view key)
{
    for (std::size_t i = 0; i < Keys.size(); ++i) {
        if (Keys[i] == key)
            return static_cast<SegmentKind>(i);
    }
    return std::nullopt;
}

std::int64_t TbBreakdown::totalNs() const
{
    return kernelNs + memcpyNs + memsetNs + communicationNs + runtimeNs + dataLoaderNs + cpuExecNs
        + otherNs;
}

std::int64_t StepBreakdown::segmentNs(SegmentKind kind) const
{
    switch (kind) {
    case SegmentKind::Compute:
        return computeNs - commOverlappedNs;
    case SegmentKind::CommExposed:
        return commExposedNs;
    case SegmentKind::CommOverlapped:
        return commOverlappedNs;
    case SegmentKind::HostWait:
        return hostWaitNs;
    case SegmentKind::DataLoading:
        return dataLoadingNs;
    case SegmentKind::LaunchGap:
        return launchGapNs;
    case SegmentKind::OtherIdle:
        return otherIdleNs;
    case SegmentKind::Bubble:
        return bubbleNs;
    case SegmentKind::Preparing:
        return preparingNs;
    }
    return 0;
}

std::int64_t StepBreakdown::figureNs(SegmentKind kind) const
{
    return kind == SegmentKind::Compute ? computeNs : segmentNs(kind);
}

} // namespace stepscope::analysis
