// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/loadreport.h"
#include "model/memory.h"
#include "model/trace.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::analysis {

struct RunConfig;

/// The seven memory categories users see (DESIGN.md order, bottom to top).
enum class MemoryGroup : std::uint8_t {
    Parameters,
    Gradients,
    OptimizerState,
    Activations,
    Temporary,
    CommunicationBuffers,
    Other,
};
inline constexpr int MemoryGroupCount = 7;
/// Every group in that order, for loops over the groups.
inline constexpr std::array<MemoryGroup, MemoryGroupCount> AllMemoryGroups = {
    MemoryGroup::Parameters,
    MemoryGroup::Gradients,
    MemoryGroup::OptimizerState,
    MemoryGroup::Activations,
    MemoryGroup::Temporary,
    MemoryGroup::CommunicationBuffers,
    MemoryGroup::Other,
};

/// "parameters", "gradients", "optimizer_state", "activations", "temporary",
/// "communication_buffers", "other".
std::string_view memoryGroupKey(MemoryGroup g);
std::string_view memoryGroupName(MemoryGroup g);
/// PyTorch categories map directly; Input → Activations, AutogradDetail and Unknown →
/// Other, CommunicationBuffer → CommunicationBuffers (docs/metrics.md "Memory categories").
MemoryGroup memoryGroupOf(model::MemoryCategory c);

/// The inference rule for an allocation without a profiler category (Ascend
/// operator_memory.csv, Kineto `[memory]`), given the step window it falls in:
/// HCCL/communication ops → CommunicationBuffers; optimizer ops (`_foreach_*`, `*optimizer*`,
/// `*adam*`, `*sgd*`) → OptimizerState; alive across the whole capture (allocated before
/// `captureStartNs` — the first step's start —, never released, or "(allocated before the
/// capture)") → Parameters; else lifetime > 10 % of the step → Activations (alive from
/// forward to backward), else Temporary.
MemoryGroup inferAllocationGroup(const model::Allocation &a, std::int64_t captureStartNs,
    std::int64_t captureEndNs, std::int64_t stepDurationNs);

/// Allocation lifetimes rebuilt from the importer's allocator events of device memory
/// (`trace.memory.allocatorEvents`, from Kineto `[memory]` instants): an allocation (positive
/// bytes) is paired with the next free (negative bytes) of the same address. `op` is the chain
/// of host ranges enclosing the allocation on its thread, outermost first, joined by " / " (so
/// the inference rules see `Optimizer.step#…` and `nccl:…` ancestors). Memory allocated before
/// the capture (the first event's total allocated minus its bytes, the total read from the
/// device curve's point at that event's time) becomes allocations at the
/// capture start named "(allocated before the capture)": those freed during the capture at
/// their free, the rest alive to the end. Empty when the trace has no allocator events.
/// `unmatchedFrees`, when given, counts the frees that matched no allocation of the capture.
std::vector<model::Allocation> allocationsFromMemoryEvents(
    const model::Trace &trace, std::size_t *unmatchedFrees = nullptr);

/// One row of the Memory panel's allocation table: an allocation with the group the group
/// series puts it in.
struct ListedAllocation
{
    model::Allocation allocation;
    MemoryGroup group = MemoryGroup::Other;
    bool inferred = false; ///< the group is the inference rule's, not the profiler's
};

/// The allocations a rank's group series sums, decided once with its groups: the trace's own
/// records (`trace.memory.allocations`, Ascend operator_memory) when it has any, else the pairs
/// of its `[memory]` events (allocationsFromMemoryEvents). A group is the profiler's category
/// where it gave one, else inferAllocationGroup's over the capture: from the first step's
/// start (else the first allocation) to the last time an allocation records, with the first
/// step's length. A trace of millions of events holds millions of allocations: `listed` keeps
/// the largest MaxListedAllocations (by size, then time), so memory stays bounded.
inline constexpr std::size_t MaxListedAllocations = 20'000;
struct AllocationGroups
{
    bool fromEvents = false;
    std::size_t count = 0; ///< allocations in all
    std::vector<ListedAllocation> listed; ///< largest first
    std::int64_t captureEndNs = 0; ///< the last time an allocation records
};
AllocationGroups groupAllocations(
    const model::Trace &trace, std::size_t maxListed = MaxListedAllocations);

