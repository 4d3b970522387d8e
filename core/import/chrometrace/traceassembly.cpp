// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "traceassembly.h"

#include "util/countof.h"
#include "util/nearsort.h"
#include "util/release.h"
#include "util/saturate.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <utility>

namespace stepscope::import::chrometrace {

using model::Severity;
using model::StringId;

namespace {
/// ArgsIds are 32-bit with the all-ones value invalid.
constexpr std::uint64_t MaxArgsId = 0xffffffffu;

std::uint64_t laneKey(StringId pid, StringId tid)
{
    return (static_cast<std::uint64_t>(pid.value()) << 32) | tid.value();
}
} // namespace

TraceAssembly::TraceAssembly(
    const Dialect &dialect, const ImportContext &ctx, std::string file, model::TraceBuilder &out)
    : m_dialect(dialect)
    , m_ctx(ctx)
    , m_file(std::move(file))
    , m_out(out)
    , m_keepArgs(ctx.options.keepArgs)
{
    const unsigned threads =
        ctx.options.threads != 0 ? ctx.options.threads : std::thread::hardware_concurrency();
    m_argsThread = threads > 1;
}

bool TraceAssembly::empty() const
{
    return m_lanes.empty() && m_counters.empty();
}

void TraceAssembly::merge(ChunkResult &chunk)
{
    const std::vector<StringId> strings = m_out.trace().strings.merge(chunk.strings);
    const std::vector<StringId> ids = m_ids.merge(chunk.ids);
    // The chunk's args are appended in order (ArgsTable::merge numbering): its entry k becomes
    // argsBase + k. Ids that would not fit an ArgsId (over 4 G events) lose their args.
    const std::uint64_t argsBase = m_argsStaged;
    if (m_onDemand) {
        m_argsStaged += chunk.argsOffsets.size();
        addRecords(chunk, argsBase);
    } else {
        m_argsStaged += chunk.args.size();
    }
    if (chunk.args.size() > 0) {
        if (m_argsThread && !m_collector)
            m_collector = std::make_unique<ArgsCollector>(m_args);
        if (m_collector)
            m_collector->push(std::move(chunk.args));
        else
            m_args.merge(chunk.args);
    }
    // An id outside the chunk's table (seen with a fuzzed CANN timeline: root cause not found
    // yet) becomes no string instead of a read past the map.
    auto s = [&strings](StringId id) {
        return id.isValid() && id.value() < strings.size() ? strings[id.value()] : StringId();
    };
    auto a = [argsBase](model::ArgsId id) {
        const std::uint64_t global = id.isValid() ? argsBase + id.value() : MaxArgsId;
        return global < MaxArgsId ? model::ArgsId(static_cast<std::uint32_t>(global))
                                  : model::ArgsId();
    };

    std::vector<std::uint32_t> lanes(chunk.lanes.size());
    for (std::size_t i = 0; i < chunk.lanes.size(); ++i) {
        const StringId pid = s(chunk.lanes[i].pid);
        const StringId tid = s(chunk.lanes[i].tid);
        auto [it, inserted] =
            m_laneIndex.emplace(laneKey(pid, tid), static_cast<std::uint32_t>(m_lanes.size()));
        if (inserted) {
            m_lanes.emplace_back();
            m_lanes.back().pid = pid;
            m_lanes.back().tid = tid;
        }
        lanes[i] = it->second;
    }
    for (const ChunkEvent &e : chunk.events) {
        Lane &lane = m_lanes[lanes[e.lane]];
        if (e.phase == 'X' || e.phase == 'i' || e.phase == 'n') {
            lane.push(e.ts, e.dur, s(e.name), s(e.cat), a(e.args), e.ids, e.category, e.flags);
        } else {
            Mark m;
            m.ts = e.ts;
            m.offset = e.offset;
            m.name = s(e.name);
            m.cat = s(e.cat);
            m.asyncId = e.asyncId.isValid() ? ids[e.asyncId.value()] : StringId();
            m.args = a(e.args);
            m.ids = e.ids;
            m.category = e.category;
            m.flags = e.flags;
            m.phase = e.phase;
            lane.marks.push_back(m);
        }
    }
    growAhead(chunk, lanes);
    for (const ChunkMeta &m : chunk.metas) {
        const StringId pid = s(m.pid);
        const StringId tid = s(m.tid);
        switch (m.kind) {
        case ChunkMeta::Kind::ProcessName:
            m_processes[pid.value()].name = std::string(str(s(m.text)));
            break;
        case ChunkMeta::Kind::ProcessLabels:
            m_processes[pid.value()].labels = std::string(str(s(m.text)));
            break;
        case ChunkMeta::Kind::ProcessSort:
            m_processes[pid.value()].sortIndex = m.sortIndex;
            m_processes[pid.value()].hasSortIndex = true;
            break;
        case ChunkMeta::Kind::ThreadName:
            m_threads[{pid.value(), tid.value()}].name = std::string(str(s(m.text)));
            break;
        case ChunkMeta::Kind::ThreadSort:
            m_threads[{pid.value(), tid.value()}].sortIndex = m.sortIndex;
            m_threads[{pid.value(), tid.value()}].hasSortIndex = true;
            break;
        }
    }
    for (const ChunkCounter &c : chunk.counters)
        m_counters.push_back({c.ts, c.value, s(c.pid), s(c.name), s(c.key)});
    for (ChunkFlow f : chunk.flows) {
        f.lane = lanes[f.lane];
        f.cat = s(f.cat);
        if (f.idTag == ChunkFlow::OtherId)
            f.idLow = ids[f.idLow].value();
        m_flows.push_back(f);
    }
    m_ctx.report->merge(chunk.report);
    m_counts.add(chunk.counts);
}

void TraceAssembly::setRecords(std::shared_ptr<const model::ArgsSource> source)
{
    if (!source)
        return;
    m_onDemand = true;
    model::ArgsTable &args = m_out.trace().args;
    m_source = args.addSource(std::move(source));
    if (m_source >= model::ArgsTable::MaxSources) {
        // readEvents chose on demand only with a source to spare.
        m_source = NoSource;
        m_keepArgs = false;
        m_ctx.report->add(Severity::Warning, m_file,
            "too many files with args read on demand: this file's args are not kept");
    }
    m_argsBase = static_cast<std::uint32_t>(args.size());
}

void TraceAssembly::addRecords(const ChunkResult &chunk, std::uint64_t argsBase)
{
    // Each kept args entry becomes the trace's record m_argsBase + (its staged id) now, in
    // the entries' order: no list of every event's offset waits for finish().
    if (m_source != NoSource) {
        model::ArgsTable &args = m_out.trace().args;
        for (const std::uint64_t record : chunk.argsOffsets)
            args.addRecord(m_source, std::min(record, model::ArgsTable::MaxRecordOffset - 1));
    }
    // The staged text (m_args, on m_collector's thread) is found by its staged id.
    for (const std::uint32_t at : chunk.stagedAt)
        m_stagedAt.push_back(static_cast<std::uint32_t>(std::min(argsBase + at, MaxArgsId)));
}

std::string_view TraceAssembly::stagedText(model::ArgsId id) const
{
    if (!m_onDemand)
        return m_args.view(id);
    const auto it = std::lower_bound(m_stagedAt.begin(), m_stagedAt.end(), id.value());
    if (it == m_stagedAt.end() || *it != id.value())
        return {};
    return m_args.view(model::ArgsId(static_cast<std::uint32_t>(it - m_stagedAt.begin())));
}

ProcessMeta TraceAssembly::processMeta(StringId pid) const
{
    ProcessMeta meta;
    if (auto it = m_processes.find(pid.value()); it != m_processes.end())
        meta = it->second;
    meta.id = std::string(str(pid));
    return meta;
}

ThreadMeta TraceAssembly::threadMeta(StringId pid, StringId tid) const
{
    ThreadMeta meta;
    if (auto it = m_threads.find({pid.value(), tid.value()}); it != m_threads.end())
        meta = it->second;
    meta.id = std::string(str(tid));
    meta.async = meta.id.rfind("async:", 0) == 0;
    return meta;
}

TraceAssembly::LaneTrack TraceAssembly::laneTrack(
    const Lane &lane, std::unordered_map<std::uint32_t, std::uint32_t> &pending)
{
    LaneTrack at;
    at.process = processMeta(lane.pid);
    at.thread = threadMeta(lane.pid, lane.tid);
    at.kind = m_dialect.classifyTrack(at.process, at.thread);
    if (at.kind == model::TrackKind::HostThread)
        at.kind = m_dialect.classifyByCategories(at.process, at.thread, laneCategories(lane));
    const ProcessMeta &process = at.process;
    const ThreadMeta &thread = at.thread;

    // Find the builder's track of this (pid, tid), or add one.
    model::TrackId trackId;
    for (std::size_t t = 0; t < m_out.trackCount(); ++t) {
        const model::TrackInfo &info =
            m_out.track(model::TrackId(static_cast<std::uint32_t>(t))).info();
        if (info.processId == process.id && info.threadId == thread.id) {
            trackId = model::TrackId(static_cast<std::uint32_t>(t));
            break;
        }
    }
    if (!trackId.isValid()) {
        model::TrackInfo info;
        info.rank = m_out.trace().rank;
        info.processId = process.id;
        info.threadId = thread.id;
        trackId = m_out.addTrack(info);
    }
    model::TrackBuilder &track = m_out.track(trackId);
    model::TrackInfo &info = track.info();
    info.kind = at.kind;
    if (!process.name.empty())
        info.processName = process.name;
    if (!thread.name.empty())
        info.threadName = thread.name;
    else if (thread.async && info.threadName.empty())
        info.threadName = thread.id.substr(6);
    if (process.hasSortIndex)
        info.processSortIndex = process.sortIndex;
    if (thread.hasSortIndex)
        info.threadSortIndex = thread.sortIndex;

    // Lanes are bound before any is built: the events of lanes before this one on the same
    // track come first.
    std::uint32_t &before = pending[trackId.value()];
    at.id = trackId;
    at.base = track.size() + before;
    before += static_cast<std::uint32_t>(lane.ts.size());
    return at;
}

void TraceAssembly::bindLane(
    const Lane &lane, const LaneTrack &at, Binding &binding, std::vector<std::uint32_t> &flows)
{
    const std::size_t n = lane.ts.size();
    const model::TrackId trackId = at.id;
    const std::uint32_t base = at.base;

    // Sorted view (start ascending, longer first) for the overlap count and flow binding: the
    // lane itself when it came in that order, else an index. Done on the staged times (file
    // ns) before the events go to the builder, which takes the lane's columns as they are.
    bool sorted = true;
    for (std::size_t i = 1; i < n && sorted; ++i)
        sorted = lane.ts[i - 1] < lane.ts[i]
            || (lane.ts[i - 1] == lane.ts[i] && lane.dur[i - 1] >= lane.dur[i]);
    std::vector<std::uint32_t> order;
    if (!sorted) {
        order.resize(n);
        std::iota(order.begin(), order.end(), 0u);
        util::stableSortNearlySorted(order, [&lane](std::uint32_t x, std::uint32_t y) {
            return lane.ts[x] != lane.ts[y] ? lane.ts[x] < lane.ts[y] : lane.dur[x] > lane.dur[y];
        });
    }
    const auto nth = [&](std::size_t k) {
        return sorted ? static_cast<std::uint32_t>(k) : order[k];
    };
    // A device stream runs one task at a time: two of one name, start and duration are the
    // file holding it twice (a trace concatenated with itself). Kept, and said, as they count
    // twice in every total.
    if (at.kind == model::TrackKind::DeviceStream)
        m_repeatedDeviceEvents += lane.exactRepeats(order);
    std::vector<std::int64_t> ends; // stack of open ends
    for (std::size_t k = 0; k < n; ++k) {
        const std::int64_t start = lane.ts[nth(k)];
        const std::int64_t end = start + lane.dur[nth(k)];
        while (!ends.empty() && ends.back() <= start)
            ends.pop_back();
        if (!ends.empty() && end > ends.back()) {
            ++m_partialOverlaps;
            continue;
        }
        ends.push_back(end);
    }

    if (flows.empty() || n == 0)
        return;
    // The lane's flow points in time order, swept once with the sorted events: `lo` and `hi`
    // bound the events that start at the point's time, and `open` holds each event that no
    // later-starting one outlasts (ends fall from bottom to top), so the latest-starting event
    // still open at the point is its top. No per-event list beside the lane.
    util::stableSortNearlySorted(
        flows, [this](std::uint32_t x, std::uint32_t y) { return m_flows[x].ts < m_flows[y].ts; });
    const auto startOf = [&](std::size_t k) { return lane.ts[nth(k)]; };
    struct Open
    {
        std::size_t k;
        std::int64_t end;
    };
    std::vector<Open> open;
    std::size_t lo = 0; // first event starting at or after the point
    std::size_t hi = 0; // first event starting after the point
    for (const std::uint32_t f : flows) {
        const ChunkFlow &flow = m_flows[f];
        for (; hi < n && startOf(hi) <= flow.ts; ++hi) {
            const std::uint32_t e = nth(hi);
            const std::int64_t end = lane.ts[e] + lane.dur[e];
            while (!open.empty() && open.back().end <= end)
                open.pop_back(); // outlasted by a later start: never the answer again
            open.push_back({hi, end});
        }
        while (lo < hi && startOf(lo) < flow.ts)
            ++lo;
        std::int64_t found = -1;
        if (flow.bindDur >= 0) {
            // v2: the slice that carries the bind_id (same start and duration).
            for (std::size_t k = lo; k < hi && found < 0; ++k) {
                if (lane.dur[nth(k)] == flow.bindDur)
                    found = nth(k);
            }
        }
        if (found >= 0) {
        } else if (flow.bindEnclosing) {
            // The latest-starting event that starts at or before the point and ends at or
            // after it; points come in time order, so one that ended before stays closed.
            while (!open.empty() && open.back().end < flow.ts)
                open.pop_back();
            if (!open.empty())
                found = nth(open.back().k);
        } else if (lo < n) {
            found = nth(lo);
        }
        if (found >= 0)
            binding[f] = model::EventRef {trackId, base + static_cast<std::uint32_t>(found)};
    }
}

void TraceAssembly::buildLane(Lane &lane, const LaneTrack &at, std::int64_t shift)
{
    const ProcessMeta &process = at.process;
    const ThreadMeta &thread = at.thread;
    const model::TrackKind kind = at.kind;
    const model::TrackId trackId = at.id;
    model::TrackBuilder &track = m_out.track(trackId);
    const model::TrackInfo &info = track.info();
    const std::size_t n = lane.ts.size();
    const std::uint32_t base = at.base;
    if (track.size() != base)
        throw std::logic_error("a lane's track grew between binding and building");

    // The events, in file order: provisional index base + i. The dialect sees each before the
    // lane's columns join the builder at the end (TrackBuilder::adopt: no second copy of the
    // lane at the peak of the load).
    EventFields fields;
    fields.processId = process.id;
    fields.threadId = thread.id;
    EventInfo hook;
    hook.track = trackId;
    hook.trackInfo = &info;
    for (std::size_t i = 0; i < n; ++i) {
        auto category = static_cast<model::Category>(lane.category[i]);
        const std::string_view name = str(lane.name[i]);
        const std::string_view cat = str(lane.cat[i]);
        const std::string_view args = (lane.flags[i] & FlagHookArgs) && lane.args[i].isValid()
            ? stagedText(lane.args[i])
            : std::string_view();
        if (lane.flags[i] & FlagDeferred) {
            fields.phase = lane.dur[i] == 0 ? 'i' : 'X';
            fields.category = cat;
            fields.name = name;
            fields.args = args;
            category = m_dialect.classifyDeferred(process, thread, kind, fields);
        }
        const bool unfinished = (lane.flags[i] & FlagUnfinished) != 0;
        const std::int64_t start = util::satAdd(lane.ts[i], shift);
        const model::ArgsId kept = m_keepArgs && lane.args[i].isValid()
            ? model::ArgsId(m_argsBase + lane.args[i].value())
            : model::ArgsId();
        hook.phase = lane.dur[i] == 0 && !unfinished ? 'i' : 'X';
        hook.index = base + static_cast<std::uint32_t>(i);
        hook.startNs = start;
        hook.durationNs = lane.dur[i];
        hook.unfinished = unfinished;
        hook.category = category;
        hook.name = name;
        hook.cat = cat;
        hook.args = args;
        hook.ids = lane.ids(i);
        m_dialect.onEvent(hook, m_out);
        // In place, the columns become the builder's: what TrackBuilder::add would keep.
        lane.ts[i] = start;
        lane.category[i] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(category)
            | (unfinished ? model::TrackBuilder::UnfinishedFlag : 0));
        lane.args[i] = kept;
    }
    util::release(lane.cat);
    lane.correlation = model::PackedId();
    lane.externalId = model::PackedId();
    util::release(lane.flags);
    track.adopt(std::move(lane.ts), std::move(lane.dur), std::move(lane.name),
        std::move(lane.category), std::move(lane.args));
    m_eventsAdded += n;

