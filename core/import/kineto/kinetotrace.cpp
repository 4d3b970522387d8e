// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "kinetotrace.h"

#include "import/chrometrace/argscan.h"
#include "import/chrometrace/tracereader.h"
#include "import/cuda/kernelcategory.h"
#include "util/decimal.h"
#include "util/saturate.h"
#include "util/text.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stepscope::import::kineto {

namespace {

using chrometrace::EventClass;
using chrometrace::EventFields;
using chrometrace::EventInfo;
using model::Category;
using util::startsWith;

/// Kineto's own spellings of device activity (docs/formats.md §5). torch_npu's
/// trace_view.json, which shares `cpu_op` with PyTorch, writes none of them.
bool isDeviceActivityCategory(std::string_view cat)
{
    static constexpr std::array<std::string_view, 6> Categories = {
        "kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_driver", "gpu_user_annotation"};
    return std::find(Categories.begin(), Categories.end(), cat) != Categories.end();
}

/// `ProfilerStep#N` -> N.
std::optional<std::int64_t> profilerStepNumber(std::string_view name)
{
    constexpr std::string_view Prefix = "ProfilerStep#";
    if (!startsWith(name, Prefix))
        return std::nullopt;
    return util::parseInt(name.substr(Prefix.size()));
}

struct MemorySample
{
    std::int64_t ts = 0;
    std::int64_t bytes = 0;
    std::int64_t totalAllocated = -1;
    std::int64_t totalReserved = -1;
    std::uint32_t device = 0; ///< index into KinetoDialect::devices
};

/// What the reader takes from a `[memory]` instant's args (docs/formats.md §5.7).
struct MemoryArgs
{
    std::optional<std::int64_t> bytes;
    std::optional<std::int64_t> addr;
    std::optional<std::int64_t> totalAllocated;
    std::optional<std::int64_t> totalReserved;
    std::optional<std::int64_t> deviceType;
    std::optional<std::int64_t> deviceId;

    std::array<std::optional<std::int64_t> *, 6> fields()
    {
        return {&bytes, &addr, &totalAllocated, &totalReserved, &deviceType, &deviceId};
    }

    /// From the args text, or from the list of its members when the reader made one.
    static MemoryArgs fromJson(
        std::string_view args, const std::vector<chrometrace::ArgMember> *members = nullptr)
    {
        static constexpr std::array<std::string_view, 6> Keys = {
            "Bytes", "Addr", "Total Allocated", "Total Reserved", "Device Type", "Device Id"};
        std::array<std::optional<std::int64_t>, 6> values;
        chrometrace::argInts(args, members, Keys.data(), values.data(), Keys.size());
        MemoryArgs m;
        const auto targets = m.fields();
        for (std::size_t i = 0; i < Keys.size(); ++i)
            *targets[i] = values[i];
        return m;
    }

    /// The staged form (Dialect::stageArgs): a byte 0x80 | the mask of the fields present
    /// (never the `{` of JSON), then each present field zigzag-encoded in 7-bit groups. About
    /// 20 bytes where the JSON takes 105, read back with no decimal parsing in the serial
    /// part of the load.
    void write(std::string &out)
    {
        const auto present = fields();
        unsigned mask = 0;
        for (std::size_t i = 0; i < present.size(); ++i)
            mask |= present[i]->has_value() ? 1u << i : 0u;
        out.push_back(static_cast<char>(0x80u | mask));
        for (const std::optional<std::int64_t> *f : present) {
            if (!*f)
                continue;
            const auto v = static_cast<std::uint64_t>(**f);
            std::uint64_t zigzag = (v << 1) ^ (**f < 0 ? ~std::uint64_t {0} : 0);
            for (; zigzag >= 0x80; zigzag >>= 7)
                out.push_back(static_cast<char>(0x80u | (zigzag & 0x7fu)));
            out.push_back(static_cast<char>(zigzag));
        }
    }

