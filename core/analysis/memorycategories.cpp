// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "memorycategories.h"

#include "kpis.h"
#include "steps.h"
#include "units.h"
#include "util/saturate.h"
#include "util/text.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

namespace stepscope::analysis {

namespace {

constexpr std::array<std::string_view, MemoryGroupCount> Keys = {"parameters", "gradients",
    "optimizer_state", "activations", "temporary", "communication_buffers", "other"};
constexpr std::array<std::string_view, MemoryGroupCount> Names = {"Parameters", "Gradients",
    "Optimizer state", "Activations", "Temporary", "Communication buffers", "Other"};

bool containsAny(const std::string &s, std::initializer_list<std::string_view> parts)
{
    for (auto p : parts) {
        if (s.find(p) != std::string::npos)
            return true;
    }
    return false;
}

std::size_t idx(MemoryGroup g)
{
    return static_cast<std::size_t>(g);
}

MemoryGroupTimeline fromCategories(const model::CategoryTimeline &cats)
{
    MemoryGroupTimeline t;
    t.source = "memory timeline";
    const std::size_t n = cats.timestampsNs.size();
    t.timestampsNs = cats.timestampsNs;
    for (auto &g : t.bytes)
        g.assign(n, 0);
    t.totalBytes.assign(n, 0);
    for (int c = 0; c < model::MemoryCategoryCount; ++c) {
        const auto &series = cats.bytes[static_cast<std::size_t>(c)];
        auto &group = t.bytes[idx(memoryGroupOf(static_cast<model::MemoryCategory>(c)))];
        for (std::size_t i = 0; i < n && i < series.size(); ++i) {
            group[i] += series[i];
            t.totalBytes[i] += series[i];
        }
    }
    return t;
}

/// Every allocation of a trace with its group (AllocationGroups before the cut to the largest).
struct Grouped
{
    std::vector<model::Allocation> paired; ///< the pairs, when fromEvents
    bool fromEvents = false;
    std::size_t unmatchedFrees = 0; ///< frees of the events that matched no allocation
    std::vector<MemoryGroup> groups; ///< per allocation of list()
    std::vector<bool> inferred; ///< per allocation: the group is the inference rule's
    std::int64_t firstAllocationNs = 0; ///< when the first allocation of list() is made
    std::int64_t captureEndNs = 0; ///< the last time an allocation of list() records

