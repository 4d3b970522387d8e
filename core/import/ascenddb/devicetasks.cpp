// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// Device lanes of an Ascend profiler DB (docs/formats.md §11.3).
//
// TASK is streamed once, merge-joined with COMPUTE_TASK_INFO and COMMUNICATION_TASK_INFO
// streamed in globalTaskId order beside it (InfoJoin; no table is copied into memory). A row
// with a COMPUTE_TASK_INFO row is a kernel (name and
// `Accelerator Core` from the info row) on its stream lane; a row with a
// COMMUNICATION_TASK_INFO row is an HCCL sub-task on its `Plane <planeId>` lane (Level0
// files have no plane: the stream lane). Rows with neither wait until the end: those
// sharing (streamId, taskId, connectionId) with an info row are containers that only wrap
// a subtask (MIX kernels, whole HCCL ops) and are kept as Annotation so they never count as
// compute; the rest (MEMCPY_ASYNC, EVENT_RECORD, PROFILING_*) are classified by their
// task type, as the text export's trace_view.json classifies them.
// COMMUNICATION_OP rows become one `Group <n> Communication` lane per groupName, n numbered
// in groupName order.

#include "import/sqlite/tablescan.h"
#include "profilerdb.h"
#include "util/release.h"
#include "util/text.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

namespace stepscope::import::ascenddb {

namespace {

using model::Category;
using sqlite::TablePresence;
using sqlite::TableScan;
using util::startsWith;

constexpr std::int64_t NoPlane = 4294967295;

struct ComputeInfo
{
    std::int64_t name = -1;
    std::int64_t taskType = -1; ///< `Accelerator Core`
    std::int64_t opType = -1;
    std::int64_t blockDim = 0;

    /// get(c): column c of globalTaskId, name, taskType, opType, blockDim.
    template <typename Get> static ComputeInfo read(const Get &get)
    {
        return ComputeInfo {
            get(1).value_or(-1), get(2).value_or(-1), get(3).value_or(-1), get(4).value_or(0)};
    }
};

struct CommInfo
{
    std::int64_t name = -1; ///< the op name
    std::int64_t taskType = -1; ///< sub-task: Notify_Record, Memcpy, ...
    std::int64_t planeId = NoPlane;
    std::int64_t size = 0;
    std::int64_t srcRank = -1;
    std::int64_t dstRank = -1;