    /// Reads either form: JSON (args kept resident: the text the details pane shows) or the
    /// staged one.
    static MemoryArgs read(std::string_view args)
    {
        if (args.empty() || args.front() == '{')
            return fromJson(args);
        MemoryArgs m;
        const auto mask = static_cast<unsigned char>(args.front()) & 0x7fu;
        std::size_t at = 1;
        const auto targets = m.fields();
        for (std::size_t i = 0; i < targets.size(); ++i) {
            if ((mask & (1u << i)) == 0)
                continue;
            std::uint64_t zigzag = 0;
            for (unsigned shift = 0; at < args.size() && shift < 64; shift += 7) {
                const auto byte = static_cast<unsigned char>(args[at++]);
                zigzag |= std::uint64_t {byte & 0x7fu} << shift;
                if ((byte & 0x80u) == 0)
                    break;
            }
            *targets[i] = static_cast<std::int64_t>((zigzag >> 1) ^ (~(zigzag & 1) + 1));
        }
        return m;
    }
};

class KinetoDialect final : public chrometrace::Dialect
{
public:
    model::TrackKind classifyTrack(const chrometrace::ProcessMeta &process,
        const chrometrace::ThreadMeta &thread) const override
    {
        if (startsWith(process.labels, "GPU") || startsWith(thread.id, "stream"))
            return model::TrackKind::DeviceStream;
        if (process.id.empty() || process.id == "Spans" || process.id == "Traces")
            return model::TrackKind::Synthetic;
        return model::TrackKind::HostThread;
    }

    /// A lane of kernels and copies whose process names no device (`process_labels` and the
    /// stream names come last in Kineto's file: a cut file has none) is still a GPU stream.
    model::TrackKind classifyByCategories(const chrometrace::ProcessMeta &process,
        const chrometrace::ThreadMeta &thread,
        const std::vector<std::string_view> &categories) const override
    {
        (void)thread;
        static constexpr std::array<std::string_view, 3> Work = {
            "kernel", "gpu_memcpy", "gpu_memset"};
        static constexpr std::array<std::string_view, 2> AlsoOnStreams = {
            "gpu_user_annotation", "cuda_sync"};
        const auto in = [](const auto &set, std::string_view c) {
            return std::find(set.begin(), set.end(), c) != set.end();
        };
        if (!process.labels.empty()
            || std::none_of(categories.begin(), categories.end(),
                [&](std::string_view c) { return in(Work, c); })
            || !std::all_of(categories.begin(), categories.end(),
                [&](std::string_view c) { return in(Work, c) || in(AlsoOnStreams, c); }))
            return model::TrackKind::HostThread;
        ++unlabelledStreams;
        return model::TrackKind::DeviceStream;
    }

    EventClass classifyEvent(const EventFields &e) const override
    {
        EventClass c;
        const std::string_view cat = e.category;
        const std::string_view name = e.name;
        if (cat == "kernel" || cat == "Kernel") {
            c.category = cuda::kernelCategory(name);
        } else if (cat == "gpu_memcpy" || cat == "Memcpy") {
            c.category = Category::Memcpy;
        } else if (cat == "gpu_memset" || cat == "Memset") {
            c.category = Category::Memset;
        } else if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "Runtime") {
            c.category = Category::Runtime;
        } else if (cat == "cpu_op" || cat == "Operator" || cat == "user_annotation"
            || cat == "gpu_user_annotation") {
            if (startsWith(name, "enumerate(DataLoader)"))
                c.category = Category::DataLoading;
            else if (cat == "cpu_op" || (cat == "Operator" && !startsWith(name, "ProfilerStep#")))
                c.category = Category::HostOp;
            else
                c.category = Category::Annotation;
        } else if (cat == "python_function") {
            c.category = Category::Python;
        } else if (cat == "Trace" || cat == "cuda_sync") {
            // cuda_sync ("Stream Sync", "Event Sync", "Context Sync" on a GPU stream): the
            // stream waiting, not device work; as Other it would count as compute.
            c.category = Category::Annotation;
        }
        c.needArgs = name == "[memory]";
        return c;
    }

    /// `baseTimeNanoseconds`, an integer or a string of one. Beyond ±2^61 ns (73 years) it
    /// is no clock of any machine and the sum with the events' times could overflow: not
    /// used, and readTrace says so (badBaseTime).
    std::int64_t timeOffsetNs(const chrometrace::TopLevel &top) const override
    {
        auto it = top.keys.find("baseTimeNanoseconds");
        if (it == top.keys.end())
            return 0;
        std::optional<std::int64_t> base;
        if (it->is_number_unsigned()) {
            if (it->get<std::uint64_t>() <= static_cast<std::uint64_t>(util::MaxFileTimeNs))
                base = it->get<std::int64_t>();
        } else if (it->is_number_integer()) {
            base = it->get<std::int64_t>();
        } else if (it->is_string()) {
            base = util::parseInt(it->get<std::string>());
        }
        if (!base || *base > util::MaxFileTimeNs || *base < -util::MaxFileTimeNs) {
            badBaseTime = it->dump().substr(0, 40);
            return 0;
        }
        return *base;
    }

