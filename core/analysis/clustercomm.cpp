// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clusterdetail.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace stepscope::analysis::detail {

namespace {

struct GroupAcc
{
    CommGroupSummary summary;
    std::map<std::int32_t, double> transitByRank;
    std::map<std::string, TransportStat> transports;
    struct Op
    {
        GroupCollective row;
        std::map<std::int32_t, double> transitByRank;
    };
    std::map<std::string, Op> ops;
};

void addRecord(GroupAcc &g, const model::CollectiveStat &c)
{
    CommGroupSummary &s = g.summary;
    s.p2p = s.p2p || c.p2p;
    s.ranks.push_back(c.rank);
    s.elapseMs += c.elapseMs;
    s.waitMs += c.waitMs;
    s.transitMs += c.transitMs;
    g.transitByRank[c.rank] += c.transitMs;
    for (const auto &l : c.links) {
        TransportStat &t = g.transports[l.transport];
        t.transport = l.transport;
        t.sizeMb += l.sizeMb;
        t.timeMs += l.timeMs;
        ++t.links;
    }
    auto &op = g.ops[c.name];
    op.row.name = c.name;
    ++op.row.calls;
    op.row.elapseMs += c.elapseMs;
    op.row.waitMs += c.waitMs;
    op.row.transitMs += c.transitMs;
    op.transitByRank[c.rank] += c.transitMs;
}

std::int32_t argMax(const std::map<std::int32_t, double> &m, double *value)
{
    std::int32_t best = -1;
    double v = -1;
    for (const auto &[rank, t] : m) {
        if (t > v) {
            v = t;
            best = rank;
        }
    }
    if (value)
        *value = v < 0 ? 0 : v;
    return best;
}

/// The ranks of a "(0, 1, 2)" group key; empty for any other key.
std::vector<std::int32_t> tupleRanks(const std::string &key)
{
    std::vector<std::int32_t> out;
    if (key.size() < 2 || key.front() != '(' || key.back() != ')')
        return out;
    std::int64_t value = -1;
    for (std::size_t i = 1; i < key.size(); ++i) {
        const char c = key[i];
        if (c >= '0' && c <= '9') {
            value = (value < 0 ? 0 : value * 10) + (c - '0');
            if (value > std::numeric_limits<std::int32_t>::max())
                return {};
        } else if (c == ',' || c == ')') {
            if (value < 0)
                return {};
            out.push_back(static_cast<std::int32_t>(value));
            value = -1;
        } else if (c != ' ') {
            return {};
        }
    }
    return out;
}

CommGroupSummary finish(GroupAcc &g)
{
    CommGroupSummary s = std::move(g.summary);
    for (std::int32_t r : tupleRanks(s.group))
        s.ranks.push_back(r);
    std::sort(s.ranks.begin(), s.ranks.end());
    s.ranks.erase(std::unique(s.ranks.begin(), s.ranks.end()), s.ranks.end());
    s.slowestRank = argMax(g.transitByRank, &s.slowestRankTransitMs);
    for (auto &[name, t] : g.transports) {
        if (t.timeMs > 0)
            t.bandwidthGBps = t.sizeMb / t.timeMs; // MB/ms = GB/s
        s.transports.push_back(t);
    }
    for (auto &[name, op] : g.ops) {
        GroupCollective row = op.row;
        const double moving = row.waitMs + row.transitMs;
        row.waitShare = moving > 0 ? row.waitMs / moving : 0;
        row.slowestRank = argMax(op.transitByRank, nullptr);
        s.collectives.push_back(std::move(row));
    }
    std::sort(s.collectives.begin(), s.collectives.end(),
        [](const GroupCollective &a, const GroupCollective &b) { return a.elapseMs > b.elapseMs; });
    return s;
}

/// The group a link belongs to: the smallest group holding both of its ranks;
/// groups.size() when none.
std::size_t groupOfLink(const std::vector<CommGroupSummary> &groups,
    const std::unordered_map<std::int32_t, std::vector<std::size_t>> &groupsOfRank,
    const model::CommMatrixEntry &e)
{
    std::size_t best = groups.size();
    const auto it = groupsOfRank.find(e.srcRank);
    if (it == groupsOfRank.end())
        return best;
    for (std::size_t gi : it->second) {
        const auto &rs = groups[gi].ranks;
        if (!std::binary_search(rs.begin(), rs.end(), e.dstRank))
            continue;
        if (best == groups.size() || rs.size() < groups[best].ranks.size())
            best = gi;
    }
    return best;
}

/// The slowest link (lowest bandwidth with data moved, LOCAL excluded) of each group, overall
/// and per transport. "Total Op Info" entries repeat the ops' links and are not counted.
void addSlowestLinks(
    std::vector<CommGroupSummary> &groups, const std::vector<const model::CommMatrixEntry *> &links)
{
    std::unordered_map<std::int32_t, std::vector<std::size_t>> groupsOfRank;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        for (auto r : groups[i].ranks)
            groupsOfRank[r].push_back(i);
    }
    for (const auto *e : links) {
        const auto &t = e->traffic;
        if (t.transport == "LOCAL" || t.sizeMb <= 0 || e->srcRank == e->dstRank
            || e->op == "Total Op Info")
            continue;
        const double bw = t.bandwidthGbps >= 0 ? t.bandwidthGbps
            : t.timeMs > 0                     ? t.sizeMb / t.timeMs
                                               : -1;
        if (bw < 0)
            continue;
        const std::size_t best = groupOfLink(groups, groupsOfRank, *e);
        if (best == groups.size())
            continue;
        CommGroupSummary &g = groups[best];
        if (!g.slowestLinkBandwidthGBps || bw < *g.slowestLinkBandwidthGBps) {
            g.slowestLinkBandwidthGBps = bw;
            g.slowestLinkSrc = e->srcRank;
            g.slowestLinkDst = e->dstRank;
            g.slowestLinkTransport = t.transport;
        }
        auto link = std::find_if(g.slowestLinks.begin(), g.slowestLinks.end(),
            [&](const SlowLink &l) { return l.transport == t.transport; });
        if (link == g.slowestLinks.end()) {
            g.slowestLinks.push_back(
                {t.transport, e->srcRank, e->dstRank, bw, t.sizeMb, t.timeMs, 0});
            link = g.slowestLinks.end() - 1;
        } else if (bw < link->bandwidthGBps) {
            link->src = e->srcRank;
            link->dst = e->dstRank;
            link->bandwidthGBps = bw;
            link->sizeMb = t.sizeMb;
            link->timeMs = t.timeMs;
        }
        ++link->links;
    }
    for (auto &g : groups)
        std::sort(g.slowestLinks.begin(), g.slowestLinks.end(),
            [](const SlowLink &a, const SlowLink &b) { return a.transport < b.transport; });
}

} // namespace