    lane = Lane();
}

void TraceAssembly::buildCounters(std::int64_t shift)
{
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> series;
    std::vector<model::CounterSeries> &out = m_out.trace().counters;
    for (std::size_t i = 0; i < out.size(); ++i)
        series.emplace(std::make_tuple(out[i].process, out[i].name, out[i].key), i);
    std::unordered_map<std::uint64_t, std::size_t> cache; // (pid, name) x key -> series
    for (const Counter &c : m_counters) {
        const std::uint64_t pk = laneKey(c.pid, c.name)
            ^ (static_cast<std::uint64_t>(c.key.value()) * 0x9E3779B97F4A7C15ull);
        std::size_t index = 0;
        auto cached = cache.find(pk);
        if (cached != cache.end() && out[cached->second].key == str(c.key)) {
            index = cached->second;
        } else {
            const ProcessMeta process = processMeta(c.pid);
            std::string processName = process.name.empty() ? process.id : process.name;
            auto key =
                std::make_tuple(processName, std::string(str(c.name)), std::string(str(c.key)));
            auto it = series.find(key);
            if (it == series.end()) {
                model::CounterSeries s;
                s.process = std::get<0>(key);
                s.name = std::get<1>(key);
                s.key = std::get<2>(key);
                out.push_back(std::move(s));
                it = series.emplace(key, out.size() - 1).first;
            }
            index = it->second;
            cache[pk] = index;
        }
        out[index].timestampsNs.push_back(util::satAdd(c.ts, shift));
        out[index].values.push_back(c.value);
    }
    m_counters.clear();
}

