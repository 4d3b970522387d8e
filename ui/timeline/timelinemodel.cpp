// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timelinemodel.h"

#include "analysis/steps.h"
#include "axisbreaks.h"
#include "ui/text.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

namespace stepscope::ui::timeline {

namespace {

struct TablePlacement
{
    std::int64_t offsetNs = 0;
    std::int32_t besideRank = 0; ///< the rank with events whose step it lines up with
};

/*
 * A rank with only its step table (no events) has no clock: its steps count from 0, while
 * ranks with events keep theirs (epoch ns, decades away). Its first step is placed where the
 * same step of the first rank with events starts (both from the analysis' step lanes), so
 * the lanes line up instead of lying apart on each side of an axis break; nullopt when no
 * rank with events has that step.
 */
std::optional<TablePlacement> tableRankOffset(const model::Session &s,
    const analysis::SessionAnalysis &analysed, const std::vector<std::size_t> &withEvents,
    std::size_t ti, std::int64_t origin)
{
    const auto &lanes = analysed.lanes;
    if (s.traces[ti]->eventCount() > 0 || ti >= lanes.size() || lanes[ti].empty())
        return std::nullopt;
    const analysis::LaneSegment &own = lanes[ti].front();
    for (const std::size_t k : withEvents) {
        if (k >= lanes.size())
            continue;
        for (const analysis::LaneSegment &seg : lanes[k]) {
            if (seg.step == own.step)
                return TablePlacement {
                    s.traces[k]->originNs - origin + seg.startNs - own.startNs, s.traces[k]->rank};
        }
    }
    return std::nullopt;
}

/*
 * The rank header's note for a rank whose steps come from its step table alone (no events):
 * where its lane is drawn, since no clock places it (tableRankOffset). Empty for other ranks.
 */
QString tableOnlyNote(const model::Session &s, const analysis::SessionAnalysis &analysed,
    std::size_t ti, const std::optional<TablePlacement> &placed)
{
    const model::Trace &trace = *s.traces[ti];
    if (trace.eventCount() > 0 || ti >= analysed.lanes.size() || analysed.lanes[ti].empty()
        || analysed.lanes[ti].front().drawn != analysis::LaneSegment::Drawn::FromTableOnly)
        return {};
    const std::string &source =
        trace.referenceSteps.empty() ? std::string() : trace.referenceSteps.front().source;
    QString note = QStringLiteral("No timeline: the steps come from the profiler's table%1 "
                                  "alone, each drawn in the table's column order.")
                       .arg(source.empty() ? QString() : QStringLiteral(" (%1)").arg(qs(source)));
    const auto &lane = analysed.lanes[ti];
    if (placed)
        return note
            + QStringLiteral(" Step %1 is placed where rank %2's step %1 starts%3: where the "
                             "steps lie in time was not measured.")
                  .arg(lane.front().step)
                  .arg(placed->besideRank)
                  .arg(lane.back().step != lane.front().step
                          ? QStringLiteral(", the steps after it one after the other")
                          : QString());
    return note
        + QStringLiteral(" The steps are laid one after the other from 0: where they lie in time "
                         "was not measured.");
}

/// "7" < "12": ids compare as numbers when both are digits.
bool idLess(const std::string &a, const std::string &b)
{
    const bool da = !a.empty() && std::all_of(a.begin(), a.end(), ::isdigit);
    const bool db = !b.empty() && std::all_of(b.begin(), b.end(), ::isdigit);
    if (da && db && a.size() != b.size())
        return a.size() < b.size();
    return a < b;
}

QString processLabel(const model::TrackInfo &info)
{
    if (info.processName.empty()) {
        // Never a bare "process": say what kind of lanes it holds.
        const QString what = info.kind == model::TrackKind::DeviceStream
            ? QStringLiteral("device")
            : QStringLiteral("process");
        return info.processId.empty() ? QStringLiteral("%1 without an id").arg(what)
                                      : what + QLatin1Char(' ') + qs(info.processId);
    }
    if (info.processId.empty() || info.processName == info.processId)
        return qs(info.processName);
    return qs(info.processName) + QStringLiteral(" (") + qs(info.processId) + QStringLiteral(")");
}

/// "stream " + id unless the id already says "stream 7"; a negative id (a profiler's
/// synthetic lane) without its minus sign, marked as such.
QString numbered(const QString &word, const std::string &id)
{
    QString text = qs(id).trimmed();
    if (text.isEmpty())
        return QStringLiteral("%1 without an id").arg(word);
    if (text.startsWith(word, Qt::CaseInsensitive))
        return text;
    if (text.startsWith(QLatin1Char('-')) && text.size() > 1)
        return QStringLiteral("%1 %2 (synthetic)").arg(word, text.mid(1));
    return word + QLatin1Char(' ') + text;
}

QString threadLabel(const model::TrackInfo &info)
{
    if (!info.threadName.empty() && info.threadName != info.threadId)
        return qs(info.threadName);
    switch (info.kind) {
    case model::TrackKind::DeviceStream:
        return numbered(QStringLiteral("stream"), info.threadId);
    case model::TrackKind::CommunicationGroup:
        return numbered(QStringLiteral("group"), info.threadId);
    default:
        return numbered(QStringLiteral("thread"), info.threadId);
    }
}

void addTraceLanes(std::vector<Lane> &lanes, std::vector<int> &trackLane, const model::Trace &trace,
    int traceIndex)
{
    const QString rankKey = QStringLiteral("r%1").arg(trace.rank);
    Lane rank;
    rank.kind = LaneKind::Rank;
    rank.traceIndex = traceIndex;
    rank.rank = trace.rank;
    rank.key = rankKey;
    rank.rankKey = rankKey;
    rank.label = QStringLiteral("rank %1").arg(trace.rank);
    rank.tooltip = rank.label + QStringLiteral(" — step lane: where each step's time went");
    if (!trace.metadata.device.empty())
        rank.tooltip += QStringLiteral("\n") + qs(trace.metadata.device);
    lanes.push_back(std::move(rank));

    // Group tracks by process; order processes by (kind of their first track, sort index, id)
    // so host threads come before device streams and communication groups (DESIGN.md).
    std::map<std::string, std::vector<int>> byProcess;
    for (std::size_t t = 0; t < trace.tracks.size(); ++t)
        byProcess[trace.tracks[t].info().processId].push_back(static_cast<int>(t));
    using ProcessOrder = std::tuple<int, std::int64_t, std::string>;
    std::vector<std::pair<ProcessOrder, std::vector<int>>> processes;
    for (auto &[pid, tracks] : byProcess) {
        std::sort(tracks.begin(), tracks.end(), [&](int a, int b) {
            const auto &ia = trace.tracks[static_cast<std::size_t>(a)].info();
            const auto &ib = trace.tracks[static_cast<std::size_t>(b)].info();
            if (ia.kind != ib.kind)
                return ia.kind < ib.kind;
            if (ia.threadSortIndex != ib.threadSortIndex)
                return ia.threadSortIndex < ib.threadSortIndex;
            if (ia.threadId != ib.threadId)
                return idLess(ia.threadId, ib.threadId);
            return a < b;
        });
        const auto &first = trace.tracks[static_cast<std::size_t>(tracks.front())].info();
        processes.push_back(
            {ProcessOrder {static_cast<int>(first.kind), first.processSortIndex, pid}, tracks});
    }
    std::sort(processes.begin(), processes.end(), [](const auto &a, const auto &b) {
        if (std::get<0>(a.first) != std::get<0>(b.first))
            return std::get<0>(a.first) < std::get<0>(b.first);
        if (std::get<1>(a.first) != std::get<1>(b.first))
            return std::get<1>(a.first) < std::get<1>(b.first);
        return idLess(std::get<2>(a.first), std::get<2>(b.first));
    });
    for (const auto &[order, tracks] : processes) {
        const auto &info = trace.tracks[static_cast<std::size_t>(tracks.front())].info();
        Lane process;
        process.kind = LaneKind::Process;
        process.traceIndex = traceIndex;
        process.rank = trace.rank;
        process.key = rankKey + QStringLiteral("/p") + qs(std::get<2>(order));
        process.parentKey = rankKey;
        process.rankKey = rankKey;
        process.label = processLabel(info);
        process.tooltip =
            process.label + QStringLiteral(" — ") + qs(model::trackKindName(info.kind));
        process.indent = 1;
        const QString processKey = process.key;
        lanes.push_back(std::move(process));
        for (int t : tracks) {
            const model::Track &track = trace.tracks[static_cast<std::size_t>(t)];
            Lane lane;
            lane.kind = LaneKind::Track;
            lane.traceIndex = traceIndex;
            lane.trackIndex = t;
            lane.rank = trace.rank;
            lane.key = processKey + QStringLiteral("/t") + qs(track.info().threadId)
                + QStringLiteral("#%1").arg(t);
            lane.parentKey = processKey;
            lane.rankKey = rankKey;
            lane.label = threadLabel(track.info());
            lane.tooltip = lane.label
                + QStringLiteral("\n%1 events, %2 rows, %3")
                      .arg(track.size())
                      .arg(track.rowCount())
                      .arg(qs(model::trackKindName(track.info().kind)));
            lane.indent = 2;
            lane.rows = static_cast<int>(std::max<std::uint32_t>(1, track.rowCount()));
            lane.summaries.reserve(track.rowCount());
            for (std::uint32_t r = 0; r < track.rowCount(); ++r)
                lane.summaries.push_back(RowSummary::build(track, r));
            trackLane[static_cast<std::size_t>(t)] = static_cast<int>(lanes.size());
            lanes.push_back(std::move(lane));
        }
    }
    if (!trace.counters.empty()) {
        Lane group;
        group.kind = LaneKind::Process;
        group.traceIndex = traceIndex;
        group.rank = trace.rank;
        group.key = rankKey + QStringLiteral("/counters");
        group.parentKey = rankKey;
        group.rankKey = rankKey;
        group.label = QStringLiteral("counters");
        group.tooltip = QStringLiteral("memory, frequency and bandwidth counters");
        group.indent = 1;
        const QString groupKey = group.key;
        lanes.push_back(std::move(group));
        for (std::size_t c = 0; c < trace.counters.size(); ++c) {
            const model::CounterSeries &series = trace.counters[c];
            Lane lane;
            lane.kind = LaneKind::Counter;
            lane.traceIndex = traceIndex;
            lane.counterIndex = static_cast<int>(c);
            lane.rank = trace.rank;
            lane.key = groupKey + QStringLiteral("/%1").arg(c);
            lane.parentKey = groupKey;
            lane.rankKey = rankKey;
            lane.label = qs(series.name);
            if (!series.key.empty() && series.key != series.name)
                lane.label += QStringLiteral(" · ") + qs(series.key);
            lane.tooltip = qs(series.process) + QStringLiteral(": ") + lane.label
                + QStringLiteral("\n%1 points").arg(series.values.size());
            lane.indent = 2;
            for (double v : series.values) {
                lane.valueMin = std::min(lane.valueMin, v);
                lane.valueMax = std::max(lane.valueMax, v);
            }
            lanes.push_back(std::move(lane));
        }
    }
}

} // namespace

std::shared_ptr<const TimelineModel> TimelineModel::build(
    std::shared_ptr<const model::Session> session, bool alignClocks,
    std::shared_ptr<const analysis::SessionAnalysis> analysed)
{
    auto m = std::make_shared<TimelineModel>();
    m->m_session = std::move(session);
    if (!m->m_session)
        return m;
    if (!analysed)
        analysed = std::make_shared<const analysis::SessionAnalysis>(
            analysis::analyzeSession(*m->m_session, {}));
    const model::Session &s = *m->m_session;
    const std::int64_t origin = s.originNs();
    std::vector<std::size_t> withEvents;
    for (std::size_t ti = 0; ti < s.traces.size(); ++ti)
        if (s.traces[ti]->eventCount() > 0)
            withEvents.push_back(ti);
    auto lanes = std::make_shared<std::vector<Lane>>();
    for (std::size_t ti = 0; ti < s.traces.size(); ++ti) {
        const model::Trace &trace = *s.traces[ti];
        const std::optional<TablePlacement> placed =
            tableRankOffset(s, *analysed, withEvents, ti, origin);
        const std::int64_t offset = placed ? placed->offsetNs : trace.originNs - origin;
        m->m_offsets.push_back(offset);
        m->m_tableOnlyNotes.push_back(tableOnlyNote(s, *analysed, ti, placed));
        m->m_trackLane.emplace_back(trace.tracks.size(), -1);
        const std::size_t rankLane = lanes->size();
        addTraceLanes(*lanes, m->m_trackLane.back(), trace, static_cast<int>(ti));
        if (!m->m_tableOnlyNotes.back().isEmpty()) // seen without hovering: no timeline here
            (*lanes)[rankLane].label += QStringLiteral(" · table only");
        m->m_eventCount += trace.eventCount();

        std::vector<StepSpan> steps;
        const std::vector<model::Step> detected =
            trace.steps.empty() ? analysis::detectSteps(trace, nullptr) : trace.steps;
        // A rank without events (a trimmed folder with only its step table) spans its steps,
        // so the view opens on the table-drawn step lane, not on "-4 ns ... 6 ns".
        // Steps no rank with events shares (a cluster table's whole-capture rows, step id
        // blank) have no place in time beside those events: they do not widen the view, which
        // opened on 1.7 s of them with the one rank with events squeezed to its right edge.
        std::pair<std::int64_t, std::int64_t> extent {1, 0};
        if (!trace.tracks.empty() && trace.eventCount() > 0) {
            extent = trace.extent();
        } else if (placed || withEvents.empty()) {
            for (std::size_t k = 0; k < detected.size(); ++k) {
                const model::Step &st = detected[k];
                extent.first = k == 0 ? st.startNs : std::min(extent.first, st.startNs);
                extent.second = k == 0 ? st.endNs : std::max(extent.second, st.endNs);
            }
        }
        m->m_traceExtents.push_back(extent);
        for (const model::Step &st : detected)
            steps.push_back({st.number, st.startNs + offset, st.endNs + offset});
        std::vector<StepLaneSegment> segments;
        if (ti < analysed->lanes.size()) {
            for (const analysis::LaneSegment &seg : analysed->lanes[ti])
                segments.push_back(
                    {seg.startNs + offset, seg.endNs + offset, seg.kind, seg.step, seg.drawn});
        }
        m->m_fromAnalysis = true;
        for (const StepLaneSegment &seg : segments)
            m->m_segmentMask |= 1u << static_cast<unsigned>(seg.kind);
        for (const model::Track &track : trace.tracks) {
            for (std::uint32_t i = 0; i < track.size(); ++i)
                m->m_categoryMask |= 1u << static_cast<unsigned>(track.category(i));
        }
        {
            std::vector<std::int64_t> starts(segments.size());
            std::vector<std::int64_t> ends(segments.size());
            std::vector<std::uint8_t> codes(segments.size());
            for (std::size_t k = 0; k < segments.size(); ++k) {
                starts[k] = segments[k].startNs;
                ends[k] = segments[k].endNs;
                codes[k] = static_cast<std::uint8_t>(static_cast<unsigned>(segments[k].kind) + 1);
            }
            m->m_segmentSummaries.push_back(
                RowSummary::build(segments.size(), starts.data(), ends.data(), codes.data()));
        }
        m->m_steps.push_back(std::move(steps));
        m->m_segments.push_back(std::move(segments));
    }
    m->m_lanes = std::move(lanes);
    m->findIslands();
    m->m_clocks = estimateRankClocks(s);
    m->applyClocks(alignClocks);
    return m;
}

std::shared_ptr<const TimelineModel> TimelineModel::withClocks(
    const std::shared_ptr<const TimelineModel> &model, bool aligned)
{
    if (!model || model->m_clocksAligned == aligned)
        return model;
    auto m = std::make_shared<TimelineModel>(*model);
    m->applyClocks(aligned);
    return m;
}

/*
 * Moves each trace with a known clock offset by it (or back), then recomputes the extent:
 * the offset is part of offsetNs(), so events, steps and step-lane segments all follow.
 */
void TimelineModel::applyClocks(bool aligned)
{
    m_clocksAligned = aligned;
    for (std::size_t ti = 0; ti < m_clocks.size() && ti < m_offsets.size(); ++ti) {
        RankClock &clock = m_clocks[ti];
        const bool apply = aligned && clock.known && !clock.reference && clock.offsetNs != 0;
        const std::int64_t delta =
            (apply ? clock.offsetNs : 0) - (clock.applied ? clock.offsetNs : 0);
        clock.applied = apply;
        if (delta == 0)
            continue;
        m_offsets[ti] += delta;
        for (StepSpan &st : m_steps[ti]) {
            st.startNs += delta;
            st.endNs += delta;
        }
        std::vector<StepLaneSegment> &segments = m_segments[ti];
        std::vector<std::int64_t> starts(segments.size());
        std::vector<std::int64_t> ends(segments.size());
        std::vector<std::uint8_t> codes(segments.size());
        for (std::size_t k = 0; k < segments.size(); ++k) {
            segments[k].startNs += delta;
            segments[k].endNs += delta;
            starts[k] = segments[k].startNs;
            ends[k] = segments[k].endNs;
            codes[k] = static_cast<std::uint8_t>(static_cast<unsigned>(segments[k].kind) + 1);
        }
        m_segmentSummaries[ti] =
            RowSummary::build(segments.size(), starts.data(), ends.data(), codes.data());
    }
    m_extent = unionExtent();
    std::vector<Island> all;
    for (std::size_t ti = 0; ti < m_islands.size(); ++ti) {
        for (const Island &i : m_islands[ti])
            all.emplace_back(i.first + m_offsets[ti], i.second + m_offsets[ti]);
    }
    m_breaks =
        std::make_shared<const std::vector<AxisBreak>>(findBreaks(std::move(all), m_breakMinGapNs));
}

bool TimelineModel::hasTimeline() const
{
    if (m_eventCount > 0)
        return true;
    return std::any_of(m_steps.begin(), m_steps.end(), [](const auto &s) { return !s.empty(); });
}

std::map<int, std::int64_t> TimelineModel::rulerZeros() const
{
    std::map<int, std::int64_t> zeros;
    if (!m_session || !hasTimeline())
        return zeros;
    const auto &traces = m_session->traces;
    for (std::size_t i = 0; i < traces.size() && i < m_offsets.size(); ++i)
        zeros.emplace(traces[i]->rank, m_extent.first - m_offsets[i]);
    return zeros;
}

/// The traces' extents moved by their offsets, {0, 1} when none has one.
std::pair<std::int64_t, std::int64_t> TimelineModel::unionExtent() const
{
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    bool any = false;
    for (std::size_t ti = 0; ti < m_traceExtents.size(); ++ti) {
        const auto [t0, t1] = m_traceExtents[ti];
        if (t0 > t1)
            continue;
        lo = any ? std::min(lo, t0 + m_offsets[ti]) : t0 + m_offsets[ti];
        hi = any ? std::max(hi, t1 + m_offsets[ti]) : t1 + m_offsets[ti];
        any = true;
    }
    return any ? std::pair<std::int64_t, std::int64_t> {lo, std::max(hi, lo + 1)}
               : std::pair<std::int64_t, std::int64_t> {0, 1};
}

/*
 * The islands of content of every trace in its own time, with the break threshold of the
 * session (axisbreaks.h): once per load; applyClocks() moves them and finds the breaks.
 */
void TimelineModel::findIslands()
{
    std::vector<std::int64_t> durations;
    for (const std::vector<StepSpan> &steps : m_steps)
        for (const StepSpan &st : steps)
            durations.push_back(st.endNs - st.startNs);
    const auto [lo, hi] = unionExtent();
    m_breakMinGapNs = breakThresholdNs(std::move(durations), hi - lo);
    m_islands.clear();
    for (std::size_t ti = 0; ti < m_steps.size(); ++ti) {
        std::vector<Island> islands = traceIslands(trace(static_cast<int>(ti)), m_breakMinGapNs);
        // The steps in the trace's own time (m_steps are session-relative).
        for (const StepSpan &st : m_steps[ti])
            islands.emplace_back(st.startNs - m_offsets[ti], st.endNs - m_offsets[ti]);
        m_islands.push_back(std::move(islands));
    }
}

QString TimelineModel::laneTooltip(int lane) const
{
    if (lane < 0 || static_cast<std::size_t>(lane) >= m_lanes->size())
        return {};
    const Lane &l = (*m_lanes)[static_cast<std::size_t>(lane)];
    const auto ti = static_cast<std::size_t>(l.traceIndex);
    if (l.kind == LaneKind::Rank && ti < m_tableOnlyNotes.size() && !m_tableOnlyNotes[ti].isEmpty())
        return l.tooltip + QStringLiteral("\n") + m_tableOnlyNotes[ti];
    if (l.kind != LaneKind::Rank || ti >= m_clocks.size())
        return l.tooltip;
    return l.tooltip + QStringLiteral("\n") + clockNote(m_clocks[ti], m_clocks.front().rank);
}

int TimelineModel::laneOfTrack(int traceIndex, int trackIndex) const
{
    if (traceIndex < 0 || static_cast<std::size_t>(traceIndex) >= m_trackLane.size())
        return -1;
    const auto &v = m_trackLane[static_cast<std::size_t>(traceIndex)];
    if (trackIndex < 0 || static_cast<std::size_t>(trackIndex) >= v.size())
        return -1;
    return v[static_cast<std::size_t>(trackIndex)];
}

QString TimelineModel::nameOf(const EventKey &e) const
{
    return qs(trace(e.traceIndex).strings.view(track(e).name(e.index)));
}

std::int64_t TimelineModel::stepOf(const EventKey &e) const
{
    const std::int64_t t = startOf(e);
    const auto &steps = m_steps[static_cast<std::size_t>(e.traceIndex)];
    auto it = std::upper_bound(steps.begin(), steps.end(), t,
        [](std::int64_t v, const StepSpan &s) { return v < s.startNs; });
    if (it == steps.begin())
        return -1;
    --it;
    return t < it->endNs ? it->number : -1;
}

/*
 * Search: match the needle against each distinct name once (the string table), then walk the
 * name-id column of every track, which is a tight loop over 4-byte ids.
 */
std::vector<EventKey> TimelineModel::search(const QString &needle) const
{
    std::vector<EventKey> out;
    if (needle.isEmpty() || !m_session)
        return out;
    // Each match with its start, taken once: the sort compares numbers, not startOf() lookups.
    std::vector<std::pair<std::int64_t, EventKey>> found;
    for (std::size_t ti = 0; ti < m_session->traces.size(); ++ti) {
        const model::Trace &trace = *m_session->traces[ti];
        std::vector<char> match(trace.strings.size(), 0);
        bool anyMatch = false;
        for (std::size_t id = 0; id < trace.strings.size(); ++id) {
            if (qs(trace.strings.view(model::StringId(static_cast<std::uint32_t>(id))))
                    .contains(needle, Qt::CaseInsensitive)) {
                match[id] = 1;
                anyMatch = true;
            }
        }
        if (!anyMatch)
            continue;
        for (std::size_t t = 0; t < trace.tracks.size(); ++t) {
            const model::Track &track = trace.tracks[t];
            const std::int64_t offset = offsetNs(static_cast<int>(ti));
            for (std::uint32_t i = 0; i < track.size(); ++i) {
                if (match[track.name(i).value()])
                    found.emplace_back(track.start(i) + offset,
                        EventKey {static_cast<int>(ti), static_cast<int>(t), i});
            }
        }
    }
    std::stable_sort(
        found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    out.reserve(found.size());
    for (const auto &f : found)
        out.push_back(f.second);
    return out;
}

std::size_t TimelineModel::summaryBytes() const
{
    std::size_t bytes = 0;
    for (const Lane &l : *m_lanes)
        for (const RowSummary &s : l.summaries)
            bytes += s.memoryBytes();
    return bytes;
}

} // namespace stepscope::ui::timeline