/// Memory by group over time. Invariant: every bytes[g] has the timestamps' length and
/// totalBytes[i] == sum over g of bytes[g][i] at every point.
struct MemoryGroupTimeline
{
    std::vector<std::int64_t> timestampsNs;
    std::array<std::vector<std::int64_t>, MemoryGroupCount> bytes;
    std::vector<std::int64_t> totalBytes;
    bool inferred = false; ///< built from inference rules, not profiler categories
    std::string source; ///< "memory timeline", "operator_memory", "[memory] events"
};

/// The group series of a trace: from the PyTorch category timeline when present, else from
/// allocations (categories inferred where the profiler gave none) plus HCCL module memory,
/// else from the Kineto `[memory]` events (allocationsFromMemoryEvents). Empty when the trace
/// has none of them.
MemoryGroupTimeline memoryGroupTimeline(const model::Trace &trace);

/// Model-state estimate from the run config (bytes per parameter by precision/optimizer:
/// 16 for mixed-precision Adam = 2 weights + 4 master weights + 2 gradients... see docs).
struct MemoryEstimate
{
    double bytesPerParameter = 0;
    std::int64_t weightsBytes = 0;
    std::int64_t masterWeightsBytes = 0;
    std::int64_t gradientsBytes = 0;
    std::int64_t optimizerStateBytes = 0;
    std::int64_t totalBytes = 0;
    std::string rule; ///< one sentence: how it was derived
};
/// Empty when the config lacks `parameters`.
std::optional<MemoryEstimate> estimateModelMemory(const RunConfig &config);

/// Memory of one rank for the summary and the Memory panel.
struct MemorySummary
{
    std::int32_t rank = 0;
    std::optional<std::int64_t> peakAllocatedBytes; ///< max allocated over the curves
    std::optional<std::int64_t> peakReservedBytes;
    std::optional<std::int64_t> peakNs; ///< when the group total peaked
    /// Device memory capacity when the profile states it (Kineto deviceProperties
    /// totalGlobalMem via metadata.extra), for the memory-pressure bottleneck.
    std::optional<std::int64_t> deviceMemoryBytes;
    std::array<std::int64_t, MemoryGroupCount> byGroupAtPeak {};
    bool hasGroups = false;
    bool groupsInferred = false;
    /// The group series the peak was read from (memoryGroupTimeline, computed once here for
    /// the Memory panel and the compare); null when the trace has none. Shared: copies of the
    /// analysis (withRunConfig) do not copy it.
    std::shared_ptr<const MemoryGroupTimeline> groups;
    /// The allocations the group series sums, with their groups (the Memory panel's table,
    /// the largest MaxListedAllocations); null when the trace has none. Shared like `groups`.
    std::shared_ptr<const AllocationGroups> allocations;
    std::optional<MemoryEstimate> estimate;
    /// Measured peak minus the model-state estimate (what activations/temporaries took).
    std::optional<std::int64_t> nonModelStateBytes;
    /// Why the categories' peak is not the allocator's, said where both are shown: frees of
    /// `[memory]` events that match no allocation, or allocator memory that no record of
    /// the categories' source holds. Empty when they agree.
    std::string categoriesDisagree;
    /// The allocator's peak minus the categories' peak, when the categories' records hold
    /// clearly less (memory allocated before they begin, or by a component they do not
    /// cover): the part of the peak no category accounts for.
    std::optional<std::int64_t> notInCategoriesBytes;
};
/// With `notes`: a warning when the categories built from `[memory]` events peak above or
/// below the allocator's own Total Allocated (frees that match no allocation of the capture
/// are counted as memory allocated before it; the two then part).
MemorySummary summarizeMemory(
    const model::Trace &trace, const RunConfig &config, model::LoadReport *notes = nullptr);
/// One info note for the ranks whose allocator holds memory no allocation record does
/// (MemorySummary::notInCategoriesBytes): a cluster's every rank in one line, with the range of
/// the amounts and the first rank's figures.
void noteMemoryNotInCategories(const std::vector<MemorySummary> &memory, model::LoadReport &notes);
/// The run-config part of a summary (estimate, nonModelStateBytes) for a new config, without
/// reading the trace again.
void applyRunConfig(MemorySummary &summary, const RunConfig &config);

} // namespace stepscope::analysis
