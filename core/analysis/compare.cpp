// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "compare.h"

#include "analysissummary.h"
#include "util/saturate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace stepscope::analysis {

std::string_view pairingModeName(PairingMode mode)
{
    switch (mode) {
    case PairingMode::ByNumber:
        return "by step number";
    case PairingMode::ByOrder:
        return "by order";
    case PairingMode::Manual:
        return "manual";
    }
    return "by order";
}

std::string_view verdictName(Verdict v)
{
    switch (v) {
    case Verdict::Improved:
        return "improved";
    case Verdict::Regressed:
        return "regressed";
    case Verdict::Unchanged:
        return "unchanged";
    case Verdict::Unknown:
        return "unknown";
    }
    return "unknown";
}

std::string_view verdictText(const DeltaRow &row)
{
    if (row.verdict == Verdict::Unknown && row.delta && row.better == Better::Neither)
        return "changed";
    return verdictName(row.verdict);
}

const StepPair *StepPairing::findBefore(std::size_t beforeIndex) const
{
    for (const StepPair &p : pairs)
        if (p.beforeIndex == beforeIndex)
            return &p;
    return nullptr;
}

const StepPair *StepPairing::findAfter(std::size_t afterIndex) const
{
    for (const StepPair &p : pairs)
        if (p.afterIndex == afterIndex)
            return &p;
    return nullptr;
}

namespace {

bool uniqueNumbers(const std::vector<std::int64_t> &v)
{
    std::set<std::int64_t> seen(v.begin(), v.end());
    return seen.size() == v.size();
}

std::optional<std::size_t> indexOf(const std::vector<std::int64_t> &v, std::int64_t number)
{
    auto it = std::find(v.begin(), v.end(), number);
    if (it == v.end())
        return std::nullopt;
    return static_cast<std::size_t>(it - v.begin());
}

} // namespace

// Pairing by number keeps "before" order; a number shared by both sides but appearing in a
// different relative order on the "after" side would break the invariant that afterIndex
// increases, so such out-of-order pairs are skipped (steps are sorted by start, and step
// numbers grow with time in every format we read, so this does not happen in practice).
StepPairing pairStepNumbers(const std::vector<std::int64_t> &before,
    const std::vector<std::int64_t> &after, std::optional<ManualAnchor> anchor, bool byNumber)
{
    StepPairing result;
    if (anchor) {
        auto i = indexOf(before, anchor->beforeStep);
        auto j = indexOf(after, anchor->afterStep);
        if (i && j) {
            result.mode = PairingMode::Manual;
            std::size_t shift = std::min(*i, *j);
            for (std::size_t bi = *i - shift, ai = *j - shift;
                 bi < before.size() && ai < after.size(); ++bi, ++ai)
                result.pairs.push_back({bi, ai, before[bi], after[ai]});
            return result;
        }
        result.anchorNotFound = true;
    }
    if (byNumber && uniqueNumbers(before) && uniqueNumbers(after)) {
        std::unordered_map<std::int64_t, std::size_t> afterIndex;
        for (std::size_t j = 0; j < after.size(); ++j)
            afterIndex.emplace(after[j], j);
        std::vector<StepPair> pairs;
        std::optional<std::size_t> lastAfter;
        for (std::size_t i = 0; i < before.size(); ++i) {
            auto it = afterIndex.find(before[i]);
            if (it == afterIndex.end() || (lastAfter && it->second <= *lastAfter))
                continue;
            pairs.push_back({i, it->second, before[i], after[it->second]});
            lastAfter = it->second;
        }
        if (!pairs.empty()) {
            result.mode = PairingMode::ByNumber;
            result.pairs = std::move(pairs);
            return result;
        }
    }
    result.mode = PairingMode::ByOrder;
    for (std::size_t i = 0; i < std::min(before.size(), after.size()); ++i)
        result.pairs.push_back({i, i, before[i], after[i]});
    return result;
}

