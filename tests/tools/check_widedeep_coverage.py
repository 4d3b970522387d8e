#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Where MindInsight's device timeline of the widedeep sample ends, from the files alone.

step_trace_raw_1_detail_time.csv gives 322 steps in 10 ns ticks; timeline_display_1.json
holds the device ops (pid 1) in us from step 1's start. Prints, for steps 13 to 16, the
step's window, its device ops and the time past the timeline's last end. Step 15 holds the
end with 198 ms of its 205 ms past it; steps 16 to 322 hold no op. Pinned in
WideDeep.StepFifteenIsPartlyTraced.

usage: tests/tools/check_widedeep_coverage.py [SAMPLE_DIR]
"""
import csv
import json
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else
            Path(__file__).resolve().parents[1] / "data/mindspore_legacy/mindinsight-widedeep-run1")
with open(root / "step_trace_raw_1_detail_time.csv", newline="") as f:
    rows = [r for r in csv.DictReader(f) if r["step_num"].isdigit()]
with open(root / "timeline_display_1.json") as f:
    ops = [e for e in json.load(f) if e.get("pid") == 1 and e.get("ph") == "X"]
last = max(e["ts"] + e["dur"] for e in ops)
origin = int(rows[0]["start_point"])
print(f"{len(rows)} steps; device ops from {min(e['ts'] for e in ops):.2f} to {last:.2f} us")
for r in rows:
    start = (int(r["start_point"]) - origin) / 100.0
    end = (int(r["end_point"]) - origin) / 100.0
    n = sum(1 for e in ops if start <= e["ts"] < end)
    if 13 <= int(r["step_num"]) <= 16:
        print(f"step {r['step_num']}: {start:.2f} to {end:.2f} us, {n} ops, "
              f"{max(0.0, end - max(start, last)):.2f} us of {end - start:.2f} past the timeline")
