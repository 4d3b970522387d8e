// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ascenddb.h"
#include "import/ascend/profilerinfo.h"
#include "import/sqlite/tablescan.h"
#include "profilerdb.h"
#include "util/countof.h"

#include <algorithm>
#include <limits>

namespace stepscope::import::ascenddb {

namespace fs = std::filesystem;

namespace {

bool byConnection(const ConnectionRef &a, const ConnectionRef &b)
{
    return a.connection < b.connection;
}

std::pair<const ConnectionRef *, const ConnectionRef *> rangeOf(
    const std::vector<ConnectionRef> &refs, std::int64_t connection)
{
    const auto r =
        std::equal_range(refs.begin(), refs.end(), ConnectionRef {connection, {}}, byConnection);
    return {refs.data() + (r.first - refs.begin()), refs.data() + (r.second - refs.begin())};
}

} // namespace

void sortByConnection(std::vector<ConnectionRef> &refs)
{
    if (!std::is_sorted(refs.begin(), refs.end(), byConnection))
        std::stable_sort(refs.begin(), refs.end(), byConnection);
}

const model::EventRef *ProfilerDb::cannFor(std::int64_t connection) const
{
    const auto r = rangeOf(cannByConnection, connection);
    return r.first != r.second ? &r.first->ref : nullptr;
}

std::pair<const ConnectionRef *, const ConnectionRef *> ProfilerDb::devicesFor(
    std::int64_t connection) const
{
    return rangeOf(deviceByConnection, connection);
}

namespace {

using sqlite::TablePresence;
using sqlite::TableScan;

bool isProfilerDbName(const std::string &name)
{
    auto starts = [&](const char *p) { return name.rfind(p, 0) == 0; };
    return name.size() > 3 && name.compare(name.size() - 3, 3, ".db") == 0
        && (starts("ascend_pytorch_profiler") || starts("ascend_mindspore_profiler")
            || starts("msprof_"));
}

std::vector<fs::path> outputDirs(const fs::path &rankDir)
{
    return {rankDir / "ASCEND_PROFILER_OUTPUT", rankDir};
}

/// Earliest timestamp over the timeline and counter tables (MIN uses TASK's index).
std::int64_t earliestTime(const sqlite::Database &db)
{
    static const std::pair<const char *, const char *> columns[] = {{"TASK", "startNs"},
        {"CANN_API", "startNs"}, {"COMMUNICATION_OP", "startNs"}, {"STEP_TIME", "startNs"},
        {"MEMORY_RECORD", "timestamp"}, {"OP_MEMORY", "allocationTime"}, {"NPU_MEM", "timestampNs"},
        {"NPU_MODULE_MEM", "timestampNs"}, {"AICORE_FREQ", "timestampNs"}, {"HBM", "timestampNs"},
        {"LLC", "timestampNs"}, {"ACC_PMU", "timestampNs"}, {"SOC_BANDWIDTH_LEVEL", "timestampNs"}};
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    auto consider = [&](const std::string &sql) {
        try {
            sqlite::Statement s = db.prepare(sql);
            if (s.step() && s.type(0) == sqlite::ValueType::Integer)
                if (const auto v = s.int64(0); v && *v > 0)
                    best = std::min(best, *v);
        } catch (const sqlite::Error &) {
            // A damaged table is reported when it is read.
        }
    };
    for (const auto &[table, column] : columns) {
        if (db.hasTable(table))
            consider(std::string("SELECT MIN(") + column + ") FROM " + table);
    }
    if (db.hasTable("PYTORCH_API")) // TEXT times: cast, and skip text that is no number
        consider("SELECT MIN(CAST(startNs AS INTEGER)) FROM PYTORCH_API WHERE "
                 "CAST(startNs AS INTEGER) > 0");
    return best == std::numeric_limits<std::int64_t>::max() ? 0 : best;
}

void readMetadata(ProfilerDb &p, std::optional<std::int32_t> rankHint)
{
    model::Trace &trace = p.out.trace();
    model::RunMetadata &meta = trace.metadata;
    std::optional<std::int32_t> rank = rankHint;
    {
        TableScan s(p.db, p.ctx, "RANK_DEVICE_MAP", {{"rankId"}, {"deviceId"}}, {},
            TablePresence::Optional);
        if (s.next()) {
            const auto r = s.int64(0);
            if (!rank && r && *r >= 0 && *r <= 0x7fffffff)
                rank = static_cast<std::int32_t>(*r);
            if (const auto d = s.int64(1))
                meta.deviceId = std::to_string(*d);
        }
    }
    {
        TableScan s(p.db, p.ctx, "NPU_INFO", {{"id"}, {"name"}}, {}, TablePresence::Optional);
        if (s.next()) {
            meta.device = std::string(s.text(1));
            if (meta.deviceId.empty())
                if (const auto d = s.int64(0))
                    meta.deviceId = std::to_string(*d);
        }
    }
    {
        TableScan s(p.db, p.ctx, "META_DATA", {{"name"}, {"value"}}, {}, TablePresence::Optional);
        while (s.next())
            if (s.text(0) == "SCHEMA_VERSION")
                meta.extra["db schema version"] = std::string(s.text(1));
    }
    {
        TableScan s(p.db, p.ctx, "HOST_INFO", {{"hostName", false}}, {}, TablePresence::Optional);
        if (s.next() && !s.text(0).empty())
            meta.extra["host"] = std::string(s.text(0));
    }
    if (rank)
        trace.rank = *rank;
    p.rank = trace.rank;
    meta.rank = trace.rank;
    if (meta.format.empty())
        meta.format = "ascend";
    meta.extra["export type"] = "db";
}

void readSteps(ProfilerDb &p, std::vector<model::Step> &profilerSteps)
{
    std::vector<model::Step> &steps = p.out.trace().steps;
    TableScan s(
        p.db, p.ctx, "STEP_TIME", {{"id"}, {"startNs"}, {"endNs"}}, {}, TablePresence::Optional);
    while (s.next()) {
        const auto id = s.needInt(0);
        const auto start = s.needInt(1);
        const auto end = s.needInt(2);
        if (id && start && end)
            steps.push_back(model::Step {*id, p.rel(*start), p.rel(*end)});
    }
    if (steps.empty())
        steps = std::move(profilerSteps);
}

bool readProfilerDb(const sqlite::Database &db, const ImportContext &ctx, model::TraceBuilder &out,
    std::optional<std::int32_t> rank)
{
    ProfilerDb p {db, ctx, out, {}, {}, 0, 0, {}, {}, {}};
    // Its absence is said below, with what it costs, once names are known to be missing.
    p.strings.load(db, ctx, "STRING_IDS", "id", "value", TablePresence::Optional);
    // The host APIs' types tell host wait from other host work: said when there are APIs.
    p.apiTypes.load(db, ctx, "ENUM_API_TYPE", "id", "name",
        db.hasTable("PYTORCH_API") || db.hasTable("CANN_API") ? TablePresence::Required
                                                              : TablePresence::Optional);
    readMetadata(p, rank);
    p.originNs = earliestTime(db);
    out.trace().originNs = p.originNs;

    const std::uint64_t cann = readCannApi(p);
    const DeviceCounts device = readDeviceTasks(p);
    std::vector<model::Step> profilerSteps;
    const std::uint64_t pytorch = readPytorchApi(p, profilerSteps);
    readSteps(p, profilerSteps);
    readMemory(p);
    readCounters(p);
    if (p.clampedTimes > 0)
        ctx.warn(db.path(),
            std::to_string(p.clampedTimes)
                + " timestamps lie more than 73 years from the trace origin (not times: a "
                  "damaged value); they were clamped to that range");
    if (const auto unknown = static_cast<std::int64_t>(p.strings.unknownInterned()))
        ctx.warn(db.path(),
            db.hasTable("STRING_IDS")
                ? util::countOf(unknown, "name id is", "name ids are")
                    + " missing from table `STRING_IDS`: those kernels, tasks and APIs are "
                      "shown by the number instead of their name"
                : "no table `STRING_IDS`: kernels, tasks and APIs are shown by their numeric "
                  "name ids ("
                    + util::countOf(unknown, "id", "distinct ids")
                    + ") instead of their names, and task types are unknown, so compute and "
                      "communication tasks may be told apart wrongly; the export is "
                      "incomplete, export the profile again");
    if (device.containers > 0)
        ctx.info(db.path(),
            std::to_string(device.containers)
                + " TASK rows only wrap a subtask (same stream, task and connection id as a "
                  "kernel or HCCL task); they are shown but not counted as compute");
    return cann + device.tasks + device.hcclOps + pytorch > 0 || !out.trace().memory.empty()
        || !out.trace().counters.empty();
}

void announce(const ImportContext &ctx, const fs::path &file, model::Trace &trace)
{
    if (ctx.progress != nullptr) {
        ctx.progress->checkCancel();
        ctx.progress->setStage("Reading " + ctx.relative(file));
    }
    trace.metadata.sourceFiles.push_back(ctx.relative(file));
}

void advanceBy(const ImportContext &ctx, const fs::path &file)
{
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (ctx.progress != nullptr && !ec)
        ctx.progress->advance(static_cast<std::uint64_t>(size));
}

} // namespace

RankDbFiles findRankDbFiles(const fs::path &rankDir)
{
    RankDbFiles files;
    for (const fs::path &dir : outputDirs(rankDir)) {
        std::error_code ec;
        std::vector<fs::path> names;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_regular_file(ec))
                names.push_back(it->path());
        std::sort(names.begin(), names.end());
        for (const fs::path &p : names) {
            const std::string name = p.filename().string();
            if (!files.profilerDb && isProfilerDbName(name))
                files.profilerDb = p;
            if (!files.analysisDb && (name == "analysis.db" || name == "communication_analyzer.db"))
                files.analysisDb = p;
        }
        if (!files.empty())
            break;
    }
    return files;
}

