#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Writes the test fixture of a CANN PROF folder's newer export (docs/formats.md §3a) from the
real CANN 6.3 device export in tests/data, since no public sample of the newer layout exists.

Newer msprof versions export into PROF_*/mindstudio_profiler_output/ instead of
device_<n>/timeline/. What differs, from msprof's own source (analysis/common_func/
trace_view_manager.py, trace_view_header_constant.py, file_slice_helper.py):
- one timeline, msprof_<stamp>.json, or its slices msprof_slice_<n>_<stamp>.json, each a whole
  JSON array that repeats every metadata event;
- `ts` on the local wall clock already, in us (the device export's monotonic clock converted
  with start_info.<n>: wall ns = collectionTimeBegin us * 1000 + ts ns - clockMonotonicRaw ns);
- pids formatted `(pid << 10) | (sort index << 5) | device`, the device 31 for host processes;
- the collectives' process named `Communication`, not `HCCL`.
The events are otherwise the device export's, byte for byte in their values, so the fixture's
steps and breakdowns must equal the device export's (cann_profexport_test.cpp checks that).

usage: tests/tools/make_prof_export.py [--iterations N]   (run from the repository root)
"""
import argparse
import json
import os
import re
import shutil
from decimal import Decimal

SRC = ("tests/data/mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev/"
       "PROF_000001_20230818142704322_COJGGGCANRMICFBC")
DST = "tests/data/cann_prof/msprof-export-derived-1dev/PROF_000001_20230818142704322_COJGGGCANRMICFBC"
STAMP = "20230818142800"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, default=3)
    args = ap.parse_args()
    dev = f"{SRC}/device_0"
    start = json.load(open(f"{dev}/start_info.0"))
    begin_us = int(start["collectionTimeBegin"])
    mono_ns = int(start["clockMonotonicRaw"])

    def iteration(path):
        return int(re.search(r"_(\d+)\.json$", path).group(1))

    files = sorted((f"{dev}/timeline/{f}" for f in os.listdir(f"{dev}/timeline")
                    if f.startswith("msprof_")), key=iteration)[:args.iterations]
    events = [e for f in files for e in json.load(open(f), parse_float=Decimal)]
    labels = {e["pid"]: e["args"]["labels"] for e in events
              if e.get("ph") == "M" and e["name"] == "process_labels"}
    sorts = {e["pid"]: e["args"]["sort_index"] for e in events
             if e.get("ph") == "M" and e["name"] == "process_sort_index"}

    def pid(p):
        return (p << 10) | (sorts.get(p, 0) << 5) | (0 if labels.get(p) == "NPU" else 31)

    meta, data, seen = [], [], set()
    for e in events:
        e = dict(e)
        e["pid"] = pid(e["pid"])
        if e.get("ph") == "M":
            if e["name"] == "process_name" and e["args"]["name"] == "HCCL":
                e["args"] = {"name": "Communication"}
            key = json.dumps(e, sort_keys=True, default=str)
            if key not in seen:
                seen.add(key)
                meta.append(e)
            continue
        if "ts" in e:
            wall_ns = Decimal(begin_us) * 1000 + Decimal(e["ts"]) * 1000 - mono_ns
            e["ts"] = str(wall_ns / 1000)
        data.append(e)

    shutil.rmtree(os.path.dirname(DST), ignore_errors=True)
    out = f"{DST}/mindstudio_profiler_output"
    os.makedirs(out)
    os.makedirs(f"{DST}/device_0")
    for f in ("info.json.0", "start_info.0", "end_info.0"):
        shutil.copy(f"{dev}/{f}", f"{DST}/device_0/{f}")
    half = len(data) // 2
    for i, part in enumerate((data[:half], data[half:])):
        with open(f"{out}/msprof_slice_{i}_{STAMP}.json", "w") as f:
            f.write(json.dumps(meta + part, default=str))
    # The step trace is a timeline of its own beside msprof's: its events are msprof's too.
    steps = [e for e in data if e.get("cat") in ("Iteration Time", "FP_BP Time")]
    with open(f"{out}/step_trace_{STAMP}.json", "w") as f:
        f.write(json.dumps([m for m in meta if m["pid"] == steps[0]["pid"]] + steps, default=str))
    print(f"{DST}: {len(files)} iterations, {len(meta)} metadata and {len(data)} other events")


if __name__ == "__main__":
    main()
