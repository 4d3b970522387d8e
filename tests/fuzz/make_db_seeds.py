#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Small valid SQLite seeds for the SQLite fuzz targets: make_db_seeds.py SOURCE_DIR DATA_DIR OUT_DIR.

The real samples in tests/data (ascend_db/, nsys_sqlite/) are 0.7-0.9 MB, above the
fuzzers' 64 KiB -max_len, and a 64 KiB prefix of them is a database whose tables point past
its end (make_seeds.py adds those too: they exercise the truncated-file path). These seeds
are the same databases shrunk below 64 KiB so that mutations reach the row readers: only the
tables the readers name (a quoted table name in core/import/{ascenddb,nsys,sqlite}/*.cpp),
the first rows of each, the info / runtime / connection rows that join to the kept rows,
the string-table rows the kept rows use, 512-byte pages. Written to
OUT_DIR/<target>/<sample>.db, after make_seeds.py (which empties OUT_DIR/<target>/).
Python standard library only; the output is the same for the same input.
"""
import glob
import os
import re
import sqlite3
import sys

MAX_LEN = 65536
FIRST = 6  # rows kept from the start of every table


def reader_tables(source):
    names = set()
    for pattern in ("ascenddb", "nsys", "sqlite"):
        for path in glob.glob(os.path.join(source, "core", "import", pattern, "*.cpp")):
            with open(path, encoding="utf-8") as f:
                names.update(re.findall(r'"([A-Za-z][A-Za-z0-9_]*)"', f.read()))
    return names


def columns(db, table):
    return [r[1] for r in db.execute('PRAGMA table_info("%s")' % table)]


def shrink(src_path, out_path, keep_names, joins, strings, first):
    src = sqlite3.connect("file:" + src_path + "?immutable=1", uri=True)
    if os.path.exists(out_path):
        os.remove(out_path)
    out = sqlite3.connect(out_path)
    out.execute("PRAGMA page_size = 512")
    out.execute("PRAGMA journal_mode = OFF")
    tables = [r for r in src.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL "
        "ORDER BY rowid") if r[0] in keep_names]
    kept = {}
    for name, sql in tables:
        out.execute(sql)
        rows = src.execute('SELECT * FROM "%s" ORDER BY rowid LIMIT %d' % (name, first)).fetchall()
        kept[name] = rows
    # Rows joined to the kept ones: (table, column, from table, from column).
    for table, column, other, other_column in joins:
        if table not in kept or other not in kept:
            continue
        idx = columns(src, other).index(other_column)
        values = sorted({r[idx] for r in kept[other] if r[idx] is not None})
        if not values:
            continue
        extra = src.execute('SELECT * FROM "%s" WHERE "%s" IN (%s) ORDER BY rowid LIMIT 40' % (
            table, column, ",".join("?" * len(values))), values).fetchall()
        kept[table] = list(dict.fromkeys(kept[table] + extra))
    # The string table: every id the kept rows use.
    used = set()
    for name, rows in kept.items():
        if name != strings:
            for r in rows:
                used.update(v for v in r if isinstance(v, int))
    if strings in kept:
        ids = sorted(used)
        found = []
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            found += src.execute('SELECT * FROM "%s" WHERE id IN (%s)' % (
                strings, ",".join("?" * len(chunk))), chunk).fetchall()
        kept[strings] = sorted(set(found))
    for name, rows in kept.items():
        if rows:
            out.executemany('INSERT INTO "%s" VALUES (%s)' % (name, ",".join("?" * len(rows[0]))),
                            rows)
    for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS "
                              "NOT NULL"):
        table = re.search(r"\bON\s+\"?(\w+)", sql)
        if table and table.group(1) in kept:
            out.execute(sql)
    out.commit()
    out.execute("VACUUM")
    out.close()
    return os.path.getsize(out_path)


ASCEND_JOINS = [
    ("COMPUTE_TASK_INFO", "globalTaskId", "TASK", "globalTaskId"),
    ("COMMUNICATION_TASK_INFO", "globalTaskId", "TASK", "globalTaskId"),
    ("CANN_API", "connectionId", "TASK", "connectionId"),
    ("CONNECTION_IDS", "connectionId", "TASK", "connectionId"),
    ("PYTORCH_API", "connectionId", "CONNECTION_IDS", "id"),
    ("COMMUNICATION_OP", "connectionId", "CANN_API", "connectionId"),
]
NSYS_JOINS = [
    ("CUPTI_ACTIVITY_KIND_RUNTIME", "correlationId", "CUPTI_ACTIVITY_KIND_KERNEL", "correlationId"),
    ("CUPTI_ACTIVITY_KIND_RUNTIME", "correlationId", "CUPTI_ACTIVITY_KIND_MEMCPY", "correlationId"),
    ("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "correlationId", "CUPTI_ACTIVITY_KIND_RUNTIME",
     "correlationId"),
]
# (target, sample glob below tests/data, joins, string table)
SEEDS = [
    ("ascend_db", "ascend_db/*/rank*_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_*.db",
     ASCEND_JOINS, "STRING_IDS"),
    ("nsys_sqlite", "nsys_sqlite/*/*.sqlite", NSYS_JOINS, "StringIds"),
]


def main():
    source, data, out = sys.argv[1:4]
    keep = reader_tables(source)
    keep.update(n for n in ("ENUM_API_TYPE", "ENUM_MODULE", "RANK_DEVICE_MAP", "NPU_INFO",
                            "HOST_INFO", "SESSION_TIME_INFO"))
    for target, pattern, joins, strings in SEEDS:
        target_dir = os.path.join(out, target)
        os.makedirs(target_dir, exist_ok=True)
        for path in sorted(glob.glob(os.path.join(data, pattern))):
            parts = os.path.relpath(path, data).split(os.sep)
            sample = "_".join([parts[1]] + ([parts[2]] if len(parts) > 3 else []))
            dest = os.path.join(target_dir, "small_" + sample)
            first = FIRST
            while shrink(path, dest, keep, joins, strings, first) > MAX_LEN and first > 1:
                first -= 1
            if os.path.getsize(dest) > MAX_LEN:
                print("make_db_seeds.py: %s stays above %d bytes" % (dest, MAX_LEN),
                      file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
