#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Deterministic synthetic Ascend DB export (torch_npu `export_type=db`) for
`stepscope-bench import`.

Python 3 standard library only; the same --seed gives the same rows. Writes
`<out>/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_<rank>.db` and, beside it, `analysis.db`
with one StepTraceTime row per step, plus `<out>/profiler_info_<rank>.json`. The tables are
the ones of a real export: the CREATE TABLE / CREATE INDEX statements and the ENUM_* and
META_DATA rows are copied from the sample in tests/data/ascend_db/ (schema 1.0.0). They are
filled like a data-parallel training job (docs/formats.md §11):

- per step a `ProfilerStep#N` PYTORCH_API op and a STEP_TIME row;
- per host op (`aten::*`, type op, on the main thread; every 4th inside a python trace row)
  an `Enqueue` (main thread) and a `Dequeue` (task-queue thread) sharing a CONNECTION_IDS
  connection id, and on the task-queue thread the CANN_API rows it causes: `aclnn*` (acl),
  the node row whose connectionId is the kernel's, a runtime launch row;
- per op one kernel: a TASK row on stream 2 with its COMPUTE_TASK_INFO row (name, core,
  op type, block dim, formats, dtypes and shapes as STRING_IDS); the op's CONNECTION_IDS
  entry points at the kernel's connection id (async_npu flow);
- every 50th op an `aclrtMemcpyAsync` and a MEMCPY_ASYNC TASK row with no info row;
- every 40th op an all-reduce: a CANN hccl row, a COMMUNICATION_OP row and 8 sub-task TASK
  rows on stream 4 with COMMUNICATION_TASK_INFO rows on two planes; compute waits for it;
- per op a MEMORY_RECORD row (PTA) and an OP_MEMORY allocation; per step a few NPU_MEM,
  NPU_MODULE_MEM, HBM, LLC and AICORE_FREQ samples.

Times are int64 ns since the Unix epoch (PYTORCH_API start/end as TEXT, as torch_npu writes
them). Write generated files to /tmp; never commit them.

  gen_ascend_db.py --size-mb 100 --out /tmp/adb100
  gen_ascend_db.py --size-mb 1024 --out /tmp/adb1g