    void onEvent(const EventInfo &e, model::TraceBuilder &out) const override
    {
        if (!sawDeviceActivity)
            sawDeviceActivity = isDeviceActivityCategory(e.cat);
        if (e.trackInfo->kind == model::TrackKind::HostThread) {
            if (auto n = profilerStepNumber(e.name))
                steps.push_back(model::Step {*n, e.startNs, util::satAdd(e.startNs, e.durationNs)});
        }
        if (e.phase == 'i' && e.name == "[memory]") {
            if (!e.args.empty())
                memoryEvent(e, out);
            return;
        }
        if (e.ids.correlation != -1 || e.ids.externalId != -1) {
            model::EventIds ids;
            ids.event = model::EventRef {e.track, e.index};
            ids.correlation = e.ids.correlation;
            ids.externalId = e.ids.externalId;
            out.addEventIds(ids);
        }
    }

    bool stageArgs(const EventFields &e, std::string &out) const override
    {
        if (e.name != "[memory]")
            return false;
        MemoryArgs::fromJson(e.args, e.argMembers).write(out);
        return true;
    }

    /// `correlation` (a runtime launch and the device work it started) and `External id`
    /// (2021: `external id`; device work and the host operator it ran for): docs/formats.md
    /// §5.4. Read only when args are kept, as the args themselves.
    void readIds(const EventFields &e, chrometrace::EventArgIds &ids) const override
    {
        if (e.phase == 'i' && e.name == "[memory]")
            return;
        static constexpr std::array<std::string_view, 3> Keys = {
            "correlation", "External id", "external id"};
        std::array<std::optional<std::int64_t>, 3> values;
        chrometrace::argInts(e.args, e.argMembers, Keys.data(), values.data(), Keys.size());
        ids.correlation = values[0].value_or(-1);
        ids.externalId = values[1] ? *values[1] : values[2].value_or(-1);
    }

    mutable std::vector<model::Step> steps;
    mutable std::vector<MemorySample> memory;
    mutable std::vector<std::string> devices; ///< "cpu", "cuda:0"... by MemorySample::device
    mutable std::uint64_t badMemoryEvents = 0;
    mutable std::string badBaseTime; ///< `baseTimeNanoseconds` as written, when not used
    /// An event of a category only Kineto writes for device activity: a bare array of such
    /// events is a PyTorch trace (readChromeTrace).
    mutable bool sawDeviceActivity = false;
    /// Lanes taken as GPU streams by their events alone (classifyByCategories).
    mutable std::uint64_t unlabelledStreams = 0;

private:
    /// A `[memory]` instant (docs/formats.md §5.7): a point of its device's curve and, with
    /// an `Addr` on a host thread and of device memory, an allocator event the analysis pairs
    /// into allocations.
    void memoryEvent(const EventInfo &e, model::TraceBuilder &out) const
    {
        const MemoryArgs m = MemoryArgs::read(e.args);
        if (!m.bytes) {
            ++badMemoryEvents;
            return;
        }
        MemorySample s;
        s.ts = e.startNs;
        const std::int64_t type = m.deviceType.value_or(-1);
        s.device = deviceIndex(type == 0, m.deviceId.value_or(-1));
        s.bytes = *m.bytes;
        s.totalAllocated = m.totalAllocated.value_or(-1);
        s.totalReserved = m.totalReserved.value_or(-1);
        // Device Type 1 = CUDA / HIP: only device memory is paired into allocations.
        if (e.trackInfo->kind == model::TrackKind::HostThread && type == 1) {
            if (const auto addr = m.addr)
                out.addAllocatorEvent(model::AllocatorEvent {{e.track, e.index}, *addr, *m.bytes});
        }
        memory.push_back(s);
    }

