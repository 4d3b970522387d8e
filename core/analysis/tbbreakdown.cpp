// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// The TensorBoard PyTorch-profiler plugin's "step time breakdown", recomputed from the model
// with the plugin's rules (pytorch/kineto tb_plugin, event_parser.py and overall_parser.py,
// read for the rules; this is our own code):
//
// 1. Roles. Device kernels -> Kernel, except kernels whose External id is that of a host
//    range named nccl:/gloo: broadcast, reduce, all_reduce, all_gather, reduce_scatter ->
//    Communication; memcpy -> Memcpy; memset -> Memset; runtime calls -> Runtime; host
//    ranges `enumerate(DataLoader)#….__next__` / `enumerate(DataPipe)#…` -> DataLoader;
//    host nccl:/gloo: ranges -> Communication; other host operators and annotations (also
//    annotations projected on a GPU stream) -> CPU Exec. Python stack frames are not used.
// 2. Steps: the host ProfilerStep#N ranges (else one step over the host ops). When any
//    runtime call lying inside a step launched device work, every step is moved to the
//    device: start = max(previous step's end, host start) — the first step's "previous end"
//    being the latest end of device work not launched from any step that ends before the
//    first step's device work; end = max(host end, end of the device work launched from
//    inside the step). Trailing steps that launched nothing are dropped, and the last step
//    too when it launched fewer than 80 % of the device tasks of the one before (the
//    profiler may have missed its kernels).
// 3. Priority. Over the union of the steps, each role takes the time not yet taken by a
//    role before it (Kernel, Memcpy, Memset, Communication, Runtime, DataLoader, CPU Exec);
//    what remains is Other. Per step the eight sum to the step's duration.
// One deviation: a `ProfilerStep#N` copy on a GPU stream is not counted as a second step
// (the plugin would count it; docs/formats.md §5.5).
#include "breakdown.h"
#include "intervalset.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace stepscope::analysis {

