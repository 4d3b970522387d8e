// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "proftimeline.h"

#include "import/ascend/tasktype.h"
#include "import/chrometrace/tracereader.h"
#include "util/decimal.h"
#include "util/joinfirst.h"
#include "util/regularfile.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::import::cann {

namespace {

using ascend::isCommunicationProcess;
using ascend::processCategory;
using ascend::taskTypeCategory;
using chrometrace::EventClass;
using chrometrace::EventFields;
using model::Category;
using util::startsWith;
using util::stringArg;

class ProfDialect final : public chrometrace::Dialect
{
public:
    /// `devicePids`: pids are msprof's `(pid << 10) | (layer << 5) | device` (the newer
    /// export), so each NPU process names its device.
    explicit ProfDialect(std::int64_t offsetNs, bool devicePids = false)
        : m_offsetNs(offsetNs)
        , m_devicePids(devicePids)
    {
    }

    model::TrackKind classifyTrack(const chrometrace::ProcessMeta &process,
        const chrometrace::ThreadMeta &thread) const override
    {
        if (m_devicePids && process.labels == "NPU")
            if (const auto pid = util::parseInt(process.id); pid && *pid >= (1 << 10))
                devices.insert(*pid & 31);
        if (process.name == "Ascend Hardware" || process.name == "Step Trace")
            return startsWith(thread.name, "Step Trace") || process.name == "Step Trace"
                ? model::TrackKind::Synthetic
                : model::TrackKind::DeviceStream;
        if (isCommunicationProcess(process.name))
            return model::TrackKind::CommunicationGroup;
        if (process.name == "Overlap Analysis")
            return model::TrackKind::Synthetic;
        return model::TrackKind::HostThread;
    }

    EventClass classifyEvent(const EventFields &e) const override
    {
        EventClass c;
        if (!e.category.empty()) {
            // Step Trace lanes: Iteration Time, FP_BP Time, Iteration Refresh, Reduce.
            c.category = Category::Annotation;
            c.needArgs = e.category == "Iteration Time";
            return c;
        }
        const std::string_view taskType = stringArg(e.args, "\"Task Type\"");
        if (!taskType.empty()) {
            c.category = taskTypeCategory(taskType);
            return c;
        }
        c.deferred = true;
        return c;
    }

    Category classifyDeferred(const chrometrace::ProcessMeta &process,
        const chrometrace::ThreadMeta &, model::TrackKind, const EventFields &) const override
    {
        return processCategory(process.name);
    }

    std::int64_t timeOffsetNs(const chrometrace::TopLevel &) const override { return m_offsetNs; }

    void onEvent(const chrometrace::EventInfo &e, model::TraceBuilder &out) const override
    {
        if (e.cat != "Iteration Time" || e.args.empty())
            return;
        const nlohmann::json args = nlohmann::json::parse(e.args, nullptr, false);
        if (!args.is_object() || !args.contains("Iteration ID")
            || !args["Iteration ID"].is_number_integer())
            return;
        const auto id = args["Iteration ID"].get<std::int64_t>();
        if (!iterations.insert(id).second)
            return; // the same iteration from another file
        out.trace().steps.push_back(model::Step {id, e.startNs, e.startNs + e.durationNs});
    }

