// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The Nsight Systems SQLite export (`nsys export --type sqlite`, docs/formats.md §12).
//
// Lanes: one device lane per (GPU, context, stream) holding the CUPTI kernels, memcpys and
// memsets of that stream, one `Synchronization` lane per GPU (CUPTI sync rows carry no
// stream); per host thread a `CUDA API` lane (CUPTI_ACTIVITY_KIND_RUNTIME, runtime and
// driver calls), an `OS runtime` lane (OSRT_API) and an `NVTX` lane (push/pop ranges and
// marks); start/end NVTX ranges, which may end on another thread, on one `NVTX async` lane
// per process. Runtime calls link to the device work they caused (`ac2g` flows, as in
// Kineto) on (process, correlationId).
//
// Categories (as the Kineto reader, so breakdown, KPIs and compare agree across the two):
// kernels compute, or communication for NCCL/RCCL kernels (cuda::kernelCategory); memcpy;
// memset; CUDA API runtime; sync rows runtime (on the device lane, so never counted as
// compute); OS runtime other; NVTX annotation. Kernels are named by `demangledName` (what
// Kineto shows), with `shortName` in the args. Runtime names lose their `_v<N>` version
// suffix (`cudaLaunchKernel_v7000` -> `cudaLaunchKernel`).
//
// Memory (only with `nsys profile --cuda-memory-usage=true`): CUDA_GPU_MEMORY_USAGE_EVENTS
// gives one `CUDA` curve per GPU (`cuda:<id>`, allocated bytes over time) and the
// allocations with their lifetimes.
//
// Steps: NVTX ranges named `ProfilerStep#N` (or, when there is none, `Step N`, `step_N`,
// `Iteration N`, ...) become trace.steps with id N.
//
// Ranks: one per file, or, when the file holds several processes that ran kernels, one per
// process (readNsysFile's `process`); the loader plans them (devicePrograms()).
//
// Times are int64 ns exactly as written, relative to the session start
// (TARGET_INFO_SESSION_START_TIME.utcEpochNs, the trace origin); events before it keep
// their negative times. Tables are created lazily: an absent table means "not collected"
// and is listed in one Info diagnostic; a damaged table or a missing column gives a
// diagnostic naming the file and the table, and the rest loads.

#include "import/importcontext.h"
#include "import/onefile.h"
#include "model/tracebuilder.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace stepscope::import::nsys {

/// Rows placed on lanes, by table (for the load summary and the golden tests).
struct NsysCounts
{
    std::uint64_t kernels = 0;
    std::uint64_t memcpys = 0;
    std::uint64_t memsets = 0;
    std::uint64_t syncs = 0;
    std::uint64_t runtime = 0;
    std::uint64_t osrt = 0;
    std::uint64_t nvtx = 0;
    std::uint64_t overhead = 0;
    std::uint64_t flows = 0;
    std::uint64_t total() const
    {
        return kernels + memcpys + memsets + syncs + runtime + osrt + nvtx + overhead;
    }
};

/// Reads one export into `out`. False when the file could not be opened or held no event.
/// Never throws except util::Cancelled. `counts`, when given, receives the rows placed;
/// `rank` (one report per rank, `report.%q{OMPI_COMM_WORLD_RANK}`) is the trace's rank.
/// `process` (a key from devicePrograms()) keeps only that process's rows: one rank of an
/// export holding several (`nsys profile torchrun ...`).
bool readNsysFile(const std::filesystem::path &file, const ImportContext &ctx,
    model::TraceBuilder &out, NsysCounts *counts = nullptr,
    std::optional<std::int32_t> rank = std::nullopt,
    std::optional<std::int64_t> process = std::nullopt);

/// The processes (vm << 24 | pid) whose rows fill CUPTI_ACTIVITY_KIND_KERNEL, sorted; empty
/// when the file does not open or has no kernel with a globalPid. One query (the loader
/// plans one rank per process when there are several).
std::vector<std::int64_t> devicePrograms(const std::filesystem::path &file);

/// The step number an NVTX range name marks: `ProfilerStep#N` (primary) or a user's step
/// marker (`Step N`, `Step#N`, `step_N`, `step=N`, `Iteration N`, `iteration_N`, `iter N`,
/// case-insensitive; secondary). The whole name must be the marker.
struct StepMarker
{
    std::int64_t number = 0;
    bool profilerStep = false;
};
std::optional<StepMarker> stepMarker(std::string_view name);

/// `cudaLaunchKernel_v7000` -> `cudaLaunchKernel`; other names unchanged.
std::string_view stripVersionSuffix(std::string_view name);

/// For fuzzers and tools: one file in, the finished trace and the diagnostics out.
struct FileResult : OneFileResult
{
    NsysCounts counts;
};
FileResult readNsysPath(const std::filesystem::path &file, bool keepArgs = true);

} // namespace stepscope::import::nsys
