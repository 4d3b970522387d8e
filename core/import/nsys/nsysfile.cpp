// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// One Nsight Systems export: opening, names and metadata (docs/formats.md §12.1-§12.2), the
// lanes, and the order the table readers run in (nsysdb.h).

#include "import/sqlite/tablescan.h"
#include "nsysdb.h"
#include "util/countof.h"
#include "util/text.h"

#include <algorithm>
#include <iterator>

namespace stepscope::import::nsys {

namespace fs = std::filesystem;

namespace {

using sqlite::TablePresence;
using sqlite::TableScan;

/// The tables a timeline is built from; absent ones were not collected (§12.1).
constexpr const char *TimelineTables[] = {"CUPTI_ACTIVITY_KIND_KERNEL",
    "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "OSRT_API",
    "CUDA_GPU_MEMORY_USAGE_EVENTS"};

constexpr std::size_t MaxRelayedDiagnostics = 10;

void readNames(NsysDb &p)
{
    {
        TableScan s(p.db, p.ctx, "PROCESSES", {{"globalPid"}, {"name", false}}, {},
            TablePresence::Optional);
        while (s.next())
            if (const auto g = s.int64(0); g && !s.isNull(1))
                p.processNames[processKey(*g)] = std::string(s.text(1));
    }
    {
        TableScan s(
            p.db, p.ctx, "ThreadNames", {{"nameId"}, {"globalTid"}}, {}, TablePresence::Optional);
        while (s.next()) {
            const auto name = s.int64(0);
            const auto tid = s.int64(1);
            if (name && tid)
                p.threadNames[*tid] = std::string(p.strings.text(*name));
        }
        // Threads sharing a name (two `cuda-EvtHandlr` in the sample) get their tid too.
        std::unordered_map<std::string, int> uses;
        for (const auto &[tid, name] : p.threadNames)
            ++uses[name];
        for (auto &[tid, name] : p.threadNames)
            if (uses[name] > 1)
                name += " " + std::to_string(tidOf(tid));
    }
    {
        TableScan s(p.db, p.ctx, "TARGET_INFO_CUDA_CONTEXT_INFO",
            {{"nullStreamId"}, {"deviceId"}, {"contextId"}}, {}, TablePresence::Optional);
        while (s.next()) {
            const auto stream = s.int64(0);
            const auto device = s.int64(1);
            const auto context = s.int64(2);
            if (stream && device && context)
                p.nullStreams[{*device, *context}] = *stream;
        }
    }
}

void readMetadata(NsysDb &p)
{
    model::Trace &trace = p.out.trace();
    model::RunMetadata &meta = trace.metadata;
    {
        TableScan s(
            p.db, p.ctx, "META_DATA_EXPORT", {{"name"}, {"value"}}, {}, TablePresence::Optional);
        while (s.next()) {
            const std::string_view name = s.text(0);
            if (name == "EXPORT_PRODUCT_NAME"
                && s.text(1).find("Nsight Systems") == std::string::npos)
                p.ctx.info(p.db.path(),
                    "META_DATA_EXPORT names the product \"" + std::string(s.text(1))
                        + "\", not Nsight Systems; read as an Nsight Systems export");
            else if (name == "EXPORT_PRODUCT_VERSION")
                meta.extra["nsys version"] = std::string(s.text(1));
            else if (name == "EXPORT_SCHEMA_VERSION")
                meta.extra["export schema"] = std::string(s.text(1));
        }
    }
    {
        TableScan s(p.db, p.ctx, "TARGET_INFO_SESSION_START_TIME",
            {{"utcEpochNs"}, {"utcTime", false}}, {}, TablePresence::Optional);
        if (s.next()) {
            if (const auto t = s.int64(0))
                trace.originNs = *t;
            if (!s.isNull(1))
                meta.extra["session start (UTC)"] = std::string(s.text(1));
        } else {
            p.ctx.info(p.db.path(),
                "no TARGET_INFO_SESSION_START_TIME: times stay relative to the session start");
        }
    }
    {
        TableScan s(p.db, p.ctx, "TARGET_INFO_GPU",
            {{"id"}, {"name", false}, {"busLocation", false}}, {}, TablePresence::Optional);
        while (s.next()) {
            const auto id = s.int64(0);
            if (!id)
                continue;
            p.gpuNames[*id] = std::string(s.text(1));
            std::string v(s.text(1));
            if (!s.isNull(2))
                v += " (bus " + std::string(s.text(2)) + ")";
            meta.extra["GPU " + std::to_string(*id)] = v;
        }
    }
    {
        TableScan s(
            p.db, p.ctx, "DIAGNOSTIC_EVENT", {{"severity"}, {"text"}}, {}, TablePresence::Optional);
        sqlite::IdStrings levels;
        levels.load(
            p.db, p.ctx, "ENUM_DIAGNOSTIC_SEVERITY_LEVEL", "id", "label", TablePresence::Optional);
        std::size_t relayed = 0;
        while (s.next()) {
            const std::string_view level = levels.text(s.int64(0).value_or(-1));
            if ((level == "Warning" || level == "Error") && relayed++ < MaxRelayedDiagnostics)
                p.ctx.info(
                    p.db.path(), "nsys " + std::string(level) + ": " + util::oneLine(s.text(1)));
        }
    }
}

void finishMetadata(NsysDb &p, const std::vector<std::string> &absent)
{
    model::RunMetadata &meta = p.out.trace().metadata;
    meta.format = "nsys";
    // The rank's GPU: the one with the most device work, else the first listed.
    std::optional<std::int64_t> device;
    std::uint64_t most = 0;
    for (const auto &[d, n] : p.deviceWork)
        if (n > most) {
            most = n;
            device = d;
        }
    if (!device && !p.gpuNames.empty())
        device = p.gpuNames.begin()->first;
    if (device) {
        meta.deviceId = std::to_string(*device);
        const auto it = p.gpuNames.find(*device);
        if (it != p.gpuNames.end())
            meta.device = it->second;
    }
    if (p.deviceWork.size() > 1)
        p.ctx.info(p.db.path(),
            "device work on " + std::to_string(p.deviceWork.size())
                + " GPUs in one export: shown as one rank, one lane per GPU stream");
    if (!absent.empty()) {
        std::string list;
        for (const std::string &t : absent)
            list += (list.empty() ? "" : ", ") + t;
        p.ctx.info(p.db.path(), "not collected in this export (no table): " + list);
    }
}

std::string hostSuffix(HostLane kind)
{
    switch (kind) {
    case HostLane::CudaApi:
        return "CUDA API";
    case HostLane::Nvtx:
        return "NVTX";
    case HostLane::Osrt:
        return "OS runtime";
    case HostLane::Overhead:
        return "nsys overhead";
    }
    return {};
}

/// The lane of `key` in `lanes`, made by `make()` (a TrackInfo) on first use.
template <typename Map, typename Key, typename Make>
model::TrackId laneOf(model::TraceBuilder &out, Map &lanes, const Key &key, Make make)
{
    const auto it = lanes.find(key);
    if (it != lanes.end())
        return it->second;
    const model::TrackId id = out.addTrack(make());
    lanes.emplace(key, id);
    return id;
}

/// A lane of one GPU: named after the GPU (TARGET_INFO_GPU), sorted by its id.
model::TrackInfo gpuTrack(const NsysDb &p, std::int64_t device)
{
    model::TrackInfo info;
    info.kind = model::TrackKind::DeviceStream;
    info.rank = p.out.trace().rank;
    info.processId = "GPU " + std::to_string(device);
    const auto g = p.gpuNames.find(device);
    info.processName = g != p.gpuNames.end() && !g->second.empty() ? g->second : info.processId;
    info.processSortIndex = device;
    return info;
}

/// A lane of one process (of globalTid): named after the process, sorted by its pid.
model::TrackInfo processTrack(const NsysDb &p, std::int64_t globalTid, model::TrackKind kind)
{
    model::TrackInfo info;
    info.kind = kind;
    info.rank = p.out.trace().rank;
    info.processId = std::to_string(pidOf(globalTid));
    const auto pn = p.processNames.find(processKey(globalTid));
    if (pn != p.processNames.end())
        info.processName = pn->second;
    info.processSortIndex = pidOf(globalTid);
    return info;
}

} // namespace

model::TrackId NsysDb::hostLane(std::int64_t globalTid, HostLane kind)
{
    return laneOf(out, hostLanes, std::make_pair(globalTid, kind), [&] {
        const std::int64_t tid = tidOf(globalTid);
        model::TrackInfo info = processTrack(*this, globalTid,
            kind == HostLane::Overhead ? model::TrackKind::Synthetic
                                       : model::TrackKind::HostThread);
        info.threadId = std::to_string(tid);
        if (kind != HostLane::CudaApi)
            info.threadId += " " + hostSuffix(kind);
        const auto tn = threadNames.find(globalTid);
        const std::string thread = tn != threadNames.end() && !tn->second.empty() ? tn->second
            : tid == 0 ? std::string("Process")
                       : "Thread " + std::to_string(tid);
        info.threadName = thread + " (" + hostSuffix(kind) + ")";
        info.threadSortIndex = tid * 8 + static_cast<std::int64_t>(kind);
        return info;
    });
}

model::TrackId NsysDb::streamLane(std::int64_t device, std::int64_t context, std::int64_t stream)
{
    return laneOf(out, streamLanes, std::make_tuple(device, context, stream), [&] {
        model::TrackInfo info = gpuTrack(*this, device);
        info.threadId = std::to_string(stream);
        info.threadName = "Stream " + info.threadId;
        // Stream ids are per context: a second context on the GPU gets its own lanes.
        const auto first = streamContext.emplace(std::make_pair(device, stream), context).first;
        if (first->second != context) {
            info.threadId += " ctx " + std::to_string(context);
            info.threadName += " (context " + std::to_string(context) + ")";
        }
        const auto null = nullStreams.find({device, context});
        if (null != nullStreams.end() && null->second == stream)
            info.threadName += " (default)";
        info.threadSortIndex = stream;
        return info;
    });
}

model::TrackId NsysDb::syncLane(std::int64_t device)
{
    return laneOf(out, syncLanes, device, [&] {
        model::TrackInfo info = gpuTrack(*this, device);
        info.threadId = "sync";
        info.threadName = "Synchronization";
        info.threadSortIndex = std::int64_t {1} << 40;
        return info;
    });
}

model::TrackId NsysDb::asyncNvtxLane(std::int64_t globalTid)
{
    return laneOf(out, asyncNvtxLanes, processKey(globalTid), [&] {
        model::TrackInfo info = processTrack(*this, globalTid, model::TrackKind::HostThread);
        info.threadId = "nvtx async";
        info.threadName = "NVTX (start/end ranges)";
        info.threadSortIndex = -1;
        return info;
    });
}

const Launch *NsysDb::launchOf(
    std::optional<std::int64_t> globalPid, std::int64_t correlation) const
{
    // A table without globalPid (older exports) links by correlation id alone when one
    // process made every call.
    std::int64_t process = 0;
    if (globalPid)
        process = processKey(*globalPid);
    else if (runtimeProcesses.size() == 1)
        process = runtimeProcesses.front();
    else
        return nullptr;
    const auto it = std::lower_bound(launches.begin(), launches.end(),
        std::make_pair(process, correlation), [](const Launch &l, const auto &k) {
            return l.process != k.first ? l.process < k.first : l.correlation < k.second;
        });
    if (it == launches.end() || it->process != process || it->correlation != correlation)
        return nullptr;
    return &*it;
}

void NsysDb::linkLaunch(std::optional<std::int64_t> globalPid,
    std::optional<std::int64_t> correlation, model::EventRef to)
{
    if (!correlation)
        return;
    if (const Launch *l = launchOf(globalPid, *correlation)) {
        out.addFlow(l->ref, to, flowCategory);
        ++counts.flows;
    }
}

std::vector<std::int64_t> devicePrograms(const fs::path &file)
{
    std::vector<std::int64_t> out;
    std::string error;
    const std::optional<sqlite::Database> db = sqlite::Database::open(file, &error);
    if (!db || !db->hasTable("CUPTI_ACTIVITY_KIND_KERNEL"))
        return out;
    try {
        sqlite::Statement s = db->prepare("SELECT DISTINCT globalPid / 16777216 FROM "
                                          "CUPTI_ACTIVITY_KIND_KERNEL WHERE globalPid IS NOT NULL "
                                          "ORDER BY 1");
        while (s.step())
            if (const auto v = s.int64(0))
                out.push_back(*v);
    } catch (const sqlite::Error &) {
        out.clear(); // no globalPid column, or damaged: read as one trace, diagnosed there
    }
    return out;
}

bool readNsysFile(const fs::path &file, const ImportContext &ctx, model::TraceBuilder &out,
    NsysCounts *counts, std::optional<std::int32_t> rank, std::optional<std::int64_t> process)
{
    if (rank) {
        out.trace().rank = *rank;
        out.trace().metadata.rank = *rank;
    }
    if (ctx.progress != nullptr) {
        ctx.progress->checkCancel();
        ctx.progress->setStage("Reading " + ctx.relative(file));
    }
    out.trace().metadata.sourceFiles.push_back(ctx.relative(file));
    std::string error;
    const std::optional<sqlite::Database> db = sqlite::Database::open(file, &error);
    if (!db) {
        ctx.error(file, error + "; the file was not read");
        return false;
    }
    NsysDb p(*db, ctx, out);
    p.onlyProcess = process;
    try {
        // Without StringIds every name is an id: said once, below, with what it costs.
        p.strings.load(*db, ctx, "StringIds", "id", "value", TablePresence::Optional);
        p.memcpyKinds.load(
            *db, ctx, "ENUM_CUDA_MEMCPY_OPER", "id", "name", TablePresence::Optional);
        p.memKinds.load(*db, ctx, "ENUM_CUDA_MEM_KIND", "id", "label", TablePresence::Optional);
        p.syncTypes.load(*db, ctx, "ENUM_CUPTI_SYNC_TYPE", "id", "label", TablePresence::Optional);
        p.eventTypes.load(*db, ctx, "ENUM_NSYS_EVENT_TYPE", "id", "name", TablePresence::Optional);
        p.eventClasses.load(
            *db, ctx, "ENUM_NSYS_EVENT_CLASS", "id", "label", TablePresence::Optional);
        readMetadata(p);
        readNames(p);
        readRuntime(p);
        readDeviceActivity(p);
        readGpuMemory(p);
        readOsRuntime(p);
        readNvtx(p);
    } catch (const sqlite::Error &e) {
        ctx.error(file, std::string("reading stopped: ") + e.what());
    }
    if (process) {
        const auto name = p.processNames.find(*process);
        p.ctx.info(file,
            "this export holds several processes with GPU work: process "
                + std::to_string(*process & 0xffffff)
                + (name != p.processNames.end() ? " (" + name->second + ")" : std::string())
                + " is rank " + std::to_string(out.trace().rank));
    }
    std::vector<std::string> absent;
    for (const char *t : TimelineTables)
        if (!db->hasTable(t))
            absent.emplace_back(t);
    finishMetadata(p, absent);
    if (p.clampedTimes > 0)
        ctx.warn(file,
            std::to_string(p.clampedTimes)
                + " timestamps lie more than 73 years from the session start (not times: a "
                  "damaged value); they were clamped to that range");
    if (p.endsBeforeStart > 0)
        ctx.warn(file,
            util::countOf(static_cast<std::int64_t>(p.endsBeforeStart),
                "device row ends before it starts", "device rows end before they start")
                + " (a damaged `end`); kept with no duration");
    if (!db->hasTable("StringIds"))
        ctx.warn(file,
            "no table `StringIds`: kernels, CUDA API calls, OS runtime calls, NVTX ranges "
            "and threads are shown by their numeric string ids instead of their names (the "
            "export is incomplete: export the report again with `nsys export --type sqlite` "
            "to see the names)");
    if (p.unknownNameIds > 0)
        ctx.warn(file,
            util::countOf(
                static_cast<std::int64_t>(p.unknownNameIds), "kernel names", "kernels name")
                + " a string id missing from `StringIds`; named by another of their names, "
                  "else by the number");
    if (ctx.progress != nullptr) {
        std::error_code ec;
        const auto size = fs::file_size(file, ec);
        if (!ec)
            ctx.progress->advance(static_cast<std::uint64_t>(size));
    }
    if (counts != nullptr)
        *counts = p.counts;
    if (p.counts.total() == 0 && out.trace().memory.empty()) {
        std::string tables;
        for (const char *t : TimelineTables)
            tables += (tables.empty() ? "" : ", ") + std::string(t);
        ctx.error(file,
            absent.size() == std::size(TimelineTables)
                ? "none of the tables a timeline is made of is in this Nsight Systems export ("
                    + tables + "): nothing to show"
                : "no CUDA, OS runtime or NVTX event found in this Nsight Systems export (its "
                  "timeline tables have no usable rows)");
        return false;
    }
    return true;
}

FileResult readNsysPath(const fs::path &file, bool keepArgs)
{
    FileResult result;
    static_cast<OneFileResult &>(result) =
        readOneFile(file, keepArgs, [&](const ImportContext &ctx, model::TraceBuilder &b) {
            return readNsysFile(file, ctx, b, &result.counts);
        });
    return result;
}

} // namespace stepscope::import::nsys