    /// get(c): column c of globalTaskId, name, taskType, planeId, size, srcRank, dstRank.
    template <typename Get> static CommInfo read(const Get &get)
    {
        return CommInfo {get(1).value_or(-1), get(2).value_or(-1), get(3).value_or(NoPlane),
            get(4).value_or(0), get(5).value_or(-1), get(6).value_or(-1)};
    }
};

/// One info table streamed in globalTaskId order beside the TASK scan (a merge join).
/// TASK rows come in globalTaskId order in the exports, with a few exceptions (a task ending
/// out of order): a row whose id is below one already asked for is looked up by a point
/// query instead (the table's key or index answers it). `Info::read(get)` turns one row
/// into an Info, get(c) being column c of the requested ones; the first row of an id wins.
template <typename Info> class InfoJoin
{
public:
    InfoJoin(const ProfilerDb &p, std::string_view table, std::vector<sqlite::ColumnSpec> columns,
        TablePresence presence = TablePresence::Optional)
        : m_p(p)
        , m_table(table)
        , m_columns(columns)
        , m_scan(p.db, p.ctx, table, std::move(columns), "ORDER BY globalTaskId", presence)
    {
        advance();
    }

    /// The info row of globalTaskId `id`, or nullptr. Valid until the next call.
    const Info *find(std::int64_t id)
    {
        if (!m_scan.ok())
            return nullptr;
        if (m_asked && id < m_maxAsked)
            return lookup(id);
        m_asked = true;
        m_maxAsked = id;
        while (m_have && m_id < id)
            advance();
        return m_have && m_id == id ? &m_current : nullptr;
    }

private:
    void advance()
    {
        m_have = false;
        while (m_scan.next()) {
            const auto id = m_scan.needInt(0);
            if (!id)
                continue;
            if (m_have && *id == m_id)
                continue; // a second row of the id
            m_id = *id;
            m_current = Info::read([this](std::size_t c) { return m_scan.int64(c); });
            m_have = true;
            return;
        }
    }

    const Info *lookup(std::int64_t id)
    {
        try {
            if (!m_lookup) {
                std::string sql = "SELECT ";
                for (std::size_t c = 0; c < m_columns.size(); ++c) {
                    sql += c > 0 ? ", " : "";
                    sql += m_scan.has(c) ? sqlite::quoteIdentifier(m_columns[c].name) : "NULL";
                }
                sql += " FROM " + sqlite::quoteIdentifier(m_table)
                    + " WHERE globalTaskId = ? ORDER BY rowid LIMIT 1";
                m_lookup.emplace(m_p.db.prepare(sql));
            }
            m_lookup->reset();
            m_lookup->bind(1, id);
            if (!m_lookup->step())
                return nullptr;
            const sqlite::Statement &st = *m_lookup;
            m_found = Info::read([&st](std::size_t c) { return st.int64(static_cast<int>(c)); });
            return &m_found;
        } catch (const sqlite::Error &) {
            return nullptr; // the damage shows (and is reported) in the streamed scan
        }
    }

    const ProfilerDb &m_p;
    std::string m_table;
    std::vector<sqlite::ColumnSpec> m_columns;
    TableScan m_scan;
    std::optional<sqlite::Statement> m_lookup;
    bool m_have = false;
    bool m_asked = false;
    std::int64_t m_id = 0;
    std::int64_t m_maxAsked = 0;
    Info m_current {};
    Info m_found {};
};

struct TaskKey
{
    std::int64_t stream;
    std::int64_t task;
    std::int64_t connection;
    bool operator<(const TaskKey &o) const
    {
        return std::tie(stream, task, connection) < std::tie(o.stream, o.task, o.connection);
    }
};

/// A TASK row without an info row, decided once every info row is known.
struct PendingTask
{
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::int64_t device = 0;
    TaskKey key {};
    std::int64_t connection = -1; ///< -1: NULL
    std::int64_t taskType = -1;
    std::int64_t globalTaskId = -1;
};

Category taskTypeCategory(std::string_view t)
{
    if (startsWith(t, "PROFILING_"))
        return Category::Annotation;
    if (startsWith(t, "MEMCPY"))
        return Category::Memcpy;
    if (startsWith(t, "MEMSET"))
        return Category::Memset;
    if (startsWith(t, "Notify") || startsWith(t, "NOTIFY") || t == "Write Value"
        || startsWith(t, "SDMA") || startsWith(t, "EVENT_") || startsWith(t, "REDUCE"))
        return Category::Communication;
    return Category::Other;
}

Category acceleratorCategory(std::string_view core)
{
    if (core == "HCCL" || core == "COMMUNICATION")
        return Category::Communication;
    return Category::Compute;
}

class DeviceReader
{
public:
    explicit DeviceReader(ProfilerDb &p)
        : m_p(p)
    {
    }

    DeviceCounts run()
    {
        scanTasks();
        placePending();
        readCommunicationOps();
        sortByConnection(m_p.deviceByConnection);
        return m_counts;
    }

private:
    model::TrackId streamLane(std::int64_t device, std::int64_t stream)
    {
        const auto key = std::make_pair(device, stream);
        const auto it = m_streams.find(key);
        if (it != m_streams.end())
            return it->second;
        model::TrackInfo info;
        info.kind = model::TrackKind::DeviceStream;
        info.rank = m_p.rank;
        info.processId = "NPU " + std::to_string(device);
        info.processName = "Ascend Hardware";
        info.threadId = std::to_string(stream);
        info.threadName = "Stream " + info.threadId;
        info.threadSortIndex = stream;
        const model::TrackId id = m_p.out.addTrack(std::move(info));
        m_streams.emplace(key, id);
        return id;
    }

    model::TrackId planeLane(std::int64_t device, std::int64_t plane)
    {
        const auto key = std::make_pair(device, plane);
        const auto it = m_planes.find(key);
        if (it != m_planes.end())
            return it->second;
        model::TrackInfo info;
        info.kind = model::TrackKind::CommunicationGroup;
        info.rank = m_p.rank;
        info.processId = "HCCL " + std::to_string(device);
        info.processName = "HCCL";
        info.threadId = "plane " + std::to_string(plane);
        info.threadName = "Plane " + std::to_string(plane);
        // After the streams; a plane id near INT64_MAX (a damaged file) sorts last.
        info.threadSortIndex =
            plane < std::numeric_limits<std::int64_t>::max() - 1000 ? 1000 + plane : plane;
        const model::TrackId id = m_p.out.addTrack(std::move(info));
        m_planes.emplace(key, id);
        return id;
    }

    model::EventRef add(model::TrackId lane, std::int64_t start, std::int64_t end,
        model::StringId name, Category cat, std::string_view argsJson)
    {
        model::ArgsId args;
        if (m_p.keepArgs() && !argsJson.empty())
            args = m_p.out.trace().args.add(argsJson);
        const std::uint32_t i =
            m_p.out.track(lane).add(m_p.rel(start), m_p.span(start, end), name, cat, args);
        return model::EventRef {lane, i};
    }

