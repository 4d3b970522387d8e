// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// Host lanes of an Ascend profiler DB (docs/formats.md §11.3).
//
// CANN_API: one `CANN` lane per (thread, level); the level (`acl`, `node`, `hccl`,
// `runtime`) comes from the file's ENUM_API_TYPE. PYTORCH_API: one `Python` lane per thread
// (pid = globalTid >> 32), times stored as TEXT and read exactly. Rows nest by time
// containment (TrackBuilder); there is no depth column.
//
// Flows: PYTORCH_API.connectionId is an index into CONNECTION_IDS.id, which maps it to one
// or more connection ids. A connection id that a kernel or HCCL op carries gives an
// `async_npu` flow to it; one shared by exactly two PYTORCH_API rows gives `Enqueue` ->
// `Dequeue` (`async_task_queue`, when the earlier row is a queue row) or forward ->
// backward (`fwdbwd`), the rule Insight uses.

#include "import/sqlite/tablescan.h"
#include "profilerdb.h"
#include "util/decimal.h"
#include "util/release.h"
#include "util/text.h"

#include <algorithm>
#include <map>

namespace stepscope::import::ascenddb {

namespace {

using model::Category;
using sqlite::TablePresence;
using sqlite::TableScan;
using util::startsWith;

std::int64_t pidOf(std::int64_t globalTid)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(globalTid) >> 32);
}

std::int64_t tidOf(std::int64_t globalTid)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(globalTid) & 0xffffffffu);
}

Category pytorchCategory(std::string_view type, std::string_view name)
{
    if (type == "op") {
        if (startsWith(name, "ProfilerStep#"))
            return Category::Annotation;
        if (startsWith(name, "enumerate(DataLoader)"))
            return Category::DataLoading;
        return Category::HostOp;
    }
    if (type == "queue")
        return Category::Runtime;
    if (type == "trace")
        return Category::Python;
    if (type == "mstx")
        return Category::Annotation;
    return Category::Other;
}

model::TrackInfo hostLane(std::int32_t rank, std::int64_t globalTid, const char *process)
{
    model::TrackInfo info;
    info.kind = model::TrackKind::HostThread;
    info.rank = rank;
    info.processId = std::to_string(pidOf(globalTid));
    info.processName = process;
    info.threadId = std::to_string(tidOf(globalTid));
    info.threadName = "Thread " + info.threadId;
    info.threadSortIndex = tidOf(globalTid);
    return info;
}

} // namespace

std::uint64_t readCannApi(ProfilerDb &p)
{
    TableScan s(p.db, p.ctx, "CANN_API",
        {{"startNs"}, {"endNs"}, {"globalTid"}, {"name"}, {"type", false}, {"connectionId", false}},
        {}, TablePresence::Optional);
    std::map<std::pair<std::int64_t, std::int64_t>, model::TrackId> lanes;
    std::uint64_t rows = 0;
    while (s.next()) {
        const auto start = s.needInt(0);
        const auto end = s.needInt(1);
        const auto tid = s.needInt(2);
        if (!start || !end || !tid)
            continue;
        const std::int64_t type = s.int64(4).value_or(-1);
        const auto key = std::make_pair(*tid, type);
        auto it = lanes.find(key);
        if (it == lanes.end()) {
            model::TrackInfo info = hostLane(p.rank, *tid, "CANN");
            const std::string level(p.apiTypes.text(type, "unknown"));
            info.threadId += " " + level;
            info.threadName += " (" + level + ")";
            it = lanes.emplace(key, p.out.addTrack(std::move(info))).first;
        }
        model::ArgsId args;
        const std::optional<std::int64_t> connection = s.int64(5);
        if (p.keepArgs()) {
            p.args.begin().text("level", p.apiTypes.text(type));
            if (connection)
                p.args.number("connectionId", *connection);
            args = p.out.trace().args.add(p.args.end());
        }
        const std::uint32_t i =
            p.out.track(it->second)
                .add(p.rel(*start), p.span(*start, *end),
                    p.strings.intern(s.int64(3).value_or(-1), p.out), Category::Runtime, args);
        if (connection)
            p.cannByConnection.push_back(ConnectionRef {*connection, {it->second, i}});
        ++rows;
    }
    sortByConnection(p.cannByConnection);
    return rows;
}