StepPairing pairSteps(const std::vector<model::Step> &before, const std::vector<model::Step> &after,
    std::optional<ManualAnchor> anchor)
{
    std::vector<std::int64_t> b, a;
    for (const model::Step &s : before)
        b.push_back(s.number);
    for (const model::Step &s : after)
        a.push_back(s.number);
    return pairStepNumbers(b, a, anchor);
}

StepPairing pairSteps(const std::vector<StepBreakdown> &before,
    const std::vector<StepBreakdown> &after, std::optional<ManualAnchor> anchor)
{
    std::vector<std::int64_t> b, a;
    for (const StepBreakdown &s : before)
        b.push_back(s.step);
    for (const StepBreakdown &s : after)
        a.push_back(s.step);
    const auto profilers = [](const std::vector<StepBreakdown> &steps) {
        return std::all_of(steps.begin(), steps.end(),
            [](const StepBreakdown &s) { return s.origin == StepOrigin::Profiler; });
    };
    return pairStepNumbers(b, a, anchor, profilers(before) && profilers(after));
}

DeltaRow makeDeltaRow(std::string key, std::string label, std::string unit,
    std::optional<double> before, std::optional<double> after, Better better, double tolerance)
{
    DeltaRow row;
    row.key = std::move(key);
    row.label = std::move(label);
    row.unit = std::move(unit);
    row.before = before;
    row.after = after;
    row.better = better;
    if (!before || !after || !std::isfinite(*before) || !std::isfinite(*after))
        return row;
    double delta = *after - *before;
    row.delta = delta;
    double scale = std::fabs(*before);
    if (scale > 0)
        row.percent = 100.0 * delta / scale;
    double threshold = scale > 0 ? tolerance * scale : 1e-12;
    if (std::fabs(delta) <= threshold)
        row.verdict = Verdict::Unchanged; // "unknown" beside two equal figures said nothing
    else if (better == Better::Neither)
        return row;
    else if ((delta < 0) == (better == Better::Lower))
        row.verdict = Verdict::Improved;
    else
        row.verdict = Verdict::Regressed;
    return row;
}

Better kpiBetter(std::string_view key)
{
    if (key.substr(0, 9) == "step_time" || key == "comm_share" || key == "data_wait_share"
        || key.substr(0, 11) == "memory_peak")
        return Better::Lower;
    if (key == "samples_per_s" || key == "tokens_per_s" || key == "mfu")
        return Better::Higher;
    return Better::Neither;
}

std::vector<DeltaRow> kpiDeltaRows(const Kpis &before, const Kpis &after)
{
    std::vector<DeltaRow> rows;
    auto add = [&](const std::string &key, const std::string &unit) {
        const Kpi *b = before.find(key);
        const Kpi *a = after.find(key);
        rows.push_back(makeDeltaRow(key, key, unit, b ? b->value : std::nullopt,
            a ? a->value : std::nullopt, kpiBetter(key)));
    };
    for (const Kpi &k : before.items)
        add(k.key, k.unit);
    for (const Kpi &k : after.items)
        if (!before.find(k.key))
            add(k.key, k.unit);
    return rows;
}

