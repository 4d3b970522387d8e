// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "rankfolder.h"

#include "communication.h"
#include "kerneldetails.h"
#include "memoryfiles.h"
#include "opstatistic.h"
#include "profilerinfo.h"
#include "steptrace.h"
#include "traceview.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace stepscope::import::ascend {

namespace fs = std::filesystem;

namespace {

/// `name` in ASCEND_PROFILER_OUTPUT/ first, then in the folder itself.
std::optional<fs::path> findFile(const fs::path &rankDir, const char *name)
{
    std::error_code ec;
    for (const fs::path &p : {rankDir / "ASCEND_PROFILER_OUTPUT" / name, rankDir / name})
        if (fs::is_regular_file(p, ec))
            return p;
    return std::nullopt;
}

std::optional<fs::path> findProfilerInfo(const fs::path &rankDir)
{
    std::error_code ec;
    std::optional<fs::path> found;
    for (fs::directory_iterator it(rankDir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind("profiler_info", 0) == 0 && it->path().extension() == ".json"
            && it->is_regular_file(ec) && (!found || it->path() < *found))
            found = it->path();
    }
    return found;
}

std::int64_t earliestMemoryTime(const model::MemoryData &m)
{
    std::int64_t t = std::numeric_limits<std::int64_t>::max();
    for (const model::MemoryCurve &c : m.curves)
        if (!c.timestampsNs.empty())
            t = std::min(t, c.timestampsNs.front());
    for (const model::ModuleMemory &c : m.modules)
        if (!c.timestampsNs.empty())
            t = std::min(t, c.timestampsNs.front());
    for (const model::Allocation &a : m.allocations)
        t = std::min(t, a.allocatedNs);
    return t == std::numeric_limits<std::int64_t>::max() ? 0 : t;
}

} // namespace

