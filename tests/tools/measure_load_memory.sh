#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
#
# Measures the bytes a load takes per input byte, per input kind, for the memory budget's
# constants (core/import/memorybudget.cpp, docs/robustness.md "Memory budget"): generates one
# input of each kind in OUT (default /tmp/stepscope-budget) and runs
# `stepscope-bench budget PATH --analyse` on each, which prints the estimate beside the
# measured resident and peak bytes.
#   tests/tools/measure_load_memory.sh [BUILD_DIR] [OUT] [SIZE_MB]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build/ci}
out=${2:-/tmp/stepscope-budget}
size=${3:-200}
bench="$build/tests/bench/stepscope-bench"
mkdir -p "$out"

# Chrome trace JSON: a Kineto trace and an Ascend trace_view.json (bare array).
[ -s "$out/kineto/k.pt.trace.json" ] || { mkdir -p "$out/kineto";
    python3 "$root/tests/bench/gen_trace.py" --form kineto --size-mb "$size" \
        --out "$out/kineto/k.pt.trace.json"; }
[ -s "$out/gzip/k.pt.trace.json.gz" ] || { mkdir -p "$out/gzip";
    gzip -1 -c "$out/kineto/k.pt.trace.json" >"$out/gzip/k.pt.trace.json.gz"; }
[ -s "$out/traceview/trace_view.json" ] || { mkdir -p "$out/traceview";
    python3 "$root/tests/bench/gen_trace.py" --form traceview --size-mb "$size" \
        --out "$out/traceview/trace_view.json"; }
# Ascend text tables: the cnn sample's rank 0 with its kernel_details.csv and memory tables
# repeated to SIZE_MB in all (the same rows again: the readers keep each row).
if [ ! -s "$out/ascendtext/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv" ]; then
    src="$root/tests/data/ascend_pt/msinsight-cnn-level0-2rank/rank0_ascend_pt"
    mkdir -p "$out/ascendtext"
    cp -r "$src" "$out/ascendtext/"
    python3 - "$out/ascendtext/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT" "$size" <<'PY'
import os, sys
d, size = sys.argv[1], int(sys.argv[2])
for name in ("kernel_details.csv", "memory_record.csv", "operator_memory.csv"):
    p = os.path.join(d, name)
    lines = open(p, encoding="utf-8").read().splitlines(keepends=True)
    head, rows = lines[0], lines[1:]
    target = size * 1024 * 1024 // 3
    with open(p, "w", encoding="utf-8") as f:
        f.write(head)
        n = len(head)
        while n < target:
            for r in rows:
                f.write(r)
                n += len(r)
PY
    rm -f "$out/ascendtext/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
fi
# SQLite: an Nsight Systems export and an Ascend DB export.
[ -s "$out/nsys/report.sqlite" ] || { mkdir -p "$out/nsys";
    python3 "$root/tests/bench/gen_nsys.py" --size-mb "$size" --out "$out/nsys/report.sqlite"; }
[ -d "$out/ascenddb/rank0" ] || python3 "$root/tests/bench/gen_ascend_db.py" --size-mb "$size" \
    --out "$out/ascenddb/rank0"

for input in kineto/k.pt.trace.json gzip/k.pt.trace.json.gz traceview/trace_view.json \
    ascendtext nsys/report.sqlite ascenddb; do
    echo "== $input"
    "$bench" budget "$out/$input" --analyse
done