    /// "cpu", or "cuda:<id>", by number: no string is made for a device seen before.
    std::uint32_t deviceIndex(bool cpu, std::int64_t id) const
    {
        const std::pair<bool, std::int64_t> key(cpu, cpu ? 0 : id);
        const auto it = std::find(deviceKeys.begin(), deviceKeys.end(), key);
        if (it != deviceKeys.end())
            return static_cast<std::uint32_t>(it - deviceKeys.begin());
        deviceKeys.push_back(key);
        devices.push_back(cpu ? std::string("cpu") : "cuda:" + std::to_string(id));
        return static_cast<std::uint32_t>(devices.size() - 1);
    }

    mutable std::vector<std::pair<bool, std::int64_t>> deviceKeys; ///< (cpu, id) by device
};

/// One curve per device in time order; the running total is rebuilt from `Bytes` where the
/// file lacks `Total Allocated` (2021 traces).
void buildMemoryCurves(std::vector<MemorySample> &samples, const std::vector<std::string> &devices,
    model::MemoryData &memory)
{
    std::stable_sort(samples.begin(), samples.end(),
        [](const MemorySample &a, const MemorySample &b) { return a.ts < b.ts; });
    constexpr std::size_t NoCurve = static_cast<std::size_t>(-1);
    std::vector<std::size_t> curveOf(devices.size(), NoCurve);
    std::vector<std::int64_t> running(devices.size(), 0);
    std::vector<char> anyReserved(devices.size(), 0);
    std::vector<std::size_t> points(devices.size(), 0);
    for (const MemorySample &s : samples) {
        anyReserved[s.device] = anyReserved[s.device] || s.totalReserved >= 0;
        ++points[s.device];
    }
    for (const MemorySample &s : samples) {
        std::size_t &c = curveOf[s.device];
        if (c == NoCurve) { // curves in the order their device first appears in time
            c = memory.curves.size();
            model::MemoryCurve curve;
            curve.component = "PyTorch";
            curve.device = devices[s.device];
            curve.timestampsNs.reserve(points[s.device]); // exact: the model keeps no slack
            curve.allocatedBytes.reserve(points[s.device]);
            if (anyReserved[s.device])
                curve.reservedBytes.reserve(points[s.device]);
            memory.curves.push_back(std::move(curve));
        }
        model::MemoryCurve &curve = memory.curves[c];
        std::int64_t &total = running[s.device];
        total = s.totalAllocated >= 0 ? s.totalAllocated : util::satAdd(total, s.bytes);
        curve.timestampsNs.push_back(s.ts);
        curve.allocatedBytes.push_back(total);
        if (anyReserved[s.device])
            curve.reservedBytes.push_back(s.totalReserved);
    }
}

void readTopLevel(const chrometrace::TopLevel &top, model::Trace &trace, std::uint64_t tracksBefore,
    model::TraceBuilder &out)
{
    model::RunMetadata &meta = trace.metadata;
    if (meta.format.empty())
        meta.format = "kineto";
    auto dist = top.keys.find("distributedInfo");
    if (dist != top.keys.end() && dist->is_object()) {
        if (dist->contains("rank") && (*dist)["rank"].is_number_integer()) {
            trace.rank = (*dist)["rank"].get<std::int32_t>();
            meta.rank = trace.rank;
            meta.rankNamed = true;
            for (std::size_t t = tracksBefore; t < out.trackCount(); ++t)
                out.track(model::TrackId(static_cast<std::uint32_t>(t))).info().rank = trace.rank;
        }
        if (dist->contains("world_size") && (*dist)["world_size"].is_number_integer())
            meta.worldSize = (*dist)["world_size"].get<std::int32_t>();
        if (dist->contains("backend") && (*dist)["backend"].is_string())
            meta.extra["backend"] = (*dist)["backend"].get<std::string>();
        if (dist->contains("nccl_version") && (*dist)["nccl_version"].is_string())
            meta.extra["nccl_version"] = (*dist)["nccl_version"].get<std::string>();
    }
    // The device this rank used: the lowest device pid with events, else the first listed.
    std::string devicePid;
    for (std::size_t t = tracksBefore; t < out.trackCount(); ++t) {
        const model::TrackInfo &info =
            out.track(model::TrackId(static_cast<std::uint32_t>(t))).info();
        if (info.kind == model::TrackKind::DeviceStream
            && (devicePid.empty() || info.processId < devicePid))
            devicePid = info.processId;
    }
    auto props = top.keys.find("deviceProperties");
    if (props != top.keys.end() && props->is_array() && !props->empty()) {
        const nlohmann::json *chosen = &(*props)[0];
        for (const nlohmann::json &p : *props) {
            if (p.is_object() && p.contains("id") && p["id"].is_number_integer()
                && std::to_string(p["id"].get<std::int64_t>()) == devicePid)
                chosen = &p;
        }
        if (chosen->is_object() && chosen->contains("name") && (*chosen)["name"].is_string())
            meta.device = (*chosen)["name"].get<std::string>();
    }
    if (!devicePid.empty() && meta.deviceId.empty())
        meta.deviceId = devicePid;
    for (const char *key : {"schemaVersion", "displayTimeUnit", "traceName"}) {
        auto it = top.keys.find(key);
        if (it != top.keys.end())
            meta.extra[key] = it->is_string() ? it->get<std::string>() : it->dump();
    }
}

