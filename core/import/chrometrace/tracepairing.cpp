// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Pairing across the whole file: B/E and b/e marks into slices (per lane) and flow points
// into links (per cat and id), both once every chunk is merged.
#include "traceassembly.h"
#include "util/countof.h"
#include "util/nearsort.h"

#include <algorithm>
#include <unordered_map>
#include <utility>
#include <vector>

namespace stepscope::import::chrometrace {

using model::Severity;
using model::StringId;

/// B/E form a stack per lane; b/e pair by (cat, id). Matched pairs and unclosed begins
/// become slices; an E or e with nothing open is reported and dropped.
void TraceAssembly::resolveMarks(Lane &lane, std::int64_t traceEnd)
{
    std::vector<const Mark *> stack;
    std::unordered_map<std::uint32_t, std::vector<const Mark *>> open; // async id -> begins
    std::uint64_t orphanEnds = 0;
    std::int64_t orphanOffset = -1;
    // Begins and ends pair in time order, as Perfetto's sorter hands them over (file order
    // at an equal ts): an E written before its B but stamped after it still closes it.
    std::stable_sort(lane.marks.begin(), lane.marks.end(),
        [](const Mark &a, const Mark &b) { return a.ts < b.ts; });
    for (const Mark &m : lane.marks) {
        if (m.phase == 'B') {
            stack.push_back(&m);
        } else if (m.phase == 'b') {
            open[m.asyncId.value()].push_back(&m);
        } else if (m.phase == 'E' || m.phase == 'e') {
            const Mark *begin = nullptr;
            if (m.phase == 'E') {
                if (!stack.empty()) {
                    begin = stack.back();
                    stack.pop_back();
                }
            } else if (auto it = open.find(m.asyncId.value());
                       it != open.end() && !it->second.empty()) {
                begin = it->second.back();
                it->second.pop_back();
            }
            if (!begin) {
                ++orphanEnds;
                if (orphanOffset < 0)
                    orphanOffset = m.offset;
                continue;
            }
            if (m.name.isValid() && m.name != model::StringTable::Empty && m.name != begin->name)
                m_ctx.report->add(Severity::Warning, m_file,
                    "an 'E' event named \"" + std::string(str(m.name)) + "\" closes the open 'B' \""
                        + std::string(str(begin->name)) + "\"; closed anyway",
                    0, m.offset);
            const std::int64_t dur = std::max<std::int64_t>(0, m.ts - begin->ts);
            lane.push(*begin, dur, begin->flags);
        }
    }
    auto unfinished = [&](const Mark *b) {
        ++m_unclosed;
        if (m_unclosedOffset < 0 || b->offset < m_unclosedOffset)
            m_unclosedOffset = b->offset;
        lane.push(*b, std::max<std::int64_t>(0, traceEnd - b->ts),
            static_cast<std::uint8_t>(b->flags | FlagUnfinished));
    };
    std::uint64_t unclosed = stack.size();
    std::int64_t unclosedOffset = stack.empty() ? -1 : stack.front()->offset;
    for (const Mark *b : stack)
        unfinished(b);
    for (auto &entry : open) {
        unclosed += entry.second.size();
        for (const Mark *b : entry.second) {
            unfinished(b);
            if (unclosedOffset < 0 || b->offset < unclosedOffset)
                unclosedOffset = b->offset;
        }
    }
    if (unclosed > 0) // the message class of issue 14: say what happened to them
        m_ctx.report->add(Severity::Warning, m_file,
            util::countOf(unclosed, "begin event", "begin events")
                + " ('B'/'b') never closed: shown as unfinished slices that end with the "
                  "trace",
            0, unclosedOffset);
    if (orphanEnds > 0) {
        m_counts.skipped += orphanEnds;
        m_ctx.report->add(Severity::Warning, m_file,
            util::countOf(orphanEnds, "end event", "end events")
                + " ('E'/'e') without an open begin dropped",
            0, orphanOffset);
    }
    lane.marks.clear();
    lane.marks.shrink_to_fit();
}

void TraceAssembly::linkFlows(const Binding &binding, TopLevel &top)
{
    // Pairing depends neither on file order (Kineto writes every kernel's `f` before its
    // launch's `s`; chunks are merged in order but that must not matter) nor on time order
    // alone (Ascend host and device clocks differ: a HostToDevice `f` can be stamped before
    // its `s`). Points are grouped by (cat, id) once the whole file is known; within a group,
    // in time order, an `s` or `t` is the source of the points that follow it, a `t` or `f`
    // is linked from the latest `s`/`t` before it, or, when none precedes it in time, from
    // the group's first `s`. One `s` may feed several `f` (Ascend doubles some ids).
    auto rank = [](char phase) { return phase == 's' ? 0 : phase == 't' ? 1 : 2; };
    std::uint64_t unbound = 0;
    std::uint64_t noStart = 0;
    std::uint64_t beforeStart = 0;
    std::int64_t unboundOffset = -1;
    std::vector<std::uint32_t> order;
    order.reserve(m_flows.size());
    for (std::uint32_t i = 0; i < m_flows.size(); ++i) {
        if (binding[i].track.isValid()) {
            order.push_back(i);
        } else {
            ++unbound;
            if (unboundOffset < 0 || m_flows[i].offset < unboundOffset)
                unboundOffset = m_flows[i].offset;
        }
    }
    auto sameKey = [this](std::uint32_t a, std::uint32_t b) {
        const ChunkFlow &x = m_flows[a];
        const ChunkFlow &y = m_flows[b];
        return x.cat == y.cat && x.idTag == y.idTag && x.idLow == y.idLow;
    };
    // (cat, id), then time, s before t before f at an equal time, then file offset: a total
    // order, so the result does not depend on the order points arrived in.
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const ChunkFlow &x = m_flows[a];
        const ChunkFlow &y = m_flows[b];
        if (x.cat != y.cat)
            return x.cat.value() < y.cat.value();
        if (x.idTag != y.idTag)
            return x.idTag < y.idTag;
        if (x.idLow != y.idLow)
            return x.idLow < y.idLow;
        if (x.ts != y.ts)
            return x.ts < y.ts;
        if (rank(x.phase) != rank(y.phase))
            return rank(x.phase) < rank(y.phase);
        return x.offset < y.offset;
    });

    struct Link
    {
        std::uint32_t to; ///< index into m_flows of the t/f point
        model::EventRef from;
    };
    std::vector<Link> links;
    links.reserve(order.size() / 2);
    for (std::size_t begin = 0; begin < order.size();) {
        std::size_t end = begin + 1;
        while (end < order.size() && sameKey(order[begin], order[end]))
            ++end;
        // The group's first `s` in time, for points stamped before any source.
        model::EventRef firstStart;
        for (std::size_t k = begin; k < end; ++k) {
            if (m_flows[order[k]].phase == 's') {
                firstStart = binding[order[k]];
                break;
            }
        }
        model::EventRef source; // latest s/t so far in time
        for (std::size_t k = begin; k < end; ++k) {
            const std::uint32_t i = order[k];
            const model::EventRef ref = binding[i];
            const char phase = m_flows[i].phase;
            if (phase == 's') {
                source = ref;
                continue;
            }
            model::EventRef from = source;
            if (!from.track.isValid()) {
                from = firstStart;
                if (from.track.isValid())
                    ++beforeStart;
                else
                    ++noStart;
            }
            if (from.track.isValid() && from != ref)
                links.push_back({i, from});
            if (phase == 't')
                source = ref;
        }
        begin = end;
    }
    // Emit in time order of the receiving point, so the output is stable and reads naturally.
    util::stableSortNearlySorted(links, [&](const Link &a, const Link &b) {
        const ChunkFlow &x = m_flows[a.to];
        const ChunkFlow &y = m_flows[b.to];
        if (x.ts != y.ts)
            return x.ts < y.ts;
        if (rank(x.phase) != rank(y.phase))
            return rank(x.phase) < rank(y.phase);
        return x.offset < y.offset;
    });
    m_out.reserveFlows(links.size());
    for (const Link &l : links)
        m_out.addFlow(l.from, binding[l.to], m_flows[l.to].cat);
    top.counts.flowsLinked += links.size();

    if (unbound > 0)
        m_ctx.report->add(Severity::Info, m_file,
            util::countOf(unbound, "flow point lies on no event of its thread",
                "flow points lie on no event of their thread")
                + "; not linked",
            0, unboundOffset);
    if (noStart > 0)
        m_ctx.report->add(Severity::Info, m_file,
            util::countOf(noStart, "flow end", "flow ends")
                + " without a matching start ('s') not linked");
    if (beforeStart > 0)
        m_ctx.report->add(Severity::Info, m_file,
            util::countOf(beforeStart, "flow end stamped before its start",
                "flow ends stamped before their start")
                + " ('s'), e.g. host and device clocks differ; linked to that start");
}

} // namespace stepscope::import::chrometrace
