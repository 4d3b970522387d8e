// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "ids.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::model {

/// What a block of device memory holds. The first eight follow PyTorch's memory profiler;
/// CommunicationBuffer is ours (HCCL/NCCL buffers); Unknown is PyTorch's `None`.
enum class MemoryCategory : std::uint8_t {
    Parameter,
    OptimizerState,
    Input,
    Temporary,
    Activation,
    Gradient,
    AutogradDetail,
    Unknown,
    CommunicationBuffer,
};
inline constexpr int MemoryCategoryCount = 9;
std::string_view memoryCategoryName(MemoryCategory c);

/// Allocator totals over time for one component ("PTA", "APP", "GE", a CUDA device).
/// Invariant: timestamps sorted; every present vector has the timestamps' length; a value
/// of -1 means "not recorded at this point".
struct MemoryCurve
{
    std::string component;
    std::string device;
    std::vector<std::int64_t> timestampsNs;
    std::vector<std::int64_t> allocatedBytes;
    std::vector<std::int64_t> reservedBytes;
    std::vector<std::int64_t> activeBytes;
};

/// Memory by category over time (PyTorch memory timeline). bytes[c][i] is the total of
/// category c after event i. Invariant: every bytes[c] has the timestamps' length.
struct CategoryTimeline
{
    std::vector<std::int64_t> timestampsNs;
    std::array<std::vector<std::int64_t>, MemoryCategoryCount> bytes;
};

/// One allocation's lifetime (Ascend operator_memory, PyTorch memory events).
struct Allocation
{
    std::string op;
    std::int64_t sizeBytes = 0;
    std::int64_t allocatedNs = 0;
    std::int64_t releasedNs = -1; ///< -1: still alive at the end of the capture
    MemoryCategory category = MemoryCategory::Unknown;
    bool categoryInferred = false; ///< category came from a heuristic, not from the profiler
};

/// One device-memory allocator event as the profiler recorded it (Kineto `[memory]` instants
/// of Device Type 1): `bytes` at `addr` allocated (> 0) or freed (< 0). The analysis pairs
/// them into Allocations. Nothing here is kept twice, so each costs 24 bytes: its time is the
/// instant's start, and the allocator's total after it is the device curve's point at that
/// time. Host-memory instants are points of the "cpu" curve only.
struct AllocatorEvent
{
    EventRef event; ///< the instant on its host thread
    std::int64_t addr = 0;
    std::int64_t bytes = 0;
};

/// Reserved memory per module over time (Ascend npu_module_mem: HCCL, RUNTIME, APP...).
struct ModuleMemory
{
    std::string module;
    std::string device;
    std::vector<std::int64_t> timestampsNs;
    std::vector<std::int64_t> reservedBytes;
};

/// Static (graph-compiled) allocations.
struct StaticAllocation
{
    std::string op;
    std::string model;
    std::int64_t sizeBytes = 0;
};

struct MemoryData
{
    std::vector<MemoryCurve> curves;
    CategoryTimeline categories;
    std::vector<Allocation> allocations;
    std::vector<ModuleMemory> modules;
    std::vector<StaticAllocation> staticAllocations;
    /// Raw allocator events in (track, index) order; not counted by empty(): the curves
    /// built from the same events are.
    std::vector<AllocatorEvent> allocatorEvents;

    bool empty() const
    {
        return curves.empty() && categories.timestampsNs.empty() && allocations.empty()
            && modules.empty() && staticAllocations.empty();
    }
    /// Number of points over curves and the category timeline.
    std::uint64_t pointCount() const;
};

} // namespace stepscope::model
