#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Writes the smaller copy of the Nsight Systems sample that the tests use
(tests/data/nsys_sqlite/pipit-cloverleaf-cuda/perlmutter-cloverleaf-cuda.sqlite, < 1 MB)
from the original export (2.1 MB, see tests/data/NOTICE.md). Python 3 standard library only.

    python3 tests/tools/trim_nsys_sample.py ORIGINAL.sqlite [OUT.sqlite]

What is kept, consistently: every row of every table the importer reads (the CUPTI
activity tables, OSRT_API, PROFILER_OVERHEAD, ThreadNames, TARGET_INFO_*, META_DATA_*,
DIAGNOSTIC_EVENT, ENUM_*, ...), so the golden counts equal the original's. Removed: the
CPU sampling data (COMPOSITE_EVENTS and its SAMPLING_CALLCHAINS), the OSRT call stacks
(OSRT_CALLCHAINS; OSRT_API.callchainId then points nowhere, as with `nsys profile
--backtrace=none`), TARGET_INFO_SYSTEM_ENV, the process stdout/stderr (ProcessStreams), the
PROCESSES rows of processes with no row in any other table, and every StringIds row that no
remaining `REFERENCES StringIds(id)` column uses. The tables themselves stay (empty), so the
schema is the original's. Then VACUUM.
"""
import os
import re
import shutil
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "data", "nsys_sqlite", "pipit-cloverleaf-cuda",
                           "perlmutter-cloverleaf-cuda.sqlite")
EMPTIED = ("SAMPLING_CALLCHAINS", "COMPOSITE_EVENTS", "OSRT_CALLCHAINS", "TARGET_INFO_SYSTEM_ENV",
           "ProcessStreams")


def string_columns(db):
    """(table, column) pairs whose CREATE TABLE comment says REFERENCES StringIds(id)."""
    out = []
    for table, sql in db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"):
        for line in (sql or "").splitlines():
            m = re.match(r"\s*(\w+)\s+\w+.*REFERENCES StringIds\(id\)", line)
            if m:
                out.append((table, m.group(1)))
    return out


def main():
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else DEFAULT_OUT
    if os.path.exists(out):
        os.remove(out)
    shutil.copyfile(src, out)
    os.chmod(out, 0o644)
    db = sqlite3.connect(out)
    tables = set(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    for t in EMPTIED:
        if t in tables:
            db.execute("DELETE FROM %s" % t)
    # Processes that own a row somewhere else (globalPid, or globalTid with the tid cut).
    pids = set()
    for t in tables:
        cols = [r[1] for r in db.execute("PRAGMA table_info(%s)" % t)]
        if t == "PROCESSES":
            continue
        for c in ("globalPid", "globalTid"):
            if c in cols:
                for (g,) in db.execute("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL" % (c, t, c)):
                    pids.add((g >> 24) << 24)
    keep = ",".join(str(p) for p in sorted(pids)) or "NULL"
    db.execute("DELETE FROM PROCESSES WHERE globalPid NOT IN (%s)" % keep)
    used = set()
    for t, c in string_columns(db):
        used.update(r[0] for r in db.execute("SELECT DISTINCT %s FROM %s WHERE %s IS NOT NULL"
                                             % (c, t, c)))
    db.execute("CREATE TEMP TABLE used(id INTEGER PRIMARY KEY)")
    db.executemany("INSERT INTO used VALUES (?)", ((i,) for i in used))
    db.execute("DELETE FROM StringIds WHERE id NOT IN (SELECT id FROM used)")
    db.commit()
    db.execute("VACUUM")
    db.close()
    print("%s: %d bytes" % (out, os.path.getsize(out)))


if __name__ == "__main__":
    main()