bool hasTextExport(const fs::path &rankDir)
{
    std::error_code ec;
    for (const fs::path &dir : outputDirs(rankDir))
        for (const char *name :
            {"trace_view.json", "trace_view.json.gz", "kernel_details.csv", "step_trace_time.csv"})
            if (fs::is_regular_file(dir / name, ec))
                return true;
    return false;
}

bool readAscendDbFile(const fs::path &file, const ImportContext &ctx, model::TraceBuilder &out,
    std::optional<std::int32_t> rank)
{
    std::string error;
    const std::optional<sqlite::Database> db = sqlite::Database::open(file, &error);
    if (!db) {
        ctx.error(file, error + "; the file was not read");
        return false;
    }
    bool ok = false;
    const bool timeline =
        db->hasTable("TASK") || db->hasTable("PYTORCH_API") || db->hasTable("STRING_IDS");
    if (timeline)
        ok = readProfilerDb(*db, ctx, out, rank);
    if (db->hasTable("StepTraceTime") || db->hasTable("CommAnalyzerTime")) {
        model::Trace &trace = out.trace();
        if (!timeline && rank)
            trace.rank = *rank;
        ok = readAnalysisTables(*db, ctx, trace, trace.rank) || ok;
    }
    // Analysis tables without rows were said when read (noteEmptyTables).
    if (!timeline && !db->hasTable("StepTraceTime") && !db->hasTable("CommAnalyzerTime"))
        ctx.error(file,
            "no Ascend profiler table found (TASK, PYTORCH_API, STRING_IDS, StepTraceTime, "
            "CommAnalyzerTime); the file was not read");
    return ok;
}