namespace {

using model::Category;
using model::TrackKind;
using Iv = IntervalSet::Interval;

enum Role { Kernel, Memcpy, Memset, Communication, Runtime, DataLoader, CpuOp, RoleCount };

bool isCommOpName(std::string_view name)
{
    static constexpr std::array<std::string_view, 10> Names = {"nccl:broadcast", "nccl:reduce",
        "nccl:all_reduce", "nccl:all_gather", "nccl:reduce_scatter", "gloo:broadcast",
        "gloo:reduce", "gloo:all_reduce", "gloo:all_gather", "gloo:reduce_scatter"};
    return std::find(Names.begin(), Names.end(), name) != Names.end();
}

bool isTbDataLoader(std::string_view name)
{
    const std::string_view dl = "enumerate(DataLoader)#";
    const std::string_view next = ".__next__";
    if (name.substr(0, dl.size()) == dl && name.size() >= next.size()
        && name.substr(name.size() - next.size()) == next)
        return true;
    return name.substr(0, 20) == "enumerate(DataPipe)#";
}

/// The ids the importer gave event i of track t (Kineto `correlation`, `External id`), none
/// when it has none.
model::EventIds idsOf(const model::Trace &trace, std::size_t t, std::uint32_t i)
{
    return trace.idsOf(model::EventRef {model::TrackId(static_cast<std::uint32_t>(t)), i})
        .value_or(model::EventIds {});
}

struct DeviceNode
{
    std::int64_t start;
    std::int64_t end;
};

struct RuntimeNode
{
    std::int64_t start;
    std::int64_t end;
    std::int64_t correlation;
    bool hasCorrelation;
};

struct HostStep
{
    std::int64_t number;
    std::int64_t start;
    std::int64_t end;
};

struct Collected
{
    std::array<std::vector<Iv>, RoleCount> roles;
    std::vector<HostStep> steps;
    std::vector<RuntimeNode> runtimes;
    std::vector<DeviceNode> devices;
    std::vector<std::int64_t> deviceCorrelation; ///< parallel to devices, -1 when none
    std::int64_t cpuMin = std::numeric_limits<std::int64_t>::max();
    std::int64_t cpuMax = std::numeric_limits<std::int64_t>::min();
};

std::optional<std::int64_t> stepNumber(std::string_view name)
{
    const std::string_view p = "ProfilerStep#";
    if (name.substr(0, p.size()) != p || name.size() == p.size())
        return std::nullopt;
    std::int64_t n = 0;
    for (char c : name.substr(p.size())) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

Collected collect(const model::Trace &trace)
{
    Collected c;
    // External ids of the host communication ranges (nccl:all_reduce ...).
    std::unordered_set<std::int64_t> commIds;
    for (std::size_t t = 0; t < trace.tracks.size(); ++t) {
        const auto &track = trace.tracks[t];
        if (track.info().kind != TrackKind::HostThread)
            continue;
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            if (isCommOpName(trace.strings.view(track.name(i)))) {
                const std::int64_t id = idsOf(trace, t, i).externalId;
                if (id >= 0)
                    commIds.insert(id);
            }
        }
    }
    std::set<std::int64_t> seenSteps;
    for (std::size_t t = 0; t < trace.tracks.size(); ++t) {
        const auto &track = trace.tracks[t];
        const TrackKind kind = track.info().kind;
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            const Category cat = track.category(i);
            const std::int64_t s = track.start(i);
            const std::int64_t e = track.end(i);
            const auto name = trace.strings.view(track.name(i));
            if (kind == TrackKind::DeviceStream) {
                if (cat == Category::Compute || cat == Category::Communication
                    || cat == Category::Memcpy || cat == Category::Memset) {
                    Role role = Kernel;
                    if (cat == Category::Memcpy) {
                        role = Memcpy;
                    } else if (cat == Category::Memset) {
                        role = Memset;
                    }
                    const model::EventIds ids = idsOf(trace, t, i);
                    if (role == Kernel && ids.externalId >= 0 && commIds.count(ids.externalId))
                        role = Communication;
                    c.roles[role].emplace_back(s, e);
                    c.devices.push_back(DeviceNode {s, e});
                    c.deviceCorrelation.push_back(ids.correlation);
                } else if (cat == Category::Annotation && !stepNumber(name)) {
                    c.roles[CpuOp].emplace_back(s, e); // gpu_user_annotation
                }
                continue;
            }
            if (kind != TrackKind::HostThread)
                continue;
            if (cat == Category::Runtime) {
                c.roles[Runtime].emplace_back(s, e);
                const std::int64_t corr = idsOf(trace, t, i).correlation;
                c.runtimes.push_back(RuntimeNode {s, e, corr, corr >= 0});
                continue;
            }
            if (cat != Category::HostOp && cat != Category::Annotation
                && cat != Category::DataLoading)
                continue;
            if (name.substr(0, 16) == "PyTorch Profiler")
                continue; // the capture window ("Trace" category)
            if (auto n = stepNumber(name)) {
                if (seenSteps.insert(*n).second)
                    c.steps.push_back(HostStep {*n, s, e});
            } else if (isTbDataLoader(name)) {
                c.roles[DataLoader].emplace_back(s, e);
            } else if (isCommOpName(name)) {
                c.roles[Communication].emplace_back(s, e);
            } else {
                c.roles[CpuOp].emplace_back(s, e);
            }
            if (cat != Category::Annotation || stepNumber(name)) {
                c.cpuMin = std::min(c.cpuMin, s);
                c.cpuMax = std::max(c.cpuMax, e);
            }
        }
    }
    std::sort(c.steps.begin(), c.steps.end(),
        [](const HostStep &a, const HostStep &b) { return a.start < b.start; });
    return c;
}

