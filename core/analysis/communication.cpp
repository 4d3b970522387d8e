// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "communication.h"

#include "util/parallel.h"
#include "util/text.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace stepscope::analysis {

namespace {

/// The collective kind of an op or kernel name: `hcom_allReduce__271_0_1` -> allReduce,
/// `ncclKernel_AllReduce_RING_LL_Sum_float(...)` -> AllReduce, `Default/AllReduce-op534_0`
/// -> AllReduce; other names unchanged. NCCL's (and RCCL's) `ncclDevKernel_Generic(...)` runs
/// any collective, so its name gives none: "collective not named (ncclDevKernel_Generic)",
/// not a "Generic" collective (the kernel's args name it when the profiler recorded them).
std::string collectiveKind(std::string_view name)
{
    if (name.substr(0, 5) == "hcom_") {
        auto rest = name.substr(5);
        return std::string(rest.substr(0, rest.find('_')));
    }
    for (std::string_view prefix : {"ncclKernel_", "ncclDevKernel_"}) {
        if (name.substr(0, prefix.size()) == prefix) {
            auto rest = name.substr(prefix.size());
            std::string kind(rest.substr(0, std::min(rest.find('_'), rest.find('('))));
            if (kind == "Generic")
                return "collective not named (" + std::string(prefix) + kind + ")";
            return kind;
        }
    }
    const auto slash = name.rfind('/');
    if (slash != std::string_view::npos)
        name = name.substr(slash + 1);
    const auto op = name.find("-op");
    return std::string(name.substr(0, op));
}

/// A collective kind in lower case without underscores, as the classifiers below compare it:
/// "_allgather_base" -> "allgatherbase", "SendRecv" -> "sendrecv".
std::string plainKind(std::string_view kind)
{
    std::string k = util::asciiLower(kind);
    k.erase(std::remove(k.begin(), k.end(), '_'), k.end());
    return k;
}

/// Whether a collective kind moves data between two ranks only: NCCL's `SendRecv`, `Send`,
/// `Recv` kernels, torch's "send" / "recv" in `Collective name`, HCCL's `hcom_send_` /
/// `hcom_receive_` ops (the profilers' summaries say it themselves).
bool isPointToPoint(std::string_view kind)
{
    const std::string k = plainKind(kind);
    return k == "sendrecv" || k == "send" || k == "recv" || k == "receive";
}

/// nccl-tests' factor from a collective's bandwidth to its bus bandwidth, for `ranks` ranks
/// (docs/metrics.md, "Communication").
double busFactor(std::string_view kind, std::int64_t ranks)
{
    const std::string k = plainKind(kind);
    const double n = static_cast<double>(ranks);
    if (ranks < 1)
        return 1.0;
    if (k.find("allreduce") != std::string::npos)
        return 2.0 * (n - 1) / n;
    if (k.find("allgather") != std::string::npos || k.find("reducescatter") != std::string::npos
        || k.find("alltoall") != std::string::npos)
        return (n - 1) / n;
    return 1.0;
}

struct Acc
{
    CollectiveRow row;
    bool haveBytes = false;
    double bytes = 0;
    double busBytes = 0; ///< timeline: bytes times each event's bus factor
    std::int64_t sized = 0; ///< timeline: events that gave their message's bytes
    std::int64_t grouped = 0; ///< timeline: of those, events that named their group's size
    double transit = 0;
    double linkTimeUs = 0;
};

std::vector<CollectiveRow> finish(std::map<std::tuple<std::string, std::string, bool>, Acc> &acc)
{
    std::vector<CollectiveRow> rows;
    for (auto &[key, a] : acc) {
        CollectiveRow r = a.row;
        r.meanUs = r.count > 0 ? r.totalUs / static_cast<double>(r.count) : 0.0;
        if (a.haveBytes) {
            r.bytes = a.bytes;
            // Per-link transfer time when the links give it, else transit, else elapsed.
            const double t = a.linkTimeUs > 0 ? a.linkTimeUs
                : a.transit > 0               ? a.transit
                                              : r.totalUs;
            if (t > 0)
                r.bandwidthGBps = a.bytes / (t * 1e3); // bytes/us -> GB/s
            if (t > 0 && a.grouped == r.count && a.busBytes > 0)
                r.busBandwidthGBps = a.busBytes / (t * 1e3);
        }
        rows.push_back(r);
    }
    std::sort(rows.begin(), rows.end(),
        [](const CollectiveRow &a, const CollectiveRow &b) { return a.totalUs > b.totalUs; });
    return rows;
}

std::vector<CollectiveRow> fromStats(
    const std::vector<const model::CollectiveStat *> &stats, const std::string &source)
{
    std::map<std::tuple<std::string, std::string, bool>, Acc> acc;
    for (const auto *s : stats) {
        if (s->name == "Total Op Info")
            continue;
        Acc &a = acc[{collectiveKind(s->name), s->group, s->p2p}];
        a.row.name = collectiveKind(s->name);
        a.row.group = s->group;
        a.row.p2p = s->p2p;
        a.row.source = source;
        ++a.row.count;
        a.row.totalUs += s->elapseMs * 1000.0;
        a.row.waitUs = a.row.waitUs.value_or(0) + s->waitMs * 1000.0;
        a.row.transitUs = a.row.transitUs.value_or(0) + s->transitMs * 1000.0;
        // msprof writes SDMA as the sum of the on-chip links HCCS, PCIE and SIO (and what
        // no part names): with an SDMA block those parts are in it already, not added again.
        const bool sdma = std::any_of(s->links.begin(), s->links.end(),
            [](const model::LinkTraffic &l) { return l.transport == "SDMA"; });
        for (const auto &l : s->links) {
            a.haveBytes = true;
            if (sdma && (l.transport == "HCCS" || l.transport == "PCIE" || l.transport == "SIO"))
                continue;
            a.bytes += l.sizeMb * 1e6; // MB as written, 10^6 bytes (GB/s = MB/ms)
            a.linkTimeUs += l.timeMs * 1000.0;
        }
        a.transit += s->transitMs * 1000.0;
    }
    return finish(acc);
}

/// What a communication event's args say (Kineto's NCCL kernels since 2024, formats.md
/// §5.6); none where they do not.
struct CommArgs
{
    std::optional<std::string> collective; ///< "Collective name"
    std::optional<std::string> group; ///< "Process Group Name"
    /// The message: the larger of `In msg nelems` and `Out msg nelems` (an all-gather's output,
    /// a reduce-scatter's input) times the size of `dtype`.
    std::optional<double> bytes;
    std::optional<std::int64_t> groupSize; ///< "Group size"
};

/// The communication events of a track, and what their args say.
struct CommRow
{
    const model::Trace *trace = nullptr;
    const model::Track *track = nullptr;
    std::vector<std::uint32_t> events; ///< outermost communication events, by row then start
    std::vector<model::ArgsId> ids; ///< the args of those that have some, in that order
    std::vector<CommArgs> named; ///< per id
};

/// The communication events of `t` not inside another one: Kineto wraps some NCCL kernels
/// in a gpu_user_annotation ("nccl:all_reduce", row 0, the kernel on row 1) and not others
/// (the MI300 sample's 12 named kernels sit in annotations, its 5 unnamed ones on row 0);
/// an HCCL op's tasks nested in it are not ops of their own.
std::vector<std::uint32_t> outermostCommunication(const model::Track &t)
{
    std::vector<std::uint32_t> events;
    std::vector<std::pair<std::int64_t, std::int64_t>> taken; // sorted by start
    for (std::uint32_t r = 0; r < t.rowCount(); ++r) {
        std::vector<std::pair<std::int64_t, std::int64_t>> added;
        for (std::uint32_t i = t.rowBegin(r); i < t.rowEnd(r); ++i) {
            if (t.category(i) != model::Category::Communication)
                continue;
            const std::int64_t start = t.start(i);
            auto after = std::upper_bound(taken.begin(), taken.end(),
                std::pair {start, std::numeric_limits<std::int64_t>::max()});
            if (after != taken.begin() && std::prev(after)->second > start)
                continue; // inside an event of a shallower row
            events.push_back(i);
            added.emplace_back(start, t.end(i));
        }
        const auto middle = taken.insert(taken.end(), added.begin(), added.end());
        std::inplace_merge(taken.begin(), middle, taken.end());
    }
    return events;
}

/// The string value of `key` in an event's args (util::stringArg), none when absent or empty.
std::optional<std::string> argText(const std::string &args, std::string_view key)
{
    const std::string_view v = util::stringArg(args, key);
    return v.empty() ? std::nullopt : std::optional<std::string>(v);
}

/// The whole number after `key` (`"In msg nelems":6637568`) in an event's args, none when
/// absent or not a whole number.
std::optional<std::int64_t> argCount(const std::string &args, const std::string &key)
{
    auto p = args.find(key);
    if (p == std::string::npos)
        return std::nullopt;
    p += key.size();
    while (p < args.size() && args[p] == ' ')
        ++p;
    std::int64_t n = 0;
    const auto end = std::min(args.size(), p + 18); // below 10^18: no overflow
    const auto first = p;
    for (; p < end && args[p] >= '0' && args[p] <= '9'; ++p)
        n = n * 10 + (args[p] - '0');
    if (p == first || (p < args.size() && args[p] >= '0' && args[p] <= '9'))
        return std::nullopt;
    return n;
}

/// Bytes per element of a tensor type as PyTorch names it in these args (c10's ScalarType:
/// "Float", "BFloat16", "Long", ...); 0 when unknown.
int dtypeBytes(std::string_view dtype)
{
    static const std::map<std::string_view, int> sizes = {{"Bool", 1}, {"Byte", 1}, {"Char", 1},
        {"QInt8", 1}, {"QUInt8", 1}, {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1},
        {"Float8_e4m3fnuz", 1}, {"Float8_e5m2fnuz", 1}, {"Short", 2}, {"Half", 2}, {"BFloat16", 2},
        {"UInt16", 2}, {"Int", 4}, {"Float", 4}, {"QInt32", 4}, {"UInt32", 4}, {"ComplexHalf", 4},
        {"Long", 8}, {"Double", 8}, {"UInt64", 8}, {"ComplexFloat", 8}, {"ComplexDouble", 16}};
    const auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

/// Reads the args of a row's communication events and keeps what they say.
void readNames(CommRow &c)
{
    const std::vector<std::string> texts = c.trace->args.readMany(c.ids);
    c.named.reserve(texts.size());
    for (const std::string &args : texts) {
        CommArgs a {argText(args, "\"Collective name\""), argText(args, "\"Process Group Name\""),
            std::nullopt, argCount(args, "\"Group size\":")};
        const auto in = argCount(args, "\"In msg nelems\":");
        const auto out = argCount(args, "\"Out msg nelems\":");
        const auto dtype = argText(args, "\"dtype\"");
        const int size = dtype ? dtypeBytes(*dtype) : 0;
        if ((in || out) && size > 0)
            a.bytes = static_cast<double>(std::max(in.value_or(0), out.value_or(0))) * size;
        c.named.push_back(std::move(a));
    }
}

std::vector<CommRow> communicationRows(const model::Session &session)
{
    std::vector<CommRow> rows;
    for (const auto &trace : session.traces) {
        // HCCL's `Plane N` lanes hold the tasks (Notify_Wait, Memcpy, Reduce_Inline) of the
        // ops on its group lanes ("Group 0 Communication", "Communication Kernel"): with an
        // op lane beside them they are not ops of their own.
        const auto isPlane = [](const model::Track &t) {
            return util::startsWith(t.info().threadName, "Plane ");
        };
        bool groups = false;
        bool opLanes = false;
        for (const auto &t : trace->tracks) {
            const bool group = t.info().kind == model::TrackKind::CommunicationGroup && !t.empty();
            groups = groups || group;
            opLanes = opLanes || (group && !isPlane(t));
        }
        for (const auto &t : trace->tracks) {
            const auto kind = t.info().kind;
            if (groups ? kind != model::TrackKind::CommunicationGroup || (opLanes && isPlane(t))
                       : kind != model::TrackKind::DeviceStream)
                continue;
            CommRow c {trace.get(), &t, outermostCommunication(t), {}, {}};
            if (c.events.empty())
                continue;
            for (const std::uint32_t i : c.events)
                if (t.args(i).isValid())
                    c.ids.push_back(t.args(i));
            rows.push_back(std::move(c));
        }
    }
    return rows;
}

std::vector<CollectiveRow> fromTimeline(
    const model::Session &session, const util::CancelToken *cancel)
{
    // The args of each row's communication events, one pass per row: on-demand args are read
    // back from the file in file order ("" where it changed since the load). A thousand-rank
    // job reads a thousand files: the rows are read on a few threads, then summed in order
    // (the same sums as one thread), keeping of each event only the names its args give.
    std::vector<CommRow> rows = communicationRows(session);
    util::parallelFor(rows.size(), 0, [&](std::size_t k) {
        if (cancel != nullptr && cancel->isCancelled())
            throw util::Cancelled {};
        readNames(rows[k]);
    });
    std::map<std::tuple<std::string, std::string, bool>, Acc> acc;
    for (const CommRow &c : rows) {
        const model::Track &t = *c.track;
        std::size_t next = 0;
        for (const std::uint32_t i : c.events) {
            std::string kindName = collectiveKind(c.trace->strings.view(t.name(i)));
            std::string group;
            std::optional<double> bytes;
            std::optional<std::int64_t> groupSize;
            if (t.args(i).isValid()) {
                const CommArgs &named = c.named[next++];
                // Newer NCCL kernels name the collective only in their args.
                if (named.collective)
                    kindName = *named.collective;
                group = named.group.value_or(std::string());
                bytes = named.bytes;
                groupSize = named.groupSize;
            }
            const bool p2p = isPointToPoint(kindName);
            const auto key = std::tuple {kindName, group, p2p};
            Acc &a = acc[key];
            a.row.name = kindName;
            a.row.group = group;
            a.row.p2p = p2p;
            a.row.source = "timeline";
            ++a.row.count;
            a.row.totalUs += static_cast<double>(t.duration(i)) / 1000.0;
            if (bytes) {
                a.bytes += *bytes;
                ++a.sized;
                if (groupSize) {
                    a.busBytes += *bytes * busFactor(kindName, *groupSize);
                    ++a.grouped;
                }
            }
        }
    }
    // Bytes, and the bandwidth over the kernels' time, only where every event gives its
    // size: a partial sum would read as the whole.
    for (auto &entry : acc)
        entry.second.haveBytes = entry.second.sized == entry.second.row.count;
    return finish(acc);
}

/// The files the ranks' summaries came from, each once in rank order, as one label:
/// "communication.json" when every rank's file has that name, "hccl_raw_0.csv …
/// hccl_raw_3.csv" when each has its own.
class RankSources
{
public:
    void add(const std::string &source)
    {
        if (std::find(m_sources.begin(), m_sources.end(), source) == m_sources.end())
            m_sources.push_back(source);
    }
    std::string label() const
    {
        if (m_sources.empty())
            return {};
        if (m_sources.size() == 1)
            return m_sources.front();
        return m_sources.front() + " … " + m_sources.back();
    }

private:
    std::vector<std::string> m_sources;
};

} // namespace

std::vector<CollectiveRow> collectiveTable(
    const model::Session &session, const util::CancelToken *cancel)
{
    std::vector<const model::CollectiveStat *> cluster;
    std::set<std::tuple<std::int32_t, std::string_view, std::string_view>> inCluster;
    for (const auto &s : session.clusterCollectives) {
        cluster.push_back(&s);
        inCluster.emplace(s.rank, s.step, s.name);
    }
    // The ranks' own summaries, but for the ops the cluster file holds (of the same rank and
    // step): a full cluster_analysis_output lists every op of every rank, a trimmed or
    // partial one fewer (the GPT-3 sample: its broadcasts, not the ranks' allReduce). A rank
    // none of whose ops the cluster file names as its file does (another step or rank
    // naming, a DB table without rank_id) adds nothing: its ops may be there under other keys.
    std::vector<const model::CollectiveStat *> own;
    RankSources sources;
    for (const auto &t : session.traces) {
        const auto held = [&inCluster](const model::CollectiveStat &s) {
            return inCluster.count({s.rank, s.step, s.name}) > 0;
        };
        if (!cluster.empty() && std::none_of(t->collectives.begin(), t->collectives.end(), held))
            continue;
        bool added = false;
        for (const auto &s : t->collectives) {
            if (!held(s) && s.name != "Total Op Info") {
                own.push_back(&s);
                added = true;
            }
        }
        if (added)
            sources.add(t->collectivesSource);
    }
    if (cluster.empty() && own.empty())
        return fromTimeline(session, cancel);
    std::vector<CollectiveRow> rows = fromStats(cluster, session.clusterCollectivesSource);
    std::vector<CollectiveRow> ranks = fromStats(own, sources.label());
    rows.insert(rows.end(), ranks.begin(), ranks.end());
    std::stable_sort(rows.begin(), rows.end(),
        [](const CollectiveRow &a, const CollectiveRow &b) { return a.totalUs > b.totalUs; });
    return rows;
}

CommMatrix communicationMatrix(const model::Session &session)
{
    CommMatrix m;
    std::vector<const model::CommMatrixEntry *> entries;
    for (const auto &e : session.clusterMatrix)
        entries.push_back(&e);
    m.source = session.clusterMatrixSource;
    if (entries.empty()) {
        RankSources sources;
        for (const auto &t : session.traces) {
            for (const auto &e : t->commMatrix)
                entries.push_back(&e);
            if (!t->commMatrix.empty())
                sources.add(t->commMatrixSource);
        }
        m.source = sources.label();
    }
    if (entries.empty()) {
        m.source.clear();
        return m;
    }
    // Nothing may count twice. The 2025 layout keys sample ops ("allreduce-top1",
    // "-middle", "-bottom1") next to "allreduce-total": only the totals are summed. The 2023
    // layout lists every op plus a "Total Op Info" per group: the ops are summed (the group of
    // a Total Op Info entry is not kept, so it could not be matched to its ops).
    auto isTotal = [](const model::CommMatrixEntry *e) {
        return e->op.find("-total") != std::string::npos;
    };
    const bool haveTotals = std::any_of(entries.begin(), entries.end(), isTotal);
    std::map<std::tuple<std::int32_t, std::int32_t, std::string>, MatrixCell> cells;
    for (const auto *e : entries) {
        if (e->op == "Total Op Info" || haveTotals != isTotal(e))
            continue;
        MatrixCell &c = cells[{e->srcRank, e->dstRank, e->traffic.transport}];
        c.srcRank = e->srcRank;
        c.dstRank = e->dstRank;
        c.transport = e->traffic.transport;
        c.sizeMb += e->traffic.sizeMb;
        c.timeMs += e->traffic.timeMs;
        ++c.ops;
    }
    std::vector<std::int32_t> ranks;
    for (auto &[key, c] : cells) {
        if (c.timeMs > 0)
            c.bandwidthGBps = c.sizeMb / c.timeMs;
        m.cells.push_back(c);
        ranks.push_back(c.srcRank);
        ranks.push_back(c.dstRank);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    m.ranks = ranks;
    return m;
}

} // namespace stepscope::analysis
