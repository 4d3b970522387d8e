// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Internal to nsys: what the table readers of one export share while it loads (strings,
// enums, process/thread/GPU names, the lanes made so far, and the runtime calls by
// correlation id that the device tables link to).
//
// Order (nsysfile.cpp): strings and enums, metadata and names, CUPTI_ACTIVITY_KIND_RUNTIME
// (fills `launches`), the device tables (kernel, memcpy, memset, sync: flows from
// `launches`), CUDA_GPU_MEMORY_USAGE_EVENTS, OSRT_API, PROFILER_OVERHEAD, NVTX_EVENTS
// (steps).

#include "import/importcontext.h"
#include "import/sqlite/argsjson.h"
#include "import/sqlite/database.h"
#include "import/sqlite/idstrings.h"
#include "model/tracebuilder.h"
#include "nsys.h"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace stepscope::import::nsys {

/// globalTid = vm << 48 | pid << 24 | tid (docs/formats.md §12.1).
inline std::int64_t pidOf(std::int64_t globalId)
{
    return static_cast<std::int64_t>((static_cast<std::uint64_t>(globalId) >> 24) & 0xffffffu);
}
inline std::int64_t tidOf(std::int64_t globalId)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(globalId) & 0xffffffu);
}
/// vm and pid: the process a row belongs to, whatever its thread.
inline std::int64_t processKey(std::int64_t globalId)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(globalId) >> 24);
}

/// One runtime call by (process, correlationId), sorted for the device tables' lookups.
struct Launch
{
    std::int64_t process = 0;
    std::int64_t correlation = 0;
    model::EventRef ref;
};

/// The kinds of host lane of one thread, in display order.
enum class HostLane : std::uint8_t { CudaApi, Nvtx, Osrt, Overhead };

struct NsysDb
{
    NsysDb(const sqlite::Database &database, const ImportContext &context,
        model::TraceBuilder &builder)
        : db(database)
        , ctx(context)
        , out(builder)
        , flowCategory(builder.intern("ac2g"))
    {
    }

    const sqlite::Database &db;
    const ImportContext &ctx;
    model::TraceBuilder &out;
    NsysCounts counts;
    model::StringId flowCategory; ///< "ac2g", Kineto's launch -> GPU flow category

    sqlite::IdStrings strings; ///< StringIds
    sqlite::IdStrings memcpyKinds; ///< ENUM_CUDA_MEMCPY_OPER.name (CUDA_MEMCPY_KIND_HTOD)
    sqlite::IdStrings memKinds; ///< ENUM_CUDA_MEM_KIND.label (Pageable, Device, ...)
    sqlite::IdStrings syncTypes; ///< ENUM_CUPTI_SYNC_TYPE.label
    sqlite::IdStrings eventTypes; ///< ENUM_NSYS_EVENT_TYPE.name (NvtxPushPopRange, ...)
    sqlite::IdStrings eventClasses; ///< ENUM_NSYS_EVENT_CLASS.label (CUDA runtime, ...)
    sqlite::ArgsJson args;

    std::unordered_map<std::int64_t, std::string> processNames; ///< processKey -> name
    std::unordered_map<std::int64_t, std::string> threadNames; ///< globalTid -> name
    std::map<std::int64_t, std::string> gpuNames; ///< TARGET_INFO_GPU.id -> name
    std::map<std::tuple<std::int64_t, std::int64_t>, std::int64_t> nullStreams; ///< (dev, ctx)

    std::map<std::pair<std::int64_t, HostLane>, model::TrackId> hostLanes;
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, model::TrackId> streamLanes;
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> streamContext; ///< first ctx
    std::map<std::int64_t, model::TrackId> syncLanes; ///< per device
    std::map<std::int64_t, model::TrackId> asyncNvtxLanes; ///< per process
    std::map<std::int64_t, std::uint64_t> deviceWork; ///< rows per device (the rank's GPU)

    std::vector<Launch> launches; ///< sorted by (process, correlation) after the runtime scan
    std::vector<std::int64_t> runtimeProcesses; ///< distinct processKeys of runtime rows
    std::int64_t maxEnd = std::numeric_limits<std::int64_t>::min();

    /// Set when the export holds several processes with GPU work: this trace is one of them.
    std::optional<std::int64_t> onlyProcess;

    bool keepArgs() const { return ctx.options.keepArgs; }
    /// A time column's value clamped to ±MaxTimeNs, so that the ends and durations made from
    /// it never overflow (a damaged or hostile file can hold any int64; real exports count ns
    /// from the session start). Clamped values are counted for one diagnostic.
    std::int64_t time(std::int64_t ns) const
    {
        if (ns >= -MaxTimeNs && ns <= MaxTimeNs)
            return ns;
        ++clampedTimes;
        return ns < 0 ? -MaxTimeNs : MaxTimeNs;
    }
    std::optional<std::int64_t> time(std::optional<std::int64_t> ns) const
    {
        return ns ? std::optional<std::int64_t>(time(*ns)) : std::nullopt;
    }
    static constexpr std::int64_t MaxTimeNs = std::int64_t {1} << 61; ///< ~73 years
    mutable std::uint64_t clampedTimes = 0;
    /// Device rows whose `end` is before their `start` (kept with no duration).
    std::uint64_t endsBeforeStart = 0;
    /// Kernels whose name id StringIds lacks (named by another of their names).
    std::uint64_t unknownNameIds = 0;
    /// Whether a row of `globalId` (globalPid or globalTid) belongs to this trace; rows
    /// without one belong to every trace.
    bool mine(std::optional<std::int64_t> globalId) const
    {
        return !onlyProcess || !globalId || processKey(*globalId) == *onlyProcess;
    }
    void seen(std::int64_t end)
    {
        if (end > maxEnd)
            maxEnd = end;
    }

    /// The lane of one thread's events of `kind`, made on first use.
    model::TrackId hostLane(std::int64_t globalTid, HostLane kind);
    /// The lane of one stream; `stream` 4294967295 never comes here (sync rows).
    model::TrackId streamLane(std::int64_t device, std::int64_t context, std::int64_t stream);
    model::TrackId syncLane(std::int64_t device);
    model::TrackId asyncNvtxLane(std::int64_t globalTid);
    /// The runtime call of (process of globalPid, correlation); nullptr when none.
    const Launch *launchOf(std::optional<std::int64_t> globalPid, std::int64_t correlation) const;
    /// Adds the ac2g flow from the call with that correlation id to `to`, if any.
    void linkLaunch(std::optional<std::int64_t> globalPid, std::optional<std::int64_t> correlation,
        model::EventRef to);
};

/// CUPTI_ACTIVITY_KIND_RUNTIME -> `CUDA API` lanes; fills p.launches.
void readRuntime(NsysDb &p);
/// CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY, _MEMSET -> stream lanes; _SYNCHRONIZATION ->
/// per-GPU `Synchronization` lanes. Flows from the runtime calls.
void readDeviceActivity(NsysDb &p);
/// OSRT_API -> `OS runtime` lanes; PROFILER_OVERHEAD -> `nsys overhead` lanes.
void readOsRuntime(NsysDb &p);
/// CUDA_GPU_MEMORY_USAGE_EVENTS -> one `CUDA` memory curve per GPU and the allocations.
void readGpuMemory(NsysDb &p);
/// NVTX_EVENTS -> `NVTX` lanes and `NVTX async` lanes; step markers into trace.steps.
void readNvtx(NsysDb &p);

} // namespace stepscope::import::nsys
