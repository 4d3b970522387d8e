// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Ascend (torch_npu / MindSpore >= 2.3) `ASCEND_PROFILER_OUTPUT/trace_view.json`
// (docs/formats.md §2.5): a bare array, `ts` strings of epoch µs with 3 decimals (read exactly).
//
// Tracks by process_name: "Ascend Hardware" -> DeviceStream; "HCCL" ->
// CommunicationGroup; "Overlap Analysis" -> Synthetic; "Python", "CANN" and anything else
// -> HostThread. Counter processes (AI Core Freq, HBM, LLC, NPU MEM, ...) -> counters.
// Categories:
//   Ascend Hardware tasks by args "Task Type": AI_CORE, AI_CPU, AI_VECTOR_CORE, MIX_* ->
//     Compute; Notify*, NOTIFY_*, Write Value, SDMA*, EVENT_*, REDUCE_*, PCIE_DMA_SQE ->
//     Communication; MEMCPY_ASYNC -> Memcpy; other task types -> Other
//   HCCL process (ops and plane sub-tasks) -> Communication
//   Overlap Analysis -> Annotation (the profiler's own lanes)
//   CANN process (AscendCL@, Runtime@, Node@, Hccl@...) -> Runtime
//   cat python_function -> Python; cat cpu_op -> HostOp ("enumerate(DataLoader)..." ->
//     DataLoading, "ProfilerStep#N" -> Annotation); enqueue/dequeue -> Runtime
//   anything else -> Other
// Steps from `ProfilerStep#N` host slices.

#include "import/importcontext.h"
#include "model/tracebuilder.h"

#include <cstdint>
#include <filesystem>

namespace stepscope::import::ascend {

/// Reads one rank's trace_view.json into `out` (metadata.format "ascend" when empty).
/// Never throws (except util::Cancelled); false when nothing usable was read.
bool readTraceView(
    const std::filesystem::path &path, const ImportContext &ctx, model::TraceBuilder &out);
/// The same, and counts into `computeTasks` the device-stream tasks of category Compute read.
bool readTraceViewCounting(const std::filesystem::path &path, const ImportContext &ctx,
    model::TraceBuilder &out, std::int64_t &computeTasks);

} // namespace stepscope::import::ascend
