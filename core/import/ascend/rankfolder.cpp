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
#include "util/regularfile.h"
#include "util/saturate.h"

#include <algorithm>
#include <limits>
#include <map>
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

/// Reads the optional files of one rank folder; `stage` names each file before it is read.
class RankFolderReader
{
public:
    RankFolderReader(const fs::path &rankDir, const ImportContext &ctx, model::Trace &trace)
        : m_dir(rankDir)
        , m_ctx(ctx)
        , m_trace(trace)
    {
    }

    /// The file if present, after announcing it (stage name, source list, cancel check).
    std::optional<fs::path> open(const char *name)
    {
        std::optional<fs::path> p = findFile(m_dir, name);
        if (p)
            announce(*p);
        else
            reportSpecial(name);
        return p;
    }

    /// A FIFO, socket or device where the file should be: skipped, and said so.
    void reportSpecial(const char *name) const
    {
        for (const fs::path &p : {m_dir / "ASCEND_PROFILER_OUTPUT" / name, m_dir / name}) {
            std::error_code ec;
            if (fs::exists(fs::symlink_status(p, ec)))
                if (const std::string why = util::whyNotRegular(p); !why.empty())
                    m_ctx.warn(p, "skipped: " + why);
        }
    }

    void announce(const fs::path &p)
    {
        if (m_ctx.progress) {
            m_ctx.progress->checkCancel();
            m_ctx.progress->setStage("Reading " + m_ctx.relative(p));
        }
        m_trace.metadata.sourceFiles.push_back(m_ctx.relative(p));
    }

    std::optional<std::int32_t> readRunInfo()
    {
        std::optional<std::int32_t> rank;
        if (const auto info = findProfilerInfo(m_dir)) {
            announce(*info);
            rank = readProfilerInfo(*info, m_ctx, m_trace.metadata);
        }
        if (const auto meta = open("profiler_metadata.json"))
            readProfilerMetadata(*meta, m_ctx, m_trace.metadata, m_trace.parallelGroups);
        return rank;
    }

    void readSummaries()
    {
        if (const auto f = open("step_trace_time.csv")) {
            std::string deviceId;
            m_trace.referenceSteps = readStepTraceTime(*f, m_ctx, m_trace.rank, &deviceId);
            if (m_trace.metadata.deviceId.empty())
                m_trace.metadata.deviceId = deviceId;
        }
        if (const auto f = open("op_statistic.csv"))
            m_trace.opStatistics = readOpStatistic(*f, m_ctx);
        if (const auto f = open("communication.json")) {
            m_trace.collectives = readCommunication(*f, m_ctx, m_trace.rank);
            m_trace.collectivesSource = "communication.json";
        }
        if (const auto f = open("communication_matrix.json")) {
            m_trace.commMatrix = readCommunicationMatrix(*f, m_ctx);
            m_trace.commMatrixSource = "communication_matrix.json";
        }
    }

    /// Memory files with absolute times (shifted once the origin is known).
    model::MemoryData readMemory()
    {
        model::MemoryData memory;
        if (const auto f = open("memory_record.csv"))
            memory.curves = readMemoryRecord(*f, m_ctx);
        if (const auto f = open("operator_memory.csv"))
            memory.allocations = readOperatorMemory(*f, m_ctx);
        if (const auto f = open("npu_module_mem.csv"))
            memory.modules = readNpuModuleMem(*f, m_ctx);
        if (const auto f = open("static_op_mem.csv"))
            memory.staticAllocations = readStaticOpMem(*f, m_ctx);
        return memory;
    }

private:
    fs::path m_dir;
    const ImportContext &m_ctx;
    model::Trace &m_trace;
};

