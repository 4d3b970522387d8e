#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""MindSpore legacy hccl_raw_<rank>.csv link sizes are KB.

MindSpore's hccl_parser writes each link as [time ms, size, bandwidth], size = the tasks'
bytes x 1e-3. The bandwidth column is size / time x 1000 (KB/s) on every link of the sample,
so size is KB; as MB the links would move tens of TB/s. Prints the link pinned in
tests/core/import/mindspore_legacy_test.cpp (HcclRawStepsAndOperators):
    python3 tests/tools/check_hccl_raw.py tests/data
"""
import csv
import glob
import json
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "tests/data"
links = 0
for path in sorted(glob.glob(ROOT + "/mindspore_legacy/**/hccl_raw_*.csv", recursive=True)):
    for row in csv.DictReader(open(path)):
        if row["step_num"] == "-":
            continue
        for op, cost in json.loads(row["communication_operator_cost"]).items():
            for pair, transports in cost[3].items():
                for transport, (ms, size, bw) in transports.items():
                    if ms > 0:
                        links += 1
                        assert abs(size / ms * 1000 - bw) <= 1e-6 * max(1.0, bw), (path, op, pair)
                    if "op17796" in op and path.endswith("hccl_raw_2.csv"):
                        print(f"{op} {pair} {transport}: {ms} ms, {size} KB = {size / 1e3} MB,"
                              f" {size / 1e3 / ms:.4f} GB/s" if ms > 0 else "")
print(f"{links} links: bandwidth = size / ms x 1000 (KB/s) on every one")
