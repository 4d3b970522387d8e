#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Hand check of the numbers tests/ui/panels_cluster_test.cpp pins for the 16-rank sample.

Step time of a rank row = Computing + Communication(Not Overlapped) + Free (us), which the
cluster table also equals Stage + Bubble. Prints each rank's step time, the slowest and the
fastest rank, and each stage's bubble.
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
slow = max(ranks, key=ranks.get)
fast = min(ranks, key=ranks.get)
print("ranks:", len(ranks), "slowest:", slow, ranks[slow], "fastest:", fast, ranks[fast])
sys.exit(0)