namespace {

Better segmentBetter(SegmentKind kind)
{
    switch (kind) {
    case SegmentKind::Compute:
        return Better::Neither;
    case SegmentKind::CommOverlapped:
        return Better::Higher;
    default:
        return Better::Lower;
    }
}

constexpr SegmentKind AllSegments[] = {
    SegmentKind::Compute,
    SegmentKind::CommExposed,
    SegmentKind::CommOverlapped,
    SegmentKind::HostWait,
    SegmentKind::DataLoading,
    SegmentKind::LaunchGap,
    SegmentKind::OtherIdle,
    SegmentKind::Bubble,
    SegmentKind::Preparing,
};
static_assert(sizeof(AllSegments) / sizeof(AllSegments[0]) == SegmentKindCount);

double us(std::int64_t ns)
{
    return static_cast<double>(ns) / 1000.0;
}

// The values one row per metric takes from a breakdown, in us: step time, then each kind as
// tables show it (StepBreakdown::figureNs: compute whole, as summary --json).
std::vector<double> breakdownValuesUs(const StepBreakdown &b)
{
    std::vector<double> v;
    v.push_back(us(b.durationNs()));
    for (SegmentKind kind : AllSegments)
        v.push_back(us(b.figureNs(kind)));
    return v;
}

std::vector<DeltaRow> rowsFromValues(
    const std::vector<double> &before, const std::vector<double> &after)
{
    std::vector<DeltaRow> rows;
    rows.push_back(
        makeDeltaRow("step_time_us", "Step time", "us", before[0], after[0], Better::Lower));
    for (std::size_t i = 0; i < SegmentKindCount; ++i) {
        SegmentKind kind = AllSegments[i];
        rows.push_back(makeDeltaRow("segment." + std::string(segmentKindKey(kind)),
            std::string(figureKindName(kind)), "us", before[i + 1], after[i + 1],
            segmentBetter(kind)));
    }
    return rows;
}

} // namespace

std::vector<DeltaRow> stepDeltaRows(const StepBreakdown &before, const StepBreakdown &after)
{
    return rowsFromValues(breakdownValuesUs(before), breakdownValuesUs(after));
}

std::vector<DeltaRow> meanStepDeltaRows(const std::vector<StepBreakdown> &before,
    const std::vector<StepBreakdown> &after, const StepPairing &pairing)
{
    std::vector<double> sumBefore(SegmentKindCount + 1, 0.0);
    std::vector<double> sumAfter(SegmentKindCount + 1, 0.0);
    std::size_t n = 0;
    for (const StepPair &p : pairing.pairs) {
        if (p.beforeIndex >= before.size() || p.afterIndex >= after.size())
            continue;
        std::vector<double> b = breakdownValuesUs(before[p.beforeIndex]);
        std::vector<double> a = breakdownValuesUs(after[p.afterIndex]);
        for (std::size_t i = 0; i < b.size(); ++i) {
            sumBefore[i] += b[i];
            sumAfter[i] += a[i];
        }
        ++n;
    }
    if (n == 0)
        return {};
    for (std::size_t i = 0; i < sumBefore.size(); ++i) {
        sumBefore[i] /= static_cast<double>(n);
        sumAfter[i] /= static_cast<double>(n);
    }
    return rowsFromValues(sumBefore, sumAfter);
}

NameDeltaTable nameDeltas(
    const model::Trace &before, const model::Trace &after, const NameDeltaOptions &options)
{
    auto b = collectNameStats(before, options.scope, options.beforeWindow);
    auto a = collectNameStats(after, options.scope, options.afterWindow);
    NameDeltaTable table;
    table.nameCountBefore = b.size();
    table.nameCountAfter = a.size();
    for (const auto &[name, s] : b)
        table.totalBeforeNs = util::satAdd(table.totalBeforeNs, s.totalNs);
    for (const auto &[name, s] : a)
        table.totalAfterNs = util::satAdd(table.totalAfterNs, s.totalNs);
    const double bd = options.beforeDivisor > 0 ? options.beforeDivisor : 1;
    const double ad = options.afterDivisor > 0 ? options.afterDivisor : 1;

    // Merge the two name-sorted lists.
    std::vector<NameDelta> all;
    std::size_t i = 0, j = 0;
    while (i < b.size() || j < a.size()) {
        NameDelta d;
        if (j >= a.size() || (i < b.size() && b[i].first < a[j].first)) {
            d.name = b[i].first;
            d.before = b[i++].second;
            d.onlyBefore = true;
        } else if (i >= b.size() || a[j].first < b[i].first) {
            d.name = a[j].first;
            d.after = a[j++].second;
            d.onlyAfter = true;
        } else {
            d.name = b[i].first;
            d.before = b[i++].second;
            d.after = a[j++].second;
        }
        d.deltaTotalNs =
            static_cast<double>(d.after.totalNs) / ad - static_cast<double>(d.before.totalNs) / bd;
        all.push_back(std::move(d));
    }
    for (const NameDelta &d : all) {
        if (d.onlyBefore)
            table.onlyBefore.push_back(d);
        if (d.onlyAfter)
            table.onlyAfter.push_back(d);
    }
    auto bySideTotal = [](bool useBefore) {
        return [useBefore](const NameDelta &x, const NameDelta &y) {
            std::int64_t tx = useBefore ? x.before.totalNs : x.after.totalNs;
            std::int64_t ty = useBefore ? y.before.totalNs : y.after.totalNs;
            return tx != ty ? tx > ty : x.name < y.name;
        };
    };
    std::sort(table.onlyBefore.begin(), table.onlyBefore.end(), bySideTotal(true));
    std::sort(table.onlyAfter.begin(), table.onlyAfter.end(), bySideTotal(false));
    std::sort(all.begin(), all.end(), [](const NameDelta &x, const NameDelta &y) {
        double ax = std::fabs(x.deltaTotalNs);
        double ay = std::fabs(y.deltaTotalNs);
        return ax != ay ? ax > ay : x.name < y.name;
    });
    if (all.size() > options.topN)
        all.resize(options.topN);
    table.top = std::move(all);
    return table;
}

} // namespace stepscope::analysis

