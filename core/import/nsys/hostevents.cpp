// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// Host lanes of an Nsight Systems export (docs/formats.md §12.2-§12.4): CUDA runtime and driver
// calls, OS runtime calls, nsys's own overhead and NVTX ranges and marks, per thread.
// Names come from StringIds (NVTX: the row's `text`, else StringIds[textId]). Rows nest by
// time containment (TrackBuilder); OSRT's nestingLevel is kept in the args only.

#include "import/sqlite/tablescan.h"
#include "nsysdb.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>

namespace stepscope::import::nsys {

namespace {

using model::Category;
using sqlite::TablePresence;
using sqlite::TableScan;

/// The digits that make up all of `rest`, as a number.
std::optional<std::int64_t> wholeNumber(std::string_view rest)
{
    if (rest.empty() || rest.size() > 18)
        return std::nullopt;
    std::int64_t n = 0;
    for (char c : rest) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

/// The columns CUPTI_ACTIVITY_KIND_RUNTIME, OSRT_API and PROFILER_OVERHEAD start with:
/// start, end, globalTid, nameId.
struct HostRow
{
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::int64_t globalTid = 0;
    std::int64_t nameId = 0;
    std::int64_t duration() const { return std::max<std::int64_t>(0, end - start); }
};

/// The row's four leading columns, each required (TableScan::needInt reports a null one);
/// nullopt when one is missing or the row belongs to another trace's process.
std::optional<HostRow> readHostRow(TableScan &s, const NsysDb &p)
{
    const auto start = p.time(s.needInt(0));
    const auto end = p.time(s.needInt(1));
    const auto tid = s.needInt(2);
    const auto nameId = s.needInt(3);
    if (!start || !end || !tid || !nameId || !p.mine(*tid))
        return std::nullopt;
    return HostRow {*start, *end, *tid, *nameId};
}

/// A cache of interned names by StringIds id, with the runtime version suffix removed.
class RuntimeNames
{
public:
    model::StringId get(NsysDb &p, std::int64_t id)
    {
        auto it = m_names.find(id);
        if (it == m_names.end()) {
            const std::string_view raw = p.strings.text(id);
            const model::StringId s = raw.empty() && !p.strings.contains(id)
                ? p.out.intern(std::to_string(id))
                : p.out.intern(stripVersionSuffix(raw));
            it = m_names.emplace(id, s).first;
        }
        return it->second;
    }

private:
    std::unordered_map<std::int64_t, model::StringId> m_names;
};

enum class NvtxKind : std::uint8_t { Skip, PushPop, StartEnd, Mark, Domain };

NvtxKind nvtxKind(const NsysDb &p, std::int64_t type)
{
    const std::string_view n = p.eventTypes.text(type);
    if (n.empty()) {
        // No enum table: the ids of the documented schema (§12.2).
        switch (type) {
        case 59:
        case 70:
            return NvtxKind::PushPop;
        case 60:
        case 71:
            return NvtxKind::StartEnd;
        case 34:
        case 65:
            return NvtxKind::Mark;
        case 75:
            return NvtxKind::Domain;
        default:
            return NvtxKind::Skip;
        }
    }
    auto ends = [&](std::string_view suffix) {
        return n.size() >= suffix.size() && n.substr(n.size() - suffix.size()) == suffix;
    };
    if (ends("PushPopRange"))
        return NvtxKind::PushPop;
    if (ends("StartEndRange"))
        return NvtxKind::StartEnd;
    if (ends("Mark"))
        return NvtxKind::Mark;
    if (ends("DomainCreate"))
        return NvtxKind::Domain;
    return NvtxKind::Skip;
}

struct PendingRange
{
    model::TrackId lane;
    std::int64_t start = 0;
    model::StringId name;
    model::ArgsId args;
};

/// Steps from the ranges' markers: ProfilerStep#N when any, else the user's markers; one
/// per number (the earliest), sorted by start.
void addSteps(std::vector<model::Step> candidates[2], std::vector<model::Step> &steps)
{
    std::vector<model::Step> &chosen = !candidates[0].empty() ? candidates[0] : candidates[1];
    std::stable_sort(chosen.begin(), chosen.end(),
        [](const model::Step &a, const model::Step &b) { return a.startNs < b.startNs; });
    std::vector<std::int64_t> seen;
    for (const model::Step &s : chosen) {
        if (std::find(seen.begin(), seen.end(), s.number) != seen.end())
            continue;
        seen.push_back(s.number);
        steps.push_back(s);
    }
}

} // namespace

std::string_view stripVersionSuffix(std::string_view name)
{
    const std::size_t v = name.rfind("_v");
    if (v == std::string_view::npos || v == 0 || v + 2 >= name.size())
        return name;
    return wholeNumber(name.substr(v + 2)) ? name.substr(0, v) : name;
}

std::optional<StepMarker> stepMarker(std::string_view name)
{
    constexpr std::string_view Profiler = "ProfilerStep#";
    if (name.substr(0, Profiler.size()) == Profiler) {
        if (const auto n = wholeNumber(name.substr(Profiler.size())))
            return StepMarker {*n, true};
        return std::nullopt;
    }
    const std::string l = util::asciiLower(name);
    for (std::string_view prefix : {"step#", "step ", "step_", "step=", "step:", "iteration ",
             "iteration_", "iteration#", "iter ", "iter_"}) {
        if (l.size() > prefix.size() && std::string_view(l).substr(0, prefix.size()) == prefix)
            if (const auto n = wholeNumber(std::string_view(l).substr(prefix.size())))
                return StepMarker {*n, false};
    }
    return std::nullopt;
}

void readRuntime(NsysDb &p)
{
    TableScan s(p.db, p.ctx, "CUPTI_ACTIVITY_KIND_RUNTIME",
        {{"start"}, {"end"}, {"globalTid"}, {"nameId"}, {"correlationId", false},
            {"returnValue", false}, {"eventClass", false}},
        {}, TablePresence::Optional);
    RuntimeNames names;
    if (s.ok()) {
        // One Launch per row: size the vector once (COUNT(*) walks the b-tree only).
        try {
            sqlite::Statement count =
                p.db.prepare("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME");
            if (count.step())
                p.launches.reserve(static_cast<std::size_t>(std::max<std::int64_t>(0,
                    std::min<std::int64_t>(count.int64(0).value_or(0), std::int64_t {1} << 32))));
        } catch (const sqlite::Error &) {
            // The scan below reports a damaged table.
        }
    }
    while (s.next()) {
        const auto row = readHostRow(s, p);
        if (!row)
            continue;
        const std::optional<std::int64_t> correlation = s.int64(4);
        model::ArgsId args;
        if (p.keepArgs()) {
            p.args.begin().text("function", p.strings.text(row->nameId));
            if (correlation)
                p.args.number("correlation", *correlation);
            if (const auto r = s.int64(5))
                p.args.number("return value", *r);
            if (const auto c = s.int64(6))
                p.args.text("class", p.eventClasses.text(*c));
            args = p.out.trace().args.add(p.args.end());
        }
        const model::TrackId lane = p.hostLane(row->globalTid, HostLane::CudaApi);
        const std::uint32_t i = p.out.track(lane).add(
            row->start, row->duration(), names.get(p, row->nameId), Category::Runtime, args);
        if (correlation)
            p.launches.push_back(Launch {processKey(row->globalTid), *correlation, {lane, i}});
        p.seen(row->end);
        ++p.counts.runtime;
    }
    std::sort(p.launches.begin(), p.launches.end(), [](const Launch &a, const Launch &b) {
        return a.process != b.process ? a.process < b.process : a.correlation < b.correlation;
    });
    for (const Launch &l : p.launches)
        if (p.runtimeProcesses.empty() || p.runtimeProcesses.back() != l.process)
            p.runtimeProcesses.push_back(l.process);
}

void readOsRuntime(NsysDb &p)
{
    {
        TableScan s(p.db, p.ctx, "OSRT_API",
            {{"start"}, {"end"}, {"globalTid"}, {"nameId"}, {"returnValue", false},
                {"nestingLevel", false}},
            {}, TablePresence::Optional);
        while (s.next()) {
            const auto row = readHostRow(s, p);
            if (!row)
                continue;
            model::ArgsId args;
            if (p.keepArgs()) {
                p.args.begin();
                if (const auto r = s.int64(4))
                    p.args.number("return value", *r);
                if (const auto n = s.int64(5))
                    p.args.number("nesting level", *n);
                args = p.out.trace().args.add(p.args.end());
            }
            p.out.track(p.hostLane(row->globalTid, HostLane::Osrt))
                .add(row->start, row->duration(), p.strings.intern(row->nameId, p.out),
                    Category::Other, args);
            p.seen(row->end);
            ++p.counts.osrt;
        }
    }
    TableScan s(p.db, p.ctx, "PROFILER_OVERHEAD", {{"start"}, {"end"}, {"globalTid"}, {"nameId"}},
        {}, TablePresence::Optional);
    while (s.next()) {
        const auto row = readHostRow(s, p);
        if (!row)
            continue;
        p.out.track(p.hostLane(row->globalTid, HostLane::Overhead))
            .add(
                row->start, row->duration(), p.strings.intern(row->nameId, p.out), Category::Other);
        ++p.counts.overhead;
    }
}

void readNvtx(NsysDb &p)
{
    if (!p.db.hasTable("NVTX_EVENTS"))
        return;
    // Domain names first: the text of the DomainCreate row with the same domainId in the
    // same process (§12.3).
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> domains;
    {
        TableScan s(p.db, p.ctx, "NVTX_EVENTS",
            {{"eventType"}, {"domainId", false}, {"text", false}, {"globalTid", false}});
        while (s.next()) {
            const auto type = s.int64(0);
            const auto domain = s.int64(1);
            if (type && domain && nvtxKind(p, *type) == NvtxKind::Domain)
                domains[{processKey(s.int64(3).value_or(0)), *domain}] = std::string(s.text(2));
        }
    }
    TableScan s(p.db, p.ctx, "NVTX_EVENTS",
        {{"start"}, {"end", false}, {"eventType"}, {"text", false}, {"textId", false},
            {"globalTid", false}, {"endGlobalTid", false}, {"domainId", false}});
    std::vector<PendingRange> unfinished;
    std::vector<model::Step> steps[2]; // [0] ProfilerStep#N, [1] the user's markers
    std::uint64_t noThread = 0;
    while (s.next()) {
        const auto type = s.needInt(2);
        if (!type)
            continue;
        const NvtxKind kind = nvtxKind(p, *type);
        if (kind == NvtxKind::Skip || kind == NvtxKind::Domain)
            continue;
        const auto start = p.time(s.needInt(0));
        if (!start)
            continue;
        const std::optional<std::int64_t> tid = s.int64(5);
        if (!tid) {
            ++noThread;
            continue;
        }
        if (!p.mine(*tid))
            continue;
        const std::optional<std::int64_t> textId = s.int64(4);
        const std::string_view text =
            !s.isNull(3) ? s.text(3) : (textId ? p.strings.text(*textId) : std::string_view());
        const model::StringId name = !s.isNull(3) ? p.out.intern(text)
            : textId                              ? p.strings.intern(*textId, p.out)
                                                  : p.out.intern("");
        const Category category = text.substr(0, 21) == "enumerate(DataLoader)"
            ? Category::DataLoading
            : Category::Annotation;
        model::ArgsId args;
        const auto domain = s.int64(7);
        if (p.keepArgs()) {
            p.args.begin();
            if (domain) {
                const auto d = domains.find({processKey(*tid), *domain});
                if (d != domains.end())
                    p.args.text("domain", d->second);
                else if (*domain != 0)
                    p.args.number("domain", *domain);
            }
            if (const auto e = s.int64(6); e && kind == NvtxKind::StartEnd && *e != *tid)
                p.args.number("end thread", tidOf(*e));
            args = p.out.trace().args.add(p.args.end());
        }
        const model::TrackId lane =
            kind == NvtxKind::StartEnd ? p.asyncNvtxLane(*tid) : p.hostLane(*tid, HostLane::Nvtx);
        const std::optional<std::int64_t> end = kind == NvtxKind::Mark ? start : p.time(s.int64(1));
        if (!end) {
            unfinished.push_back(PendingRange {lane, *start, name, args});
            continue;
        }
        p.out.track(lane).add(
            *start, std::max<std::int64_t>(0, *end - *start), name, category, args);
        p.seen(*end);
        ++p.counts.nvtx;
        if (kind != NvtxKind::Mark && *end > *start)
            if (const auto m = stepMarker(text))
                steps[m->profilerStep ? 0 : 1].push_back(model::Step {m->number, *start, *end});
    }
    for (const PendingRange &r : unfinished) {
        p.out.track(r.lane).add(r.start, std::max<std::int64_t>(0, p.maxEnd - r.start), r.name,
            Category::Annotation, r.args, true);
        ++p.counts.nvtx;
    }
    if (!unfinished.empty())
        p.ctx.warn(p.db.path(),
            "table `NVTX_EVENTS`: " + std::to_string(unfinished.size())
                + " ranges never ended: drawn to the end of the trace and flagged unfinished");
    if (noThread > 0)
        p.ctx.warn(p.db.path(),
            "table `NVTX_EVENTS`: " + std::to_string(noThread)
                + " rows without a `globalTid` were not placed on a lane");
    if (p.out.trace().steps.empty())
        addSteps(steps, p.out.trace().steps);
}

} // namespace stepscope::import::nsys
