#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Ascend collective bytes, from the profiler's own communication summaries.

msprof writes each op's SDMA block as the sum of its HCCS, PCIE and SIO blocks (and of what no
part names). This checks that on every op of the samples, then sums each collective kind's
bytes the way analysis/communication.cpp does: SDMA and RDMA, the on-chip parts only for an op
without an SDMA block. MB as written are 10^6 bytes.

Checks the numbers pinned in tests/core/analysis/realsamples_test.cpp
(AscendCollectiveBytesCountTheSdmaBlockOnce, ClusterCommunicationTableAndMatrix):
    python3 tests/tools/check_comm_bytes.py tests/data
"""
import collections
import glob
import json
import sqlite3
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "tests/data"
PARTS = {"HCCS", "PCIE", "SIO"}


def kind(name):
    return name[5:].split("_")[0] if name.startswith("hcom_") else name


def add(acc, links):
    """links: {transport: (MB, ms)}; returns False when SDMA is not the sum of its parts."""
    sdma = "SDMA" in links
    for t, (mb, ms) in links.items():
        if sdma and t in PARTS:
            continue
        acc["bytes"] += mb * 1e6
        acc["us"] += ms * 1e3
    acc["count"] += 1
    parts = sum(mb for t, (mb, _) in links.items() if t in PARTS)
    return not sdma or abs(links["SDMA"][0] - parts) <= 1e-6 * max(1.0, parts)


def json_links(info):
    return {t: (l.get("Transit Size(MB)", 0), l.get("Transit Time(ms)", 0))
            for t, l in info.get("Communication Bandwidth Info", {}).items()
            if isinstance(l, dict)}


def report(label, acc, ops, sums):
    print(f"{label}: {ops} ops, SDMA = HCCS + PCIE + SIO on {sums}")
    for key, a in sorted(acc.items()):
        bw = a["bytes"] / (a["us"] * 1e3) if a["us"] > 0 else None
        print(f"  {key}: count {a['count']}, bytes {a['bytes']:.3f}, GB/s {bw!r}")


def new():
    return collections.defaultdict(lambda: dict(count=0, bytes=0.0, us=0.0))


for folder in sorted(glob.glob(f"{ROOT}/ascend_pt/*")):
    acc, ops, sums = new(), 0, 0
    cluster = glob.glob(f"{folder}/cluster_analysis_output/cluster_communication.json")
    if cluster:
        for group, steps in json.load(open(cluster[0])).items():
            for ops_of_step in steps.values():
                for op, ranks in ops_of_step.items():
                    if op == "Total Op Info":
                        continue
                    for info in ranks.values():
                        ops += 1
                        sums += add(acc[(kind(op.split("@")[0]), group)], json_links(info))
    else:
        for f in glob.glob(f"{folder}/*/ASCEND_PROFILER_OUTPUT/communication.json"):
            for kinds in json.load(open(f)).values():
                for ops_of_kind in kinds.values():
                    for op, info in ops_of_kind.items():
                        if op == "Total Op Info":
                            continue
                        name, group = op.rsplit("@", 1)
                        ops += 1
                        sums += add(acc[(kind(name), group)], json_links(info))
    if ops:
        report(folder, acc, ops, sums)

for folder in sorted(glob.glob(f"{ROOT}/ascend_db/*")):
    acc, ops, sums = new(), 0, 0
    for f in glob.glob(f"{folder}/*/ASCEND_PROFILER_OUTPUT/analysis.db"):
        db = sqlite3.connect(f)
        tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
        if "CommAnalyzerBandwidth" not in tables:
            continue
        links = collections.defaultdict(dict)
        for op, g, st, t, mb, ms in db.execute(
                "select hccl_op_name, group_name, step, transport_type, transit_size, "
                "transit_time from CommAnalyzerBandwidth"):
            links[(st, op, g)].setdefault(t, (mb, ms))  # a link's totals repeat per packet size
        for op, g, st in db.execute("select hccl_op_name, group_name, step from CommAnalyzerTime"):
            ops += 1
            sums += add(acc[(kind(op), g)], links.get((st, op, g), {}))
    if ops:
        report(folder, acc, ops, sums)
