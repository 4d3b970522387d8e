#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Prints each host ProfilerStep#N span of a Kineto trace (.json or .json.gz), by hand from
the raw events: number, ts and dur in us as the file writes them, and whether it is under a
tenth of the median of the steps before it (the partial step the profiler's stop closed,
which the analysis leaves out). Checks RealSamples.Mi250PartialLastStepIsLeftOutAndMarked:

    tests/tools/check_profiler_steps.py tests/data/kineto/hta-mi250-minitoy-rocm/*.json.gz
"""
import gzip
import json
import sys

for path in sys.argv[1:]:
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    steps = sorted(
        (e for e in events if str(e.get("name", "")).startswith("ProfilerStep#")
         and e.get("ph") == "X" and e.get("cat") in ("user_annotation", "cpu_op", None)),
        key=lambda e: float(e["ts"]))
    print(path)
    for i, e in enumerate(steps):
        before = [float(s["dur"]) for s in steps[:i]]
        partial = i == len(steps) - 1 and before and float(e["dur"]) < sorted(before)[len(before) // 2] / 10
        print(f"  {e['name']}  cat={e.get('cat')}  ts={e['ts']}  dur={e['dur']} us"
              + ("  <- partial last step" if partial else ""))
