#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""The collectives of a rank's communication.json that its cluster_communication.json does not
hold (same rank, step and op name without the @group): a trimmed cluster_analysis_output lists
fewer ops than the ranks' own files. Prints per op kind the count and the summed Elapse Time
in us (realsamples_test.cpp ClusterCommunicationTableAndMatrix pins them).

usage: check_cluster_and_rank_collectives.py PROFILE_FOLDER RANK_FOLDER...
"""
import collections
import json
import re
import sys

base = sys.argv[1].rstrip("/") + "/"
cluster = json.load(open(base + "cluster_analysis_output/cluster_communication.json"))
held = set()
for steps in cluster.values():
    for step, ops in steps.items():
        for op, ranks in ops.items():
            for rank in ranks:
                held.add((int(rank), step, op.split("@")[0]))
totals = collections.defaultdict(lambda: [0, 0.0])
for folder in sys.argv[2:]:
    rank = int(re.search(r"(\d+)$", folder.rstrip("/")).group(1))
    own = json.load(open(base + folder + "/ASCEND_PROFILER_OUTPUT/communication.json"))
    for step, kinds in own.items():
        for ops in kinds.values():
            for op, v in ops.items():
                name = op.split("@")[0]
                if op == "Total Op Info" or (rank, step, name) in held:
                    continue
                kind = re.sub(r"__.*", "", re.sub(r"^hcom_", "", name))
                totals[kind][0] += 1
                totals[kind][1] += v["Communication Time Info"]["Elapse Time(ms)"] * 1000
for kind, (count, us) in sorted(totals.items(), key=lambda kv: -kv[1][1]):
    print(f"{kind}: {count} ops, {us!r} us")
