#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Counts and total durations of the NCCL kernels of a Kineto trace, per collective.

Checks the numbers pinned in tests/ui/readability_test.cpp
(Readability.CommunicationTableCountsKernelsInsideAnnotations):
    python3 tests/tools/check_nccl_kernels.py tests/data/kineto/hta-ddp-a100-world2-nccl/nccl_data.json.gz
"""
import collections
import gzip
import json
import sys

path = sys.argv[1]
opener = gzip.open if path.endswith(".gz") else open
with opener(path, "rt") as f:
    trace = json.load(f)
count = collections.Counter()
total = collections.Counter()
for e in trace["traceEvents"]:
    name = e.get("name", "")
    if e.get("ph") == "X" and e.get("cat") == "kernel" and name.startswith("ncclKernel_"):
        kind = name[len("ncclKernel_"):].split("_")[0]
        count[kind] += 1
        total[kind] += e["dur"]
for kind in sorted(count):
    print(f"{kind}: {count[kind]} kernels, {total[kind]:.3f} us")