/// Advances progress by the size of every file below rankDir that was not read (raw PROF_*
/// data, operator_details.csv, ...): the loader's total counts the whole folder.
/// cluster_analysis_output/ is skipped: the cluster reader counts it.
void advancePastUnreadFiles(
    const fs::path &rankDir, const ImportContext &ctx, const std::vector<std::string> &readFiles)
{
    if (!ctx.progress)
        return;
    std::uint64_t unread = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(rankDir, ec), end; !ec && it != end;
         it.increment(ec)) {
        std::error_code fec;
        if (it.depth() > 6
            || (it->is_directory(fec) && it->path().filename() == "cluster_analysis_output")) {
            it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file(fec))
            continue;
        if (std::find(readFiles.begin(), readFiles.end(), ctx.relative(it->path()))
            != readFiles.end())
            continue;
        const std::uintmax_t size = it->file_size(fec);
        if (!fec)
            unread += static_cast<std::uint64_t>(size);
    }
    ctx.progress->advance(unread);
}

template <typename T> void appendAll(std::vector<T> &to, std::vector<T> &&from)
{
    std::move(from.begin(), from.end(), std::back_inserter(to));
}

/// Steps from kernel_details.csv's `Step Id` where nothing else marks them (no trace_view.json,
/// no step_trace_time.csv): each from its first kernel's start to its last kernel's end,
/// relative to `originNs`. Empty when no row has a step id, or when the steps' kernels
/// interleave (the ids then say nothing about time).
std::vector<model::Step> stepsFromKernelIds(
    const std::vector<KernelRow> &kernels, std::int64_t originNs)
{
    std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> spans; // id -> [start, end)
    for (const KernelRow &k : kernels) {
        if (k.step < 0)
            continue;
        const std::int64_t end = util::satAdd(k.startNs, k.durationNs);
        const auto [it, fresh] = spans.try_emplace(k.step, k.startNs, end);
        if (!fresh) {
            it->second.first = std::min(it->second.first, k.startNs);
            it->second.second = std::max(it->second.second, end);
        }
    }
    std::vector<model::Step> steps;
    for (const auto &[id, span] : spans) {
        if (!steps.empty() && span.first < util::satAdd(steps.back().endNs, originNs))
            return {};
        steps.push_back(model::Step {
            id, util::satSub(span.first, originNs), util::satSub(span.second, originNs)});
    }
    return steps;
}

/// kernel_details.csv lists every kernel of the run; a timeline holding fewer of them (a
/// trace_view.json cut short or trimmed, or the files of two runs) is said, since the Kernels
/// panel and the breakdown count the timeline's.
void noteKernelsMissingFromTimeline(std::int64_t drawn, const std::vector<KernelRow> &rows,
    const fs::path &kernelFile, const ImportContext &ctx)
{
    // Its rows but the HCCL operators': what trace_view.json types as compute tasks.
    const auto listed = std::count_if(
        rows.begin(), rows.end(), [](const KernelRow &k) { return !k.isCommunication(); });
    if (drawn >= listed)
        return;
    ctx.warn(kernelFile,
        "lists " + std::to_string(listed) + " kernels, and the timeline of "
            + "trace_view.json holds " + std::to_string(drawn)
            + " (a trace_view.json cut short or trimmed, or files of two runs?): the "
              "timeline, the Kernels panel and the step breakdown's own figures count the "
              "timeline's");
}

} // namespace

