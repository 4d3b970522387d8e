#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Recomputes, from the sample logs alone (python3, no third-party modules), the figures
pinned in tests/core/analysis/convergence_test.cpp and traininghealth_test.cpp: per
before/after pair the loss convergence (5-point centred moving average, relative band),
median step time after the first point, median throughput, peak memory; plus the
overflow-skipped steps of the fp16 DeepSpeed runs and the loss rise of ds3_sft; and the loss
spikes and convergence of each loss column of the Lightning CSVs.

Usage: python3 tests/tools/check_training_logs.py [tests/data/loss_logs]
"""
import csv
import json
import math
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "data" / "loss_logs")


def megatron(path):
    """{series name: {step: value}} of the Megatron iteration records (rank-less keys)."""
    out = {}
    for line in path.read_text(errors="replace").splitlines():
        m = re.search(r"iteration\s+(\d+)/\s*(\d+) \|(.*)", line)
        if not m:
            continue
        step = int(m.group(1))
        for part in m.group(3).split("|"):
            if ":" not in part:
                continue
            key, _, value = part.rpartition(":")
            try:
                out.setdefault(key.strip(), {})[step] = float(value)
            except ValueError:
                pass
    return out


def megatron_memory(path, rank):
    """Peak 'max allocated' (MB) printed for `rank`."""
    values = []
    for line in path.read_text(errors="replace").splitlines():
        m = re.search(r"\[Rank (\d+)\] \(after \d+ iterations\) memory \(MB\) \|.*max allocated: ([0-9.]+)", line)
        if m and int(m.group(1)) == rank:
            values.append(float(m.group(2)))
    return max(values) if values else None


def golden(path):
    """The series of a golden-values file as the reader keeps them: a "nan" before the last
    number is a step not recorded and left out (formats.md §10.6); one after it stays NaN."""
    doc = json.loads(path.read_text())
    out = {}
    for name, metric in doc.items():
        if isinstance(metric, dict) and isinstance(metric.get("values"), dict):
            series = sorted((int(k), float(v)) for k, v in metric["values"].items())
            last = max((i for i, (_, v) in enumerate(series) if not math.isnan(v)), default=-1)
            out[name] = {s: v for i, (s, v) in enumerate(series) if i > last or not math.isnan(v)}
    return out


def smooth(values, window=5):
    half = window // 2
    out = []
    for i in range(len(values)):
        win = [v for v in values[max(0, i - half):i + half + 1] if math.isfinite(v)]
        out.append(sum(win) / len(win) if win else math.nan)
    return out


def convergence(b, a, tolerance=0.02):
    steps = sorted(set(b) & set(a))
    vb = [b[s] if math.isfinite(b[s]) and math.isfinite(a[s]) else math.nan for s in steps]
    va = [a[s] if math.isfinite(b[s]) and math.isfinite(a[s]) else math.nan for s in steps]
    sb, sa = smooth(vb), smooth(va)
    floor = 0.01 * statistics.median(abs(v) for v in sb if math.isfinite(v))
    rel = [abs(y - x) / max(abs(x), floor) if math.isfinite(vb[i]) else math.nan
           for i, (x, y) in enumerate(zip(sb, sa))]
    finite = [(r, s) for r, s in zip(rel, steps) if math.isfinite(r)]
    worst = max(finite) if finite else (math.nan, None)
    outside = next((s for r, s in finite if r > tolerance), None)
    return len(steps), worst, outside


def median_after_first(series):
    values = [series[s] for s in sorted(series) if math.isfinite(series[s])][1:]
    return statistics.median(values)


def rising(series, share=0.10):
    """The first window (a quarter of the points, >= 3) whose median is > 10 % above the previous."""
    p = [(s, series[s]) for s in sorted(series) if math.isfinite(series[s])]
    if len(p) < 6:
        return None
    w = min(max(len(p) // 4, 3), 200)
    for start in range(w, len(p) - w + 1, w):
        before = statistics.median(v for _, v in p[start - w:start])
        after = statistics.median(v for _, v in p[start:start + w])
        if before > 0 and after > before * (1 + share):
            return p[start][0], before, after
    return None


def spikes(points, window=20, history=8, z_min=6, rise=0.05):
    """loss_spike: (step, line, value, median, scale, z) where a run of spiking points starts."""
    out, in_spike = [], False
    for i in range(history, len(points)):
        prev = [v for _, v, _ in points[max(0, i - window):i]]
        m = statistics.median(prev)
        scale = max(1.4826 * statistics.median(abs(v - m) for v in prev), 1e-3 * abs(m))
        z = (points[i][1] - m) / scale if scale > 0 else 0
        spike = z > z_min and points[i][1] - m > rise * abs(m)
        if spike and not in_spike:
            out.append((points[i][0], points[i][2], points[i][1], m, scale, z))
        in_spike = spike
    return out


def lightning_column(name, column):
    """[(step, value, line)] of one column of a Lightning metrics.csv (line 1 is the header)."""
    path = ROOT / "lightning-csvlogger-2runs" / "lightning_logs" / name / "metrics.csv"
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    return [(int(r["step"]), float(r[column]), n + 2) for n, r in enumerate(rows) if r[column]]


def report_lightning():
    """Every loss column is checked, whatever the column order; the convergence compares the
    primary loss (most points, then the shortest name: train_loss_W of two with 180)."""
    for column in ["train_loss_Ph", "train_loss_W"]:
        for run in ["version_1", "version_3"]:
            print(f"lightning {run} {column}: spikes {spikes(lightning_column(run, column))}")
        b = {s: v for s, v, _ in lightning_column("version_1", column)}
        a = {s: v for s, v, _ in lightning_column("version_3", column)}
        n, (worst, at), outside = convergence(b, a)
        print(f"  version_1 -> version_3: common {n}, max rel {worst:.4g} at {at}, first outside {outside}")
    w = lightning_column("version_1", "train_loss_W")
    i = next(k for k, p in enumerate(w) if p[0] == 1999)
    print(f"  version_1 train_loss_W at step 1999: {w[i]}; set to 99999999: ", end="")
    w[i] = (1999, 99999999.0, w[i][2])
    print(f"spikes {spikes(w)}")


def report_megatron_pair(name):
    d = ROOT / "mindspeed-megatron-det-vs-nondet" / name
    b, a = megatron(d / "pta_det.txt"), megatron(d / "pta_non_det.txt")
    n, (worst, at), outside = convergence(b["lm loss"], a["lm loss"])
    st = "elapsed time per iteration (ms)"
    tp = "throughput per GPU (TFLOP/s/GPU)"
    sb, sa = median_after_first(b[st]), median_after_first(a[st])
    print(f"{name}: common {n}, max rel {worst:.3g} at {at}, first outside {outside}, "
          f"rising before {rising(b['lm loss'])}, after {rising(a['lm loss'])}")
    print(f"  step time median {sb} -> {sa} ms ({100 * (sa - sb) / sb:+.2f} %)")
    if tp in b:
        tb, ta = median_after_first(b[tp]), median_after_first(a[tp])
        print(f"  throughput median {tb} -> {ta} ({100 * (ta - tb) / tb:+.2f} %)")
    mb, ma = megatron_memory(d / "pta_det.txt", 0), megatron_memory(d / "pta_non_det.txt", 0)
    if mb and ma:
        print(f"  rank 0 max allocated peak {mb} -> {ma} MB")


def report_golden_pair(before, after):
    b, a = golden(ROOT / "megatron-golden-values" / before), golden(ROOT / "megatron-golden-values" / after)
    n, (worst, at), outside = convergence(b["lm loss"], a["lm loss"])
    sb, sa = median_after_first(b["iteration-time"]), median_after_first(a["iteration-time"])
    mb, ma = max(b["mem-max-allocated-bytes"].values()), max(a["mem-max-allocated-bytes"].values())
    print(f"{before.split('/')[1]} -> {after.split('/')[1]}: common {n}, max rel {worst:.3g} at {at}, "
          f"first outside {outside}")
    print(f"  iteration-time median {sb} -> {sa} s ({100 * (sa - sb) / sb:+.2f} %); "
          f"mem-max-allocated-bytes peak {mb:.0f} -> {ma:.0f} ({100 * (ma - mb) / mb:+.2f} %)")


def report_overflows():
    """OVERFLOW lines (one per skipped step) and the last running total `skipped=N`: the
    Training panel counts each skipped step once (PanelsTraining.EachSkippedStepCountsOnce)."""
    logs = sorted((ROOT / "deepspeed-random-ltd-kernel-vs-python" / "output1" / "check").glob("*.log"))
    logs += sorted((ROOT / "deepspeed-chat-step1-opt1.3b").glob("*.log"))
    for f in logs:
        text = f.read_text(errors="replace")
        n = sum(1 for line in text.splitlines() if "Skipping step" in line)
        totals = re.findall(r"skipped=(\d+)", text)
        print(f"{f.name}: {n} overflow-skipped steps; last skipped={totals[-1] if totals else '-'}")
        # The step of an OVERFLOW line: DeepSpeed 0.7 names the iteration on the line before
        # ("Grad overflow on iteration: N", optimizer step N + 1: "step=2, skipped=2" follows
        # iterations 0 and 1); newer DeepSpeed names none, and the reader takes the last
        # `step=N` printed (0 before any). Listed in runs as the health finding lists them
        # ("0 ×6, 500 ×2, ...").
        runs, step, named = [], 0, None
        for line in text.splitlines():
            m = re.search(r"\[Rank \d+\] step=(\d+)", line)
            if m:
                step = int(m.group(1))
            m = re.search(r"Grad overflow on iteration: (\d+)", line)
            if m:
                named = int(m.group(1)) + 1
            if "Skipping step" in line:
                at, named = (named if named is not None else step), None
                if runs and runs[-1][0] == at:
                    runs[-1][1] += 1
                else:
                    runs.append([at, 1])
        print("  at steps " + ", ".join(f"{s} ×{c}" if c > 1 else str(s) for s, c in runs[:8]))


def report_resumed_loss_line():
    """The loss line of `stepscope summary` (ctest cli_summary_loss_from_the_first_recorded_value):
    points, NaN points, first and last finite loss of the resumed golden-values run (steps 1-50
    are "nan", not recorded: they ran before the resume)."""
    loss = golden(ROOT / "megatron-golden-values/gpt/gpt3_mcore_te_tp2_pp2_resume_torch_dist"
                  / "golden_values_dev_dgx_h100_2nd.json")["lm loss"]
    steps = sorted(loss)
    finite = [loss[s] for s in steps if math.isfinite(loss[s])]
    bad = f" ({len(steps) - len(finite)} NaN/inf)" if len(finite) < len(steps) else ""
    print(f"resumed run: lm loss {len(steps)} points{bad}, steps {steps[0]}-{steps[-1]}, "
          f"{finite[0]} → {finite[-1]}")


if __name__ == "__main__":
    report_resumed_loss_line()
    for pair in ["test_qwen_sft", "test_ds3_pretrain", "test_ds3_sft", "test_xiaoyi_sft"]:
        report_megatron_pair(pair)
    t5 = "t5/t5_mcore_te_tp2_pp1_vp1"
    report_golden_pair(t5 + "/golden_values_dev_dgx_h100.json", t5 + "_sequence_parallel/golden_values_dev_dgx_h100.json")
    moe = "moe/gpt3_moe_mcore_te_ep8_resume_torch_dist_dist_muon"
    report_golden_pair(moe + "/golden_values_dev_dgx_h100.json", moe + "_param_layout/golden_values_dev_dgx_h100.json")
    report_overflows()
    report_lightning()