void TraceAssembly::finish(TopLevel &top)
{
    // Extent of the file in file ns.
    std::int64_t minTs = std::numeric_limits<std::int64_t>::max();
    std::int64_t maxEnd = std::numeric_limits<std::int64_t>::min();
    for (const Lane &lane : m_lanes) {
        for (std::size_t i = 0; i < lane.ts.size(); ++i) {
            minTs = std::min(minTs, lane.ts[i]);
            maxEnd = std::max(maxEnd, lane.ts[i] + lane.dur[i]);
        }
        for (const Mark &m : lane.marks) {
            minTs = std::min(minTs, m.ts);
            maxEnd = std::max(maxEnd, m.ts);
        }
    }
    for (const Counter &c : m_counters) {
        minTs = std::min(minTs, c.ts);
        maxEnd = std::max(maxEnd, c.ts);
    }
    const std::int64_t offset = m_dialect.timeOffsetNs(top);
    top.timeOffsetNs = offset;
    model::Trace &trace = m_out.trace();
    if (minTs != std::numeric_limits<std::int64_t>::max() && m_out.trackCount() == 0
        && trace.originNs == 0 && trace.counters.empty())
        trace.originNs = util::satAdd(minTs, offset);
    // File times and offsets are inside ±2^61 ns (ChunkParser, the dialects), but the origin
    // may be another file's: the shift is held at the int64 limits, never overflowed.
    const std::int64_t shift = util::satSub(offset, trace.originNs);
    if (!m_onDemand)
        m_argsBase = static_cast<std::uint32_t>(trace.args.size());
    if (m_collector) {
        m_collector->finish(); // m_args is complete from here on
        m_collector.reset();
    }

    for (Lane &lane : m_lanes)
        resolveMarks(lane, maxEnd);
    if (m_unclosed > 0)
        m_ctx.report->add(Severity::Warning, m_file,
            util::countOf(m_unclosed, "begin event", "begin events")
                + " ('B'/'b') never closed: drawn to the end of the trace and flagged "
                  "unfinished",
            0, m_unclosedOffset);

    std::vector<std::vector<std::uint32_t>> flowsByLane(m_lanes.size());
    for (std::size_t i = 0; i < m_flows.size(); ++i)
        flowsByLane[m_flows[i].lane].push_back(static_cast<std::uint32_t>(i));
    Binding binding(m_flows.size());
    // Every lane's flow points are bound first, on the staged times (file ns), to provisional
    // references: the lanes' own indices after the events of earlier lanes on their track.
    std::vector<LaneTrack> tracks(m_lanes.size());
    {
        std::unordered_map<std::uint32_t, std::uint32_t> pending;
        for (std::size_t i = 0; i < m_lanes.size(); ++i) {
            if (m_lanes[i].ts.empty())
                continue; // pids with flows or metadata but no events get no track
            tracks[i] = laneTrack(m_lanes[i], pending);
            bindLane(m_lanes[i], tracks[i], binding, flowsByLane[i]);
        }
    }
    util::release(flowsByLane);
    // Linked at once, on those references: the points and their binding are freed before
    // the lanes are built, whose columns and dialect lists then grow.
    linkFlows(binding, top);
    util::release(binding);
    util::release(m_flows);
    // Room for the ids the dialect may keep (Kineto: an External id on every host operator),
    // so that the builder's list does not grow by copies while the lanes are built.
    std::size_t withIds = 0;
    for (const Lane &lane : m_lanes) {
        for (std::size_t i = 0; i < lane.ts.size(); ++i) {
            const EventArgIds ids = lane.ids(i);
            withIds += ids.correlation != -1 || ids.externalId != -1 ? 1 : 0;
        }
    }
    m_out.reserveEventIds(withIds);
    for (std::size_t i = 0; i < m_lanes.size(); ++i) {
        if (m_lanes[i].ts.empty())
            continue; // pids with flows or metadata but no events get no track
        buildLane(m_lanes[i], tracks[i], shift);
    }
    buildCounters(shift);
    if (m_onDemand) {
        // Args on demand: the records are in the trace since addRecords; the staged text
        // (only for the events the dialect read) is dropped.
        trace.args.shrinkToFit();
        util::release(m_stagedAt);
    } else if (m_keepArgs) {
        // Appended in order: staged id k becomes m_argsBase + k, as used by buildLane. The
        // first file of a trace hands its arena over instead of copying it: no second copy of
        // every event's args, at the peak of the load.
        if (trace.args.size() == 0)
            trace.args = std::move(m_args);
        else
            trace.args.merge(m_args);
    }
    m_args = model::ArgsTable();
    if (m_repeatedDeviceEvents > 0)
        m_ctx.report->add(Severity::Warning, m_file,
            util::countOf(m_repeatedDeviceEvents, "event of a device stream repeats",
                "events of device streams repeat")
                + " an earlier one exactly (name, start, duration): the file holds them twice? "
                  "Kept, so they count twice in the totals");
    if (m_partialOverlaps > 0)
        m_ctx.report->add(Severity::Info, m_file,
            util::countOf(m_partialOverlaps, "event overlaps", "events overlap")
                + " a neighbour without nesting; kept on extra rows");

    auto &c = top.counts;
    c.complete += m_counts.complete;
    c.begin += m_counts.begin;
    c.end += m_counts.end;
    c.instant += m_counts.instant;
    c.counter += m_counts.counter;
    c.counterPoints += m_counts.counterPoints;
    c.metadata += m_counts.metadata;
    c.flowPoints += m_counts.flowPoints;
    c.async += m_counts.async;
    c.other += m_counts.other;
    c.skipped += m_counts.skipped;
    c.eventsAdded += m_eventsAdded;
    c.partialOverlaps += m_partialOverlaps;
    m_lanes.clear();
}

} // namespace stepscope::import::chrometrace
