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

/// Calls f(stepKey, isP2p, opsObject) for each step/kind block of a per-rank file.
template <typename F>
void forEachStepKind(
    const Json &doc, const std::filesystem::path &path, const ImportContext &ctx, F f)
{
    if (!doc.is_object()) {
        ctx.error(path, "the top level must be an object keyed by step (\"step50\")");
        return;
    }
    for (const auto &[stepKey, step] : doc.items()) {
        if (!step.is_object()) {
            ctx.warn(path, "`" + stepKey + "` must be an object; skipped");
            continue;
        }
        for (const auto &[kind, ops] : step.items()) {
            if ((kind != "p2p" && kind != "collective") || !ops.is_object()) {
                ctx.warn(path,
                    "`" + stepKey + "/" + kind
                        + "`: expected a \"p2p\" or \"collective\" object; skipped");
                continue;
            }
            f(stepKey, kind == "p2p", ops);
        }
    }
}

void addMatrixLinks(const Json &links, const std::string &step, const std::string &op,
    const std::filesystem::path &path, const ImportContext &ctx,
    std::vector<model::CommMatrixEntry> &out)
{
    if (!links.is_object()) {
        ctx.warn(path, "matrix op `" + op + "` must be an object of links; skipped");
        return;
    }
    for (const auto &[linkKey, link] : links.items()) {
        const auto ranks = parseLinkKey(linkKey);
        if (!ranks || !link.is_object()) {
            ctx.warn(path,
                "matrix link keys must look like \"0-1\" with an object value; "
                "link skipped");
            continue;
        }
        model::CommMatrixEntry e;
        e.step = step;
        e.op = op;
        e.srcRank = ranks->first;
        e.dstRank = ranks->second;
        e.traffic = linkTraffic(jsonText(link, "Transport Type"), link);
        out.push_back(std::move(e));
    }
}

} // namespace

std::vector<model::CollectiveStat> readCommunication(
    const std::filesystem::path &path, const ImportContext &ctx, std::int32_t rank)
{
    std::vector<model::CollectiveStat> stats;
    const std::optional<Json> doc = readJsonFile(path, ctx);
    if (!doc)
        return stats;
    forEachStepKind(*doc, path, ctx, [&](const std::string &step, bool p2p, const Json &ops) {
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
    const std::optional<Json> doc = readJsonFile(path, ctx);
    if (!doc)
        return entries;
    forEachStepKind(*doc, path, ctx, [&](const std::string &step, bool, const Json &ops) {
        for (const auto &[key, links] : ops.items())
            addMatrixLinks(links, step, splitOpKey(key).first, path, ctx, entries);
    });
    return entries;
}

namespace {

/// Walks a cluster file: rank group ("(0, 1)", or "p2p") -> step -> op key -> value, calling
/// fn(group, step, key, value). A top level or group that is not an object is reported;
/// steps that are not objects are skipped.
template <typename Fn>
void forEachClusterOp(
    const Json &doc, const std::filesystem::path &path, const ImportContext &ctx, Fn fn)
{
    if (!doc.is_object()) {
        ctx.error(path, "the top level must be an object keyed by rank group (\"(0, 1)\")");
        return;
    }
    for (const auto &[group, steps] : doc.items()) {
        if (!steps.is_object()) {
            ctx.warn(path, "group `" + group + "` must be an object of steps; skipped");
            continue;
        }
        for (const auto &[step, ops] : steps.items()) {
            if (!ops.is_object())
                continue;
            for (const auto &[key, value] : ops.items())
                fn(group, step, key, value);
        }
    }
}

} // namespace

std::vector<model::CollectiveStat> readClusterCommunication(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::CollectiveStat> stats;
    const std::optional<Json> doc = readJsonFile(path, ctx);
    if (!doc)
        return stats;
    forEachClusterOp(*doc, path, ctx,
        [&](const std::string &group, const std::string &step, const std::string &key,
            const Json &ranks) {
            if (key == TotalOpInfo || !ranks.is_object())
                return;
            for (const auto &[rankKey, info] : ranks.items()) {
                const auto rank = util::parseInt(rankKey);
                model::CollectiveStat s;
                if (!rank || *rank < 0 || *rank > 0x7fffffff || !fillCollective(info, s)) {
                    ctx.warn(path,
                        "`" + group + "/" + step + "/" + key
                            + "`: expected rank keys with info blocks; skipped");
                    continue;
                }
                s.rank = static_cast<std::int32_t>(*rank);
                s.step = step;
                s.name = splitOpKey(key).first;
                s.group = group;
                s.p2p = group == "p2p";
                stats.push_back(std::move(s));
            }
        });
    return stats;
}

std::vector<model::CommMatrixEntry> readClusterCommunicationMatrix(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::CommMatrixEntry> entries;
    const std::optional<Json> doc = readJsonFile(path, ctx);
    if (!doc)
        return entries;
    forEachClusterOp(*doc, path, ctx,
        [&](const std::string &, const std::string &step, const std::string &key,
            const Json &links) {
            addMatrixLinks(links, step, splitOpKey(key).first, path, ctx, entries);
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
