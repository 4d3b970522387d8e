// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "communication.h"

#include "jsonfile.h"
#include "util/decimal.h"

namespace stepscope::import::ascend {

namespace {

using Json = nlohmann::json;
constexpr std::string_view TotalOpInfo = "Total Op Info";

/// "hcom_allReduce__271_0_1@1102..." -> name, hash.
std::pair<std::string, std::string> splitOpKey(const std::string &key)
{
    const std::size_t at = key.rfind('@');
    if (at == std::string::npos)
        return {key, std::string()};
    return {key.substr(0, at), key.substr(at + 1)};
}

/// "0-8" -> {0, 8}.
std::optional<std::pair<std::int32_t, std::int32_t>> parseLinkKey(std::string_view key)
{
    const std::size_t dash = key.find('-');
    if (dash == std::string_view::npos)
        return std::nullopt;
    const auto src = util::parseInt(key.substr(0, dash));
    const auto dst = util::parseInt(key.substr(dash + 1));
    if (!src || !dst || *src < 0 || *dst < 0 || *src > 0x7fffffff || *dst > 0x7fffffff)
        return std::nullopt;
    return std::make_pair(static_cast<std::int32_t>(*src), static_cast<std::int32_t>(*dst));
}

model::LinkTraffic linkTraffic(const std::string &transport, const Json &link)
{
    model::LinkTraffic t;
    t.transport = transport;
    t.sizeMb = jsonNumber(link, "Transit Size(MB)").value_or(0);
    t.timeMs = jsonNumber(link, "Transit Time(ms)").value_or(0);
    t.bandwidthGbps = jsonNumber(link, "Bandwidth(GB/s)").value_or(-1);
    return t;
}

/// Fills timing and links of one op from its info blocks; false when it has neither.
bool fillCollective(const Json &info, model::CollectiveStat &stat)
{
    if (!info.is_object())
        return false;
    const auto time = info.find("Communication Time Info");
    const auto bandwidth = info.find("Communication Bandwidth Info");
    if (time == info.end() && bandwidth == info.end())
        return false;
    if (time != info.end()) {
        stat.startUs = jsonNumber(*time, "Start Timestamp(us)").value_or(-1);
        stat.elapseMs = jsonNumber(*time, "Elapse Time(ms)").value_or(0);
        stat.transitMs = jsonNumber(*time, "Transit Time(ms)").value_or(0);
        stat.waitMs = jsonNumber(*time, "Wait Time(ms)").value_or(0);
        stat.synchronizationMs = jsonNumber(*time, "Synchronization Time(ms)").value_or(0);
        stat.idleMs = jsonNumber(*time, "Idle Time(ms)").value_or(0);
    }
    if (bandwidth != info.end() && bandwidth->is_object())
        for (const auto &[transport, link] : bandwidth->items())
            if (link.is_object())
                stat.links.push_back(linkTraffic(transport, link));
    return true;
}

/// Streams a per-rank file (step -> "p2p" or "collective" -> ops), calling f(stepKey, isP2p,
/// opsObject) for each step/kind block; memory holds one block at a time.
template <typename F>
void forEachStepKind(const std::filesystem::path &path, const ImportContext &ctx, F f)
{
    streamJsonFile(path, ctx, 2, [&](const std::vector<std::string> &keys, const Json &ops) {
        if (keys.empty()) {
            ctx.error(path, "the top level must be an object keyed by step (\"step50\")");
            return;
        }
        const std::string &stepKey = keys[0];
        if (keys.size() == 1) {
            ctx.warn(path, "`" + stepKey + "` must be an object; skipped");
            return;
        }
        const std::string &kind = keys[1];
        if ((kind != "p2p" && kind != "collective") || !ops.is_object()) {
            ctx.warn(path,
                "`" + stepKey + "/" + kind
                    + "`: expected a \"p2p\" or \"collective\" object; skipped");
            return;
        }
        f(stepKey, kind == "p2p", ops);
    });
}

/// One link of a matrix op ("0-1": {...}); false when its key or value is not one.
bool addMatrixLink(const std::string &linkKey, const Json &link, const std::string &step,
    const std::string &op, std::vector<model::CommMatrixEntry> &out)
{
    const auto ranks = parseLinkKey(linkKey);
    if (!ranks || !link.is_object())
        return false;
    model::CommMatrixEntry e;
    e.step = step;
    e.op = op;
    e.srcRank = ranks->first;
    e.dstRank = ranks->second;
    e.traffic = linkTraffic(jsonText(link, "Transport Type"), link);
    out.push_back(std::move(e));
    return true;
}

constexpr std::string_view MatrixOpNotObject = "` must be an object of links; skipped";
constexpr std::string_view BadMatrixLink =
    "matrix link keys must look like \"0-1\" with an object value; link skipped";

} // namespace

std::vector<model::CollectiveStat> readCommunication(
    const std::filesystem::path &path, const ImportContext &ctx, std::int32_t rank)
{
    std::vector<model::CollectiveStat> stats;
    forEachStepKind(path, ctx, [&](const std::string &step, bool p2p, const Json &ops) {
        for (const auto &[key, info] : ops.items()) {
            if (key == TotalOpInfo)
                continue;
            model::CollectiveStat s;
            s.rank = rank;
            s.step = step;
            std::tie(s.name, s.group) = splitOpKey(key);
            s.p2p = p2p;
            if (!fillCollective(info, s)) {
                ctx.warn(path, "op `" + key + "` has no \"Communication Time Info\"; skipped");
                continue;
            }
            stats.push_back(std::move(s));
        }
    });
    return stats;
}

std::vector<model::CommMatrixEntry> readCommunicationMatrix(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::CommMatrixEntry> entries;
    forEachStepKind(path, ctx, [&](const std::string &step, bool, const Json &ops) {
        for (const auto &[key, links] : ops.items()) {
            const std::string op = splitOpKey(key).first;
            if (!links.is_object()) {
                ctx.warn(path, "matrix op `" + op + std::string(MatrixOpNotObject));
                continue;
            }
            for (const auto &[linkKey, link] : links.items())
                if (!addMatrixLink(linkKey, link, step, op, entries))
                    ctx.warn(path, std::string(BadMatrixLink));
        }
    });
    return entries;
}

namespace {

/// Streams a cluster file: rank group ("(0, 1)", or "p2p") -> step -> op key -> member (a
/// rank's info, or a link) -> value. Calls fn(keys, value) for each member (four keys), and
/// for an op that is not an object (three keys, value null). A top level or group that is not
/// an object is reported; steps that are not objects are skipped. Memory holds one member.
template <typename Fn>
void forEachClusterMember(const std::filesystem::path &path, const ImportContext &ctx, Fn fn)
{
    streamJsonFile(path, ctx, 4, [&](const std::vector<std::string> &keys, const Json &value) {
        if (keys.empty())
            ctx.error(path, "the top level must be an object keyed by rank group (\"(0, 1)\")");
        else if (keys.size() == 1)
            ctx.warn(path, "group `" + keys[0] + "` must be an object of steps; skipped");
        else if (keys.size() >= 3)
            fn(keys, value);
    });
}

} // namespace

std::vector<model::CollectiveStat> readClusterCommunication(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::CollectiveStat> stats;
    forEachClusterMember(path, ctx, [&](const std::vector<std::string> &keys, const Json &info) {
        const std::string &group = keys[0];
        const std::string &step = keys[1];
        const std::string &key = keys[2];
        if (keys.size() < 4 || key == TotalOpInfo)
            return;
        const auto rank = util::parseInt(keys[3]);
        model::CollectiveStat s;
        if (!rank || *rank < 0 || *rank > 0x7fffffff || !fillCollective(info, s)) {
            ctx.warn(path,
                "`" + group + "/" + step + "/" + key
                    + "`: expected rank keys with info blocks; skipped");
            return;
        }
        s.rank = static_cast<std::int32_t>(*rank);
        s.step = step;
        s.name = splitOpKey(key).first;
        s.group = group;
        s.p2p = group == "p2p";
        stats.push_back(std::move(s));
    });
    return stats;
}

std::vector<model::CommMatrixEntry> readClusterCommunicationMatrix(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::CommMatrixEntry> entries;
    forEachClusterMember(path, ctx, [&](const std::vector<std::string> &keys, const Json &link) {
        const std::string op = splitOpKey(keys[2]).first;
        if (keys.size() < 4)
            ctx.warn(path, "matrix op `" + op + std::string(MatrixOpNotObject));
        else if (!addMatrixLink(keys[3], link, keys[1], op, entries))
            ctx.warn(path, std::string(BadMatrixLink));
    });
    return entries;
}

std::vector<model::ParallelGroup> readCommunicationGroups(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::ParallelGroup> groups;
    const std::optional<Json> doc = readJsonFile(path, ctx);
    if (!doc)
        return groups;
    if (!doc->is_object()) {
        ctx.error(path, "the top level must be an object {\"collective\": [...], \"p2p\": [...]}");
        return groups;
    }
    for (const auto &[kind, lists] : doc->items()) {
        if (!lists.is_array()) {
            ctx.warn(path, "`" + kind + "` must be a list of rank lists; skipped");
            continue;
        }
        std::size_t index = 0;
        for (const Json &list : lists) {
            model::ParallelGroup g;
            g.name = kind + "[" + std::to_string(index++) + "]";
            bool ok = list.is_array();
            if (ok)
                for (const Json &r : list) {
                    if (!r.is_number_integer() || r.get<std::int64_t>() < 0
                        || r.get<std::int64_t>() > 0x7fffffff) {
                        ok = false;
                        break;
                    }
                    g.ranks.push_back(static_cast<std::int32_t>(r.get<std::int64_t>()));
                }
            if (!ok) {
                ctx.warn(path, "`" + g.name + "` must be a list of rank numbers; skipped");
                continue;
            }
            groups.push_back(std::move(g));
        }
    }
    return groups;
}

} // namespace stepscope::import::ascend