namespace stepscope::analysis {

namespace {

std::optional<double> asDouble(std::optional<std::int64_t> v)
{
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}

} // namespace

std::vector<DeltaRow> memoryDeltaRows(const MemorySummary &before, const MemorySummary &after)
{
    std::vector<DeltaRow> rows;
    rows.push_back(makeDeltaRow("memory_peak_allocated_bytes", "Peak allocated", "bytes",
        asDouble(before.peakAllocatedBytes), asDouble(after.peakAllocatedBytes), Better::Lower));
    rows.push_back(makeDeltaRow("memory_peak_reserved_bytes", "Peak reserved", "bytes",
        asDouble(before.peakReservedBytes), asDouble(after.peakReservedBytes), Better::Lower));
    if (before.hasGroups && after.hasGroups) {
        for (std::size_t g = 0; g < MemoryGroupCount; ++g)
            rows.push_back(makeDeltaRow("memory." + std::string(memoryGroupKey(AllMemoryGroups[g])),
                std::string(memoryGroupName(AllMemoryGroups[g])) + " at peak", "bytes",
                static_cast<double>(before.byGroupAtPeak[g]),
                static_cast<double>(after.byGroupAtPeak[g]), Better::Lower));
        // The Memory panel's "In no record" bar: the allocator's peak no category holds.
        if (before.notInCategoriesBytes || after.notInCategoriesBytes)
            rows.push_back(makeDeltaRow("memory.not_in_categories", "In no record at peak", "bytes",
                static_cast<double>(before.notInCategoriesBytes.value_or(0)),
                static_cast<double>(after.notInCategoriesBytes.value_or(0)), Better::Lower));
    }
    return rows;
}

std::vector<DeltaRow> memoryGroupPeakRows(
    const MemoryGroupTimeline &before, const MemoryGroupTimeline &after)
{
    auto peak = [](const std::vector<std::int64_t> &v) -> std::optional<double> {
        if (v.empty())
            return std::nullopt;
        return static_cast<double>(*std::max_element(v.begin(), v.end()));
    };
    std::vector<DeltaRow> rows;
    for (std::size_t g = 0; g < MemoryGroupCount; ++g) {
        std::optional<double> b = peak(before.bytes[g]);
        std::optional<double> a = peak(after.bytes[g]);
        if ((!b || *b == 0) && (!a || *a == 0))
            continue;
        rows.push_back(
            makeDeltaRow("memory_peak." + std::string(memoryGroupKey(AllMemoryGroups[g])),
                std::string(memoryGroupName(AllMemoryGroups[g])) + " peak", "bytes", b, a,
                Better::Lower));
    }
    return rows;
}

} // namespace stepscope::analysis
