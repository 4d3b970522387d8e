// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// analysis.db (docs/formats.md §11.4) and cluster_analysis.db (§11.6): the profiler's own
// summaries, into the model types the text export's step_trace_time.csv,
// communication.json and communication_matrix.json fill, keyed by the same column names, so
// the breakdown's reference comparison and the cluster views treat both exports alike.

#include "ascenddb.h"
#include "import/sqlite/tablescan.h"
#include "profilerdb.h"
#include "util/decimal.h"

#include <algorithm>
#include <map>

namespace stepscope::import::ascenddb {

namespace {

using sqlite::TablePresence;
using sqlite::TableScan;

/// StepTraceTime's snake_case columns -> step_trace_time.csv headers.
std::string csvColumn(std::string_view column)
{
    static const std::map<std::string_view, std::string_view> names = {
        {"computing", "Computing"},
        {"communication_not_overlapped", "Communication(Not Overlapped)"},
        {"overlapped", "Overlapped"},
        {"communication", "Communication"},
        {"free", "Free"},
        {"stage", "Stage"},
        {"bubble", "Bubble"},
        {"communication_not_overlapped_and_exclude_receive",
            "Communication(Not Overlapped and Exclude Receive)"},
        {"preparing", "Preparing"},
        // cluster_analysis.db ClusterTimeSummary
        {"computation", "Computing"},
        {"communicationNotOverlapComputation", "Communication(Not Overlapped)"},
        {"communicationOverlapComputation", "Overlapped"},
    };
    const auto it = names.find(column);
    return it != names.end() ? std::string(it->second) : std::string(column);
}

/// "50", "step50" or "" -> 50 / -1; nullopt when not a step.
std::optional<std::int64_t> stepNumber(std::string_view text)
{
    if (text.empty())
        return -1;
    if (text.rfind("step", 0) == 0)
        text.remove_prefix(4);
    return util::parseInt(text);
}

/// The integers of a rank list such as "(0, 1, 2)" or "[8,9]"; numbers over 2^31 are dropped.
std::vector<std::int32_t> ranksIn(std::string_view text)
{
    std::vector<std::int32_t> ranks;
    std::int64_t v = -1;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const char ch = i < text.size() ? text[i] : ' ';
        if (ch >= '0' && ch <= '9') {
            v = std::min<std::int64_t>((v < 0 ? 0 : v * 10) + (ch - '0'), 1ll << 40);
        } else if (v >= 0) {
            if (v <= 0x7fffffff)
                ranks.push_back(static_cast<std::int32_t>(v));
            v = -1;
        }
    }
    return ranks;
}

/// Reads a step table: the `special` columns are handled by `fill`, every other column is a
/// value in us keyed by its CSV name. Returns rows in table order.
template <typename Fill>
std::vector<model::ReferenceStep> readStepTable(const sqlite::Database &db,
    const ImportContext &ctx, std::string_view table, std::initializer_list<std::string> special,
    Fill fill)
{
    std::vector<model::ReferenceStep> out;
    if (!db.hasTable(table))
        return out;
    std::vector<sqlite::ColumnInfo> columns;
    try {
        columns = db.columns(table);
    } catch (const sqlite::Error &e) {
        ctx.error(db.path(), "table `" + std::string(table) + "`: " + e.what());
        return out;
    }
    std::vector<std::string> names;
    names.reserve(columns.size());
    for (const sqlite::ColumnInfo &c : columns)
        names.push_back(c.name);
    std::vector<sqlite::ColumnSpec> specs;
    specs.reserve(names.size());
    for (const std::string &n : names)
        specs.push_back(sqlite::ColumnSpec {n, true});
    TableScan s(db, ctx, table, specs);
    const std::string source = ctx.relative(db.path());
    while (s.next()) {
        model::ReferenceStep step;
        step.source = source;
        bool ok = true;
        for (std::size_t c = 0; c < names.size() && ok; ++c) {
            const bool isSpecial =
                std::find(special.begin(), special.end(), names[c]) != special.end();
            if (isSpecial) {
                ok = fill(names[c], s, c, step);
                continue;
            }
            if (s.isNull(c))
                continue;
            const auto v = s.needReal(c);
            if (!v)
                ok = false;
            else
                step.valuesUs.emplace_back(csvColumn(names[c]), *v);
        }
        if (ok)
            out.push_back(std::move(step));
    }
    return out;
}

/// Whether `table` exists and has no row (false when it cannot be read: that is said when it
/// is read).
bool isEmptyTable(const sqlite::Database &db, std::string_view table)
{
    if (!db.hasTable(table))
        return false;
    try {
        sqlite::Statement s =
            db.prepare("SELECT EXISTS (SELECT 1 FROM " + sqlite::quoteIdentifier(table) + ")");
        return s.step() && s.int64(0) == 0;
    } catch (const sqlite::Error &) {
        return false;
    }
}

/// An analysis table that exists without rows: said, so that it is not taken for a missing
/// table (or a missing file).
void noteEmptyTables(const sqlite::Database &db, const ImportContext &ctx)
{
    if (isEmptyTable(db, "StepTraceTime"))
        ctx.warn(db.path(),
            "table `StepTraceTime` is empty (it exists but has no rows): this file gives no "
            "reference step breakdown to compare with. Steps and their breakdown are taken "
            "from the rank's timeline DB (ascend_pytorch_profiler_<rank>.db) where it is "
            "loaded; open the rank folder if this file was opened alone");
    if (isEmptyTable(db, "CommAnalyzerTime"))
        ctx.warn(db.path(),
            "table `CommAnalyzerTime` is empty (it exists but has no rows): this file gives no "
            "communication summary");
}

std::vector<model::ReferenceStep> readStepTraceTime(
    const sqlite::Database &db, const ImportContext &ctx, std::int32_t rank)
{
    return readStepTable(db, ctx, "StepTraceTime", {"step"},
        [&](const std::string &, TableScan &s, std::size_t c, model::ReferenceStep &step) {
            const auto n = stepNumber(s.text(c));
            if (!n) {
                ctx.warn(db.path(),
                    "table `StepTraceTime`: `step` must be a step number or empty; row skipped",
                    s.row());
                return false;
            }
            step.step = *n;
            step.rank = rank;
            return true;
        });
}

model::LinkTraffic traffic(
    TableScan &s, std::size_t transport, std::size_t size, std::size_t time, std::size_t bandwidth)
{
    model::LinkTraffic t;
    t.transport = std::string(s.text(transport));
    t.sizeMb = s.real(size).value_or(0);
    t.timeMs = s.real(time).value_or(0);
    t.bandwidthGbps = s.real(bandwidth).value_or(-1);
    return t;
}

/// CommAnalyzerTime + CommAnalyzerBandwidth -> one CollectiveStat per (step, op, group).
std::vector<model::CollectiveStat> readCollectives(const sqlite::Database &db,
    const ImportContext &ctx, std::int32_t rank, std::string_view timeTable,
    std::string_view bandwidthTable)
{
    std::vector<model::CollectiveStat> out;
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;
    TableScan t(db, ctx, timeTable,
        {{"hccl_op_name"}, {"group_name"}, {"start_timestamp", false}, {"elapse_time"},
            {"transit_time"}, {"wait_time"}, {"synchronization_time"}, {"idle_time"},
            {"step", false}, {"type", false}, {"rank_id", false}},
        {}, TablePresence::Optional);
    while (t.next()) {
        model::CollectiveStat c;
        c.rank = static_cast<std::int32_t>(t.int64(10).value_or(rank));
        c.name = std::string(t.text(0));
        c.group = std::string(t.text(1));
        c.step = std::string(t.text(8));
        c.p2p = t.text(9) == "p2p";
        c.startUs = t.real(2).value_or(-1);
        c.elapseMs = t.real(3).value_or(0);
        c.transitMs = t.real(4).value_or(0);
        c.waitMs = t.real(5).value_or(0);
        c.synchronizationMs = t.real(6).value_or(0);
        c.idleMs = t.real(7).value_or(0);
        index.emplace(std::make_tuple(c.step, c.name, c.group), out.size());
        out.push_back(std::move(c));
    }
    TableScan b(db, ctx, bandwidthTable,
        {{"hccl_op_name"}, {"group_name"}, {"transport_type"}, {"transit_size"}, {"transit_time"},
            {"bandwidth"}, {"step", false}},
        {}, TablePresence::Optional);
    while (b.next()) {
        const auto it = index.find(std::make_tuple(
            std::string(b.text(6)), std::string(b.text(0)), std::string(b.text(1))));
        if (it == index.end())
            continue;
        model::CollectiveStat &c = out[it->second];
        const std::string transport(b.text(2));
        // One row per (op, transport, packet size); the link totals repeat on each.
        const bool seen = std::any_of(c.links.begin(), c.links.end(),
            [&](const model::LinkTraffic &l) { return l.transport == transport; });
        if (!seen)
            c.links.push_back(traffic(b, 2, 3, 4, 5));
    }
    return out;
}

std::vector<model::CommMatrixEntry> readMatrix(
    const sqlite::Database &db, const ImportContext &ctx, std::string_view table)
{
    std::vector<model::CommMatrixEntry> out;
    TableScan s(db, ctx, table,
        {{"hccl_op_name"}, {"src_rank"}, {"dst_rank"}, {"transport_type"}, {"transit_size"},
            {"transit_time"}, {"bandwidth"}, {"step", false}},
        {}, TablePresence::Optional);
    while (s.next()) {
        const auto src = s.needInt(1);
        const auto dst = s.needInt(2);
        if (!src || !dst)
            continue;
        model::CommMatrixEntry e;
        e.step = std::string(s.text(7));
        e.op = std::string(s.text(0));
        e.srcRank = static_cast<std::int32_t>(*src);
        e.dstRank = static_cast<std::int32_t>(*dst);
        e.traffic = traffic(s, 3, 4, 5, 6);
        out.push_back(std::move(e));
    }
    return out;
}

} // namespace

