// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clusterdetail.h"

#include <algorithm>
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

CommGroupSummary finish(GroupAcc &g)
{
    CommGroupSummary s = std::move(g.summary);
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

/// The slowest link (lowest bandwidth with data moved, LOCAL excluded) among each group's
/// members: a link belongs to the smallest group holding both of its ranks.
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
        if (t.transport == "LOCAL" || t.sizeMb <= 0 || e->srcRank == e->dstRank)
            continue;
        const double bw = t.bandwidthGbps >= 0 ? t.bandwidthGbps
            : t.timeMs > 0                     ? t.sizeMb / t.timeMs
                                               : -1;
        if (bw < 0)
            continue;
        const auto it = groupsOfRank.find(e->srcRank);
        if (it == groupsOfRank.end())
            continue;
        std::size_t best = groups.size();
        for (std::size_t gi : it->second) {
            const auto &rs = groups[gi].ranks;
            if (!std::binary_search(rs.begin(), rs.end(), e->dstRank))
                continue;
            if (best == groups.size() || rs.size() < groups[best].ranks.size())
                best = gi;
        }
        if (best == groups.size())
            continue;
        CommGroupSummary &g = groups[best];
        if (!g.slowestLinkBandwidthGBps || bw < *g.slowestLinkBandwidthGBps) {
            g.slowestLinkBandwidthGBps = bw;
            g.slowestLinkSrc = e->srcRank;
            g.slowestLinkDst = e->dstRank;
            g.slowestLinkTransport = t.transport;
        }
    }
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
    std::vector<CommGroupSummary> groups;
    groups.reserve(acc.size());
    for (auto &[key, g] : acc)
        groups.push_back(finish(g));

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