bool readAscendRankFolder(const fs::path &rankDir, const ImportContext &ctx,
    model::TraceBuilder &out, const RankFolderOptions &options)
{
    model::Trace &trace = out.trace();
    RankFolderReader reader(rankDir, ctx, trace);
    const std::optional<std::int32_t> rank = reader.readRunInfo();

    bool traceViewLoaded = false;
    bool triedTraceView = false; // a trace view was there (loaded or not: its diagnostics say)
    std::int64_t computeTasks = 0;
    if (options.kernelSource != KernelSource::KernelDetails) {
        std::optional<fs::path> tv;
        if (!options.traceView.empty()) {
            tv = options.traceView;
            reader.announce(*tv);
        } else {
            tv = reader.open("trace_view.json");
            if (!tv)
                tv = reader.open("trace_view.json.gz"); // gzipped to be moved: read as it is
        }
        if (tv)
            traceViewLoaded = readTraceViewCounting(*tv, ctx, out, computeTasks);
        triedTraceView = tv.has_value();
    }
    if (rank)
        trace.rank = *rank;
    trace.metadata.rank = trace.rank;
    if (trace.metadata.format.empty())
        trace.metadata.format = "ascend";

    std::vector<KernelRow> kernels;
    const std::optional<fs::path> kernelFile = reader.open("kernel_details.csv");
    if (kernelFile)
        kernels = readKernelDetails(*kernelFile, ctx);
    const auto withDevice = std::find_if(
        kernels.begin(), kernels.end(), [](const KernelRow &k) { return !k.deviceId.empty(); });
    if (withDevice != kernels.end())
        trace.metadata.deviceId = withDevice->deviceId;
    if (traceViewLoaded && kernelFile)
        noteKernelsMissingFromTimeline(computeTasks, kernels, *kernelFile, ctx);
    reader.readSummaries();
    model::MemoryData memory = reader.readMemory();

    // The origin: trace_view's when it loaded, else the first device task, else memory.
    if (!traceViewLoaded) {
        const auto first = std::min_element(kernels.begin(), kernels.end(),
            [](const KernelRow &a, const KernelRow &b) { return a.startNs < b.startNs; });
        trace.originNs = first != kernels.end() ? first->startNs : earliestMemoryTime(memory);
        if (!kernels.empty())
            addKernelTracks(kernels, out, trace.rank, ctx.options.keepArgs);
        if (!kernels.empty() && options.kernelSource == KernelSource::Auto && !triedTraceView)
            ctx.info(*kernelFile,
                "no trace_view.json (or .json.gz) in this folder: the timeline holds the device "
                "tasks of this file only (no host side, no flows)");
        if (trace.steps.empty() && trace.referenceSteps.empty()) {
            trace.steps = stepsFromKernelIds(kernels, trace.originNs);
            if (!trace.steps.empty())
                ctx.info(*kernelFile,
                    std::to_string(trace.steps.size())
                        + (trace.steps.size() == 1 ? " step" : " steps")
                        + " from the `Step Id` column (no trace_view.json or "
                          "step_trace_time.csv here), each from its first device task to its "
                          "last: the host time before a step's first task is not in it");
        }
    }
    shiftMemoryTimes(memory, trace.originNs);
    appendAll(trace.memory.curves, std::move(memory.curves));
    appendAll(trace.memory.allocations, std::move(memory.allocations));
    appendAll(trace.memory.modules, std::move(memory.modules));
    appendAll(trace.memory.staticAllocations, std::move(memory.staticAllocations));

    advancePastUnreadFiles(rankDir, ctx, trace.metadata.sourceFiles);

    const bool usable = traceViewLoaded || !kernels.empty() || !trace.referenceSteps.empty()
        || !trace.opStatistics.empty() || !trace.collectives.empty() || !trace.commMatrix.empty()
        || !trace.memory.empty();
    if (!usable)
        ctx.error(rankDir, "no usable Ascend profiler file was found in this folder");
    else if (!findProfilerInfo(rankDir))
        // Loose output (docs/formats.md §2.1): the rank id is only in profiler_info.
        ctx.info(rankDir,
            "no profiler_info_<rank>.json in this folder: its rank id is not known; shown "
            "as rank "
                + std::to_string(trace.rank));
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
    if (const auto f = present("cluster_communication.json")) {
        session.clusterCollectives = readClusterCommunication(*f, ctx);
        session.clusterCollectivesSource = "cluster_communication.json";
    }
    if (const auto f = present("cluster_communication_matrix.json")) {
        session.clusterMatrix = readClusterCommunicationMatrix(*f, ctx);
        session.clusterMatrixSource = "cluster_communication_matrix.json";
    }
    if (const auto f = present("communication_group.json"))
        session.communicationGroups = readCommunicationGroups(*f, ctx);
    return !session.clusterSteps.empty() || !session.clusterCollectives.empty()
        || !session.clusterMatrix.empty() || !session.communicationGroups.empty();
}

} // namespace stepscope::import::ascend
