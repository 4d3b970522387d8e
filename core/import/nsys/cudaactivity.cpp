// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// Device lanes of an Nsight Systems export (docs/formats.md §12.2, §12.4): the CUPTI activity
// tables. Kernels, memcpys and memsets go on their (GPU, context, stream) lane; sync rows
// (streamId 4294967295 on every row of the sample) on the GPU's `Synchronization` lane.
// Every row stays as recorded: device work that ends after its API call returns is never
// clamped into it (§12.5).

#include "import/cuda/kernelcategory.h"
#include "import/sqlite/tablescan.h"
#include "nsysdb.h"
#include "util/text.h"

#include <algorithm>

namespace stepscope::import::nsys {

namespace {

using model::Category;
using sqlite::TablePresence;
using sqlite::TableScan;

constexpr std::int64_t NoId = 4294967295; // CUPTI's "none" for stream and event ids

/// The columns every activity table starts with, in this order.
std::vector<sqlite::ColumnSpec> deviceColumns(std::vector<sqlite::ColumnSpec> extra)
{
    std::vector<sqlite::ColumnSpec> c {{"start"}, {"end"}, {"deviceId"}, {"contextId", false},
        {"streamId", false}, {"correlationId", false}, {"globalPid", false}};
    c.insert(c.end(), extra.begin(), extra.end());
    return c;
}
constexpr std::size_t Extra = 7; // index of the first table-specific column

struct DeviceRow
{
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::int64_t device = 0;
    std::int64_t context = 0;
    std::int64_t stream = NoId;
    std::optional<std::int64_t> correlation;
    std::optional<std::int64_t> globalPid;
    std::int64_t duration() const { return std::max<std::int64_t>(0, end - start); }
};

/// The leading columns of an activity row; nullopt when a required one is null (reported by
/// needInt) or the row is another trace's process.
std::optional<DeviceRow> readRow(TableScan &s, const NsysDb &p)
{
    const auto start = p.time(s.needInt(0));
    const auto end = p.time(s.needInt(1));
    const auto device = s.needInt(2);
    if (!start || !end || !device)
        return std::nullopt;
    DeviceRow r;
    r.start = *start;
    r.end = *end;
    r.device = *device;
    r.context = s.int64(3).value_or(0);
    r.stream = s.int64(4).value_or(NoId);
    r.correlation = s.int64(5);
    r.globalPid = s.int64(6);
    if (!p.mine(r.globalPid))
        return std::nullopt;
    return r;
}

/// The interned name of `key`, made by `make()` the first time (a table has few distinct
/// names).
template <typename Key, typename Make>
model::StringId nameOf(NsysDb &p, std::map<Key, model::StringId> &names, const Key &key, Make make)
{
    auto it = names.find(key);
    if (it == names.end())
        it = names.emplace(key, p.out.intern(make())).first;
    return it->second;
}

/// `CUDA_MEMCPY_KIND_HTOD` -> `HtoD`, `CUDA_MEMCPY_KIND_UVM_DTOH` -> `UVM DtoH` (Kineto's
/// and the Nsight GUI's spelling); an unknown id -> its number.
std::string copyKindCode(std::string_view enumName, std::int64_t id)
{
    constexpr std::string_view Prefix = "CUDA_MEMCPY_KIND_";
    // No enum table (older exports): the documented ids (§12.1).
    static const char *const Documented[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
        "AtoD", "DtoA", "DtoD", "HtoH", "PtoP", "UVM HtoD", "UVM DtoH", "UVM DtoD"};
    if (enumName.empty() && id >= 0 && id < 14)
        return Documented[id];
    if (enumName.substr(0, Prefix.size()) != Prefix)
        return enumName.empty() ? std::to_string(id) : std::string(enumName);
    std::string_view rest = enumName.substr(Prefix.size());
    std::string out;
    if (rest.substr(0, 4) == "UVM_") {
        out = "UVM ";
        rest.remove_prefix(4);
    }
    if (rest.size() == 4 && rest.substr(1, 2) == "TO") {
        out += rest[0];
        out += "to";
        out += rest[3];
    } else {
        out += util::asciiLower(rest);
    }
    return out;
}

/// The args of a device row when the reader keeps args: device, context, stream and
/// correlation, then the table's own (`extra()` adds them to p.args); none otherwise.
template <typename AddExtra> model::ArgsId deviceArgs(NsysDb &p, const DeviceRow &r, AddExtra extra)
{
    if (!p.keepArgs())
        return {};
    p.args.begin();
    p.args.number("device", r.device).number("context", r.context);
    if (r.stream != NoId)
        p.args.number("stream", r.stream);
    if (r.correlation)
        p.args.number("correlation", *r.correlation);
    extra();
    return p.out.trace().args.add(p.args.end());
}

/// Where a device row goes: its (GPU, context, stream) lane, work of that GPU
/// (NsysDb::deviceWork picks the rank's GPU by it); or its GPU's `Synchronization` lane.
enum class DeviceLane : std::uint8_t { Stream, Sync };

/// What every device row ends with: the event on its lane, the ac2g flow from its runtime
/// call, the trace's end, and the counts (`count`: the table's in NsysCounts).
void placeDeviceRow(NsysDb &p, const DeviceRow &r, DeviceLane where, model::StringId name,
    Category category, model::ArgsId args, std::uint64_t &count)
{
    const model::TrackId lane = where == DeviceLane::Stream
        ? p.streamLane(r.device, r.context, r.stream)
        : p.syncLane(r.device);
    if (r.end < r.start)
        ++p.endsBeforeStart;
    const std::uint32_t i = p.out.track(lane).add(r.start, r.duration(), name, category, args);
    p.linkLaunch(r.globalPid, r.correlation, {lane, i});
    p.seen(r.end);
    if (where == DeviceLane::Stream)
        ++p.deviceWork[r.device];
    ++count;
}

void readKernels(NsysDb &p)
{
    TableScan s(p.db, p.ctx, "CUPTI_ACTIVITY_KIND_KERNEL",
        deviceColumns({{"demangledName", false}, {"shortName", false}, {"mangledName", false},
            {"gridX", false}, {"gridY", false}, {"gridZ", false}, {"blockX", false},
            {"blockY", false}, {"blockZ", false}, {"registersPerThread", false},
            {"staticSharedMemory", false}, {"dynamicSharedMemory", false}, {"graphNodeId", false}}),
        {}, TablePresence::Optional);
    if (s.ok() && !s.has(Extra) && !s.has(Extra + 1))
        p.ctx.warn(p.db.path(),
            "table `CUPTI_ACTIVITY_KIND_KERNEL` has neither `demangledName` nor `shortName`; "
            "kernels are named by their correlation id");
    const model::StringId unnamed = p.out.intern("kernel");
    while (s.next()) {
        const auto r = readRow(s, p);
        if (!r)
            continue;
        // A name id StringIds lacks (a damaged export) gives way to the kernel's other names.
        // Without the table (said once) every kernel keeps its ids as names.
        auto full = s.int64(Extra);
        auto shortId = s.int64(Extra + 1);
        const auto mangled = s.int64(Extra + 2);
        const auto unknown = [&](const std::optional<std::int64_t> &id) {
            return id && p.strings.size() > 0 && !p.strings.has(*id);
        };
        if (unknown(full) || (!full && unknown(shortId))) {
            ++p.unknownNameIds;
            if (unknown(full))
                full = shortId && !unknown(shortId) ? shortId : mangled;
            if (unknown(shortId))
                shortId.reset();
        }
        const model::StringId name = full ? p.strings.intern(*full, p.out)
            : shortId                     ? p.strings.intern(*shortId, p.out)
                                          : unnamed;
        // NCCL kernels by their bare function name, else the full one (§12.3).
        const std::string_view test = shortId ? p.strings.text(*shortId)
            : full                            ? p.strings.text(*full)
                                              : std::string_view();
        const model::ArgsId args = deviceArgs(p, *r, [&] {
            if (shortId)
                p.args.text("short name", p.strings.text(*shortId));
            if (mangled)
                p.args.text("mangled name", p.strings.text(*mangled));
            auto triple = [&](std::size_t c) {
                return std::to_string(s.int64(c).value_or(0)) + ","
                    + std::to_string(s.int64(c + 1).value_or(0)) + ","
                    + std::to_string(s.int64(c + 2).value_or(0));
            };
            if (s.has(Extra + 3))
                p.args.text("grid", triple(Extra + 3));
            if (s.has(Extra + 6))
                p.args.text("block", triple(Extra + 6));
            if (const auto v = s.int64(Extra + 9))
                p.args.number("registers per thread", *v);
            if (const auto v = s.int64(Extra + 10))
                p.args.number("static shared memory", *v);
            if (const auto v = s.int64(Extra + 11))
                p.args.number("dynamic shared memory", *v);
            if (const auto v = s.int64(Extra + 12))
                p.args.number("graph node", *v);
        });
        placeDeviceRow(
            p, *r, DeviceLane::Stream, name, cuda::kernelCategory(test), args, p.counts.kernels);
    }
}

void readMemcpy(NsysDb &p)
{
    TableScan s(p.db, p.ctx, "CUPTI_ACTIVITY_KIND_MEMCPY",
        deviceColumns({{"bytes", false}, {"copyKind", false}, {"srcKind", false},
            {"dstKind", false}, {"srcDeviceId", false}, {"dstDeviceId", false}}),
        {}, TablePresence::Optional);
    // Names by (copyKind, srcKind, dstKind): few distinct, interned once.
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, model::StringId> names;
    while (s.next()) {
        const auto r = readRow(s, p);
        if (!r)
            continue;
        const std::int64_t kind = s.int64(Extra + 1).value_or(0);
        const std::int64_t src = s.int64(Extra + 2).value_or(-1);
        const std::int64_t dst = s.int64(Extra + 3).value_or(-1);
        const model::StringId name = nameOf(p, names, std::make_tuple(kind, src, dst), [&] {
            std::string n = "Memcpy " + copyKindCode(p.memcpyKinds.text(kind), kind);
            if (src >= 0 && dst >= 0)
                n += " (" + std::string(p.memKinds.text(src, "?")) + " -> "
                    + std::string(p.memKinds.text(dst, "?")) + ")";
            return n;
        });
        const model::ArgsId args = deviceArgs(p, *r, [&] {
            if (const auto b = s.int64(Extra))
                p.args.number("bytes", *b);
            if (const auto v = s.int64(Extra + 4))
                p.args.number("src device", *v);
            if (const auto v = s.int64(Extra + 5))
                p.args.number("dst device", *v);
        });
        placeDeviceRow(p, *r, DeviceLane::Stream, name, Category::Memcpy, args, p.counts.memcpys);
    }
}

void readMemset(NsysDb &p)
{
    TableScan s(p.db, p.ctx, "CUPTI_ACTIVITY_KIND_MEMSET",
        deviceColumns({{"bytes", false}, {"value", false}, {"memKind", false}}), {},
        TablePresence::Optional);
    std::map<std::int64_t, model::StringId> names;
    while (s.next()) {
        const auto r = readRow(s, p);
        if (!r)
            continue;
        const std::int64_t kind = s.int64(Extra + 2).value_or(-1);
        const model::StringId name = nameOf(p, names, kind, [&] {
            return kind >= 0 ? "Memset (" + std::string(p.memKinds.text(kind, "?")) + ")"
                             : std::string("Memset");
        });
        const model::ArgsId args = deviceArgs(p, *r, [&] {
            if (const auto b = s.int64(Extra))
                p.args.number("bytes", *b);
            if (const auto v = s.int64(Extra + 1))
                p.args.number("value", *v);
        });
        placeDeviceRow(p, *r, DeviceLane::Stream, name, Category::Memset, args, p.counts.memsets);
    }
}

void readSync(NsysDb &p)
{
    TableScan s(p.db, p.ctx, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        deviceColumns({{"syncType", false}, {"eventId", false}}), {}, TablePresence::Optional);
    std::map<std::int64_t, model::StringId> names;
    while (s.next()) {
        const auto r = readRow(s, p);
        if (!r)
            continue;
        // The file's own enum labels the type (its label can disagree with the API that
        // caused it, §12.5: the flow shows that API).
        const std::int64_t type = s.int64(Extra).value_or(0);
        const model::StringId name = nameOf(p, names, type, [&] {
            std::string n(p.syncTypes.text(type));
            return n.empty() ? "Synchronization " + std::to_string(type) : n;
        });
        const model::ArgsId args = deviceArgs(p, *r, [&] {
            if (const auto e = s.int64(Extra + 1); e && *e != NoId)
                p.args.number("event", *e);
        });
        placeDeviceRow(p, *r, DeviceLane::Sync, name, Category::Runtime, args, p.counts.syncs);
    }
}

} // namespace

void readDeviceActivity(NsysDb &p)
{
    readKernels(p);
    readMemcpy(p);
    readMemset(p);
    readSync(p);
}

} // namespace stepscope::import::nsys
