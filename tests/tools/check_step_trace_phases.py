#!/usr/bin/env python3
"""By hand: the breakdown of a rank that only a step trace records (docs/metrics.md "A rank
with a step trace only"), from step_trace_raw_<rank>_detail_time.csv alone.

Per step (ticks of 10 ns): the phases laid from start_point, iteration_interval then
fp_and_bp then tail; the reduce lanes are every `<base>_start_point` / `<base>_end_point`
pair that is not 0/0. compute = fp_and_bp (no receives here), comm_overlapped = reduces
inside fp_and_bp, comm_exposed = reduces outside it, data_loading = iteration_interval,
other_idle = tail - the reduces in the tail.

usage: check_step_trace_phases.py tests/data/mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev/step_trace_raw_10_detail_time.csv [STEP ...]
"""
import csv
import sys

TICK_NS = 10


def union_length(intervals, lo, hi):
    clipped = sorted((max(s, lo), min(e, hi)) for s, e in intervals if min(e, hi) > max(s, lo))
    total, cur_s, cur_e = 0, None, None
    for s, e in clipped:
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        total += cur_e - cur_s
    return total


def main():
    path = sys.argv[1]
    wanted = {int(a) for a in sys.argv[2:]}
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys())
    bases = [h[: -len("_start_point")] for h in header
             if h.startswith("stream_") and h.endswith("_start_point")]
    reduces = []
    for r in rows:
        for b in bases:
            s, e = int(r[b + "_start_point"]), int(r[b + "_end_point"])
            if s or e:
                reduces.append((s, e))
    us = lambda ticks: ticks * TICK_NS / 1000.0
    for r in rows:
        if r["step_num"] in ("-", "0"):
            continue
        step = int(r["step_num"])
        if wanted and step not in wanted:
            continue
        start, end = int(r["start_point"]), int(r["end_point"])
        interval, fpbp, tail = int(r["iteration_interval"]), int(r["fp_and_bp"]), int(r["tail"])
        fp0, fp1 = start + interval, start + interval + fpbp
        comm = union_length(reduces, start, end)
        overlapped = union_length(reduces, fp0, fp1)
        in_tail = union_length(reduces, fp1, end)
        print(f"step {step}: duration {us(end - start):.2f} us, compute {us(fpbp):.2f}, "
              f"comm_overlapped {us(overlapped):.2f}, comm_exposed {us(comm - overlapped):.2f}, "
              f"data_loading {us(interval):.2f}, other_idle {us(tail - in_tail):.2f}, "
              f"tail {us(tail):.2f}")


if __name__ == "__main__":
    main()
