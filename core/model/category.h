// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace stepscope::model {

/// What an event is, independent of the profiler that wrote it. Importers map their own
/// categories onto these; analysis and colours use only these.
enum class Category : std::uint8_t {
    Compute, ///< device kernel doing math
    Communication, ///< collective / p2p kernels, HCCL tasks and their plumbing
    Memcpy,
    Memset,
    HostOp, ///< framework operator on the host (aten op, MindSpore op)
    Runtime, ///< runtime / driver API, kernel launch
    DataLoading, ///< data loader and input pipeline
    Python, ///< Python stack frames
    Annotation, ///< user ranges, ProfilerStep, profiler's own analysis lanes
    Other,
};
inline constexpr int CategoryCount = 10;

/// Where a track's events come from; decides grouping and default order in the timeline.
enum class TrackKind : std::uint8_t {
    HostThread,
    DeviceStream,
    CommunicationGroup,
    Counter,
    Synthetic, ///< lanes a profiler computed itself, e.g. Ascend "Overlap Analysis"
};
inline constexpr int TrackKindCount = 5;

std::string_view categoryName(Category c);
std::optional<Category> categoryFromName(std::string_view name);
std::string_view trackKindName(TrackKind k);
std::optional<TrackKind> trackKindFromName(std::string_view name);

} // namespace stepscope::model
