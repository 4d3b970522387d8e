#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Hand check of the numbers tests/ui/panels_cluster_test.cpp pins for the 16-rank sample.

Step time of a rank row = Computing + Communication(Not Overlapped) + Free (us), which the
cluster table also equals Stage + Bubble. Prints each rank's step time, the slowest and the
fastest rank, each stage's bubble (the stage row, which is the column maximum over its ranks,
and the mean and max over its rank rows, as the panel's stage table shows them) and the
cluster shares of docs/metrics.md (exposed communication = Communication(Not Overlapped) minus
Bubble).
"""
import csv
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
path = os.path.join(here, "..", "data", "ascend_pt", "msinsight-gpt3-pp2-16rank-trimmed",
                    "cluster_analysis_output", "cluster_step_trace_time.csv")
rows = list(csv.DictReader(open(path, newline="")))
ranks = {}
for r in rows:
    if r["Type"] == "rank":
        step = (float(r["Computing"]) + float(r["Communication(Not Overlapped)"])
                + float(r["Free"]))
        ranks[int(r["Index"])] = step
        print("rank %2d step %s: %.6f us (stage+bubble %.6f)" % (
            int(r["Index"]), r["Step"], step, float(r["Stage"]) + float(r["Bubble"])))
    else:
        print("stage %s: bubble %.6f us, stage %.6f us" % (r["Index"], float(r["Bubble"]),
                                                            float(r["Stage"])))
for r in rows:
    if r["Type"] != "stage":
        continue
    members = [int(x) for x in r["Index"].strip("()").split(",")]
    bubbles = [float(x["Bubble"]) for x in rows
               if x["Type"] == "rank" and int(x["Index"]) in members and x["Step"] == r["Step"]]
    print("stage %s: stage-row bubble %.6f us; rank rows: mean %.6f us, max %.6f us" % (
        r["Index"], float(r["Bubble"]), sum(bubbles) / len(bubbles), max(bubbles)))
rank_rows = [r for r in rows if r["Type"] == "rank"]
step = sum(float(r["Computing"]) + float(r["Communication(Not Overlapped)"]) + float(r["Free"])
           for r in rank_rows)
bubble = sum(float(r["Bubble"]) for r in rank_rows)
exposed = sum(float(r["Communication(Not Overlapped)"]) for r in rank_rows) - bubble
print("shares over all ranks: communication %.4f %%, bubble %.4f %%, with bubble %.4f %%" % (
    100 * exposed / step, 100 * bubble / step, 100 * (exposed + bubble) / step))
slow = max(ranks, key=ranks.get)
fast = min(ranks, key=ranks.get)
print("ranks:", len(ranks), "slowest:", slow, ranks[slow], "fastest:", fast, ranks[fast])
sys.exit(0)
