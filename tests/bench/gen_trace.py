#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# SPDX-FileCopyrightText: 2026 StepScope authors
"""Deterministic synthetic trace generator for `stepscope-bench import`.

Python 3 standard library only; the same --seed gives the same bytes. Two forms:

  kineto     PyTorch profiler object form: {"schemaVersion", "deviceProperties",
             "distributedInfo", "traceEvents": [...], "baseTimeNanoseconds"}; per step a
             ProfilerStep#N user_annotation, nested cpu_op trees, cuda_runtime launches with
             ac2g s/f flows to kernels on two GPU streams (compute + NCCL), gpu_memcpy,
             [memory] instants, metadata; ts/dur in us with 3 decimals, events not sorted.
  traceview  Ascend trace_view.json bare array: ts as strings of epoch us with 3 decimals,
             Python cpu_op/python_function, CANN AscendCL@/Runtime@ launches, Ascend
             Hardware tasks with Task Type, HCCL ops, Overlap Analysis lanes, counters
             (AI Core Freq, HBM), async_npu and HostToDevice flows (20-digit string ids).

Write generated files to /tmp; never commit them.

  gen_trace.py --form kineto --size-mb 100 --out /tmp/k100.json
  gen_trace.py --form traceview --size-mb 1024 --out /tmp/tv1g.json
"""

import argparse
import os
import json
import random

KERNELS = ["ampere_sgemm_128x64_tn", "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
           "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", "flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>",
           "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float>>>"]
OPS = ["aten::linear", "aten::matmul", "aten::add", "aten::layer_norm", "aten::softmax", "aten::gelu", "aten::dropout", "aten::copy_"]
NPU_OPS = ["MatMulV2", "Add", "LayerNorm", "SoftmaxV2", "Gelu", "Cast", "TransData", "Conv2D"]