bool readAnalysisTables(
    const sqlite::Database &db, const ImportContext &ctx, model::Trace &trace, std::int32_t rank)
{
    noteEmptyTables(db, ctx);
    std::vector<model::ReferenceStep> steps = readStepTraceTime(db, ctx, rank);
    std::vector<model::CollectiveStat> collectives =
        readCollectives(db, ctx, rank, "CommAnalyzerTime", "CommAnalyzerBandwidth");
    std::vector<model::CommMatrixEntry> matrix = readMatrix(db, ctx, "CommAnalyzerMatrix");
    const bool any = !steps.empty() || !collectives.empty() || !matrix.empty();
    for (auto &s : steps)
        trace.referenceSteps.push_back(std::move(s));
    const std::string file = db.path().filename().string();
    if (!collectives.empty())
        trace.collectivesSource = file + " CommAnalyzerTime";
    if (!matrix.empty())
        trace.commMatrixSource = file + " CommAnalyzerMatrix";
    for (auto &c : collectives)
        trace.collectives.push_back(std::move(c));
    for (auto &m : matrix)
        trace.commMatrix.push_back(std::move(m));
    return any;
}

bool readClusterAnalysisDb(
    const std::filesystem::path &file, const ImportContext &ctx, model::Session &session)
{
    std::string error;
    const std::optional<sqlite::Database> db = sqlite::Database::open(file, &error);
    if (!db) {
        ctx.error(file, error);
        return false;
    }
    // ClusterStepTraceTime: the cluster_step_trace_time.csv rows (type rank|stage, index).
    auto rankOrStage = [&](const std::string &column, TableScan &s, std::size_t c,
                           model::ReferenceStep &step) {
        if (column == "step") {
            const auto n = stepNumber(s.text(c));
            step.step = n.value_or(-1);
        } else if (column == "type") {
            step.kind = std::string(s.text(c));
        } else if (column == "index" || column == "rank") {
            const std::string_view text = s.text(c);
            if (const auto r = util::parseInt(text)) {
                step.rank = static_cast<std::int32_t>(*r);
            } else {
                step.rank = -1;
                step.stageRanks = ranksIn(text);
            }
        }
        if (step.kind.empty())
            step.kind = "rank";
        return true;
    };
    std::vector<model::ReferenceStep> steps = readStepTable(
        *db, ctx, "ClusterStepTraceTime", {"step", "type", "index", "rank"}, rankOrStage);
    if (steps.empty())
        steps = readStepTable(*db, ctx, "ClusterTimeSummary", {"step", "rank"}, rankOrStage);
    for (auto &s : steps)
        session.clusterSteps.push_back(std::move(s));
    const std::string dbName = db->path().filename().string();
    for (auto &c :
        readCollectives(*db, ctx, 0, "ClusterCommunicationTime", "ClusterCommunicationBandwidth"))
        session.clusterCollectives.push_back(std::move(c));
    if (!session.clusterCollectives.empty())
        session.clusterCollectivesSource = dbName + " ClusterCommunicationTime";
    for (auto &m : readMatrix(*db, ctx, "ClusterCommunicationMatrix"))
        session.clusterMatrix.push_back(std::move(m));
    if (!session.clusterMatrix.empty())
        session.clusterMatrixSource = dbName + " ClusterCommunicationMatrix";
    TableScan g(*db, ctx, "CommunicationGroupMapping",
        {{"rank_set"}, {"group_name"}, {"pg_name", false}, {"type", false}}, {},
        TablePresence::Optional);
    while (g.next()) {
        model::ParallelGroup group;
        group.name = std::string(g.text(1));
        group.kind = std::string(g.text(2));
        group.ranks = ranksIn(g.text(0));
        session.communicationGroups.push_back(std::move(group));
    }
    return !session.clusterSteps.empty() || !session.clusterCollectives.empty()
        || !session.clusterMatrix.empty() || !session.communicationGroups.empty();
}

} // namespace stepscope::import::ascenddb
