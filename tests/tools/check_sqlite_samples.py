#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Prints, from the SQLite samples in tests/data/, the numbers the golden tests pin
(tests/core/import/ascenddb_samples_test.cpp, nsys_sample_test.cpp), computed with plain SQL
so they are checked independently of the C++ readers. Python 3 standard library only.

    python3 tests/tools/check_sqlite_samples.py            # both families
    python3 tests/tools/check_sqlite_samples.py ascend     # or: nsys
"""
import os
import sqlite3
import sys

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
NO_PLANE = 4294967295


def q(db, sql):
    return db.execute(sql).fetchall()


def one(db, sql):
    return db.execute(sql).fetchone()[0]


def ascend_rank(path):
    db = sqlite3.connect("file:" + path + "?immutable=1", uri=True)
    s = dict(q(db, "SELECT id, value FROM STRING_IDS"))
    out = {}
    out["TASK"] = one(db, "SELECT count(*) FROM TASK")
    out["kernels (TASK join COMPUTE_TASK_INFO)"] = one(
        db, "SELECT count(*) FROM TASK JOIN COMPUTE_TASK_INFO USING (globalTaskId)")
    out["hccl tasks (TASK join COMMUNICATION_TASK_INFO)"] = one(
        db, "SELECT count(*) FROM TASK JOIN COMMUNICATION_TASK_INFO USING (globalTaskId)")
    info_keys = set(q(db, """SELECT streamId, taskId, connectionId FROM TASK
        WHERE globalTaskId IN (SELECT globalTaskId FROM COMPUTE_TASK_INFO)
           OR globalTaskId IN (SELECT globalTaskId FROM COMMUNICATION_TASK_INFO)"""))
    bare = q(db, """SELECT streamId, taskId, connectionId FROM TASK
        WHERE globalTaskId NOT IN (SELECT globalTaskId FROM COMPUTE_TASK_INFO)
          AND globalTaskId NOT IN (SELECT globalTaskId FROM COMMUNICATION_TASK_INFO)""")
    out["containers"] = sum(1 for k in bare if k in info_keys)
    out["other tasks"] = sum(1 for k in bare if k not in info_keys)
    # Lanes: streams hold kernels, bare tasks and (no plane) HCCL tasks; planes the rest.
    lanes = {}
    for stream, n in q(db, """SELECT streamId, count(*) FROM TASK
            LEFT JOIN COMMUNICATION_TASK_INFO c USING (globalTaskId)
            WHERE c.globalTaskId IS NULL OR c.planeId = 4294967295 GROUP BY streamId"""):
        lanes["Stream %d" % stream] = n
    for plane, n in q(db, """SELECT planeId, count(*) FROM TASK
            JOIN COMMUNICATION_TASK_INFO c USING (globalTaskId)
            WHERE c.planeId != 4294967295 GROUP BY planeId"""):
        lanes["Plane %d" % plane] = n
    out["device lanes"] = lanes
    out["COMMUNICATION_OP"] = one(db, "SELECT count(*) FROM COMMUNICATION_OP")
    out["PYTORCH_API"] = one(db, "SELECT count(*) FROM PYTORCH_API")
    out["PYTORCH_API threads"] = dict(
        ((g & 0xffffffff), n) for g, n in q(db, "SELECT globalTid, count(*) FROM PYTORCH_API GROUP BY 1"))
    out["CANN_API"] = one(db, "SELECT count(*) FROM CANN_API")
    out["CANN_API lanes"] = len(q(db, "SELECT DISTINCT globalTid, type FROM CANN_API"))

    # Flows.
    cann = set(r[0] for r in q(db, "SELECT connectionId FROM CANN_API"))
    bare_conn = q(db, """SELECT streamId, taskId, connectionId FROM TASK
        WHERE globalTaskId NOT IN (SELECT globalTaskId FROM COMPUTE_TASK_INFO)
          AND globalTaskId NOT IN (SELECT globalTaskId FROM COMMUNICATION_TASK_INFO)""")
    h2d = sum(1 for k in bare_conn if k not in info_keys and k[2] in cann)
    h2d += one(db, """SELECT count(*) FROM TASK JOIN COMPUTE_TASK_INFO USING (globalTaskId)
        WHERE connectionId IN (SELECT connectionId FROM CANN_API)""")
    h2d += one(db, """SELECT count(*) FROM COMMUNICATION_OP
        WHERE connectionId IN (SELECT connectionId FROM CANN_API)""")
    device_targets = {}
    for (c,) in q(db, """SELECT connectionId FROM TASK JOIN COMPUTE_TASK_INFO USING (globalTaskId)
            UNION ALL SELECT connectionId FROM COMMUNICATION_OP"""):
        if c is not None:
            device_targets[c] = device_targets.get(c, 0) + 1
    ids = {}
    for i, c in q(db, "SELECT id, connectionId FROM CONNECTION_IDS"):
        ids.setdefault(i, []).append(c)
    async_npu = 0
    host = {}
    for start, typ, idx in q(db, """SELECT CAST(startNs AS INTEGER), type, connectionId
            FROM PYTORCH_API WHERE connectionId IS NOT NULL"""):
        for c in ids.get(idx, []):
            if c in device_targets:
                async_npu += device_targets[c]
            else:
                host.setdefault(c, []).append((start, typ))
    queue = fwdbwd = 0
    for ends in host.values():
        if len(ends) == 2:
            if sorted(ends)[0][1] == 50002:
                queue += 1
            else:
                fwdbwd += 1
    out["flows"] = {"HostToDevice": h2d, "async_npu": async_npu,
                    "async_task_queue": queue, "fwdbwd": fwdbwd}
    out["STEP_TIME"] = q(db, "SELECT id, startNs, endNs FROM STEP_TIME")
    out["MEMORY_RECORD by component"] = dict(
        (s[c], n) for c, n in q(db, "SELECT component, count(*) FROM MEMORY_RECORD GROUP BY 1"))
    out["NPU_MEM app rows"] = one(
        db, "SELECT count(*) FROM NPU_MEM WHERE type IN (SELECT id FROM STRING_IDS WHERE value = 'app')")
    out["NPU_MEM rows"] = one(db, "SELECT count(*) FROM NPU_MEM")
    out["OP_MEMORY (NULL releaseTime)"] = (one(db, "SELECT count(*) FROM OP_MEMORY"),
                                           one(db, "SELECT count(*) FROM OP_MEMORY WHERE releaseTime IS NULL"))
    out["NPU_MODULE_MEM (modules)"] = (one(db, "SELECT count(*) FROM NPU_MODULE_MEM"),
                                       one(db, "SELECT count(DISTINCT moduleId) FROM NPU_MODULE_MEM"))
    counters = {}
    for table, series in (("AICORE_FREQ", 1), ("HBM", 1), ("LLC", 2), ("ACC_PMU", 4),
                          ("SOC_BANDWIDTH_LEVEL", 2), ("NPU_MEM", 3)):
        if q(db, "SELECT name FROM sqlite_master WHERE name = '%s'" % table):
            counters[table] = one(db, "SELECT count(*) FROM %s" % table) * series
    out["counter points"] = counters
    out["origin"] = min(v for v in (
        one(db, "SELECT min(startNs) FROM TASK"), one(db, "SELECT min(startNs) FROM CANN_API"),
        one(db, "SELECT min(CAST(startNs AS INTEGER)) FROM PYTORCH_API"),
        one(db, "SELECT min(timestamp) FROM MEMORY_RECORD"),
        one(db, "SELECT min(timestampNs) FROM NPU_MEM"),
        one(db, "SELECT min(timestampNs) FROM NPU_MODULE_MEM"),
        one(db, "SELECT min(allocationTime) FROM OP_MEMORY"),
        one(db, "SELECT min(timestampNs) FROM AICORE_FREQ")) if v is not None)
    return out


def ascend_analysis(path):
    db = sqlite3.connect("file:" + path + "?immutable=1", uri=True)
    out = {"StepTraceTime": q(db, "SELECT * FROM StepTraceTime")}
    for t in ("CommAnalyzerTime", "CommAnalyzerBandwidth", "CommAnalyzerMatrix"):
        if q(db, "SELECT name FROM sqlite_master WHERE name = '%s'" % t):
            out[t] = one(db, "SELECT count(*) FROM %s" % t)
    if "CommAnalyzerBandwidth" in out:
        out["links per op"] = q(db, """SELECT hccl_op_name, count(DISTINCT transport_type)
            FROM CommAnalyzerBandwidth GROUP BY 1""")
    return out


def nsys(path):
    db = sqlite3.connect("file:" + path + "?immutable=1", uri=True)
    tables = set(r[0] for r in q(db, "SELECT name FROM sqlite_master WHERE type = 'table'"))
    out = {}
    for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
              "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "OSRT_API",
              "NVTX_EVENTS", "ThreadNames", "TARGET_INFO_GPU"):
        out[t] = one(db, "SELECT count(*) FROM %s" % t) if t in tables else "absent"
    out["kernel lanes (device, stream)"] = q(
        db, "SELECT deviceId, streamId, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1, 2")
    out["memcpy lanes"] = q(
        db, "SELECT deviceId, streamId, count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1, 2")
    out["sync lanes"] = q(
        db, "SELECT deviceId, streamId, count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION GROUP BY 1, 2")
    out["runtime threads"] = q(db, "SELECT globalTid, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME GROUP BY 1")
    out["osrt threads"] = q(db, "SELECT globalTid, count(*) FROM OSRT_API GROUP BY 1")
    flows = 0
    for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
              "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"):
        if t in tables:
            flows += one(db, """SELECT count(*) FROM %s a JOIN CUPTI_ACTIVITY_KIND_RUNTIME r
                ON r.correlationId = a.correlationId
                AND r.globalTid / 16777216 %% 16777216 = a.globalPid / 16777216 %% 16777216""" % t)
    out["runtime -> device flows"] = flows
    out["session start utcEpochNs"] = one(db, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME")
    out["earliest start"] = min(one(db, "SELECT min(start) FROM %s" % t) for t in (
        "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_RUNTIME",
        "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "OSRT_API"))
    out["kernel time sum"] = one(db, "SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL")
    out["first kernel (start, end, demangledName, shortName)"] = q(db, """SELECT k.start, k.end,
        d.value, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName
        JOIN StringIds s ON s.id = k.shortName ORDER BY k.start LIMIT 1""")
    out["last memcpy (start, end, bytes, copyKind)"] = q(db, """SELECT start, end, bytes, copyKind
        FROM CUPTI_ACTIVITY_KIND_MEMCPY ORDER BY start DESC LIMIT 1""")
    out["memcpy bytes by copyKind"] = q(db, """SELECT copyKind, count(*), sum(bytes)
        FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1""")
    out["first runtime call (start, end, name)"] = q(db, """SELECT r.start, r.end, s.value
        FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId ORDER BY r.start LIMIT 1""")
    out["runtime rows by name"] = q(db, """SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r
        JOIN StringIds s ON s.id = r.nameId GROUP BY 1 ORDER BY 2 DESC""")
    out["PROFILER_OVERHEAD"] = one(db, "SELECT count(*) FROM PROFILER_OVERHEAD")
    out["GPU of device 0"] = one(db, "SELECT name FROM TARGET_INFO_GPU WHERE id = 0")
    out["thread names"] = q(db, """SELECT t.globalTid % 16777216, s.value FROM ThreadNames t
        JOIN StringIds s ON s.id = t.nameId ORDER BY 1""")
    return out


def show(title, d):
    print("==", title)
    for k, v in d.items():
        print("  %s: %s" % (k, v))


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    if which in ("all", "ascend"):
        for level in ("level0", "level2"):
            for rank in (0, 1):
                base = os.path.join(DATA, "ascend_db", "msinsight-cnn-db-%s-2rank" % level,
                                    "rank%d_ascend_pt" % rank, "ASCEND_PROFILER_OUTPUT")
                show("%s rank%d" % (level, rank),
                     ascend_rank(os.path.join(base, "ascend_pytorch_profiler_%d.db" % rank)))
                show("%s rank%d analysis.db" % (level, rank),
                     ascend_analysis(os.path.join(base, "analysis.db")))
    if which in ("all", "nsys"):
        show("nsys", nsys(os.path.join(DATA, "nsys_sqlite", "pipit-cloverleaf-cuda",
                                       "perlmutter-cloverleaf-cuda.sqlite")))


if __name__ == "__main__":
    main()
