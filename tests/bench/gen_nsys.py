#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Deterministic synthetic Nsight Systems SQLite export for `stepscope-bench import`.

Python 3 standard library only; the same --seed gives the same rows. The tables are the
ones of a real `nsys export --type sqlite` (schema 3.13: the CREATE TABLE statements are
copied from the sample in tests/data/nsys_sqlite/ where it has the table, else written from
the documented schema), filled like a data-parallel training job under nsys: per step an
NVTX `ProfilerStep#N` push/pop range with forward/backward ranges inside, per kernel a
`cudaLaunchKernel_v7000` runtime row with its correlation id, kernels on a compute stream,
NCCL all-reduce kernels on a communication stream, memcpys and memsets, stream syncs with
their sync rows, OS runtime calls (ioctl, poll) on the main thread and a worker thread.
Times are int64 ns from the session start, in order per table as nsys writes them.

Write generated files to /tmp; never commit them.

  gen_nsys.py --size-mb 100 --out /tmp/nsys100.sqlite
  gen_nsys.py --size-mb 1024 --out /tmp/nsys1g.sqlite
"""

import argparse
import os
import random
import re
import sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "data", "nsys_sqlite", "pipit-cloverleaf-cuda",
                      "perlmutter-cloverleaf-cuda.sqlite")
COPIED = ("StringIds", "META_DATA_EXPORT", "TARGET_INFO_SESSION_START_TIME", "TARGET_INFO_GPU",
          "ThreadNames", "PROCESSES", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
          "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "OSRT_API",
          "TARGET_INFO_CUDA_CONTEXT_INFO", "ENUM_NSYS_EVENT_TYPE", "ENUM_CUDA_MEMCPY_OPER",
          "ENUM_CUDA_MEM_KIND", "ENUM_CUPTI_SYNC_TYPE", "ENUM_NSYS_EVENT_CLASS")
DOCUMENTED = """
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER,
    streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
    value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
    rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,
    endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER,
    int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER,
    floatValue REAL, jsonTextId INTEGER, jsonText TEXT);