namespace {

struct HostEnd
{
    model::EventRef ref;
    std::int64_t start = 0;
    bool queue = false;
};

/// A PYTORCH_API row that names a CONNECTION_IDS id.
struct HostRow
{
    std::int64_t index = 0; ///< PYTORCH_API.connectionId = CONNECTION_IDS.id
    HostEnd end;
};

/// A host row and one connection id CONNECTION_IDS gives it, with no device event.
struct HostLink
{
    std::int64_t connection = 0;
    HostEnd end;
};

/// CONNECTION_IDS, streamed once after PYTORCH_API (the table maps an id to one or more
/// connection ids): a connection id with device events gives `async_npu` flows from the
/// host rows of the id; the others are collected for the host-to-host flows.
std::vector<HostLink> linkConnections(
    ProfilerDb &p, std::vector<HostRow> &rows, model::StringId asyncNpu)
{
    auto byIndex = [](const HostRow &a, const HostRow &b) { return a.index < b.index; };
    if (!std::is_sorted(rows.begin(), rows.end(), byIndex))
        std::stable_sort(rows.begin(), rows.end(), byIndex);
    std::vector<HostLink> links;
    TableScan s(
        p.db, p.ctx, "CONNECTION_IDS", {{"id"}, {"connectionId"}}, {}, TablePresence::Optional);
    while (s.next()) {
        const auto id = s.needInt(0);
        const auto connection = s.needInt(1);
        if (!id || !connection)
            continue;
        const auto hosts = std::equal_range(rows.begin(), rows.end(), HostRow {*id, {}}, byIndex);
        if (hosts.first == hosts.second)
            continue;
        const auto devices = p.devicesFor(*connection);
        for (auto h = hosts.first; h != hosts.second; ++h) {
            if (devices.first != devices.second) {
                for (const ConnectionRef *to = devices.first; to != devices.second; ++to)
                    p.out.addFlow(h->end.ref, to->ref, asyncNpu);
            } else {
                links.push_back(HostLink {*connection, h->end});
            }
        }
    }
    return links;
}

} // namespace

std::uint64_t readPytorchApi(ProfilerDb &p, std::vector<model::Step> &profilerSteps)
{
    if (!p.db.hasTable("PYTORCH_API"))
        return 0;
    TableScan s(p.db, p.ctx, "PYTORCH_API",
        {{"startNs"}, {"endNs"}, {"globalTid"}, {"name"}, {"type", false}, {"connectionId", false},
            {"sequenceNumber", false}, {"inputDtypes", false}, {"inputShapes", false}},
        {}, TablePresence::Optional);
    std::map<std::int64_t, model::TrackId> lanes;
    std::vector<HostRow> hostRows;
    const model::StringId asyncNpu = p.flowCategory("async_npu");
    std::uint64_t rows = 0;
    while (s.next()) {
        const auto start = s.needInt(0); // TEXT in real files: read exactly, not via double
        const auto end = s.needInt(1);
        const auto tid = s.needInt(2);
        if (!start || !end || !tid)
            continue;
        auto it = lanes.find(*tid);
        if (it == lanes.end())
            it = lanes.emplace(*tid, p.out.addTrack(hostLane(p.rank, *tid, "Python"))).first;
        const std::int64_t nameId = s.int64(3).value_or(-1);
        const std::string_view name = p.strings.text(nameId);
        const std::string_view type = p.apiTypes.text(s.int64(4).value_or(-1));
        const Category cat = pytorchCategory(type, name);
        model::ArgsId args;
        if (p.keepArgs()) {
            p.args.begin().text("type", type);
            if (const auto seq = s.int64(6); seq && *seq >= 0)
                p.args.number("Sequence number", *seq);
            // The two columns are swapped in the files (docs/formats.md §11.3).
            if (const auto dims = s.int64(7))
                p.args.text("Input Dims", p.strings.text(*dims));
            if (const auto types = s.int64(8))
                p.args.text("Input type", p.strings.text(*types));
            args = p.out.trace().args.add(p.args.end());
        }
        const model::EventRef ref {it->second,
            p.out.track(it->second)
                .add(p.rel(*start), p.span(*start, *end), p.strings.intern(nameId, p.out), cat,
                    args)};
        ++rows;
        if (cat == Category::Annotation && startsWith(name, "ProfilerStep#"))
            if (const auto n = util::parseInt(name.substr(13)))
                profilerSteps.push_back(model::Step {*n, p.rel(*start), p.rel(*end)});
        if (const std::optional<std::int64_t> index = s.int64(5))
            hostRows.push_back(HostRow {*index, HostEnd {ref, *start, type == "queue"}});
    }
    std::vector<HostLink> links = linkConnections(p, hostRows, asyncNpu);
    util::release(hostRows);
    // A connection id shared by exactly two host rows: Enqueue -> Dequeue or forward ->
    // backward, earlier to later; in connection-id order, so flows come out the same on
    // every load.
    std::stable_sort(links.begin(), links.end(), [](const HostLink &a, const HostLink &b) {
        return a.connection != b.connection ? a.connection < b.connection
                                            : a.end.start < b.end.start;
    });
    const model::StringId queue = p.flowCategory("async_task_queue");
    const model::StringId fwdbwd = p.flowCategory("fwdbwd");
    for (std::size_t i = 0; i < links.size();) {
        std::size_t j = i + 1;
        while (j < links.size() && links[j].connection == links[i].connection)
            ++j;
        if (j - i == 2)
            p.out.addFlow(
                links[i].end.ref, links[i + 1].end.ref, links[i].end.queue ? queue : fwdbwd);
        i = j;
    }
    return rows;
}

} // namespace stepscope::import::ascenddb
