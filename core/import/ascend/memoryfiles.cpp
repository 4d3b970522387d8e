// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "memoryfiles.h"

#include "import/csv/csvfield.h"
#include "import/csv/csvreader.h"
#include "util/decimal.h"
#include "util/saturate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace stepscope::import::ascend {

namespace {

std::optional<std::int64_t> scaledBytes(std::string_view text, double factor)
{
    const std::optional<double> v = csv::parseNumber(text);
    if (!v || !std::isfinite(*v))
        return std::nullopt;
    const double bytes = *v * factor;
    // Beyond int64 the size is no number of bytes (llround's result would be unspecified).
    if (std::fabs(bytes) > 9.0e18)
        return std::nullopt;
    return util::saturatingRound(bytes);
}

/// Sorts the parallel vectors of one series by time (stable).
template <typename... Vectors> void sortByTime(std::vector<std::int64_t> &times, Vectors &...values)
{
    std::vector<std::size_t> order(times.size());
    std::iota(order.begin(), order.end(), std::size_t {0});
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });
    auto apply = [&order](std::vector<std::int64_t> &v) {
        if (v.size() != order.size())
            return;
        std::vector<std::int64_t> sorted;
        sorted.reserve(v.size());
        for (std::size_t i : order)
            sorted.push_back(v[i]);
        v = std::move(sorted);
    };
    (apply(values), ...);
    apply(times);
}