"""

KERNELS = [
    ("void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8>"
     "(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x4_tn_align8::Params)",
     "Kernel2"),
    ("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3>>(int, at::native::CUDAFunctor_add<float>, "
     "at::detail::Array<char*, 3>)", "vectorized_elementwise_kernel"),
    ("void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, "
     "cutlass::bfloat16_t>, false, false, false>(Flash_fwd_params)", "flash_fwd_kernel"),
    ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
     "at::native::MeanOps<float, float>, unsigned int, float, 4>>(at::native::ReduceOp<float, "
     "at::native::MeanOps<float, float>, unsigned int, float, 4>)", "reduce_kernel"),
]
NCCL = ("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "ncclDevKernel_AllReduce_Sum_bf16_RING_LL")
API = ["cudaLaunchKernel_v7000", "cudaMemcpyAsync_v3020", "cudaMemsetAsync_v3020",
       "cudaStreamSynchronize_v3020"]
OSRT = ["ioctl", "poll", "pthread_cond_wait", "write"]

VM = 1 << 48
PID = 4242
GPID = VM | (PID << 24)
MAIN = GPID | PID
WORKER = GPID | (PID + 7)
COMPUTE, COMM = 7, 13


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=float, default=100)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kernels-per-step", type=int, default=4000)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    if os.path.exists(args.out):
        os.remove(args.out)
    src = sqlite3.connect("file:" + SAMPLE + "?immutable=1", uri=True)
    db = sqlite3.connect(args.out)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    for name in COPIED:
        (sql,) = src.execute("SELECT sql FROM sqlite_master WHERE name = ?", (name,)).fetchone()
        db.execute(sql)
        if name.startswith("ENUM_"):
            db.executemany("INSERT INTO %s VALUES (?, ?, ?)" % name,
                           src.execute("SELECT * FROM %s" % name))
    db.executescript(DOCUMENTED)
    strings = {}

    def sid(text):
        if text not in strings:
            strings[text] = len(strings)
        return strings[text]

    db.executemany("INSERT INTO META_DATA_EXPORT VALUES (?, ?)", [
        ("EXPORT_PRODUCT_NAME", "NVIDIA Nsight Systems"), ("EXPORT_PRODUCT_VERSION", "2024.5.1.113"),
        ("EXPORT_SCHEMA_VERSION", "3.13.2"), ("EXPORT_PARAM_TIME_NORMALIZE", "false")])
    db.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, "
               "'2023-11-14T22:13:20', '2023-11-14T22:13:20')")
    gpu_cols = [r[1] for r in db.execute("PRAGMA table_info(TARGET_INFO_GPU)")]
    row = [None] * len(gpu_cols)
    row[gpu_cols.index("vmId")], row[gpu_cols.index("id")] = VM, 0
    row[gpu_cols.index("name")] = "NVIDIA H100 80GB HBM3"
    db.execute("INSERT INTO TARGET_INFO_GPU VALUES (%s)" % ",".join("?" * len(row)), row)
    db.execute("INSERT INTO PROCESSES VALUES (?, ?, 'python')", (GPID, PID))
    db.executemany("INSERT INTO ThreadNames VALUES (?, 0, ?)",
                   [(sid("python"), MAIN), (sid("pt_autograd_0"), WORKER)])
    db.execute("INSERT INTO TARGET_INFO_CUDA_CONTEXT_INFO VALUES (7, 0, 1, ?, 0, 1, NULL, 0)", (PID,))

    kcols = [r[1] for r in db.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_KERNEL)")]
    mcols = [r[1] for r in db.execute("PRAGMA table_info(CUPTI_ACTIVITY_KIND_MEMCPY)")]

    def kernel_row(start, end, stream, corr, names):
        r = dict(start=start, end=end, deviceId=0, contextId=1, streamId=stream,
                 correlationId=corr, globalPid=GPID, demangledName=sid(names[0]),
                 shortName=sid(names[1]), launchType=0, cacheConfig=0, registersPerThread=128,
                 gridX=132, gridY=1, gridZ=1, blockX=256, blockY=1, blockZ=1,
                 staticSharedMemory=0, dynamicSharedMemory=49152, localMemoryPerThread=0,
                 localMemoryTotal=0, gridId=corr, sharedMemoryExecuted=0)
        return tuple(r.get(c) for c in kcols)

    def memcpy_row(start, end, corr):
        r = dict(start=start, end=end, deviceId=0, contextId=1, streamId=COMPUTE,
                 correlationId=corr, globalPid=GPID, bytes=1 << 20, copyKind=1, srcKind=1,
                 dstKind=2, srcDeviceId=0, dstDeviceId=0)
        return tuple(r.get(c) for c in mcols)

    t = 1_000_000
    corr = 1
    step = 0
    target = args.size_mb * 1024 * 1024
    page = db.execute("PRAGMA page_size").fetchone()[0]
    while db.execute("PRAGMA page_count").fetchone()[0] * page < target:
        runtime, kernels, memcpys, memsets, syncs, osrt, nvtx = [], [], [], [], [], [], []
        step_start = t
        gpu = t + 20_000
        comm_free = gpu
        for k in range(args.kernels_per_step):
            launch = rnd.randint(3_000, 6_000)
            if k % 50 == 10:
                runtime.append((t, t + 2_000, 0, MAIN, corr, sid(API[1]), 0, None))
                gpu = max(gpu, t + 1_500)
                memcpys.append(memcpy_row(gpu, gpu + 40_000, corr))
                gpu += 40_000
            elif k % 97 == 5:
                runtime.append((t, t + 1_500, 0, MAIN, corr, sid(API[2]), 0, None))
                gpu = max(gpu, t + 1_200)
                memsets.append((gpu, gpu + 3_000, 0, 1, None, COMPUTE, corr, GPID, 0, 1 << 16,
                                None, 2))
                gpu += 3_000
            elif k % 40 == 39:
                runtime.append((t, t + 4_000, 0, MAIN, corr, sid(API[0]), 0, None))
                start = max(comm_free, t + 5_000)
                kernels.append(kernel_row(start, start + 300_000, COMM, corr, NCCL))
                comm_free = start + 300_000
            else:
                runtime.append((t, t + launch, 0, MAIN, corr, sid(API[0]), 0, None))
                gpu = max(gpu, t + launch + rnd.randint(1_000, 5_000))
                dur = rnd.randint(5_000, 120_000)
                kernels.append(kernel_row(gpu, gpu + dur, COMPUTE, corr, KERNELS[k % len(KERNELS)]))
                gpu += dur + rnd.randint(500, 2_000)
            if k % 20 == 0:
                osrt.append((t + 100, t + 900, 27, MAIN, sid(OSRT[0]), 0, 1, 0))
                osrt.append((t + 50, t + 40_000, 27, WORKER, sid(OSRT[k // 20 % 4]), 0, 0, 0))
            corr += 1
            t += launch + rnd.randint(500, 3_000)
        end = max(gpu, comm_free, t)
        runtime.append((t, end + 2_000, 0, MAIN, corr, sid(API[3]), 0, None))
        syncs.append((t + 500, end + 1_000, 0, 1, None, 4294967295, corr, GPID, 3, 4294967295))
        corr += 1
        t = end + 10_000
        mid = step_start + (t - step_start) // 2
        text = "ProfilerStep#%d" % step
        nvtx.append((step_start, t, 59, None, None, None, text, MAIN, None, None, 0))
        nvtx.append((step_start + 10, mid, 59, None, None, None, "forward", MAIN, None, None, 0))
        nvtx.append((mid, t - 10, 59, None, None, None, "backward", MAIN, None, None, 0))
        db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?,?)", runtime)
        db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (%s)"
                       % ",".join("?" * len(kcols)), sorted(kernels))
        db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (%s)"
                       % ",".join("?" * len(mcols)), memcpys)
        db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                       memsets)
        db.executemany("INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (?,?,?,?,?,?,?,?,?,?)",
                       syncs)
        db.executemany("INSERT INTO OSRT_API VALUES (?,?,?,?,?,?,?,?)", osrt)
        db.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, rangeId, category, color, "
                       "text, globalTid, endGlobalTid, textId, domainId) "
                       "VALUES (?,?,?,?,?,?,?,?,?,?,?)", nvtx)
        db.commit()
        step += 1
    db.executemany("INSERT INTO StringIds VALUES (?, ?)", ((i, s) for s, i in strings.items()))
    db.commit()
    db.close()
    rows = sqlite3.connect(args.out)
    counts = {}
    for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                  "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME",
                  "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "OSRT_API", "NVTX_EVENTS"):
        counts[table] = rows.execute("SELECT count(*) FROM %s" % table).fetchone()[0]
    print("%s: %.1f MB, %d steps, %d rows %s" % (args.out, os.path.getsize(args.out) / 2**20, step,
                                                sum(counts.values()), counts))


if __name__ == "__main__":
    main()