/// readTrace, or with `generic` readChromeTrace.
bool readAny(const std::filesystem::path &path, const ImportContext &ctx, model::TraceBuilder &out,
    bool generic)
{
    try {
        KinetoDialect dialect;
        chrometrace::TopLevel top;
        const std::size_t tracksBefore = out.trackCount();
        const std::size_t stepsBefore = out.trace().steps.size();
        const bool ok = chrometrace::readTraceFile(path, dialect, ctx, out, &top);
        model::Trace &trace = out.trace();
        trace.metadata.sourceFiles.push_back(ctx.relative(path));
        if (!ok)
            return false;
        if (generic && trace.metadata.format.empty() && !dialect.sawDeviceActivity)
            trace.metadata.format = "chrome-trace";
        readTopLevel(top, trace, tracksBefore, out);

        // Steps: CPU ProfilerStep#N, one per number (the first wins).
        std::stable_sort(dialect.steps.begin(), dialect.steps.end(),
            [](const model::Step &a, const model::Step &b) { return a.startNs < b.startNs; });
        std::vector<std::int64_t> seen;
        for (std::size_t i = 0; i < stepsBefore; ++i)
            seen.push_back(trace.steps[i].number);
        std::uint64_t duplicates = 0;
        for (const model::Step &s : dialect.steps) {
            if (std::find(seen.begin(), seen.end(), s.number) != seen.end()) {
                ++duplicates;
                continue;
            }
            seen.push_back(s.number);
            trace.steps.push_back(s);
        }
        if (duplicates > 0)
            ctx.report->add(model::Severity::Info, ctx.relative(path),
                std::to_string(duplicates) + " repeated ProfilerStep events ignored");
        if (!dialect.memory.empty())
            buildMemoryCurves(dialect.memory, dialect.devices, trace.memory);
        if (!dialect.badBaseTime.empty())
            ctx.report->add(model::Severity::Warning, ctx.relative(path),
                "`baseTimeNanoseconds` " + dialect.badBaseTime
                    + " is not an integer within 2^61 ns (73 years): not used, times are the "
                      "file's own");
        if (dialect.unlabelledStreams > 0)
            ctx.report->add(model::Severity::Info, ctx.relative(path),
                std::to_string(dialect.unlabelledStreams)
                    + " lanes of kernels and copies in a process without `process_labels` "
                      "(Kineto writes them last: a cut file lacks them): read as GPU streams");
        if (dialect.badMemoryEvents > 0)
            ctx.report->add(model::Severity::Warning, ctx.relative(path),
                std::to_string(dialect.badMemoryEvents)
                    + " [memory] events without an integer `Bytes` ignored");
        return true;
    } catch (const util::Cancelled &) {
        throw;
    } catch (const std::exception &e) {
        ctx.error(path, std::string("Kineto import stopped: ") + e.what());
        return false;
    }
}

} // namespace

bool readTrace(
    const std::filesystem::path &path, const ImportContext &ctx, model::TraceBuilder &out)
{
    return readAny(path, ctx, out, false);
}

bool readChromeTrace(
    const std::filesystem::path &path, const ImportContext &ctx, model::TraceBuilder &out)
{
    return readAny(path, ctx, out, true);
}

} // namespace stepscope::import::kineto
