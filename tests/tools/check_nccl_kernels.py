#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Counts and total durations of the NCCL kernels of a Kineto trace, per collective.

Checks the numbers pinned in tests/ui/readability_test.cpp
(Readability.CommunicationTableCountsKernelsInsideAnnotations), and, per `Collective name` and
`Process Group Name` as the args give them, the bytes and bandwidth pinned in
tests/core/analysis/ncclsamples_test.cpp (both samples, in and out of annotations): the
larger of `In msg nelems` and `Out msg nelems` times the size of `dtype`, summed; GB/s = bytes
per ns of kernel time. A collective with a kernel that gives no size has no bytes.
    python3 tests/tools/check_nccl_kernels.py tests/data/kineto/hta-ddp-a100-world2-nccl/nccl_data.json.gz
    python3 tests/tools/check_nccl_kernels.py \
        tests/data/kineto/tracelens-mi300-resnet-actckpt-rank0of8/resnet_act_checkpoint.json.gz
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

DTYPE_BYTES = {"Bool": 1, "Byte": 1, "Char": 1, "Short": 2, "Half": 2, "BFloat16": 2, "Int": 4,
               "Float": 4, "Long": 8, "Double": 8}
kernels, nanos, sized = collections.Counter(), collections.Counter(), collections.Counter()
size = collections.Counter()
groups = collections.defaultdict(set)
for e in trace["traceEvents"]:
    name = e.get("name", "")
    if e.get("ph") != "X" or e.get("cat") != "kernel" or not name.startswith("nccl"):
        continue
    args = e.get("args", {})
    key = (args.get("Collective name", name), args.get("Process Group Name", ""))
    kernels[key] += 1
    groups[key].add(args.get("Group size"))
    nanos[key] += round(e["dur"] * 1000)
    if ("In msg nelems" in args or "Out msg nelems" in args) and args.get("dtype") in DTYPE_BYTES:
        sized[key] += 1
        size[key] += max(args.get("In msg nelems", 0), args.get("Out msg nelems", 0)) * DTYPE_BYTES[args["dtype"]]
for key in sorted(kernels):
    if sized[key] == kernels[key]:
        print(f"{key[0]} (group {key[1]!r}): {kernels[key]} kernels, {nanos[key]} ns, {size[key]} bytes, "
              f"{size[key] / nanos[key]:.6f} GB/s, group sizes {sorted(groups[key])}")
    else:
        print(f"{key[0]} (group {key[1]!r}): {kernels[key]} kernels, {nanos[key]} ns, "
              f"{sized[key]} with a size: no bytes")