def us(ns):
    return "%d.%03d" % (ns // 1000, ns % 1000)


class Writer:
    def __init__(self, path, limit):
        self.f = open(path, "w")
        self.limit = limit
        self.size = 0
        self.first = True
        self.events = 0

    def raw(self, text):
        self.f.write(text)
        self.size += len(text)

    def ev(self, obj_text):
        if not self.first:
            self.raw(",\n")
        self.first = False
        self.raw(obj_text)
        self.events += 1

    def full(self):
        return self.size >= self.limit


def kineto(w, rng, base_ts, rank=0, world_size=8):
    pid = 2910249
    w.raw('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85899345920}],\n'
          ' "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": %d},\n "traceEvents": [\n'
          % (rank, world_size))
    for p, name, label in ((pid, "python3", "CPU"), (0, "python3", "GPU 0")):
        w.ev('{"ph": "M", "name": "process_name", "pid": %d, "tid": 0, "args": {"name": "%s"}}' % (p, name))
        w.ev('{"ph": "M", "name": "process_labels", "pid": %d, "tid": 0, "args": {"labels": "%s"}}' % (p, label))
    w.ev('{"ph": "M", "name": "thread_name", "pid": %d, "tid": %d, "args": {"name": "thread %d (pt_main_thread)"}}' % (pid, pid, pid))
    t = base_ts
    gpu_t = t
    corr = 1
    step = 1
    mem = 1 << 30
    live = []  # (addr, bytes) of the step's blocks not yet freed
    while not w.full():
        step_start = t
        device = []
        w.ev('{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d", "pid": %d, "tid": %d, "ts": %s, "dur": %s, "args": {"External id": %d}}'
             % (step, pid, pid, us(t), us(2_000_000), corr))
        t += 1000
        for _ in range(400):
            op = rng.choice(OPS)
            op_dur = rng.randint(20_000, 60_000)
            w.ev('{"ph": "X", "cat": "cpu_op", "name": "%s", "pid": %d, "tid": %d, "ts": %s, "dur": %s, "args": {"External id": %d, "Sequence number": %d, "Fwd thread id": 0, "Record function id": 0, "Ev Idx": %d}}'
                 % (op, pid, pid, us(t), us(op_dur), corr, corr, corr))
            w.ev('{"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": %d, "tid": %d, "ts": %s, "dur": %s, "args": {"External id": %d, "Record function id": 0, "Ev Idx": %d}}'
                 % (pid, pid, us(t + 500), us(2_000), corr, corr))
            launch = t + 5_000
            w.ev('{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": %d, "tid": %d, "ts": %s, "dur": %s, "args": {"cbid": 211, "correlation": %d, "External id": %d}}'
                 % (pid, pid, us(launch), us(6_000), corr, corr))
            w.ev('{"ph": "s", "id": %d, "pid": %d, "tid": %d, "ts": %s, "cat": "ac2g", "name": "ac2g"}' % (corr, pid, pid, us(launch + 1)))
            gpu_t = max(gpu_t, launch + 8_000)
            k_dur = rng.randint(3_000, 80_000)
            stream = 7 if rng.random() < 0.9 else 20
            kname = rng.choice(KERNELS) if stream == 7 else "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
            device.append('{"ph": "X", "cat": "kernel", "name": "%s", "pid": 0, "tid": %d, "ts": %s, "dur": %s, "args": {"queued": 0, "device": 0, "context": 1, "stream": %d, "correlation": %d, "registers per thread": 128, "shared memory": 0, "blocks per SM": 1.2, "warps per SM": 8.0, "grid": [108, 1, 1], "block": [256, 1, 1], "est. achieved occupancy %%": 12}}'
                          % (kname, stream, us(gpu_t), us(k_dur), stream, corr))
            device.append('{"ph": "f", "id": %d, "pid": 0, "tid": %d, "ts": %s, "cat": "ac2g", "name": "ac2g", "bp": "e"}' % (corr, stream, us(gpu_t)))
            gpu_t += k_dur + 1_000
            # The caching allocator as a step uses it: blocks allocated, and freed at the
            # addresses they were given (the last one first), so every free matches.
            if live and rng.random() < 1 / 3:
                addr, size = live.pop()
                delta = -size
            else:
                size = rng.choice((1 << 20, 4 << 20))
                addr, delta = 139926520725504 + corr * 512, size
                live.append((addr, size))
            mem += delta
            w.ev('{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": %d, "tid": %d, "ts": %s, "args": {"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Addr": %d, "Device Id": 0, "Device Type": 1}}'
                 % (pid, pid, us(t + 1_000), mem + (1 << 30), mem, delta, addr))
            corr += 1
            t += op_dur + 1_000
            if w.full():
                break
        for d in device:
            w.ev(d)
        # What the step allocated is freed by its end (activations, workspaces).
        while live:
            addr, size = live.pop()
            mem -= size
            w.ev('{"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": %d, "tid": %d, "ts": %s, "args": {"Total Reserved": %d, "Total Allocated": %d, "Bytes": %d, "Addr": %d, "Device Id": 0, "Device Type": 1}}'
                 % (pid, pid, us(t), mem + (1 << 30), mem, -size, addr))
        step += 1
        t = max(t, step_start + 2_000_000) + 10_000
    w.raw('\n],\n "traceName": "bench", "displayTimeUnit": "ms", "baseTimeNanoseconds": 1711964646000000000}\n')


def traceview(w, rng, base_ts):
    py, cann, hw, hccl, ov, freq = 3178231, 3254508768, 3254508960, 3254509056, 3254509152, 3254509248
    w.raw("[\n")
    for p, name, label in ((py, "Python", "CPU"), (cann, "CANN", "CPU"), (hw, "Ascend Hardware", "NPU"),
                           (hccl, "HCCL", "NPU"), (ov, "Overlap Analysis", "NPU"), (freq, "AI Core Freq", "NPU")):
        w.ev('{"ph":"M","name":"process_name","pid":%d,"tid":0,"args":{"name":"%s"}}' % (p, name))
        w.ev('{"ph":"M","name":"process_labels","pid":%d,"tid":0,"args":{"labels":"%s"}}' % (p, label))
    for s in (2, 4):
        w.ev('{"ph":"M","name":"thread_name","pid":%d,"tid":%d,"args":{"name":"Stream %d"}}' % (hw, s, s))
    t = base_ts
    dev_t = t
    corr = 1
    step = 1
    while not w.full():
        step_start = t
        device = []
        w.ev('{"name":"ProfilerStep#%d","pid":%d,"tid":%d,"ts":"%s","dur":%s,"ph":"X","cat":"cpu_op","args":{"Sequence number":-1,"Fwd thread id":0}}'
             % (step, py, py, us(t), us(3_000_000)))
        t += 1000
        for _ in range(400):
            op_dur = rng.randint(30_000, 70_000)
            w.ev('{"name":"aten::%s","pid":%d,"tid":%d,"ts":"%s","dur":%s,"ph":"X","cat":"cpu_op","args":{"Sequence number":%d,"Fwd thread id":0,"Input Dims":"[[64, 1024], [1024, 1024]]","Input type":"[\'float\', \'float\']"}}'
                 % (rng.choice(("matmul", "add", "layer_norm", "gelu")), py, py, us(t), us(op_dur), corr))
            w.ev('{"name":"torch/nn/modules/module.py(1501): _call_impl","pid":%d,"tid":%d,"ts":"%s","dur":%s,"ph":"X","cat":"python_function","args":{"Python id":%d,"Python parent id":%d}}'
                 % (py, py, us(t + 200), us(op_dur - 400), corr, corr - 1))
            w.ev('{"ph":"s","bp":"e","name":"torch_to_npu","id":%d,"pid":%d,"tid":%d,"ts":"%s","cat":"async_npu"}' % (dev_t + 9_000, py, py, us(t + 300)))
            launch = t + 1_000
            w.ev('{"name":"AscendCL@aclopCompileAndExecute","pid":%d,"tid":%d,"ts":"%s","dur":%s,"args":{"Thread Id":%d,"Mode":"ACL_OP","level":"acl","id":"aclopCompileAndExecute","item_id":"0","connection_id":%d},"ph":"X"}'
                 % (cann, py, us(launch), us(8_000), py, corr))
            w.ev('{"name":"Runtime@KernelLaunchWithHandle","pid":%d,"tid":%d,"ts":"%s","dur":%s,"args":{"Thread Id":%d,"Mode":"KernelLaunch","level":"runtime","id":"0","item_id":"0","connection_id":%d},"ph":"X"}'
                 % (cann, py, us(launch + 1_000), us(3_000), py, corr))
            hid = "4000688286911%07d" % corr
            w.ev('{"ph":"s","bp":"e","name":"HostToDevice%s","id":"%s","pid":%d,"tid":%d,"ts":"%s","cat":"HostToDevice"}' % (hid, hid, cann, py, us(launch + 1_500)))
            dev_t = max(dev_t, launch + 9_000)
            k_dur = rng.randint(5_000, 90_000)
            ttype = rng.choice(("AI_CORE", "AI_CORE", "MIX_AIV", "AI_CPU"))
            device.append('{"name":"%s%d","pid":%d,"tid":2,"ts":"%s","dur":%s,"args":{"Model Id":4294967295,"Task Type":"%s","Physic Stream Id":2,"Task Id":%d,"Batch Id":0,"Subtask Id":4294967295,"connection_id":%d},"ph":"X"}'
                          % (rng.choice(NPU_OPS), corr % 1000, hw, us(dev_t), us(k_dur), ttype, corr % 65536, corr))
            device.append('{"ph":"f","bp":"e","name":"torch_to_npu","id":%d,"pid":%d,"tid":2,"ts":"%s","cat":"async_npu"}' % (dev_t, hw, us(dev_t)))
            device.append('{"ph":"f","bp":"e","name":"HostToDevice%s","id":"%s","pid":%d,"tid":2,"ts":"%s","cat":"HostToDevice"}' % (hid, hid, hw, us(dev_t)))
            device.append('{"name":"Computing","pid":%d,"tid":0,"ts":"%s","dur":%s,"ph":"X"}' % (ov, us(dev_t), us(k_dur)))
            if corr % 20 == 0:
                device.append('{"name":"hcom_allReduce__271_%d_1","pid":%d,"tid":0,"ts":"%s","dur":%s,"args":{"connection_id":%d,"model id":4294967295,"data_type":"FP32","alg_type":"MESH-RING","count":4097000},"ph":"X"}'
                              % (corr, hccl, us(dev_t + k_dur), us(20_000), corr))
                device.append('{"name":"Notify Wait","pid":%d,"tid":4,"ts":"%s","dur":0,"args":{"Model Id":4294967295,"Task Type":"Notify Wait","Physic Stream Id":4,"Task Id":%d,"Batch Id":0,"Subtask Id":4294967295,"connection_id":%d},"ph":"X"}'
                              % (hw, us(dev_t + k_dur), corr % 65536, corr))
                device.append('{"name":"AI Core Freq","pid":%d,"tid":0,"ts":"%s","args":{"MHz":1800},"ph":"C"}' % (freq, us(dev_t)))
            dev_t += k_dur + 2_000
            corr += 1
            t += op_dur + 1_000
            if w.full():
                break
        for d in device:
            w.ev(d)
        step += 1
        t = max(t, step_start + 3_000_000) + 10_000
    w.raw("\n]\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--form", choices=("kineto", "traceview"), required=True)
    ap.add_argument("--size-mb", type=float, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ranks", type=int, default=0,
                    help="kineto: write a folder OUT of this many rank files of --size-mb each "
                         "(rank<r>.pt.trace.json, seeds seed+r), for `stepscope-bench folder`")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.ranks > 0:
        if a.form != "kineto":
            ap.error("--ranks needs --form kineto")
        os.makedirs(a.out, exist_ok=True)
        total = events = 0
        for r in range(a.ranks):
            w = Writer(os.path.join(a.out, "rank%d.pt.trace.json" % r), int(a.size_mb * (1 << 20)))
            kineto(w, random.Random(a.seed + r), 4458676416788066, r, a.ranks)
            w.f.close()
            total += w.size
            events += w.events
        print(json.dumps({"folder": a.out, "files": a.ranks, "bytes": total, "events": events}))
        return
    rng = random.Random(a.seed)
    w = Writer(a.out, int(a.size_mb * (1 << 20)))
    if a.form == "kineto":
        kineto(w, rng, 4458676416788066)
    else:
        traceview(w, rng, 1736412474712651500)
    w.f.close()
    print(json.dumps({"file": a.out, "bytes": w.size, "events": w.events}))


if __name__ == "__main__":
    main()