std::vector<CommGroupSummary> communicationGroups(const model::Session &session)
{
    std::map<std::string, GroupAcc> acc;
    const bool cluster = !session.clusterCollectives.empty();
    auto take = [&](const model::CollectiveStat &c) {
        GroupAcc &g = acc[c.group];
        g.summary.group = c.group;
        addRecord(g, c);
    };
    if (cluster) {
        for (const auto &c : session.clusterCollectives)
            take(c);
    } else {
        for (const auto &t : session.traces)
            for (const auto &c : t->collectives)
                take(c);
    }
    // The "p2p" key of cluster_communication.json gathers every point-to-point group of
    // communication_group.json: its members are theirs.
    std::vector<std::int32_t> p2pRanks;
    for (const auto &g : session.communicationGroups) {
        if (g.name.rfind("p2p[", 0) == 0)
            p2pRanks.insert(p2pRanks.end(), g.ranks.begin(), g.ranks.end());
    }
    std::vector<CommGroupSummary> groups;
    groups.reserve(acc.size());
    for (auto &[key, g] : acc) {
        if (key == "p2p")
            g.summary.ranks.insert(g.summary.ranks.end(), p2pRanks.begin(), p2pRanks.end());
        groups.push_back(finish(g));
    }

    std::vector<const model::CommMatrixEntry *> links;
    if (!session.clusterMatrix.empty()) {
        for (const auto &e : session.clusterMatrix)
            links.push_back(&e);
    } else {
        for (const auto &t : session.traces)
            for (const auto &e : t->commMatrix)
                links.push_back(&e);
    }
    addSlowestLinks(groups, links);
    std::sort(
        groups.begin(), groups.end(), [](const CommGroupSummary &a, const CommGroupSummary &b) {
            return a.elapseMs != b.elapseMs ? a.elapseMs > b.elapseMs : a.group < b.group;
        });
    return groups;
}

} // namespace stepscope::analysis::detail
