#!/usr/bin/env python3
"""Hand check of the Memory panel's two peaks on an Ascend rank folder (ASCEND_PROFILER_OUTPUT):
the allocator's peak Total Allocated (memory_record.csv, every component's curve) and the peak
of memory by category (the live operator_memory.csv allocations plus the HCCL module's reserved
memory of npu_module_mem.csv, summed at each time). Their difference is what no allocation record
holds (MemorySummary::notInCategoriesBytes).

Usage: check_memory_peaks.py RANK_FOLDER/ASCEND_PROFILER_OUTPUT
"""
import csv
import sys
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

MIB = 1 << 20


def ns(text):
    return int(Decimal(text.strip()) * 1000)


def main(folder):
    folder = Path(folder)
    allocated = 0
    with open(folder / "memory_record.csv", newline="") as f:
        for row in csv.DictReader(f):
            v = row.get("Total Allocated(MB)", "").strip()
            if v:
                allocated = max(allocated, round(Decimal(v) * MIB))
    changes = defaultdict(int)  # time (ns) -> bytes
    with open(folder / "operator_memory.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    times = [ns(r["Allocation Time(us)"]) for r in rows]
    times += [ns(r["Release Time(us)"]) for r in rows if r["Release Time(us)"].strip()]
    first, last = min(times), max(times)
    for r in rows:
        size = round(Decimal(r["Size(KB)"]) * 1024)
        if size <= 0:
            continue
        changes[ns(r["Allocation Time(us)"])] += size
        release = r["Release Time(us)"].strip()
        if release:
            changes[ns(release)] -= size
    hccl = folder / "npu_module_mem.csv"
    if hccl.exists():
        with open(hccl, newline="") as f:
            series = [(ns(r["Timestamp(us)"]), round(Decimal(r["Total Reserved(MB)"]) * MIB))
                      for r in csv.DictReader(f) if r["Component"].strip() == "HCCL"]
        # A series that does not overlap the allocations is from another capture (the trimmed
        # GPT-3 sample's is 0.94 years later); the analysis leaves it out, and so does this.
        if series and series[-1][0] >= first and series[0][0] <= last:
            prev = 0
            for t, v in series:
                changes[t] += v - prev
                prev = v
    level = peak = 0
    for t in sorted(changes):
        level += changes[t]
        peak = max(peak, level)
    print(f"allocator peak   {allocated} B ({allocated / MIB:.1f} MiB)")
    print(f"categories peak  {peak} B ({peak / MIB:.1f} MiB)")
    print(f"not in records   {allocated - peak} B ({(allocated - peak) / MIB:.1f} MiB)")


if __name__ == "__main__":
    main(sys.argv[1])