    /// `paired`, or the trace's own records.
    const std::vector<model::Allocation> &list(const model::Trace &trace) const
    {
        return fromEvents ? paired : trace.memory.allocations;
    }
};

/// Allocations (and the HCCL module's reserved memory) as a stepped series per group, each
/// allocation in the group `grouped` gave it.
MemoryGroupTimeline fromAllocations(
    const model::Trace &trace, const Grouped &grouped, const std::string &source)
{
    MemoryGroupTimeline t;
    const std::vector<model::Allocation> &allocs = grouped.list(trace);
    // (time, group, delta); at equal times frees apply before allocations.
    struct Change
    {
        std::int64_t time;
        std::size_t group;
        std::int64_t delta;
    };
    std::vector<Change> changes;
    bool inferred = false;
    for (std::size_t i = 0; i < allocs.size(); ++i) {
        const model::Allocation &a = allocs[i];
        const std::size_t g = idx(grouped.groups[i]);
        inferred = inferred || grouped.inferred[i];
        changes.push_back(Change {a.allocatedNs, g, a.sizeBytes});
        if (a.releasedNs >= 0)
            changes.push_back(Change {a.releasedNs, g, -a.sizeBytes});
    }
    for (const auto &m : trace.memory.modules) {
        const std::string name = util::asciiLower(m.module);
        if (name != "hccl" || m.timestampsNs.empty())
            continue;
        // A module series that does not overlap the allocations is from another capture (the
        // trimmed gpt3 sample's npu_module_mem.csv is 0.94 years after its operator_memory.csv):
        // summing it in would put a step a year away on one time axis.
        if (!allocs.empty()
            && (m.timestampsNs.back() < grouped.firstAllocationNs
                || m.timestampsNs.front() > grouped.captureEndNs))
            continue;
        std::int64_t prev = 0;
        for (std::size_t i = 0; i < m.timestampsNs.size() && i < m.reservedBytes.size(); ++i) {
            changes.push_back(Change {m.timestampsNs[i], idx(MemoryGroup::CommunicationBuffers),
                m.reservedBytes[i] - prev});
            prev = m.reservedBytes[i];
        }
        inferred = true;
    }
    std::stable_sort(changes.begin(), changes.end(), [](const Change &a, const Change &b) {
        return a.time != b.time ? a.time < b.time : a.delta < b.delta;
    });
    std::array<std::int64_t, MemoryGroupCount> level {};
    for (std::size_t i = 0; i < changes.size(); ++i) {
        level[changes[i].group] += changes[i].delta;
        if (i + 1 < changes.size() && changes[i + 1].time == changes[i].time)
            continue; // one point per timestamp
        t.timestampsNs.push_back(changes[i].time);
        std::int64_t total = 0;
        for (std::size_t g = 0; g < level.size(); ++g) {
            t.bytes[g].push_back(level[g]);
            total += level[g];
        }
        t.totalBytes.push_back(total);
    }
    t.inferred = inferred;
    t.source = allocs.empty() ? "npu_module_mem" : source;
    return t;
}

/// The chain of host ranges enclosing time `ts` on `track`, outermost first, " / " joined.
std::string enclosingChain(const model::Trace &trace, const model::Track &track, std::int64_t ts)
{
    std::string chain;
    for (std::uint32_t row = 0; row < track.rowCount(); ++row) {
        const auto [first, last] = track.visibleRange(row, ts, ts + 1);
        for (std::uint32_t i = first; i < last; ++i) {
            const auto c = track.category(i);
            if (track.duration(i) <= 0 || track.start(i) > ts || track.end(i) <= ts
                || (c != model::Category::HostOp && c != model::Category::Annotation
                    && c != model::Category::DataLoading && c != model::Category::Runtime))
                continue;
            if (!chain.empty())
                chain += " / ";
            chain += trace.strings.view(track.name(i));
            break;
        }
    }
    return chain;
}

/// The allocator's total just before the first allocator event (at `ts`, of `bytes`): the
/// device curve's first point at `ts`, minus the event's bytes. The curve is the first
/// device (not "cpu") curve with a point at that time; 0 when none has one.
std::int64_t totalBeforeFirstEvent(const model::Trace &trace, std::int64_t ts, std::int64_t bytes)
{
    for (const model::MemoryCurve &c : trace.memory.curves) {
        if (c.device == "cpu")
            continue;
        const auto it = std::lower_bound(c.timestampsNs.begin(), c.timestampsNs.end(), ts);
        if (it != c.timestampsNs.end() && *it == ts) {
            const auto i = static_cast<std::size_t>(it - c.timestampsNs.begin());
            return util::satSub(c.allocatedBytes[i], bytes);
        }
    }
    return 0;
}

} // namespace

std::vector<model::Allocation> allocationsFromMemoryEvents(
    const model::Trace &trace, std::size_t *unmatchedFrees)
{
    if (unmatchedFrees)
        *unmatchedFrees = 0;
    struct Event
    {
        std::int64_t ts;
        std::int64_t addr;
        std::int64_t bytes;
        const model::Track *track;
    };
    std::vector<Event> events;
    // The importer's allocator events (Kineto `[memory]` instants), in track order.
    for (const model::AllocatorEvent &a : trace.memory.allocatorEvents) {
        const model::Track &track = trace.track(a.event.track);
        events.push_back(Event {track.start(a.event.index), a.addr, a.bytes, &track});
    }
    std::stable_sort(
        events.begin(), events.end(), [](const Event &a, const Event &b) { return a.ts < b.ts; });
    std::vector<model::Allocation> out;
    if (events.empty())
        return out;
    const std::int64_t start = events.front().ts;
    std::int64_t before = totalBeforeFirstEvent(trace, start, events.front().bytes);
    std::map<std::int64_t, std::size_t> open; // addr -> index in out
    const std::string beforeName = "(allocated before the capture)";
    for (const auto &e : events) {
        if (e.bytes > 0) {
            model::Allocation a;
            a.op = enclosingChain(trace, *e.track, e.ts);
            a.sizeBytes = e.bytes;
            a.allocatedNs = e.ts;
            a.categoryInferred = true;
            open[e.addr] = out.size();
            out.push_back(std::move(a));
        } else if (e.bytes < 0) {
            auto it = open.find(e.addr);
            if (it != open.end()) {
                out[it->second].releasedNs = e.ts;
                open.erase(it);
            } else {
                // A block from before the capture is freed.
                if (unmatchedFrees)
                    ++*unmatchedFrees;
                model::Allocation a;
                a.op = beforeName;
                a.sizeBytes = -e.bytes;
                a.allocatedNs = start;
                a.releasedNs = e.ts;
                a.categoryInferred = true;
                out.push_back(std::move(a));
                before -= -e.bytes;
            }
        }
    }
    if (before > 0) {
        model::Allocation a;
        a.op = beforeName;
        a.sizeBytes = before;
        a.allocatedNs = start;
        a.categoryInferred = true;
        out.push_back(std::move(a));
    }
    return out;
}

std::string_view memoryGroupKey(MemoryGroup g)
{
    return Keys[idx(g)];
}

std::string_view memoryGroupName(MemoryGroup g)
{
    return Names[idx(g)];
}

MemoryGroup memoryGroupOf(model::MemoryCategory c)
{
    switch (c) {
    case model::MemoryCategory::Parameter:
        return MemoryGroup::Parameters;
    case model::MemoryCategory::OptimizerState:
        return MemoryGroup::OptimizerState;
    case model::MemoryCategory::Input:
        return MemoryGroup::Activations;
    case model::MemoryCategory::Temporary:
        return MemoryGroup::Temporary;
    case model::MemoryCategory::Activation:
        return MemoryGroup::Activations;
    case model::MemoryCategory::Gradient:
        return MemoryGroup::Gradients;
    case model::MemoryCategory::AutogradDetail:
        return MemoryGroup::Other;
    case model::MemoryCategory::Unknown:
        return MemoryGroup::Other;
    case model::MemoryCategory::CommunicationBuffer:
        return MemoryGroup::CommunicationBuffers;
    }
    return MemoryGroup::Other;
}

MemoryGroup inferAllocationGroup(const model::Allocation &a, std::int64_t captureStartNs,
    std::int64_t captureEndNs, std::int64_t stepDurationNs)
{
    const std::string op = util::asciiLower(a.op);
    if (containsAny(op, {"hccl", "hcom", "nccl", "c10d", "rccl"}))
        return MemoryGroup::CommunicationBuffers;
    if (containsAny(op, {"_foreach_", "optimizer", "adam", "sgd", "lamb", "lion"}))
        return MemoryGroup::OptimizerState;
    // Alive for the whole capture: allocated before it (before the first step ran) or never
    // released before its end.
    if (a.releasedNs < 0 || a.allocatedNs < captureStartNs || a.releasedNs > captureEndNs
        || op.rfind("(allocated before", 0) == 0)
        return MemoryGroup::Parameters;
    const std::int64_t lifetime = a.releasedNs - a.allocatedNs;
    if (stepDurationNs > 0 && lifetime * 10 > stepDurationNs)
        return MemoryGroup::Activations;
    return MemoryGroup::Temporary;
}

namespace {

Grouped groupAll(const model::Trace &trace)
{
    Grouped out;
    if (trace.memory.allocations.empty()) {
        out.paired = allocationsFromMemoryEvents(trace, &out.unmatchedFrees);
        out.fromEvents = !out.paired.empty();
    }
    const std::vector<model::Allocation> &allocs = out.list(trace);
    if (allocs.empty())
        return out;
    // The capture: from the first step's start (else the first allocation) to the last time an
    // allocation records; the first step's length (else the capture's) for the lifetimes.
    std::int64_t t0 = INT64_MAX;
    std::int64_t t1 = INT64_MIN;
    for (const auto &a : allocs) {
        t0 = std::min(t0, a.allocatedNs);
        t1 = std::max({t1, a.allocatedNs, a.releasedNs});
    }
    out.firstAllocationNs = t0;
    out.captureEndNs = t1;
    std::int64_t stepNs = t1 > t0 ? t1 - t0 : 0;
    const auto steps = detectSteps(trace, nullptr);
    if (!steps.empty()) {
        stepNs = steps.front().durationNs();
        t0 = steps.front().startNs; // the capture proper starts with the first step
    }
    out.groups.reserve(allocs.size());
    out.inferred.reserve(allocs.size());
    for (const auto &a : allocs) {
        const bool given = !a.categoryInferred && a.category != model::MemoryCategory::Unknown;
        out.groups.push_back(
            given ? memoryGroupOf(a.category) : inferAllocationGroup(a, t0, t1, stepNs));
        out.inferred.push_back(!given);
    }
    return out;
}

/// Memory by group over time from groups already decided (groupAll of this trace).
MemoryGroupTimeline groupTimeline(const model::Trace &trace, const Grouped &groups)
{
    if (!trace.memory.categories.timestampsNs.empty())
        return fromCategories(trace.memory.categories);
    bool hccl = false;
    for (const auto &m : trace.memory.modules)
        hccl = hccl || util::asciiLower(m.module) == "hccl";
    if (!groups.fromEvents && (!trace.memory.allocations.empty() || hccl))
        return fromAllocations(trace, groups, "allocations");
    if (groups.fromEvents)
        return fromAllocations(trace, groups, "[memory] events");
    return {};
}

/// The largest `maxListed` of `groups`, with their groups.
AllocationGroups listLargest(
    const model::Trace &trace, const Grouped &groups, std::size_t maxListed)
{
    AllocationGroups out;
    const std::vector<model::Allocation> &all = groups.list(trace);
    out.fromEvents = groups.fromEvents;
    out.count = all.size();
    out.captureEndNs = groups.captureEndNs;
    std::vector<std::size_t> order(all.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const auto larger = [&all](std::size_t a, std::size_t b) {
        if (all[a].sizeBytes != all[b].sizeBytes)
            return all[a].sizeBytes > all[b].sizeBytes;
        return all[a].allocatedNs != all[b].allocatedNs ? all[a].allocatedNs < all[b].allocatedNs
                                                        : a < b;
    };
    const std::size_t n = std::min(maxListed, order.size());
    std::partial_sort(
        order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(), larger);
    out.listed.reserve(n);
    for (std::size_t k = 0; k < n; ++k)
        out.listed.push_back({all[order[k]], groups.groups[order[k]], groups.inferred[order[k]]});
    return out;
}

} // namespace

AllocationGroups groupAllocations(const model::Trace &trace, std::size_t maxListed)
{
    return listLargest(trace, groupAll(trace), maxListed);
}

MemoryGroupTimeline memoryGroupTimeline(const model::Trace &trace)
{
    return groupTimeline(trace, groupAll(trace));
}

std::optional<MemoryEstimate> estimateModelMemory(const RunConfig &config)
{
    if (!config.parameters)
        return std::nullopt;
    const double p = *config.parameters;
    const std::string &prec = config.precision;
    const bool mixed = prec.empty() || prec == "bf16" || prec == "fp16" || prec == "fp8";
    const bool sgd = config.optimizer.find("sgd") != std::string::npos;
    const bool momentumFree = config.optimizer == "sgd-nomomentum";
    MemoryEstimate e;
    const double weight = mixed ? 2.0 : 4.0;
    const double master = mixed ? 4.0 : 0.0;
    const double grad = mixed ? 2.0 : 4.0;
    const double state = momentumFree ? 0.0 : (sgd ? 4.0 : 8.0);
    e.bytesPerParameter = weight + master + grad + state;
    std::string rule = std::string(mixed ? "mixed precision" : "fp32") + ", "
        + (sgd                             ? "SGD"
                : config.optimizer.empty() ? "Adam (assumed)"
                                           : config.optimizer)
        + ": " + std::to_string(static_cast<int>(weight)) + " B weights + "
        + std::to_string(static_cast<int>(master)) + " B master weights + "
        + std::to_string(static_cast<int>(grad)) + " B gradients + "
        + std::to_string(static_cast<int>(state)) + " B optimizer state per parameter";
    if (config.bytesPerParameter) {
        // The user's figure replaces the sum; the split keeps the default proportions.
        const double scale = *config.bytesPerParameter / e.bytesPerParameter;
        e.bytesPerParameter = *config.bytesPerParameter;
        rule = "bytes_per_parameter from the run config (split as " + rule + ")";
        e.weightsBytes = util::saturatingInt64(p * weight * scale);
        e.masterWeightsBytes = util::saturatingInt64(p * master * scale);
        e.gradientsBytes = util::saturatingInt64(p * grad * scale);
        e.optimizerStateBytes = util::saturatingInt64(p * state * scale);
    } else {
        e.weightsBytes = util::saturatingInt64(p * weight);
        e.masterWeightsBytes = util::saturatingInt64(p * master);
        e.gradientsBytes = util::saturatingInt64(p * grad);
        e.optimizerStateBytes = util::saturatingInt64(p * state);
    }
    e.totalBytes = util::satAdd(util::satAdd(e.weightsBytes, e.masterWeightsBytes),
        util::satAdd(e.gradientsBytes, e.optimizerStateBytes)); // a huge parameter count
    e.rule = rule;
    return e;
}

MemorySummary summarizeMemory(
    const model::Trace &trace, const RunConfig &config, model::LoadReport *notes)
{
    MemorySummary s;
    s.rank = trace.rank;
    std::optional<std::int64_t> reservedApp;
    for (const auto &c : trace.memory.curves) {
        for (auto v : c.allocatedBytes) {
            if (v >= 0)
                s.peakAllocatedBytes = std::max(s.peakAllocatedBytes.value_or(0), v);
        }
        for (auto v : c.reservedBytes) {
            if (v < 0)
                continue;
            if (c.component == "APP")
                reservedApp = std::max(reservedApp.value_or(0), v);
            else
                s.peakReservedBytes = std::max(s.peakReservedBytes.value_or(0), v);
        }
    }
    if (!s.peakReservedBytes)
        s.peakReservedBytes = reservedApp;
    std::shared_ptr<MemoryGroupTimeline> timeline;
    std::size_t unmatchedFrees = 0;
    {
        const Grouped grouped = groupAll(trace); // every allocation, freed after the cut
        timeline = std::make_shared<MemoryGroupTimeline>(groupTimeline(trace, grouped));
        if (!grouped.groups.empty())
            s.allocations = std::make_shared<const AllocationGroups>(
                listLargest(trace, grouped, MaxListedAllocations));
        // One device's curve to compare with (the pairs take every device's events).
        const auto devices = std::count_if(trace.memory.curves.begin(), trace.memory.curves.end(),
            [](const model::MemoryCurve &c) { return c.device != "cpu"; });
        if (grouped.fromEvents && trace.memory.categories.timestampsNs.empty() && devices == 1)
            unmatchedFrees = grouped.unmatchedFrees;
    }
    const MemoryGroupTimeline &groups = *timeline;
    if (!groups.timestampsNs.empty()) {
        const auto it = std::max_element(groups.totalBytes.begin(), groups.totalBytes.end());
        const auto i = static_cast<std::size_t>(it - groups.totalBytes.begin());
        s.peakNs = groups.timestampsNs[i];
        for (std::size_t g = 0; g < s.byGroupAtPeak.size(); ++g)
            s.byGroupAtPeak[g] = groups.bytes[g][i];
        s.hasGroups = true;
        s.groupsInferred = groups.inferred;
        if (!s.peakAllocatedBytes && !trace.memory.categories.timestampsNs.empty())
            s.peakAllocatedBytes = *it;
        // From the allocator's own [memory] events the two peaks agree unless frees matched
        // nothing (docs/metrics.md, "Kineto [memory] events"); a profiler's allocation
        // records (operator_memory) may hold less than the allocator.
        const std::int64_t gap = s.peakAllocatedBytes ? *it - *s.peakAllocatedBytes : 0;
        const bool apart = s.peakAllocatedBytes
            && std::abs(gap) > std::max<std::int64_t>(1 << 20, *s.peakAllocatedBytes / 200);
        const std::string peaks = "Memory by category peaks at " + formatBytes(*it)
            + ", the allocator's Total Allocated at "
            + formatBytes(s.peakAllocatedBytes.value_or(0));
        if (apart && unmatchedFrees > 0) {
            s.categoriesDisagree = peaks + ": " + std::to_string(unmatchedFrees)
                + " frees match no allocation of the capture and are counted as memory "
                  "allocated before it";
        } else if (apart && gap < 0) {
            // Another source's records (operator_memory) that miss allocator memory: the
            // trimmed msinsight GPT-3 rank 0 holds 80 MiB of graph memory in its records where
            // the allocator peaks at 4.49 GiB.
            s.notInCategoriesBytes = -gap;
            const std::string records = groups.source == "allocations"
                ? std::string("the profile's allocation records")
                : "the " + groups.source;
            s.categoriesDisagree = peaks + ": " + formatBytes(-gap) + " are in none of " + records
                + " (allocated before the records begin, or by a component they do not cover)";
        }
        // Unmatched frees are a fault of the events; memory outside the records is what a
        // capture started after the model was set up holds, said once per session
        // (noteMemoryNotInCategories).
        if (unmatchedFrees > 0 && !s.categoriesDisagree.empty() && notes)
            notes->add(model::Severity::Warning, "[memory] events",
                "rank " + std::to_string(trace.rank) + ": " + s.categoriesDisagree
                    + ", so the categories do not add up to the allocator's figure");
        s.groups = std::move(timeline);
    }
    for (const char *key : {"totalGlobalMem", "device_memory_bytes", "total_memory"}) {
        auto it = trace.metadata.extra.find(key);
        if (it == trace.metadata.extra.end())
            continue;
        try {
            const long long v = std::stoll(it->second);
            if (v > 0) {
                s.deviceMemoryBytes = static_cast<std::int64_t>(v);
                break;
            }
        } catch (const std::exception &) {
        }
    }
    applyRunConfig(s, config);
    return s;
}

void noteMemoryNotInCategories(const std::vector<MemorySummary> &memory, model::LoadReport &notes)
{
    std::vector<const MemorySummary *> ranks;
    for (const MemorySummary &m : memory)
        if (m.notInCategoriesBytes)
            ranks.push_back(&m);
    if (ranks.empty())
        return;
    const MemorySummary &first = *ranks.front();
    const std::string tail = ", so the categories do not add up to the allocator's figure";
    if (ranks.size() == 1) {
        notes.add(model::Severity::Info, "memory by category",
            "rank " + std::to_string(first.rank) + ": " + first.categoriesDisagree + tail);
        return;
    }
    // Every rank of a cluster whose capture began after the model was set up: one note.
    std::int64_t lo = *first.notInCategoriesBytes;
    std::int64_t hi = lo;
    for (const MemorySummary *m : ranks) {
        lo = std::min(lo, *m->notInCategoriesBytes);
        hi = std::max(hi, *m->notInCategoriesBytes);
    }
    notes.add(model::Severity::Info, "memory by category",
        std::to_string(ranks.size()) + " ranks (" + std::to_string(first.rank) + " to "
            + std::to_string(ranks.back()->rank)
            + "): " + (lo == hi ? formatBytes(lo) : formatBytes(lo) + " to " + formatBytes(hi))
            + " of the allocator's peak in no allocation record" + tail + "; rank "
            + std::to_string(first.rank) + ": " + first.categoriesDisagree);
}

void applyRunConfig(MemorySummary &s, const RunConfig &config)
{
    s.estimate = estimateModelMemory(config);
    s.nonModelStateBytes.reset();
    if (s.estimate && s.peakAllocatedBytes)
        s.nonModelStateBytes = *s.peakAllocatedBytes - s.estimate->totalBytes;
}

} // namespace stepscope::analysis