    void hostToDevice(std::int64_t connection, model::EventRef to)
    {
        if (connection < 0)
            return;
        if (const model::EventRef *from = m_p.cannFor(connection))
            m_p.out.addFlow(*from, to, m_hostToDevice);
    }

    void scanTasks()
    {
        m_hostToDevice = m_p.flowCategory("HostToDevice");
        TableScan s(m_p.db, m_p.ctx, "TASK",
            {{"startNs"}, {"endNs"}, {"globalTaskId"}, {"streamId"}, {"deviceId", false},
                {"connectionId", false}, {"taskType", false}, {"taskId", false}});
        // Without it the kernels have no names and most are not known as compute: said, once
        // TASK itself was there (a run without communication has no COMMUNICATION_TASK_INFO).
        InfoJoin<ComputeInfo> compute(m_p, "COMPUTE_TASK_INFO",
            {{"globalTaskId"}, {"name"}, {"taskType", false}, {"opType", false},
                {"blockDim", false}},
            s.ok() ? TablePresence::Required : TablePresence::Optional);
        InfoJoin<CommInfo> comm(m_p, "COMMUNICATION_TASK_INFO",
            {{"globalTaskId"}, {"name", false}, {"taskType", false}, {"planeId", false},
                {"size", false}, {"srcRank", false}, {"dstRank", false}});
        sqlite::ArgsJson &a = m_p.args;
        while (s.next()) {
            const auto start = s.needInt(0);
            const auto end = s.needInt(1);
            const auto gid = s.needInt(2);
            const auto stream = s.needInt(3);
            if (!start || !end || !gid || !stream)
                continue;
            const std::int64_t device = s.int64(4).value_or(0);
            const std::int64_t connection = s.int64(5).value_or(-1);
            const std::int64_t taskType = s.int64(6).value_or(-1);
            const TaskKey key {*stream, s.int64(7).value_or(-1), connection};
            ++m_counts.tasks;
            if (const ComputeInfo *c = compute.find(*gid)) {
                m_infoKeys.push_back(key);
                const std::string_view core = m_p.strings.text(c->taskType);
                std::string_view json;
                if (m_p.keepArgs())
                    json = a.begin()
                               .text("Task Type", m_p.strings.text(taskType))
                               .text("Accelerator Core", core)
                               .text("Type", m_p.strings.text(c->opType))
                               .number("Stream ID", *stream)
                               .number("Task ID", key.task)
                               .number("Block Dim", c->blockDim)
                               .number("globalTaskId", *gid)
                               .end();
                const model::EventRef ref = add(streamLane(device, *stream), *start, *end,
                    m_p.strings.intern(c->name, m_p.out), acceleratorCategory(core), json);
                hostToDevice(connection, ref);
                if (connection >= 0)
                    m_p.deviceByConnection.push_back(ConnectionRef {connection, ref});
                continue;
            }
            if (const CommInfo *c = comm.find(*gid)) {
                m_infoKeys.push_back(key);
                ++m_counts.hcclTasks;
                const CommInfo &ci = *c;
                std::string_view sub = m_p.strings.text(ci.taskType);
                const std::int64_t nameId = sub.empty() || sub == "N/A" ? taskType : ci.taskType;
                std::string_view json;
                if (m_p.keepArgs())
                    json = a.begin()
                               .text("Task Type", m_p.strings.text(taskType))
                               .text("Op Name", m_p.strings.text(ci.name))
                               .number("Stream ID", *stream)
                               .number("Size(B)", ci.size)
                               .number("Src Rank", ci.srcRank)
                               .number("Dst Rank", ci.dstRank)
                               .number("globalTaskId", *gid)
                               .end();
                const model::TrackId lane = ci.planeId != NoPlane ? planeLane(device, ci.planeId)
                                                                  : streamLane(device, *stream);
                add(lane, *start, *end, m_p.strings.intern(nameId, m_p.out),
                    Category::Communication, json);
                continue;
            }
            m_pending.push_back(
                PendingTask {*start, *end, device, key, connection, taskType, *gid});
        }
    }

