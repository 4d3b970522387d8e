#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Counts what the Kineto importer turns into typed model fields (KinetoIds tests in
tests/core/import/kineto_trace_test.cpp): events carrying an integer `correlation` or
`External id` / `external id` arg (-> Trace::eventIds) and `[memory]` instants on host
threads with integer `Bytes` and `Addr` (-> MemoryData::allocatorEvents), split by
`Device Type` 1 (device memory). Standard library only.

usage: check_kineto_ids.py TRACE.json[.gz]
"""
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def is_int(v):
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True
    return isinstance(v, str) and v.lstrip("-").isdigit()


def main():
    doc = load(sys.argv[1])
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    labels = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_labels":
            labels[str(e.get("pid"))] = str(e.get("args", {}).get("labels", ""))

    def host(e):
        pid = str(e.get("pid", ""))
        tid = str(e.get("tid", pid))
        if labels.get(pid, "").startswith("GPU") or tid.startswith("stream"):
            return False
        return pid not in ("", "Spans", "Traces")

    with_ids = 0
    alloc = 0
    device_alloc = 0
    for e in events:
        ph = e.get("ph")
        args = e.get("args") or {}
        if ph not in ("X", "B", "i", "I", "R"):
            continue
        if ph == "i" and e.get("name") == "[memory]":
            if host(e) and is_int(args.get("Bytes")) and is_int(args.get("Addr")):
                alloc += 1
                if args.get("Device Type") == 1:
                    device_alloc += 1
            continue
        ext = args.get("External id", args.get("external id"))
        if is_int(args.get("correlation")) or is_int(ext):
            with_ids += 1
    print(f"events with ids: {with_ids}")
    print(f"allocator events: {alloc} (device memory {device_alloc})")


if __name__ == "__main__":
    main()
