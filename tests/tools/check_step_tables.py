#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Hand check of the numbers pinned in tests/core/analysis/steptable_test.cpp and
cluster_test.cpp: prints every row of every step_trace_time.csv / cluster_step_trace_time.csv
under tests/data/ascend_pt with the figures StepScope must show for it (docs/metrics.md "The
profiler's table is the truth"), and the cluster shares of the 16-rank sample.

    python3 tests/tools/check_step_tables.py [tests/data/ascend_pt]
"""
import csv
import os
import sys


def rows_of(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(row, key):
    v = row.get(key, "")
    return float(v) if v not in ("", None) else 0.0


def expected(row):
    """The StepBreakdown figures (us) for one table row."""
    c, cno, ov, free = num(row, "Computing"), num(row, "Communication(Not Overlapped)"), \
        num(row, "Overlapped"), num(row, "Free")
    bubble, prep = num(row, "Bubble"), num(row, "Preparing")
    return {"compute_us": c, "comm_exposed_us": cno - bubble, "comm_overlapped_us": ov,
            "free_us": free, "bubble_us": bubble, "preparing_us": prep,
            "duration_us": prep + c + cno + free, "stage_plus_bubble": num(row, "Stage") + bubble}


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "tests/data/ascend_pt"
    for dirpath, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if name not in ("step_trace_time.csv", "cluster_step_trace_time.csv"):
                continue
            path = os.path.join(dirpath, name)
            print(path)
            for row in rows_of(path):
                if row.get("Type", "rank") == "stage":
                    continue
                e = expected(row)
                label = "rank %s " % row["Index"] if "Index" in row else ""
                print("  %sstep %s: " % (label, row["Step"] or "(empty)")
                      + ", ".join("%s=%.3f" % (k, v) for k, v in e.items()))
    cluster = os.path.join(root, "msinsight-gpt3-pp2-16rank-trimmed", "cluster_analysis_output",
                           "cluster_step_trace_time.csv")
    rows = [r for r in rows_of(cluster) if r["Type"] == "rank"]
    step = sum(expected(r)["duration_us"] for r in rows)
    exposed = sum(expected(r)["comm_exposed_us"] for r in rows)
    bubble = sum(expected(r)["bubble_us"] for r in rows)
    print("16-rank: ranks %d, step %.3f us, comm_share %.6f, bubble_share %.6f, "
          "comm_share_with_bubble %.6f" % (len(rows), step, exposed / step, bubble / step,
                                           (exposed + bubble) / step))
    for stage in ([r for r in rows if int(r["Index"]) < 8], [r for r in rows if int(r["Index"]) >= 8]):
        b = [expected(r)["bubble_us"] for r in stage]
        s = [expected(r)["duration_us"] for r in stage]
        print("  stage %s: bubble mean %.3f max %.3f share %.6f, step mean %.3f"
              % ([r["Index"] for r in stage][0], sum(b) / len(b), max(b), sum(b) / sum(s),
                 sum(s) / len(s)))


if __name__ == "__main__":
    main()
