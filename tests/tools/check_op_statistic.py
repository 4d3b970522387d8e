#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""The rows of an Ascend op_statistic.csv, largest total first, with each row's share of the
table's total beside the file's own Ratio(%).

Checks the numbers pinned in tests/core/analysis/namestats_test.cpp
(KernelSummary.TheProfilersOpTableIsKeptAsWritten) and shown by the Kernels panel grouped by
op type:
    python3 tests/tools/check_op_statistic.py \\
        tests/data/ascend_pt/msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv
"""
import csv
import sys

with open(sys.argv[1], newline="") as f:
    rows = list(csv.DictReader(f))
total = sum(float(r["Total Time(us)"]) for r in rows)
print(f"{len(rows)} op types, {sum(int(r['Count']) for r in rows)} ops, {total:.3f} us in all")
rows.sort(key=lambda r: (-float(r["Total Time(us)"]), r["OP Type"], r["Core Type"]))
for r in rows[:10]:
    t = float(r["Total Time(us)"])
    print(f"{r['OP Type']:24s} {r['Core Type']:15s} {int(r['Count']):5d} x  total {t:10.3f} us  "
          f"min {r['Min Time(us)']}  avg {r['Avg Time(us)']}  max {r['Max Time(us)']}  "
          f"share {100 * t / total:7.3f} % (file {r['Ratio(%)']} %)")
