#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Hand check of the per-rank step times pinned in tests/core/analysis/comparerank_test.cpp
and the cli_compare_rank_* tests (tests/CMakeLists.txt): the step time of every rank of the
two 2-rank CNN samples from each rank's step_trace_time.csv (Preparing + Computing +
Communication(Not Overlapped) + Free, docs/metrics.md), the slowest rank of each run, and
the after − before delta per rank.

    python3 tests/tools/check_compare_ranks.py [tests/data/ascend_pt]
"""
import csv
import os
import sys

RUNS = ("msinsight-cnn-level0-2rank", "msinsight-cnn-level2-2rank")


def step_times(run_dir):
    """{rank: {step: step time us}} from rank*/ASCEND_PROFILER_OUTPUT/step_trace_time.csv."""
    out = {}
    for name in sorted(os.listdir(run_dir)):
        path = os.path.join(run_dir, name, "ASCEND_PROFILER_OUTPUT", "step_trace_time.csv")
        if not name.startswith("rank") or not os.path.exists(path):
            continue
        rank = int(name[4:].split("_")[0])
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                t = sum(float(row[k]) for k in ("Preparing", "Computing",
                                                "Communication(Not Overlapped)", "Free"))
                out.setdefault(rank, {})[int(row["Step"])] = t
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "tests/data/ascend_pt"
    runs = [step_times(os.path.join(root, r)) for r in RUNS]
    for name, run in zip(RUNS, runs):
        means = {r: sum(s.values()) / len(s) for r, s in run.items()}
        print(name, {r: round(m, 3) for r, m in means.items()},
              "slowest rank", max(means, key=lambda r: (means[r], -r)))
    before, after = runs
    for rank in sorted(set(before) & set(after)):
        for step in sorted(set(before[rank]) & set(after[rank])):
            print("rank", rank, "step", step, "before", round(before[rank][step], 3),
                  "after", round(after[rank][step], 3),
                  "delta", round(after[rank][step] - before[rank][step], 3))


if __name__ == "__main__":
    main()