bool readAscendDbRank(const fs::path &rankDir, const ImportContext &ctx, model::TraceBuilder &out)
{
    model::Trace &trace = out.trace();
    std::optional<std::int32_t> rank;
    if (const auto info = ascend::findProfilerInfo(rankDir)) {
        announce(ctx, *info, trace);
        rank = ascend::readProfilerInfo(*info, ctx, trace.metadata);
        advanceBy(ctx, *info);
    }
    if (rank)
        trace.rank = *rank;
    const RankDbFiles files = findRankDbFiles(rankDir);
    bool ok = false;
    if (files.profilerDb) {
        announce(ctx, *files.profilerDb, trace);
        ok = readAscendDbFile(*files.profilerDb, ctx, out, rank);
        advanceBy(ctx, *files.profilerDb);
    }
    if (files.analysisDb) {
        announce(ctx, *files.analysisDb, trace);
        ok = readAscendDbFile(*files.analysisDb, ctx, out, trace.rank) || ok;
        advanceBy(ctx, *files.analysisDb);
    }
    trace.metadata.rank = trace.rank;
    if (trace.metadata.format.empty())
        trace.metadata.format = "ascend";
    if (!ok)
        ctx.error(rankDir, "no usable Ascend DB file was found in this folder");
    return ok;
}

FileResult readAscendDbPath(const fs::path &file, bool keepArgs)
{
    return readOneFile(file, keepArgs, [&file](const ImportContext &ctx, model::TraceBuilder &b) {
        return readAscendDbFile(file, ctx, b);
    });
}

} // namespace stepscope::import::ascenddb
