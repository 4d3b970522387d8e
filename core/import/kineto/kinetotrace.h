// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// PyTorch profiler (Kineto) Chrome trace, object form, 2021 and 2022+ category schemes
// (docs/formats.md §5).
//
// Category mapping (`cat`, case-sensitive, 2022+ / 2021):
//   kernel / Kernel                      -> Compute, or Communication when the name starts
//                                           with "nccl" or "rccl"
//   gpu_memcpy / Memcpy                  -> Memcpy
//   gpu_memset / Memset                  -> Memset
//   cuda_runtime / cuda_driver / Runtime -> Runtime
//   cpu_op / Operator                    -> HostOp, except: names "enumerate(DataLoader)..."
//                                           -> DataLoading, "ProfilerStep#N" -> Annotation
//   user_annotation, gpu_user_annotation -> Annotation ("enumerate(DataLoader)..." ->
//                                           DataLoading)
//   python_function                      -> Python
//   Trace (the capture window)           -> Annotation
//   cpu_instant_event / no cat            -> Other (e.g. "[memory]")
//   anything else                         -> Other
// Tracks: DeviceStream when process_labels starts with "GPU" or the tid starts with
// "stream" (2021), else HostThread; pid "Spans"/"Traces" -> Synthetic.

#include "import/importcontext.h"
#include "model/tracebuilder.h"

#include <filesystem>

namespace stepscope::import::kineto {

/// Reads one rank's Kineto trace (`.json` or `.json.gz`) into `out`. Sets metadata.format
/// "kineto", rank/worldSize from distributedInfo, device name from deviceProperties, steps
/// from CPU `ProfilerStep#N` (GPU copies deduplicated by number), `[memory]` instants into
/// trace().memory.curves (one curve per device; running totals rebuilt from `Bytes` when
/// `Total Allocated` is missing), counters. Never throws (except util::Cancelled); false
/// when nothing usable was read.
bool readTrace(
    const std::filesystem::path &path, const ImportContext &ctx, model::TraceBuilder &out);

/// Reads any other Chrome trace-event file (a bare array or an object with traceEvents, from
/// any tool) the same way. PyTorch categories still apply when the file uses them; everything
/// else is Other. metadata.format is "chrome-trace", or "kineto" when the events include
/// Kineto's device activity (`kernel`, `cuda_runtime`, ...): PyTorch events written as a
/// bare array get the same analysis as the profiler's own file.
bool readChromeTrace(
    const std::filesystem::path &path, const ImportContext &ctx, model::TraceBuilder &out);

} // namespace stepscope::import::kineto
