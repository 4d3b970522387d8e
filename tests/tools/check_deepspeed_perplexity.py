#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""The DeepSpeed random-LTD example's `Step at N with Perplexity: X` lines on the optimizer
step axis: N counts micro-steps per epoch (continued across epochs), and the config dump's
`gradient_accumulation_steps .. M` makes N // M optimizer steps. Prints the points, the
first and last step, and how many points repeat the previous point's step and value
(losslog_console_test.cpp pins them).

usage: check_deepspeed_perplexity.py LOG
"""
import re
import sys

path = sys.argv[1]
micro_per_step = 1
base = last = 0
prev = None
points = repeats = 0
steps = []
for line in open(path, errors="replace"):
    m = re.search(r"gradient_accumulation_steps \.+ (\d+)", line)
    if m:
        micro_per_step = int(m.group(1))
    m = re.search(r"Step at (\d+) with Perplexity: ([0-9.eE+-]+)", line)
    if not m:
        continue
    n, value = int(m.group(1)), float(m.group(2))
    if n <= last:  # the per-epoch counter restarts
        base += last
    last = n
    step = (base + n) // micro_per_step
    if prev == (step, value):
        repeats += 1
    prev = (step, value)
    points += 1
    steps.append(step)
print(f"micro-steps per step {micro_per_step}, points {points}, steps {steps[0]}..{steps[-1]}, "
      f"repeats {repeats}")