bool isModuleName(std::string_view s)
{
    if (s.empty())
        return false;
    return !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

std::optional<std::int64_t> megabytesToBytes(std::string_view text)
{
    return scaledBytes(text, 1024.0 * 1024.0);
}

std::optional<std::int64_t> kilobytesToBytes(std::string_view text)
{
    return scaledBytes(text, 1024.0);
}

std::vector<model::MemoryCurve> readMemoryRecord(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::MemoryCurve> curves;
    csv::CsvReader reader(path, &ctx);
    if (!reader.readHeader())
        return curves;
    const int cComp = reader.column("Component");
    const int cTime = reader.column("Timestamp(us)");
    const int cAlloc = reader.column("Total Allocated(MB)");
    const int cRes = reader.column("Total Reserved(MB)");
    const int cActive = reader.column("Total Active(MB)");
    const int cDevice = reader.columnAnyOf({"Device Type", "Device"});
    if (cComp < 0 || cTime < 0 || (cAlloc < 0 && cRes < 0)) {
        ctx.error(path,
            "memory_record.csv needs the columns `Component`, `Timestamp(us)` and "
            "`Total Allocated(MB)` or `Total Reserved(MB)`; the file was not loaded",
            1);
        return curves;
    }
    std::map<std::string, std::size_t> byComponent;
    std::int64_t mangledLine = 0;
    std::uint64_t mangled = 0;
    auto bytesOrMissing = [&](int col) -> std::int64_t {
        return megabytesToBytes(reader.field(col)).value_or(-1);
    };
    while (reader.next()) {
        const csv::ExactValue t = csv::parseMicros(reader.field(cTime));
        if (t.status == csv::ValueStatus::Scientific) {
            if (mangled++ == 0)
                mangledLine = reader.line();
            continue;
        }
        if (t.status != csv::ValueStatus::Ok) {
            ctx.warn(path, csv::timeProblem(t.status, "Timestamp(us)"), reader.line());
            continue;
        }
        const std::string component(reader.field(cComp));
        auto it = byComponent.find(component);
        if (it == byComponent.end()) {
            model::MemoryCurve c;
            c.component = component;
            c.device = std::string(reader.field(cDevice));
            curves.push_back(std::move(c));
            it = byComponent.emplace(component, curves.size() - 1).first;
        }
        model::MemoryCurve &c = curves[it->second];
        c.timestampsNs.push_back(t.value);
        c.allocatedBytes.push_back(cAlloc >= 0 ? bytesOrMissing(cAlloc) : -1);
        c.reservedBytes.push_back(cRes >= 0 ? bytesOrMissing(cRes) : -1);
        if (cActive >= 0)
            c.activeBytes.push_back(bytesOrMissing(cActive));
    }
    if (mangled > 0) {
        ctx.warn(path,
            std::to_string(mangled)
                + " timestamps are in scientific notation (the file was re-saved by a "
                  "spreadsheet and lost its precision): the memory curve has no usable "
                  "time axis and was not loaded",
            mangledLine);
        curves.clear();
        return curves;
    }
    for (model::MemoryCurve &c : curves)
        sortByTime(c.timestampsNs, c.allocatedBytes, c.reservedBytes, c.activeBytes);
    return curves;
}

std::vector<model::Allocation> readOperatorMemory(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::Allocation> allocations;
    csv::CsvReader reader(path, &ctx);
    if (!reader.readHeader())
        return allocations;
    const int cName = reader.column("Name");
    const int cSize = reader.column("Size(KB)");
    const int cAlloc = reader.column("Allocation Time(us)");
    const int cRelease = reader.column("Release Time(us)");
    if (cName < 0 || cSize < 0 || cAlloc < 0) {
        ctx.error(path,
            "operator_memory.csv needs the columns `Name`, `Size(KB)` and "
            "`Allocation Time(us)`; the file was not loaded",
            1);
        return allocations;
    }
    while (reader.next()) {
        const csv::ExactValue a = csv::parseMicros(reader.field(cAlloc));
        if (a.status != csv::ValueStatus::Ok) {
            ctx.warn(path, csv::timeProblem(a.status, "Allocation Time(us)"), reader.line());
            continue;
        }
        const std::optional<std::int64_t> size = kilobytesToBytes(reader.field(cSize));
        if (!size) {
            ctx.warn(path, "`Size(KB)` must be a number; row skipped", reader.line());
            continue;
        }
        model::Allocation alloc;
        alloc.op = std::string(reader.field(cName));
        alloc.sizeBytes = *size;
        alloc.allocatedNs = a.value;
        const csv::ExactValue r = csv::parseMicros(reader.field(cRelease));
        if (r.status == csv::ValueStatus::Ok) {
            alloc.releasedNs = r.value;
        } else if (r.status != csv::ValueStatus::Missing) {
            ctx.warn(path,
                "`Release Time(us)` must be a number or empty; the allocation is kept as "
                "never released",
                reader.line());
        }
        allocations.push_back(std::move(alloc));
    }
    return allocations;
}

std::vector<model::ModuleMemory> readNpuModuleMem(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::ModuleMemory> modules;
    csv::CsvReader reader(path, &ctx);
    if (!reader.readHeader())
        return modules;
    const int cComp = reader.column("Component");
    const int cTime = reader.column("Timestamp(us)");
    const int cRes = reader.column("Total Reserved(MB)");
    const int cDevice = reader.columnAnyOf({"Device", "Device Type"});
    if (cComp < 0 || cTime < 0 || cRes < 0) {
        ctx.error(path,
            "npu_module_mem.csv needs the columns `Component`, `Timestamp(us)` and "
            "`Total Reserved(MB)`; the file was not loaded",
            1);
        return modules;
    }
    std::map<std::string, std::size_t> byModule;
    while (reader.next()) {
        const csv::ExactValue t = csv::parseMicros(reader.field(cTime));
        if (t.status != csv::ValueStatus::Ok) {
            ctx.warn(path, csv::timeProblem(t.status, "Timestamp(us)"), reader.line());
            continue;
        }
        const std::optional<std::int64_t> bytes = megabytesToBytes(reader.field(cRes));
        if (!bytes) {
            ctx.warn(path, "`Total Reserved(MB)` must be a number; row skipped", reader.line());
            continue;
        }
        const std::string_view comp = reader.field(cComp);
        const std::string name = isModuleName(comp) ? std::string(comp) : std::string("other");
        auto it = byModule.find(name);
        if (it == byModule.end()) {
            model::ModuleMemory m;
            m.module = name;
            m.device = std::string(reader.field(cDevice));
            modules.push_back(std::move(m));
            it = byModule.emplace(name, modules.size() - 1).first;
        }
        modules[it->second].timestampsNs.push_back(t.value);
        modules[it->second].reservedBytes.push_back(*bytes);
    }
    for (model::ModuleMemory &m : modules)
        sortByTime(m.timestampsNs, m.reservedBytes);
    return modules;
}

std::vector<model::StaticAllocation> readStaticOpMem(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::StaticAllocation> allocations;
    csv::CsvReader reader(path, &ctx);
    if (!reader.readHeader())
        return allocations;
    const int cOp = reader.column("Op Name");
    const int cModel = reader.column("Model Name");
    const int cSize = reader.column("Size(KB)");
    if (cOp < 0 || cSize < 0) {
        ctx.error(path,
            "static_op_mem.csv needs the columns `Op Name` and `Size(KB)`; the "
            "file was not loaded",
            1);
        return allocations;
    }
    while (reader.next()) {
        const std::optional<std::int64_t> size = kilobytesToBytes(reader.field(cSize));
        if (!size) {
            ctx.warn(path, "`Size(KB)` must be a number; row skipped", reader.line());
            continue;
        }
        model::StaticAllocation a;
        a.op = std::string(reader.field(cOp));
        a.model = std::string(reader.field(cModel));
        a.sizeBytes = *size;
        allocations.push_back(std::move(a));
    }
    return allocations;
}

void shiftMemoryTimes(model::MemoryData &memory, std::int64_t originNs)
{
    // The CSV times are inside ±2^61 ns (csv::parseMicros), but the origin may come from
    // trace_view.json: held at the int64 limits rather than overflowed.
    for (model::MemoryCurve &c : memory.curves)
        for (std::int64_t &t : c.timestampsNs)
            t = util::satSub(t, originNs);
    for (model::ModuleMemory &m : memory.modules)
        for (std::int64_t &t : m.timestampsNs)
            t = util::satSub(t, originNs);
    for (model::Allocation &a : memory.allocations) {
        a.allocatedNs = util::satSub(a.allocatedNs, originNs);
        if (a.releasedNs != -1)
            a.releasedNs = util::satSub(a.releasedNs, originNs);
    }
}

} // namespace stepscope::import::ascend