/// Step 2 of the header comment: moves the host steps onto the device work they launched.
void moveStepsToDevice(Collected &c)
{
    constexpr std::int64_t Max = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t Min = std::numeric_limits<std::int64_t>::min();
    std::unordered_map<std::int64_t, std::vector<std::uint32_t>> byCorrelation;
    for (std::uint32_t i = 0; i < c.devices.size(); ++i) {
        if (c.deviceCorrelation[i] >= 0)
            byCorrelation[c.deviceCorrelation[i]].push_back(i);
    }
    std::vector<RuntimeNode> rts = c.runtimes;
    std::stable_sort(rts.begin(), rts.end(),
        [](const RuntimeNode &a, const RuntimeNode &b) { return a.start < b.start; });
    const std::size_t n = c.steps.size();
    std::vector<std::pair<std::int64_t, std::int64_t>> stepDevice(n, {Max, Min});
    std::vector<std::int64_t> matchedCount(n, 0);
    std::vector<char> matched(c.devices.size(), 0);
    bool anyMatched = false;
    std::size_t is = 0;
    std::size_t ir = 0;
    std::int64_t dmin = Max;
    std::int64_t dmax = Min;
    while (is < n && ir < rts.size()) {
        const auto &rt = rts[ir];
        if (rt.start < c.steps[is].start) {
            ++ir;
        } else if (rt.end <= c.steps[is].end) {
            if (rt.hasCorrelation) {
                auto it = byCorrelation.find(rt.correlation);
                if (it != byCorrelation.end()) {
                    for (auto d : it->second) {
                        dmin = std::min(dmin, c.devices[d].start);
                        dmax = std::max(dmax, c.devices[d].end);
                        matched[d] = 1;
                        anyMatched = true;
                        ++matchedCount[is];
                    }
                }
            }
            ++ir;
        } else if (rt.start < c.steps[is].end) {
            ++ir;
        } else {
            stepDevice[is] = {dmin, dmax};
            ++is;
            dmin = Max;
            dmax = Min;
        }
    }
    while (is < n) {
        stepDevice[is] = {dmin, dmax};
        dmin = Max;
        dmax = Min;
        ++is;
    }
    if (!anyMatched || n == 0)
        return;
    std::int64_t prevEnd = c.steps[0].start;
    if (stepDevice[0].first != Max) {
        for (std::size_t d = 0; d < c.devices.size(); ++d) {
            if (!matched[d] && c.devices[d].end < stepDevice[0].first)
                prevEnd = std::max(prevEnd, c.devices[d].end);
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t start = std::max(prevEnd, c.steps[i].start);
        std::int64_t end = c.steps[i].end;
        if (stepDevice[i].first == Max)
            end = std::max(end, start);
        else
            end = std::max({end, stepDevice[i].second, start});
        c.steps[i].start = start;
        c.steps[i].end = end;
        prevEnd = end;
    }
    if (n > 1) {
        std::size_t last = n;
        while (last > 0 && matchedCount[last - 1] == 0)
            --last;
        if (last > 0) {
            std::size_t keep = last;
            const std::size_t i = last - 1;
            if (i > 0
                && static_cast<double>(matchedCount[i - 1]) * 0.8
                    > static_cast<double>(matchedCount[i]))
                keep = i;
            c.steps.resize(keep);
        }
    }
}

} // namespace

std::vector<TbBreakdown> computeTbBreakdowns(const model::Trace &trace)
{
    Collected c = collect(trace);
    std::vector<TbBreakdown> out;
    if (c.steps.empty()) {
        if (c.cpuMin >= c.cpuMax)
            return out;
        c.steps.push_back(HostStep {0, c.cpuMin, c.cpuMax});
    }
    moveStepsToDevice(c);

    std::vector<Iv> stepIvs;
    for (const auto &s : c.steps)
        stepIvs.emplace_back(s.start, s.end);
    const IntervalSet stepUnion = IntervalSet::fromUnsorted(stepIvs);
    std::array<IntervalSet, RoleCount + 1> cost;
    IntervalSet slots;
    for (int role = 0; role < RoleCount; ++role) {
        IntervalSet r =
            IntervalSet::fromUnsorted(std::move(c.roles[static_cast<std::size_t>(role)]));
        IntervalSet taken;
        if (!slots.empty()) {
            taken = slots.intersect(r);
        } else {
            // The plugin starts (and, should the slots ever run out, restarts) from the
            // union of the steps with the whole role range; reproduced as written.
            taken = r;
            slots = stepUnion;
        }
        slots = slots.subtract(taken);
        cost[static_cast<std::size_t>(role)] = std::move(taken);
    }
    cost[RoleCount] = slots; // Other

    for (const auto &s : c.steps) {
        TbBreakdown t;
        t.step = s.number;
        t.startNs = s.start;
        t.endNs = s.end;
        auto len = [&](int role) {
            return cost[static_cast<std::size_t>(role)].lengthIn(s.start, s.end);
        };
        t.kernelNs = len(Kernel);
        t.memcpyNs = len(Memcpy);
        t.memsetNs = len(Memset);
        t.communicationNs = len(Communication);
        t.runtimeNs = len(Runtime);
        t.dataLoaderNs = len(DataLoader);
        t.cpuExecNs = len(CpuOp);
        t.otherNs = len(RoleCount);
        out.push_back(t);
    }
    return out;
}

} // namespace stepscope::analysis
