#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Recomputes, from the files alone, the step breakdown StepScope shows for the MindInsight
pipeline-parallel cluster sample (tests/data/mindspore_legacy/mindinsight-cluster-pp-4rank).

ascend_cluster_analyse_pipeline-parallel_2_4_<r>.csv has one row per step in ms and no step
column; row i belongs to the i-th step of step_trace_raw_<r>_detail_time.csv (10 ns ticks).
Per step: compute = computation_time, bubble = receive_alone_time, exposed communication =
communication_alone_time - receive_alone_time, free = step total - computation -
communication_alone (0 when negative). Pinned in RealSamples.MindSporeClusterAnalyseIsTheStepTable
and MindSporeLegacyTest.ClusterAnalyseRowsTakeTheStepTraceSteps.

usage: tests/tools/check_mindspore_cluster_analyse.py [SAMPLE_DIR]
"""
import csv
import sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else
            Path(__file__).resolve().parents[1] / "data/mindspore_legacy/mindinsight-cluster-pp-4rank")
for rank in range(4):
    with open(root / f"step_trace_raw_{rank}_detail_time.csv", newline="") as f:
        steps = [(int(r["step_num"]), int(r["total"]) / 100.0)  # ticks -> us
                 for r in csv.DictReader(f) if r["step_num"].isdigit()]
    with open(root / f"ascend_cluster_analyse_pipeline-parallel_2_4_{rank}.csv", newline="") as f:
        rows = [{k.strip(): float(v) * 1000.0 for k, v in r.items()} for r in csv.DictReader(f)]
    print(f"rank {rank}: {len(rows)} rows, {len(steps)} steps")
    for (step, total), row in zip(steps, rows):
        comp = row["computation_time"]
        alone = row["communication_alone_time"]
        bubble = row["receive_alone_time"]
        free = total - comp - alone
        print(f"  step {step}: total {total:.2f} us  compute {comp:.1f}  bubble {bubble:.1f}  "
              f"exposed {alone - bubble:.1f}  free {max(free, 0.0):.2f}"
              + (f"  (parts exceed total by {-free:.1f} us)" if free < 0 else ""))
