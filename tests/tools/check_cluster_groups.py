#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Hand check of the communication-group figures tests/core/analysis/clusterrules_test.cpp
and tests/ui/panels_cluster_test.cpp pin for the 16-rank GPT-3 sample, read straight from
cluster_analysis_output/ with the definitions of docs/metrics.md ("Cluster", `groups`):

- a group is a key of cluster_communication.json; its records are the (step, op, rank)
  entries except "Total Op Info"; elapse / wait / transit are summed over them;
- members: the ranks of a "(0, 1, ...)" key, or for "p2p" every rank of the "p2p" lists of
  communication_group.json, plus the ranks seen in the records;
- slowest rank: the largest summed transit time;
- per transport, the slowest link: the lowest bandwidth among the group's links of
  cluster_communication_matrix.json (LOCAL, src == dst, size 0 and "Total Op Info" left out);
- per collective (op key without "@hash"): calls, elapse, wait, transit, wait share =
  wait / (wait + transit), slowest rank.
"""
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
base = os.path.join(here, "..", "data", "ascend_pt", "msinsight-gpt3-pp2-16rank-trimmed",
                    "cluster_analysis_output")
comm = json.load(open(os.path.join(base, "cluster_communication.json")))
matrix = json.load(open(os.path.join(base, "cluster_communication_matrix.json")))
groups_file = json.load(open(os.path.join(base, "communication_group.json")))

p2p_members = sorted({r for g in groups_file.get("p2p", []) for r in g})
for key, steps in comm.items():
    members = set()
    if key.startswith("("):
        members |= {int(x) for x in key.strip("()").split(",")}
    if key == "p2p":
        members |= set(p2p_members)
    elapse = wait = transit = 0.0
    transit_by_rank = {}
    ops = {}
    for step, step_ops in steps.items():
        for op, ranks in step_ops.items():
            if op == "Total Op Info":
                continue
            name = op.rsplit("@", 1)[0]
            o = ops.setdefault(name, {"calls": 0, "elapse": 0.0, "wait": 0.0, "transit": 0.0,
                                      "by_rank": {}})
            for rank, info in ranks.items():
                t = info["Communication Time Info"]
                r = int(rank)
                members.add(r)
                elapse += t["Elapse Time(ms)"]
                wait += t["Wait Time(ms)"]
                transit += t["Transit Time(ms)"]
                transit_by_rank[r] = transit_by_rank.get(r, 0.0) + t["Transit Time(ms)"]
                o["calls"] += 1
                o["elapse"] += t["Elapse Time(ms)"]
                o["wait"] += t["Wait Time(ms)"]
                o["transit"] += t["Transit Time(ms)"]
                o["by_rank"][r] = o["by_rank"].get(r, 0.0) + t["Transit Time(ms)"]
    slowest = max(sorted(transit_by_rank), key=lambda r: transit_by_rank[r])
    print("group %s: members %s" % (key, sorted(members)))
    print("  elapse %.9f ms, wait %.9f ms, transit %.9f ms, slowest rank %d (%.9f ms)" % (
        elapse, wait, transit, slowest, transit_by_rank[slowest]))
    links = {}
    for step, step_ops in matrix.get(key, {}).items():
        for op, entries in step_ops.items():
            if op == "Total Op Info":
                continue
            for link, e in entries.items():
                src, dst = (int(x) for x in link.split("-"))
                tr = e["Transport Type"]
                if tr == "LOCAL" or src == dst or e["Transit Size(MB)"] <= 0:
                    continue
                bw = e.get("Bandwidth(GB/s)", -1)
                if bw is None or bw < 0:
                    bw = e["Transit Size(MB)"] / e["Transit Time(ms)"]
                cur = links.get(tr)
                n = cur[4] + 1 if cur else 1
                if cur is None or bw < cur[2]:
                    links[tr] = (src, dst, bw, e["Transit Size(MB)"], n)
                else:
                    links[tr] = cur[:4] + (n,)
    for tr in sorted(links):
        src, dst, bw, size, n = links[tr]
        print("  slowest %s link %d -> %d: %.6f GB/s (%.6f MB), %d link(s)" % (
            tr, src, dst, bw, size, n))
    for name in sorted(ops, key=lambda n: -ops[n]["elapse"]):
        o = ops[name]
        moving = o["wait"] + o["transit"]
        sr = max(sorted(o["by_rank"]), key=lambda r: o["by_rank"][r])
        print("  collective %s: calls %d, elapse %.9f, wait %.9f, transit %.9f, "
              "wait share %.6f, slowest rank %d" % (
                  name, o["calls"], o["elapse"], o["wait"], o["transit"],
                  o["wait"] / moving if moving else 0.0, sr))