bool readAscendRankFolder(const fs::path &rankDir, const ImportContext &ctx,
    model::TraceBuilder &out, const RankFolderOptions &options)
{
    model::Trace &trace = out.trace();
    std::vector<std::string> &sources = trace.metadata.sourceFiles;
    bool usable = false;
    auto stage = [&](const fs::path &p) {
        if (ctx.progress) {
            ctx.progress->checkCancel();
            ctx.progress->setStage("Reading " + ctx.relative(p));
        }
        sources.push_back(ctx.relative(p));
    };

    std::optional<std::int32_t> rank;
    if (const auto info = findProfilerInfo(rankDir)) {
        stage(*info);
        rank = readProfilerInfo(*info, ctx, trace.metadata);
    }
    if (const auto meta = findFile(rankDir, "profiler_metadata.json")) {
        stage(*meta);
        readProfilerMetadata(*meta, ctx, trace.metadata, trace.parallelGroups);
    }

    bool traceViewLoaded = false;
    if (options.kernelSource != KernelSource::KernelDetails) {
        if (const auto tv = findFile(rankDir, "trace_view.json")) {
            stage(*tv);
            traceViewLoaded = readTraceView(*tv, ctx, out);
            usable = usable || traceViewLoaded;
        }
    }
    if (rank)
        trace.rank = *rank;
    trace.metadata.rank = trace.rank;
    if (trace.metadata.format.empty())
        trace.metadata.format = "ascend";

    std::vector<KernelRow> kernels;
    if (const auto kd = findFile(rankDir, "kernel_details.csv")) {
        stage(*kd);
        kernels = readKernelDetails(*kd, ctx);
        for (const KernelRow &k : kernels)
            if (!k.deviceId.empty()) {
                trace.metadata.deviceId = k.deviceId;
                break;
            }
    }

    if (const auto st = findFile(rankDir, "step_trace_time.csv")) {
        stage(*st);
        std::string deviceId;
        trace.referenceSteps = readStepTraceTime(*st, ctx, trace.rank, &deviceId);
        if (trace.metadata.deviceId.empty())
            trace.metadata.deviceId = deviceId;
    }
    if (const auto f = findFile(rankDir, "op_statistic.csv")) {
        stage(*f);
        trace.opStatistics = readOpStatistic(*f, ctx);
    }
    if (const auto f = findFile(rankDir, "communication.json")) {
        stage(*f);
        trace.collectives = readCommunication(*f, ctx, trace.rank);
    }
    if (const auto f = findFile(rankDir, "communication_matrix.json")) {
        stage(*f);
        trace.commMatrix = readCommunicationMatrix(*f, ctx);
    }

    model::MemoryData memory;
    if (const auto f = findFile(rankDir, "memory_record.csv")) {
        stage(*f);
        memory.curves = readMemoryRecord(*f, ctx);
    }
    if (const auto f = findFile(rankDir, "operator_memory.csv")) {
        stage(*f);
        memory.allocations = readOperatorMemory(*f, ctx);
    }
    if (const auto f = findFile(rankDir, "npu_module_mem.csv")) {
        stage(*f);
        memory.modules = readNpuModuleMem(*f, ctx);
    }
    if (const auto f = findFile(rankDir, "static_op_mem.csv")) {
        stage(*f);
        memory.staticAllocations = readStaticOpMem(*f, ctx);
    }

    // The origin: trace_view's when it loaded, else the first device task, else memory.
    if (!traceViewLoaded) {
        if (!kernels.empty()) {
            trace.originNs = std::min_element(
                kernels.begin(), kernels.end(), [](const KernelRow &a, const KernelRow &b) {
                    return a.startNs < b.startNs;
                })->startNs;
        } else {
            trace.originNs = earliestMemoryTime(memory);
        }
    }
    if (!traceViewLoaded && !kernels.empty()) {
        addKernelTracks(kernels, out, trace.rank, ctx.options.keepArgs);
        usable = true;
    }
    shiftMemoryTimes(memory, trace.originNs);
    model::MemoryData &m = trace.memory;
    std::move(memory.curves.begin(), memory.curves.end(), std::back_inserter(m.curves));
    std::move(
        memory.allocations.begin(), memory.allocations.end(), std::back_inserter(m.allocations));
    std::move(memory.modules.begin(), memory.modules.end(), std::back_inserter(m.modules));
    std::move(memory.staticAllocations.begin(), memory.staticAllocations.end(),
        std::back_inserter(m.staticAllocations));

    usable = usable || !kernels.empty() || !trace.referenceSteps.empty()
        || !trace.opStatistics.empty() || !trace.collectives.empty() || !trace.commMatrix.empty()
        || !trace.memory.empty();
    if (!usable)
        ctx.error(rankDir, "no usable Ascend profiler file was found in this folder");
    return usable;
}

bool readAscendClusterFolder(
    const fs::path &clusterDir, const ImportContext &ctx, model::Session &session)
{
    std::error_code ec;
    auto present = [&](const char *name) -> std::optional<fs::path> {
        const fs::path p = clusterDir / name;
        if (!fs::is_regular_file(p, ec))
            return std::nullopt;
        if (ctx.progress) {
            ctx.progress->checkCancel();
            ctx.progress->setStage("Reading " + ctx.relative(p));
        }
        return p;
    };
    if (const auto f = present("cluster_step_trace_time.csv"))
        session.clusterSteps = readClusterStepTraceTime(*f, ctx);
    if (const auto f = present("cluster_communication.json"))
        session.clusterCollectives = readClusterCommunication(*f, ctx);
    if (const auto f = present("cluster_communication_matrix.json"))
        session.clusterMatrix = readClusterCommunicationMatrix(*f, ctx);
    if (const auto f = present("communication_group.json"))
        session.communicationGroups = readCommunicationGroups(*f, ctx);
    return !session.clusterSteps.empty() || !session.clusterCollectives.empty()
        || !session.clusterMatrix.empty() || !session.communicationGroups.empty();
}

} // namespace stepscope::import::ascend
