// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// Memory and counters of an Ascend profiler DB (docs/formats.md §11.5), into the same model the
// text export's memory CSVs and trace_view.json counters give:
// - MEMORY_RECORD: one curve per component (`PTA`, `GE`, `PTA+GE`), bytes; GE rows carry
//   no stream and a 0 `totalActive` where the CSV has an empty cell: -1 (not recorded).
// - NPU_MEM `app` rows: the `APP` curve, Total Reserved = hbm (the CSV's APP rows).
// - OP_MEMORY: allocations (NULL releaseTime = alive at the end).
// - NPU_MODULE_MEM ⋈ ENUM_MODULE: module series.
// - Counters as trace_view.json names them: `AI Core Freq` (MHz), `HBM <id>/Read|Write`
//   (MB/s), `LLC <id> <Mode>/Hit Rate|Throughput`, `NPU MEM` APP|Device /DDR|HBM|Memory
//   (KB), `Acc PMU` levels, `Stars Soc Info` levels. MB = 2^20 bytes (§2.8).
// Every series is sorted by time (several tables are not: §11.8).

#include "import/sqlite/tablescan.h"
#include "profilerdb.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace stepscope::import::ascenddb {

namespace {

using sqlite::TablePresence;
using sqlite::TableScan;

constexpr double MiB = 1024.0 * 1024.0;

std::string deviceLabel(std::int64_t device)
{
    return "NPU:" + std::to_string(device);
}

/// Sorts parallel vectors by the first (stable).
template <typename... V> void sortByTime(std::vector<std::int64_t> &t, V &...values)
{
    if (std::is_sorted(t.begin(), t.end()))
        return;
    std::vector<std::size_t> order(t.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(
        order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return t[a] < t[b]; });
    auto apply = [&](auto &v) {
        if (v.size() != order.size())
            return;
        auto copy = v;
        for (std::size_t i = 0; i < order.size(); ++i)
            v[i] = copy[order[i]];
    };
    apply(t);
    (apply(values), ...);
}

std::string capitalised(std::string_view s)
{
    std::string out(s);
    if (!out.empty() && out[0] >= 'a' && out[0] <= 'z')
        out[0] = static_cast<char>(out[0] - 'a' + 'A');
    return out;
}

/// Counter series by (process, name), filled in any order, sorted at the end.
class CounterSet
{
public:
    void add(const std::string &process, const std::string &name, const std::string &key,
        std::int64_t t, double v)
    {
        const auto k = std::make_pair(process, name);
        auto it = m_index.find(k);
        if (it == m_index.end()) {
            model::CounterSeries c;
            c.process = process;
            c.name = name;
            c.key = key;
            m_series.push_back(std::move(c));
            it = m_index.emplace(k, m_series.size() - 1).first;
        }
        m_series[it->second].timestampsNs.push_back(t);
        m_series[it->second].values.push_back(v);
    }
    void moveInto(std::vector<model::CounterSeries> &out)
    {
        for (model::CounterSeries &c : m_series) {
            sortByTime(c.timestampsNs, c.values);
            out.push_back(std::move(c));
        }
        m_series.clear();
        m_index.clear();
    }

private:
    std::vector<model::CounterSeries> m_series;
    std::map<std::pair<std::string, std::string>, std::size_t> m_index;
};

void readMemoryRecord(ProfilerDb &p, std::vector<model::MemoryCurve> &curves)
{
    TableScan s(p.db, p.ctx, "MEMORY_RECORD",
        {{"component"}, {"timestamp"}, {"totalAllocated"}, {"totalReserved"},
            {"totalActive", false}, {"streamPtr", false}, {"deviceId", false}},
        {}, TablePresence::Optional);
    std::map<std::int64_t, std::size_t> byComponent;
    while (s.next()) {
        const auto component = s.needInt(0);
        const auto t = s.needInt(1);
        if (!component || !t)
            continue;
        auto it = byComponent.find(*component);
        if (it == byComponent.end()) {
            model::MemoryCurve c;
            c.component = std::string(p.strings.text(*component, "unknown"));
            c.device = deviceLabel(s.int64(6).value_or(0));
            curves.push_back(std::move(c));
            it = byComponent.emplace(*component, curves.size() - 1).first;
        }
        model::MemoryCurve &c = curves[it->second];
        c.timestampsNs.push_back(p.rel(*t));
        c.allocatedBytes.push_back(s.int64(2).value_or(-1));
        c.reservedBytes.push_back(s.int64(3).value_or(-1));
        const bool noStream = s.isNull(5);
        const std::int64_t active = s.int64(4).value_or(-1);
        c.activeBytes.push_back(noStream && active == 0 ? -1 : active);
    }
}

void readNpuMem(ProfilerDb &p, std::vector<model::MemoryCurve> &curves, CounterSet &counters)
{
    TableScan s(p.db, p.ctx, "NPU_MEM",
        {{"type"}, {"ddr"}, {"hbm"}, {"timestampNs"}, {"deviceId", false}}, {},
        TablePresence::Optional);
    std::optional<std::size_t> app;
    while (s.next()) {
        const auto type = s.needInt(0);
        const auto ddr = s.needInt(1);
        const auto hbm = s.needInt(2);
        const auto t = s.needInt(3);
        if (!type || !ddr || !hbm || !t)
            continue;
        const std::string_view kind = p.strings.text(*type);
        const std::string prefix = kind == "app" ? "APP" : capitalised(kind);
        const std::int64_t rel = p.rel(*t);
        counters.add("NPU MEM", prefix + "/DDR", "KB", rel, static_cast<double>(*ddr) / 1024.0);
        counters.add("NPU MEM", prefix + "/HBM", "KB", rel, static_cast<double>(*hbm) / 1024.0);
        counters.add("NPU MEM", prefix + "/Memory", "KB", rel,
            (static_cast<double>(*ddr) + static_cast<double>(*hbm)) / 1024.0);
        if (kind != "app")
            continue;
        if (!app) {
            model::MemoryCurve c;
            c.component = "APP";
            c.device = deviceLabel(s.int64(4).value_or(0));
            curves.push_back(std::move(c));
            app = curves.size() - 1;
        }
        model::MemoryCurve &c = curves[*app];
        c.timestampsNs.push_back(rel);
        c.allocatedBytes.push_back(-1);
        c.reservedBytes.push_back(*hbm);
        c.activeBytes.push_back(-1);
    }
}

void readOpMemory(ProfilerDb &p, std::vector<model::Allocation> &allocations)
{
    TableScan s(p.db, p.ctx, "OP_MEMORY",
        {{"name"}, {"size"}, {"allocationTime"}, {"releaseTime", false}}, {},
        TablePresence::Optional);
    while (s.next()) {
        const auto size = s.needInt(1);
        const auto allocated = s.needInt(2);
        if (!size || !allocated)
            continue;
        model::Allocation a;
        a.op = std::string(p.strings.text(s.int64(0).value_or(-1)));
        a.sizeBytes = *size;
        a.allocatedNs = p.rel(*allocated);
        if (const auto released = s.int64(3))
            a.releasedNs = p.rel(*released);
        allocations.push_back(std::move(a));
    }
    std::stable_sort(allocations.begin(), allocations.end(),
        [](const model::Allocation &a, const model::Allocation &b) {
            return a.allocatedNs < b.allocatedNs;
        });
}

void readModuleMemory(ProfilerDb &p, std::vector<model::ModuleMemory> &modules)
{
    if (!p.db.hasTable("NPU_MODULE_MEM"))
        return;
    sqlite::IdStrings names;
    names.load(p.db, p.ctx, "ENUM_MODULE", "id", "name", TablePresence::Optional);
    TableScan s(p.db, p.ctx, "NPU_MODULE_MEM",
        {{"moduleId"}, {"timestampNs"}, {"totalReserved"}, {"deviceId", false}}, {},
        TablePresence::Optional);
    std::map<std::int64_t, std::size_t> byModule;
    while (s.next()) {
        const auto module = s.needInt(0);
        const auto t = s.needInt(1);
        const auto reserved = s.needInt(2);
        if (!module || !t || !reserved)
            continue;
        auto it = byModule.find(*module);
        if (it == byModule.end()) {
            model::ModuleMemory m;
            m.module = std::string(names.text(*module, "other"));
            m.device = deviceLabel(s.int64(3).value_or(0));
            modules.push_back(std::move(m));
            it = byModule.emplace(*module, modules.size() - 1).first;
        }
        modules[it->second].timestampsNs.push_back(p.rel(*t));
        modules[it->second].reservedBytes.push_back(*reserved);
    }
    for (model::ModuleMemory &m : modules)
        sortByTime(m.timestampsNs, m.reservedBytes);
}

} // namespace