"""

import argparse
import json
import os
import random
import shutil
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "data", "ascend_db", "msinsight-cnn-db-level2-2rank",
                      "rank0_ascend_pt", "ASCEND_PROFILER_OUTPUT")
COPIED_ROWS = ("ENUM_API_TYPE", "ENUM_HCCL_RDMA_TYPE", "ENUM_MSTX_EVENT_TYPE",
               "ENUM_HCCL_LINK_TYPE", "ENUM_HCCL_TRANSPORT_TYPE", "ENUM_HCCL_DATA_TYPE",
               "ENUM_MODULE", "META_DATA")

OPS = [  # (host op, kernel name prefix, op type, core, task type, block dim)
    ("aten::convolution", "Conv2D", "Conv2D", "AI_CORE", "KERNEL_AICORE", 32),
    ("aten::add", "Add", "Add", "AI_VECTOR_CORE", "KERNEL_AIVEC", 8),
    ("aten::matmul", "MatMulV2", "MatMulV2", "AI_CORE", "KERNEL_AICORE", 24),
    ("aten::relu", "Relu", "Relu", "AI_VECTOR_CORE", "KERNEL_AIVEC", 16),
    ("aten::native_layer_norm", "LayerNormV3", "LayerNormV3", "MIX_AIV", "MIX_AIV", 40),
    ("aten::_softmax", "SoftmaxV2", "SoftmaxV2", "AI_VECTOR_CORE", "KERNEL_AIVEC", 32),
    ("aten::to", "Cast", "Cast", "AI_VECTOR_CORE", "KERNEL_AIVEC", 8),
    ("aten::mul", "Mul", "Mul", "AI_VECTOR_CORE", "KERNEL_AIVEC", 16),
]
SHAPES = ['"32,3,224,224"', '"32,64,112,112"', '"4096,4096"', '"32,1024"', '"32,1,224,224,8"']
HCCL_SUB = ["Notify_Wait", "Memcpy", "Notify_Record", "Reduce_Inline", "Notify_Wait", "Memcpy",
            "Notify_Record", "Notify_Wait"]
HCCL_TASK = {"Notify_Wait": "Notify Wait", "Memcpy": "SDMA", "Notify_Record": "Write Value",
             "Reduce_Inline": "SDMA"}

ORIGIN = 1736414119518476000
PID = 3217657
MAIN = (PID << 32) | PID
QUEUE = (PID << 32) | (PID + 3538)
DEVICE = 0
COMPUTE, HCCL_STREAM = 2, 4
API = {"runtime": 5000, "hccl": 5500, "node": 10000, "acl": 20000, "op": 50001,
       "queue": 50002, "trace": 50003}
GROUP = "90.91.105.46%enp189s0f0_60000_0_1736414082311975"


class Strings:
    """STRING_IDS in the sample's id ranges: device and CANN names from 0, PyTorch names
    from 1 << 28, memory components and op-memory names from 1 << 29."""

    def __init__(self):
        self.ids = {}
        self.next = {0: 0, 1 << 28: 1 << 28, 1 << 29: 1 << 29}

    def __call__(self, text, space=0):
        key = (space, text)
        if key not in self.ids:
            self.ids[key] = self.next[space]
            self.next[space] += 1
        return self.ids[key]

    def rows(self):
        return ((i, text) for (_, text), i in self.ids.items())


def copy_schema(src, db):
    for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS "
                              "NOT NULL ORDER BY rowid"):
        db.execute(sql)
    for name in COPIED_ROWS:
        rows = src.execute("SELECT * FROM %s" % name).fetchall()
        if rows:
            db.executemany("INSERT INTO %s VALUES (%s)" % (name, ",".join("?" * len(rows[0]))),
                           rows)


def create_indexes(src, db):
    for (sql,) in src.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS "
                              "NOT NULL"):
        db.execute(sql)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=float, default=100)
    ap.add_argument("--out", required=True, help="rank folder to create (replaced)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rank", type=int, default=0)
    ap.add_argument("--ops-per-step", type=int, default=2000)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    outdir = os.path.join(args.out, "ASCEND_PROFILER_OUTPUT")
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(outdir)
    path = os.path.join(outdir, "ascend_pytorch_profiler_%d.db" % args.rank)
    src = sqlite3.connect("file:" + os.path.join(SAMPLE, "ascend_pytorch_profiler_0.db")
                          + "?immutable=1", uri=True)
    asrc = sqlite3.connect("file:" + os.path.join(SAMPLE, "analysis.db") + "?immutable=1",
                           uri=True)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    copy_schema(src, db)
    # The indexes are built once at the end, as bulk writers do.
    sid = Strings()

    db.execute("INSERT INTO SESSION_TIME_INFO VALUES (?, NULL)", (ORIGIN,))
    db.execute("INSERT INTO NPU_INFO VALUES (?, 'Ascend910B')", (DEVICE,))
    db.execute("INSERT INTO HOST_INFO VALUES ('3538958389648580163', 'bench-host')")
    db.execute("INSERT INTO RANK_DEVICE_MAP VALUES (?, ?)", (args.rank, DEVICE))

    t = ORIGIN + 10_000_000  # host clock
    conn = 1000  # CANN_API connection ids (the table's key)
    cid_index = 0  # CONNECTION_IDS.id, one per PYTORCH_API row that has links
    queue_conn = 1 << 20  # Enqueue/Dequeue connection ids
    gtask = 0
    op_id = 0
    step = 0
    steps = []
    target = args.size_mb * 1024 * 1024
    page = db.execute("PRAGMA page_size").fetchone()[0]
    while db.execute("PRAGMA page_count").fetchone()[0] * page < target:
        pt, cids, cann, task, cinfo, minfo, cops, mrec, opmem = [], [], [], [], [], [], [], [], []
        step_start = t
        gpu = t + 200_000
        computing = communication = 0
        allocated = 1_000_000_000
        queue_t = t + 50_000  # the task-queue thread runs behind the main thread
        for k in range(args.ops_per_step):
            host, kname, optype, core, ttype, block = OPS[k % len(OPS)]
            dur = rnd.randint(20_000, 60_000)
            if k % 4 == 0:  # a python frame around the op
                pt.append((str(t), str(t + dur + 4_000), MAIN, None,
                           sid("torch/nn/modules/module.py(1520): _call_impl", 1 << 28),
                           None, None, None, None, None, API["trace"]))
                t += 2_000
            shape = sid(SHAPES[k % len(SHAPES)], 1 << 28)
            pt.append((str(t), str(t + dur), MAIN, cid_index, sid(host, 1 << 28), 1000 + k, None,
                       sid("FLOAT", 1 << 28), shape, None, API["op"]))
            kernel_conn = conn + 1
            cids.append((cid_index, kernel_conn))
            cid_index += 1
            enq = t + dur // 2
            pt.append((str(enq), str(enq + 3_000), MAIN, cid_index, sid("Enqueue", 1 << 28),
                       None, None, None, None, None, API["queue"]))
            cids.append((cid_index, queue_conn))
            cid_index += 1
            queue_t = max(queue_t, enq + 10_000)
            deq_end = queue_t + 18_000
            pt.append((str(queue_t), str(deq_end), QUEUE, cid_index, sid("Dequeue", 1 << 28),
                       None, None, None, None, None, API["queue"]))
            cids.append((cid_index, queue_conn))
            cid_index += 1
            queue_conn += 1
            # CANN rows on the task-queue thread, nested in the Dequeue.
            a0 = queue_t + 1_000
            cann.append((a0, a0 + 15_000, API["acl"], QUEUE, conn, sid("aclnn" + kname)))
            cann.append((a0 + 1_000, a0 + 12_000, API["node"], QUEUE, kernel_conn, sid(kname)))
            cann.append((a0 + 2_000, a0 + 9_000, API["runtime"], QUEUE, conn + 2,
                         sid("LaunchKernelWithHandle")))
            conn += 3
            if k % 50 == 25:  # a host-to-device copy with no info row
                m0 = a0 + 15_500
                cann.append((m0, m0 + 2_000, API["acl"], QUEUE, conn, sid("aclrtMemcpyAsync")))
                gpu = max(gpu, m0 + 2_500)
                task.append((gpu, gpu + 30_000, DEVICE, conn, gtask, PID, sid("MEMCPY_ASYNC"),
                             4294967295, COMPUTE, gtask & 0xffff, 4294967295))
                gtask += 1
                gpu += 31_000
                conn += 1
            if k % 40 == 39:  # an all-reduce on the HCCL stream; compute waits for it
                h0 = a0 + 16_000
                cann.append((h0, h0 + 8_000, API["hccl"], QUEUE, conn, sid("HcclAllReduce")))
                op_name = sid("hcom_allReduce__%d_0_1" % (op_id % 1000))
                start = max(gpu, h0 + 5_000)
                sub = start
                for j, name in enumerate(HCCL_SUB):
                    d = 120_000 if name in ("Memcpy", "Reduce_Inline") else 6_000
                    task.append((sub, sub + d, DEVICE, conn, gtask, PID, sid(HCCL_TASK[name]),
                                 4294967295, HCCL_STREAM, gtask & 0xffff, 4294967295))
                    minfo.append((op_name, gtask, sid(name), j % 2, sid(GROUP), j, 65535, 0, 1,
                                  0, 2_097_152 if d > 10_000 else 4, 4, 0, op_id))
                    gtask += 1
                    sub += d + 1_000
                cops.append((op_name, start, sub, conn, sid(GROUP), op_id, 0, 0, 4,
                             sid("MESH-RING"), 1_048_576, sid("hcom_allReduce_")))
                communication += sub - start
                op_id += 1
                conn += 1
                gpu = sub + 2_000
            # The kernel: after its launch, back to back on the compute stream.
            gpu = max(gpu, a0 + 9_000 + rnd.randint(1_000, 5_000))
            kdur = rnd.randint(5_000, 80_000)
            task.append((gpu, gpu + kdur, DEVICE, kernel_conn, gtask, PID, sid(ttype), 4294967295,
                         COMPUTE, gtask & 0xffff, 4294967295))
            cinfo.append((sid("%s_%d" % (kname, k % 64)), gtask, block, 0, sid(core), sid(optype),
                          sid("ND"), sid("FLOAT"), sid(SHAPES[k % len(SHAPES)]), sid("ND"),
                          sid("FLOAT"), sid(SHAPES[(k + 1) % len(SHAPES)]), sid("N/A")))
            gtask += 1
            computing += kdur
            gpu += kdur + rnd.randint(500, 3_000)
            # Memory: the op's output allocation, freed two ops later.
            size = 512 * rnd.randint(1, 40_000)
            allocated += size
            mrec.append((sid("PTA", 1 << 29), t + 1_000, allocated, 4_000_000_000, allocated,
                         1244527088, DEVICE))
            release = t + 3 * dur
            opmem.append((sid(host, 1 << 29), size, t + 1_000, release, release - 100,
                          release - t - 1_000, release - t - 1_100, allocated, 4_000_000_000,
                          allocated, allocated - size, 4_000_000_000, allocated - size,
                          1244527088, DEVICE))
            allocated -= size // 2
            queue_t = deq_end + 1_000
            t += dur + rnd.randint(2_000, 8_000)
        end = max(gpu, t, queue_t) + 20_000
        steps.append((step, step_start, end, computing, communication))
        name = sid("ProfilerStep#%d" % step, 1 << 28)
        pt.append((str(step_start), str(end), MAIN, None, name, -1, None, None, None, None,
                   API["op"]))
        db.execute("INSERT INTO STEP_TIME VALUES (?, ?, ?)", (step, step_start, end))
        period = (end - step_start) // 4
        for i in range(4):  # counters and device memory, sampled four times a step
            ts = step_start + i * period
            db.execute("INSERT INTO NPU_MEM VALUES (?, 0, ?, ?, ?)",
                       (sid("app"), 2_212_081_664 + i * 4096, ts, DEVICE))
            db.executemany("INSERT INTO HBM VALUES (?, ?, ?, ?, ?)",
                           [(DEVICE, ts, rnd.randint(0, 900), h, sid("read")) for h in range(4)])
            db.execute("INSERT INTO LLC VALUES (?, 0, ?, ?, ?, ?)",
                       (DEVICE, ts, round(rnd.uniform(60, 95), 1), rnd.randint(0, 1 << 34),
                        sid("read")))
            db.execute("INSERT INTO AICORE_FREQ VALUES (?, ?, 1800)", (DEVICE, ts))
            db.executemany("INSERT INTO NPU_MODULE_MEM VALUES (?, ?, ?, ?)",
                           [(m, ts, 1_000_000 * (m + 1) + i, DEVICE) for m in range(3)])
        db.executemany("INSERT INTO PYTORCH_API VALUES (?,?,?,?,?,?,?,?,?,?,?)", pt)
        db.executemany("INSERT INTO CONNECTION_IDS VALUES (?, ?)", cids)
        db.executemany("INSERT INTO CANN_API VALUES (?,?,?,?,?,?)", cann)
        db.executemany("INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?)", sorted(task))
        db.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", cinfo)
        db.executemany("INSERT INTO COMMUNICATION_TASK_INFO VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                       minfo)
        db.executemany("INSERT INTO COMMUNICATION_OP VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", cops)
        db.executemany("INSERT INTO MEMORY_RECORD VALUES (?,?,?,?,?,?,?)", mrec)
        db.executemany("INSERT INTO OP_MEMORY VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", opmem)
        db.commit()
        step += 1
        t = end + 100_000
    db.execute("UPDATE SESSION_TIME_INFO SET endTimeNs = ?", (t,))
    db.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", sid.rows())
    create_indexes(src, db)
    db.commit()
    db.close()

    # analysis.db: the profiler's step breakdown, in us (compute and HCCL never overlap here).
    adb = sqlite3.connect(os.path.join(outdir, "analysis.db"))
    (sql,) = asrc.execute("SELECT sql FROM sqlite_master WHERE name = 'StepTraceTime'").fetchone()
    adb.execute(sql)
    adb.executemany("INSERT INTO StepTraceTime VALUES (?,?,?,?,?,?,?,?,?,?)", [
        (str(n), c / 1000, m / 1000, 0, m / 1000, (e - s - c - m) / 1000, (e - s) / 1000, 0,
         m / 1000, 0) for n, s, e, c, m in steps])
    adb.commit()
    adb.close()
    with open(os.path.join(args.out, "profiler_info_%d.json" % args.rank), "w") as f:
        json.dump({"config": {"experimental_config": {"_profiler_level": "Level1",
                                                      "_export_type": "db"}},
                   "end_info": {"collectionTimeEnd": t}, "rank_id": args.rank}, f, indent=4)

    rows = sqlite3.connect(path)
    counts = {}
    for table in ("TASK", "COMPUTE_TASK_INFO", "COMMUNICATION_TASK_INFO", "COMMUNICATION_OP",
                  "CANN_API", "PYTORCH_API", "CONNECTION_IDS", "MEMORY_RECORD", "OP_MEMORY"):
        counts[table] = rows.execute("SELECT count(*) FROM %s" % table).fetchone()[0]
    print("%s: %.1f MB, %d steps, %d rows %s" % (path, os.path.getsize(path) / 2**20, step,
                                                sum(counts.values()), counts))


if __name__ == "__main__":
    main()