    mutable std::set<std::int64_t> iterations;
    mutable std::set<std::int64_t> devices; ///< of the NPU processes, with devicePids

private:
    std::int64_t m_offsetNs = 0;
    bool m_devicePids = false;
};

std::string readSmallFile(const std::filesystem::path &path)
{
    std::ifstream f;
    if (!util::openRegular(f, path))
        return {};
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

/// The `<n>` of `device_<n>`.
std::string deviceSuffix(const std::filesystem::path &deviceDir)
{
    const std::string name = deviceDir.filename().string();
    const std::size_t us = name.rfind('_');
    return us == std::string::npos ? std::string() : name.substr(us + 1);
}

/// Iteration number of `msprof_<dev>_<model>_<iter>.json`, for ordering.
std::int64_t iterationOf(const std::filesystem::path &file)
{
    const std::string stem = file.stem().string();
    const std::size_t us = stem.rfind('_');
    return us == std::string::npos
        ? 0
        : util::parseInt(std::string_view(stem).substr(us + 1)).value_or(0);
}

/// Rank and device of `info.json.<n>` into the trace's metadata (rank 0 when it is missing).
void readDeviceInfo(const std::filesystem::path &deviceDir, const std::string &n,
    const ImportContext &ctx, model::Trace &trace)
{
    const std::filesystem::path infoPath = deviceDir / ("info.json." + n);
    const nlohmann::json info = nlohmann::json::parse(readSmallFile(infoPath), nullptr, false);
    if (info.is_object()) {
        if (info.contains("rank_id") && info["rank_id"].is_number_integer()) {
            trace.rank = info["rank_id"].get<std::int32_t>();
            trace.metadata.rank = trace.rank;
        }
        if (info.contains("DeviceInfo") && info["DeviceInfo"].is_array()
            && !info["DeviceInfo"].empty()) {
            const nlohmann::json &d = info["DeviceInfo"][0];
            if (d.contains("id"))
                trace.metadata.deviceId = d["id"].dump();
            if (d.contains("ai_core_num"))
                trace.metadata.extra["ai_core_num"] = d["ai_core_num"].dump();
        }
        if (info.contains("hwtype") && info["hwtype"].is_string())
            trace.metadata.extra["hwtype"] = info["hwtype"].get<std::string>();
    } else {
        ctx.warn(infoPath, "info.json is missing or not JSON: rank taken as 0");
    }
}

/// Reads `files` in order into one trace, names them as its sources, and gives every track
/// the trace's rank. False when nothing usable was read.
bool readTimelines(const std::vector<std::filesystem::path> &files, const ProfDialect &dialect,
    const ImportContext &ctx, model::TraceBuilder &out)
{
    bool any = false;
    for (const auto &file : files) {
        any = chrometrace::readTraceFile(file, dialect, ctx, out) || any;
        out.trace().metadata.sourceFiles.push_back(ctx.relative(file));
    }
    for (std::size_t t = 0; t < out.trackCount(); ++t)
        out.track(model::TrackId(static_cast<std::uint32_t>(t))).info().rank = out.trace().rank;
    return any;
}

} // namespace

bool readProfDevice(
    const std::filesystem::path &deviceDir, const ImportContext &ctx, model::TraceBuilder &out)
{
    try {
        const std::string n = deviceSuffix(deviceDir);
        model::Trace &trace = out.trace();
        if (trace.metadata.format.empty())
            trace.metadata.format = "cann-prof";

        // Clock: wall ns = collectionTimeBegin us * 1000 + (ts ns - clockMonotonicRaw ns).
        const std::filesystem::path startInfo = deviceDir / ("start_info." + n);
        std::int64_t offsetNs = 0;
        const nlohmann::json start =
            nlohmann::json::parse(readSmallFile(startInfo), nullptr, false);
        std::optional<std::int64_t> beginUs;
        std::optional<std::int64_t> monoNs;
        if (start.is_object()) {
            auto text = [&start](const char *key) {
                if (!start.contains(key))
                    return std::string();
                return start[key].is_string() ? start[key].get<std::string>() : start[key].dump();
            };
            beginUs = util::parseInt(text("collectionTimeBegin"));
            monoNs = util::parseInt(text("clockMonotonicRaw"));
        }
        // Both far inside int64 on any real machine (2^61 ns is 73 years); beyond, the
        // arithmetic below would overflow.
        constexpr std::int64_t limitNs = std::int64_t {1} << 61;
        if (beginUs && monoNs
            && (*beginUs < 0 || *beginUs > limitNs / 1000 || *monoNs < 0 || *monoNs > limitNs)) {
            ctx.warn(startInfo, "collectionTimeBegin/clockMonotonicRaw beyond 2^61 ns: not used");
            beginUs.reset();
        }
        if (beginUs && monoNs) {
            offsetNs = *beginUs * 1000 - *monoNs;
            if (out.trackCount() == 0 && trace.originNs == 0)
                trace.originNs = *beginUs * 1000;
        } else {
            ctx.warn(startInfo,
                "no collectionTimeBegin/clockMonotonicRaw: times stay on the device's "
                "monotonic clock");
        }

        readDeviceInfo(deviceDir, n, ctx, trace);

        std::vector<std::filesystem::path> files;
        std::error_code ec;
        for (const auto &entry : std::filesystem::directory_iterator(deviceDir / "timeline", ec)) {
            const std::string name = entry.path().filename().string();
            if (startsWith(name, "msprof_") && entry.path().extension() == ".json")
                files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end(), [](const auto &a, const auto &b) {
            const auto ia = iterationOf(a);
            const auto ib = iterationOf(b);
            return ia != ib ? ia < ib : a < b;
        });
        if (files.empty()) {
            ctx.error(deviceDir, "no timeline/msprof_*.json files in this device folder");
            return false;
        }
        return readTimelines(files, ProfDialect(offsetNs), ctx, out);
    } catch (const util::Cancelled &) {
        throw;
    } catch (const std::exception &e) {
        ctx.error(deviceDir, std::string("PROF import stopped: ") + e.what());
        return false;
    }
}

namespace {

/// A timeline of msprof's newer export: `msprof[_<ids>][_slice_<n>]_<stamp>.json`, the ids a
/// device, model or iteration, the stamp the export's local time (%Y%m%d%H%M%S). A name of
/// another shape has no stamp.
struct ExportTimeline
{
    std::filesystem::path path;
    std::string ids;
    std::int64_t slice = 0;
    std::string stamp;
};

ExportTimeline exportTimeline(const std::filesystem::path &path)
{
    static const std::regex re(R"(msprof((?:_\d+)*?)(?:_slice_(\d+))?_(\d+)\.json)");
    ExportTimeline t {path, path.stem().string(), 0, {}};
    const std::string name = path.filename().string();
    std::smatch m;
    if (std::regex_match(name, m, re)) {
        t.ids = m[1].str();
        t.slice = util::parseInt(m[2].str()).value_or(0);
        t.stamp = m[3].str();
    }
    return t;
}

bool newerStamp(const std::string &a, const std::string &b)
{
    return a.size() != b.size() ? a.size() > b.size() : a > b;
}

/// The timelines of the newest export, in order: by ids, then slice. The older exports'
/// files are named in one diagnostic.
std::vector<std::filesystem::path> newestExport(
    const std::vector<std::filesystem::path> &files, const ImportContext &ctx)
{
    std::vector<ExportTimeline> all;
    all.reserve(files.size());
    for (const auto &f : files)
        all.push_back(exportTimeline(f));
    std::string newest;
    for (const ExportTimeline &t : all)
        if (newerStamp(t.stamp, newest))
            newest = t.stamp;
    std::vector<ExportTimeline> kept;
    std::vector<std::string> older;
    for (ExportTimeline &t : all) {
        if (t.stamp == newest)
            kept.push_back(std::move(t));
        else
            older.push_back(t.path.filename().string());
    }
    std::sort(kept.begin(), kept.end(), [](const ExportTimeline &a, const ExportTimeline &b) {
        if (a.ids != b.ids)
            return util::naturalLess(a.ids, b.ids);
        return a.slice < b.slice;
    });
    if (!older.empty())
        ctx.info(files.front().parent_path(),
            std::to_string(older.size()) + (older.size() == 1 ? " timeline" : " timelines")
                + " of an earlier export (" + util::joinFirst(older, 3)
                + ") not read: only the newest export (" + kept.front().path.filename().string()
                + (kept.size() > 1 ? " and " + std::to_string(kept.size() - 1) + " more" : "")
                + ") is, so no event counts twice");
    std::vector<std::filesystem::path> out;
    out.reserve(kept.size());
    for (ExportTimeline &t : kept)
        out.push_back(std::move(t.path));
    return out;
}

} // namespace

bool readProfExport(const std::filesystem::path &exportDir, const std::filesystem::path &deviceDir,
    std::int32_t fallbackRank, const ImportContext &ctx, model::TraceBuilder &out)
{
    try {
        model::Trace &trace = out.trace();
        if (trace.metadata.format.empty())
            trace.metadata.format = "cann-prof";
        trace.rank = fallbackRank;
        trace.metadata.rank = fallbackRank;
        if (!deviceDir.empty())
            readDeviceInfo(deviceDir, deviceSuffix(deviceDir), ctx, trace);
        std::vector<std::filesystem::path> files;
        std::error_code ec;
        for (const auto &entry : std::filesystem::directory_iterator(exportDir, ec)) {
            const std::string name = entry.path().filename().string();
            if (startsWith(name, "msprof") && entry.path().extension() == ".json")
                files.push_back(entry.path());
        }
        std::sort(files.begin(), files.end());
        if (files.empty()) {
            ctx.error(exportDir, "no msprof_*.json timeline in this export folder");
            return false;
        }
        // Times are the local wall clock already, in us.
        const ProfDialect dialect(0, true);
        const bool any = readTimelines(newestExport(files, ctx), dialect, ctx, out);
        if (dialect.devices.size() > 1) {
            ctx.warn(exportDir,
                "this timeline holds the lanes of " + std::to_string(dialect.devices.size())
                    + " devices (" + util::joinFirst(dialect.devices, 8)
                    + "), as msprof exports a PROF folder of several: they are read as one "
                      "rank, so its compute, communication and idle time merge all of them. A "
                      "PROF folder per device (as torch_npu and MindSpore write) reads as one "
                      "rank each");
        }
        return any;
    } catch (const util::Cancelled &) {
        throw;
    } catch (const std::exception &e) {
        ctx.error(exportDir, std::string("PROF export import stopped: ") + e.what());
        return false;
    }
}

} // namespace stepscope::import::cann