void readMemory(ProfilerDb &p)
{
    model::MemoryData &memory = p.out.trace().memory;
    CounterSet npuMem;
    readMemoryRecord(p, memory.curves);
    readNpuMem(p, memory.curves, npuMem);
    for (model::MemoryCurve &c : memory.curves)
        sortByTime(c.timestampsNs, c.allocatedBytes, c.reservedBytes, c.activeBytes);
    npuMem.moveInto(p.out.trace().counters);
    readOpMemory(p, memory.allocations);
    readModuleMemory(p, memory.modules);
}

void readCounters(ProfilerDb &p)
{
    CounterSet set;
    {
        TableScan s(
            p.db, p.ctx, "AICORE_FREQ", {{"timestampNs"}, {"freq"}}, {}, TablePresence::Optional);
        while (s.next()) {
            const auto t = s.needInt(0);
            const auto f = s.needReal(1);
            if (t && f)
                set.add("AI Core Freq", "AI Core Freq", "MHz", p.rel(*t), *f);
        }
    }
    {
        TableScan s(p.db, p.ctx, "HBM", {{"timestampNs"}, {"bandwidth"}, {"hbmId"}, {"type"}}, {},
            TablePresence::Optional);
        while (s.next()) {
            const auto t = s.needInt(0);
            const auto bw = s.needReal(1);
            if (!t || !bw)
                continue;
            const std::string dir = capitalised(p.strings.text(s.int64(3).value_or(-1), "?"));
            set.add("HBM", "HBM " + std::to_string(s.int64(2).value_or(0)) + "/" + dir,
                dir + "(MB/s)", p.rel(*t), *bw / MiB);
        }
    }
    {
        TableScan s(p.db, p.ctx, "LLC",
            {{"timestampNs"}, {"llcId"}, {"hitRate"}, {"throughput"}, {"mode"}}, {},
            TablePresence::Optional);
        while (s.next()) {
            const auto t = s.needInt(0);
            if (!t)
                continue;
            const std::string base = "LLC " + std::to_string(s.int64(1).value_or(0)) + " "
                + capitalised(p.strings.text(s.int64(4).value_or(-1), "?"));
            if (const auto hit = s.real(2))
                set.add("LLC", base + "/Hit Rate", "Hit Rate(%)", p.rel(*t), *hit);
            if (const auto tp = s.real(3))
                set.add("LLC", base + "/Throughput", "Throughput(MB/s)", p.rel(*t), *tp / MiB);
        }
    }
    {
        TableScan s(p.db, p.ctx, "ACC_PMU",
            {{"timestampNs"}, {"readBwLevel"}, {"writeBwLevel"}, {"readOstLevel"},
                {"writeOstLevel"}},
            {}, TablePresence::Optional);
        static const char *const names[] = {
            "read_bandwidth", "write_band_width", "read_ost", "write_ost"};
        while (s.next()) {
            const auto t = s.needInt(0);
            if (!t)
                continue;
            for (std::size_t i = 0; i < 4; ++i)
                if (const auto v = s.real(i + 1))
                    set.add("Acc PMU", names[i], "value", p.rel(*t), *v);
        }
    }
    {
        TableScan s(p.db, p.ctx, "SOC_BANDWIDTH_LEVEL",
            {{"timestampNs"}, {"l2BufferBwLevel"}, {"mataBwLevel"}}, {}, TablePresence::Optional);
        while (s.next()) {
            const auto t = s.needInt(0);
            if (!t)
                continue;
            if (const auto v = s.real(1))
                set.add(
                    "Stars Soc Info", "L2 Buffer Bw Level", "L2 Buffer Bw Level", p.rel(*t), *v);
            if (const auto v = s.real(2))
                set.add("Stars Soc Info", "Mata Bw Level", "Mata Bw Level", p.rel(*t), *v);
        }
    }
    set.moveInto(p.out.trace().counters);
}

} // namespace stepscope::import::ascenddb
