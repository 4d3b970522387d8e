#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Device kernels of a Kineto trace by name: count, total, min, max, the median and the sample
standard deviation of the durations, from the file.

Checks the numbers pinned in tests/core/analysis/namestats_test.cpp
(KernelSummary.RealTraceMatchesTheFile) and shown by the Kernels panel and `summary --json`:
    python3 tests/tools/check_kernels.py tests/data/kineto/hta-ddp-a100-world2-nccl/nccl_data.json.gz
Kernels are the complete events of categories kernel, gpu_memcpy and gpu_memset.
"""
import collections
import gzip
import json
import statistics
import sys

DEVICE = {"kernel", "gpu_memcpy", "gpu_memset"}

path = sys.argv[1]
opener = gzip.open if path.endswith(".gz") else open
with opener(path, "rt") as f:
    trace = json.load(f)
events = trace["traceEvents"] if isinstance(trace, dict) else trace
stats = collections.defaultdict(lambda: [0, 0.0, None, None, []])  # count, total, min, max, durs (us)
for e in events:
    if e.get("ph") != "X" or e.get("cat") not in DEVICE:
        continue
    s = stats[e.get("name", "")]
    d = float(e["dur"])
    s[0] += 1
    s[1] += d
    s[2] = d if s[2] is None else min(s[2], d)
    s[3] = d if s[3] is None else max(s[3], d)
    s[4].append(d)
total = sum(s[1] for s in stats.values())
print(f"{len(stats)} names, {sum(s[0] for s in stats.values())} kernels, {total:.3f} us in all")
for name, s in sorted(stats.items(), key=lambda kv: (-kv[1][1], kv[0]))[:10]:
    sd = statistics.stdev(s[4]) if len(s[4]) > 1 else 0.0
    med = statistics.median(s[4])  # the mean of the two middle ones for an even count
    print(f"{s[1]:12.3f} us  {s[1] / total:7.4f}  {s[0]:6d} x  min {s[2]:.3f}  max {s[3]:.3f}"
          f"  median {med:.4f}  stddev {sd:.3f}  {name[:80]}")

# Per ProfilerStep#N (the Kernels panel's Step filter, PanelsKernels.OneStepsKernelsAreThose
# ThatStartInIt): the kernels whose start lies in the step, and the first name's share of them.
steps = [e for e in events if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")]
for s in sorted(steps, key=lambda e: float(e["ts"])):
    a, b = float(s["ts"]), float(s["ts"]) + float(s["dur"])
    inside = [e for e in events if e.get("ph") == "X" and e.get("cat") in DEVICE and a <= float(e["ts"]) < b]
    names = collections.Counter(e.get("name", "") for e in inside)
    by_total = collections.defaultdict(float)
    for e in inside:
        by_total[e.get("name", "")] += float(e["dur"])
    top = max(by_total.items(), key=lambda kv: (kv[1], kv[0]))
    print(f"{s['name']}: {len(inside)} kernels, {len(names)} names, {sum(by_total.values()):.3f} us;"
          f" first {names[top[0]]} x {top[1]:.3f} us  {top[0][:60]}")

# By category, as the Kernels panel's category box lists them (PanelsKernels.
# TheCategoryFilterKeepsItsKernelsAndSaysTheirSum): copies and sets by their cat, NCCL kernels
# communication, every other kernel compute; largest total first, with names, kernels and share.
def category(e):
    if e.get("cat") == "gpu_memcpy":
        return "memcpy"
    if e.get("cat") == "gpu_memset":
        return "memset"
    return "communication" if str(e.get("name", "")).startswith("nccl") else "compute"

by_cat = collections.defaultdict(lambda: [set(), 0, 0.0])
for e in events:
    if e.get("ph") == "X" and e.get("cat") in DEVICE:
        c = by_cat[category(e)]
        c[0].add(e.get("name", ""))
        c[1] += 1
        c[2] += float(e["dur"])
for cat, (names, n, t) in sorted(by_cat.items(), key=lambda kv: -kv[1][2]):
    print(f"{cat}: {len(names)} names, {n} kernels, {t:.3f} us, {100 * t / total:.1f} %")
