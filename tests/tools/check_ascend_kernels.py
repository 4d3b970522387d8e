#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Kernels of an Ascend text export's trace_view.json, against the profiler's kernel_details.csv.

Checks the numbers pinned in tests/core/analysis/ascendkernels_test.cpp and shown by the Kernels
panel and `summary --json` "kernels":
    python3 tests/tools/check_ascend_kernels.py tests/data/ascend_pt/msinsight-cnn-level2-2rank/rank0_ascend_pt
Kernels are the `Ascend Hardware` tasks whose `Task Type` is a compute core's (AI_CORE, AI_CPU,
AI_VECTOR*, MIX_*, DSA_SQE, and `Other`, early 2024's type for every AI core task) or a copy's
(MEMCPY_ASYNC, written as PCIE_DMA_SQE or SDMA_SQE). HCCL's pieces on its stream (Notify Wait,
Write Value, SDMA) and the event records and waits are not: kernel_details.csv has none of them.
"""
import collections
import csv
import json
import os
import sys

COMPUTE_PREFIX = ("AI_CORE", "AI_CPU", "AI_VECTOR", "MIX_")
COMPUTE = {"AIV", "AIC", "DSA_SQE", "Other"}
COPY = {"PCIE_DMA_SQE", "SDMA_SQE"}

folder = sys.argv[1]
out = os.path.join(folder, "ASCEND_PROFILER_OUTPUT")
out = out if os.path.isdir(out) else folder
with open(os.path.join(out, "trace_view.json")) as f:
    events = json.load(f)
if isinstance(events, dict):
    events = events["traceEvents"]
hardware = {e["pid"] for e in events
            if e.get("ph") == "M" and e.get("name") == "process_name"
            and e["args"].get("name") == "Ascend Hardware"}
kernels = collections.Counter()
copies = 0
for e in events:
    if e.get("ph") != "X" or e.get("pid") not in hardware:
        continue
    t = e.get("args", {}).get("Task Type", "")
    if t.startswith(COMPUTE_PREFIX) or t in COMPUTE:
        kernels[e["name"]] += 1
    elif t.startswith("MEMCPY") or t in COPY:
        kernels[e["name"]] += 1
        copies += 1
print(f"{sum(kernels.values())} kernels ({copies} copies), {len(kernels)} names")
details = os.path.join(out, "kernel_details.csv")
if os.path.exists(details):
    with open(details, newline="") as f:
        rows = [r for r in csv.DictReader(f)]
    core = "Accelerator Core" if rows and "Accelerator Core" in rows[0] else "Type"
    hccl = sum(1 for r in rows if r.get(core) == "HCCL")
    print(f"kernel_details.csv: {len(rows)} rows, {hccl} HCCL ops, "
          f"{len(rows) - hccl} kernels")