    void placePending()
    {
        sqlite::ArgsJson &a = m_p.args;
        std::sort(m_infoKeys.begin(), m_infoKeys.end());
        for (const PendingTask &t : m_pending) {
            const bool container = std::binary_search(m_infoKeys.begin(), m_infoKeys.end(), t.key);
            const std::string_view type = m_p.strings.text(t.taskType);
            std::string_view json;
            if (m_p.keepArgs()) {
                a.begin()
                    .text("Task Type", type)
                    .number("Stream ID", t.key.stream)
                    .number("Task ID", t.key.task)
                    .number("globalTaskId", t.globalTaskId);
                if (container)
                    a.text("Container",
                        "wraps the subtask with the same stream, task and "
                        "connection id; not counted as compute");
                json = a.end();
            }
            const model::EventRef ref = add(streamLane(t.device, t.key.stream), t.start, t.end,
                m_p.strings.intern(t.taskType, m_p.out),
                container ? Category::Annotation : taskTypeCategory(type), json);
            if (container)
                ++m_counts.containers;
            else
                hostToDevice(t.connection, ref);
        }
        util::release(m_pending);
        util::release(m_infoKeys);
    }

    /// COMMUNICATION_OP's groups, numbered in text order (the lanes' `Group <n>`): a
    /// `GROUP BY` over the one column, so SQLite keeps one entry per group, not the rows.
    std::map<std::string, std::int64_t> communicationGroups()
    {
        std::map<std::string, std::int64_t> groups;
        TableScan g(m_p.db, m_p.ctx, "COMMUNICATION_OP", {{"groupName", false}}, "GROUP BY 1",
            TablePresence::Optional);
        while (g.next())
            groups.emplace(std::string(m_p.strings.text(g.int64(0).value_or(-1))), 0);
        std::int64_t n = 0;
        for (auto &[text, number] : groups)
            number = n++;
        return groups;
    }

    /// COMMUNICATION_OP, streamed in table order (TrackBuilder sorts each lane).
    void readCommunicationOps()
    {
        if (!m_p.db.hasTable("COMMUNICATION_OP"))
            return;
        std::map<std::string, std::int64_t> groups = communicationGroups();
        TableScan s(m_p.db, m_p.ctx, "COMMUNICATION_OP",
            {{"startNs"}, {"endNs"}, {"opName"}, {"groupName", false}, {"connectionId", false},
                {"opType", false}, {"algType", false}, {"count", false}, {"opId", false},
                {"dataType", false}},
            {}, TablePresence::Optional);
        std::map<std::int64_t, model::TrackId> lanes;
        sqlite::ArgsJson &a = m_p.args;
        while (s.next()) {
            const auto start = s.needInt(0);
            const auto end = s.needInt(1);
            if (!start || !end)
                continue;
            const std::string_view groupText = m_p.strings.text(s.int64(3).value_or(-1));
            // A group the GROUP BY pass did not list (it stopped on a damaged page) is
            // numbered after the others.
            const std::int64_t number =
                groups.emplace(std::string(groupText), static_cast<std::int64_t>(groups.size()))
                    .first->second;
            auto it = lanes.find(number);
            if (it == lanes.end()) {
                model::TrackInfo info;
                info.kind = model::TrackKind::CommunicationGroup;
                info.rank = m_p.rank;
                info.processId = "HCCL";
                info.processName = "HCCL";
                info.threadId = std::string(groupText);
                info.threadName = "Group " + std::to_string(number) + " Communication";
                info.threadSortIndex = number;
                it = lanes.emplace(number, m_p.out.addTrack(std::move(info))).first;
            }
            const std::int64_t connection = s.int64(4).value_or(-1);
            std::string_view json;
            if (m_p.keepArgs())
                json = a.begin()
                           .text("opType", m_p.strings.text(s.int64(5).value_or(-1)))
                           .text("algType", m_p.strings.text(s.int64(6).value_or(-1)))
                           .text("groupName", groupText)
                           .number("count", s.int64(7).value_or(0))
                           .number("opId", s.int64(8).value_or(-1))
                           .end();
            const model::EventRef ref =
                add(it->second, *start, *end, m_p.strings.intern(s.int64(2).value_or(-1), m_p.out),
                    Category::Communication, json);
            ++m_counts.hcclOps;
            hostToDevice(connection, ref);
            if (connection >= 0)
                m_p.deviceByConnection.push_back(ConnectionRef {connection, ref});
        }
    }

    ProfilerDb &m_p;
    DeviceCounts m_counts;
    model::StringId m_hostToDevice;
    /// (stream, task, connection) of every TASK row with an info row, for placePending.
    std::vector<TaskKey> m_infoKeys;
    std::vector<PendingTask> m_pending;
    std::map<std::pair<std::int64_t, std::int64_t>, model::TrackId> m_streams;
    std::map<std::pair<std::int64_t, std::int64_t>, model::TrackId> m_planes;
};

} // namespace

DeviceCounts readDeviceTasks(ProfilerDb &p)
{
    return DeviceReader(p).run();
}

} // namespace stepscope::import::ascenddb
