// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Internal to ascenddb: what the readers of one profiler DB share while it loads (the
// string and enum tables, the trace origin, and the connection-id maps the flows need).
//
// Order (rankdb.cpp): strings and enums, origin, metadata, CANN_API, TASK (+ info tables),
// COMMUNICATION_OP, PYTORCH_API (+ CONNECTION_IDS), then steps, memory, counters. Flows are
// added as soon as both ends are known; events use provisional indices (TraceBuilder).

#include "import/importcontext.h"
#include "import/sqlite/argsjson.h"
#include "import/sqlite/database.h"
#include "import/sqlite/idstrings.h"
#include "model/tracebuilder.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::import::ascenddb {

/// An event and the connection id it carries.
struct ConnectionRef
{
    std::int64_t connection = 0;
    model::EventRef ref;
};

/// Sorts by connection (stable: rows of one connection keep their read order), unless the
/// entries already are.
void sortByConnection(std::vector<ConnectionRef> &refs);

struct ProfilerDb
{
    const sqlite::Database &db;
    const ImportContext &ctx;
    model::TraceBuilder &out;
    sqlite::IdStrings strings; ///< STRING_IDS
    sqlite::IdStrings apiTypes; ///< ENUM_API_TYPE: 20000 -> "acl", 50001 -> "op", ...
    std::int64_t originNs = 0;
    std::int32_t rank = 0;
    sqlite::ArgsJson args;

    /// CANN_API rows by connectionId (the column is the table's key, so the scan is in order;
    /// sorted once otherwise). Flat, one entry per row: no per-row allocation.
    std::vector<ConnectionRef> cannByConnection;
    /// Device events a host op's connection id leads to: kernels (TASK ⋈ COMPUTE_TASK_INFO)
    /// and HCCL ops (COMMUNICATION_OP); sorted by connection (stable) after readDeviceTasks.
    std::vector<ConnectionRef> deviceByConnection;

    /// The CANN_API row of a connection id (the first one), or nullptr.
    const model::EventRef *cannFor(std::int64_t connection) const;
    /// The device events of a connection id, in the order they were read.
    std::pair<const ConnectionRef *, const ConnectionRef *> devicesFor(
        std::int64_t connection) const;

    /// Time relative to the origin, clamped to ±MaxRelNs so that durations and ends built
    /// from such times never overflow (a damaged or hostile file can hold any int64; real
    /// ones are within days of the origin). Clamped values are counted for one diagnostic.
    std::int64_t rel(std::int64_t absNs) const
    {
        const bool low = absNs < 0 && originNs > 0 && absNs < originNs - MaxRelNs;
        const bool high = absNs > 0 && originNs < 0 && absNs > originNs + MaxRelNs;
        const std::int64_t r = low ? -MaxRelNs : high ? MaxRelNs : absNs - originNs;
        if (low || high || r < -MaxRelNs || r > MaxRelNs) {
            ++clampedTimes;
            return r < 0 ? -MaxRelNs : MaxRelNs;
        }
        return r;
    }
    /// end - start of two absolute times, as relative times, never negative.
    std::int64_t span(std::int64_t startNs, std::int64_t endNs) const
    {
        return std::max<std::int64_t>(0, rel(endNs) - rel(startNs));
    }
    static constexpr std::int64_t MaxRelNs = std::int64_t(1) << 61; ///< ~73 years
    mutable std::uint64_t clampedTimes = 0;
    bool keepArgs() const { return ctx.options.keepArgs; }
    model::StringId flowCategory(std::string_view name) { return out.intern(name); }
};

/// Event counts by table, for the load summary and the golden tests.
struct DeviceCounts
{
    std::uint64_t tasks = 0; ///< TASK rows placed on lanes (containers included)
    std::uint64_t containers = 0; ///< TASK rows that only wrap a subtask (not compute)
    std::uint64_t hcclTasks = 0; ///< TASK ⋈ COMMUNICATION_TASK_INFO rows on plane lanes
    std::uint64_t hcclOps = 0;
};

/// TASK ⋈ COMPUTE_TASK_INFO / COMMUNICATION_TASK_INFO -> stream and plane lanes;
/// COMMUNICATION_OP -> one lane per group. HostToDevice flows from CANN_API rows.
DeviceCounts readDeviceTasks(ProfilerDb &p);

/// CANN_API -> `CANN` lanes per (thread, level); fills cannByConnection.
std::uint64_t readCannApi(ProfilerDb &p);
/// PYTORCH_API -> `Python` lanes per thread; async_npu, async_task_queue and fwdbwd flows
/// through CONNECTION_IDS. Returns the rows placed; steps from `ProfilerStep#N` rows go to
/// profilerSteps.
std::uint64_t readPytorchApi(ProfilerDb &p, std::vector<model::Step> &profilerSteps);

/// MEMORY_RECORD (+ NPU_MEM app rows as APP), OP_MEMORY, NPU_MODULE_MEM -> trace.memory.
void readMemory(ProfilerDb &p);
/// AICORE_FREQ, HBM, LLC, ACC_PMU, SOC_BANDWIDTH_LEVEL, NPU_MEM -> trace.counters.
void readCounters(ProfilerDb &p);

/// analysis.db tables -> referenceSteps, collectives, commMatrix of the trace.
bool readAnalysisTables(
    const sqlite::Database &db, const ImportContext &ctx, model::Trace &trace, std::int32_t rank);

} // namespace stepscope::import::ascenddb
