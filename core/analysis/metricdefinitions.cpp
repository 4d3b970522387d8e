// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "metricdefinitions.h"

namespace stepscope::analysis {

namespace {

// Keep in step with docs/metrics.md.
const std::vector<MetricDefinition> Definitions = {
    {"step", "Step",
        "One training step on one rank: the importer's step, else the host ProfilerStep#N range, "
        "else Step/Iteration ranges, else inferred from repeated Optimizer.step#, else the whole "
        "trace. Its categories add up to its duration."},
    {"compute", "Compute",
        "Time the device runs compute: the union of kernels and other device tasks that are not "
        "communication, memcpy or memset, counted once across streams. Includes compute that "
        "overlaps communication. Matches Ascend Computing."},
    {"comm_exposed", "Communication (exposed)",
        "Time the device only communicates: communication operators minus compute, pipeline "
        "receive waits excluded (those are the bubble)."},
    {"comm_overlapped", "Communication (overlapped)",
        "Communication hidden under compute (communication ∩ compute); part of Compute, not added "
        "again. Matches Ascend Overlapped."},
    {"free", "Free",
        "Device idle in the step after the first device task (plus data loading before it): "
        "host wait + data loading + launch gaps + other idle."},
    {"host_wait", "Host wait",
        "Device idle while the host is inside some other framework operator: the device waits "
        "for host-side work."},
    {"data_loading", "Data loading",
        "Device idle while a DataLoader range (enumerate(DataLoader)#…) is open on the host, "
        "including before the step's first device task. On a rank that only a step trace "
        "records (MindSpore step_trace_raw), the profiler's iteration_interval: the wait for "
        "the next batch."},
    {"launch_gap", "Launch gaps",
        "Device idle while the host is inside a launch or runtime call (not a synchronisation): "
        "the device waits for kernels to be launched."},
    {"other_idle", "Other idle",
        "Device idle that nothing on the host explains: Python outside operators, "
        "synchronisation, time the profiler did not record."},
    {"bubble", "Pipeline bubble",
        "Pipeline-parallel receive operators not under compute: the stage waits for its "
        "neighbour. Matches Ascend Bubble."},
    {"preparing", "Preparing",
        "Step start to the first device task of the step, minus data loading (Ascend's "
        "definition)."},
    {"reference", "Profiler's own numbers",
        "The profiler's breakdown (step_trace_time.csv, step_trace_raw, Overlap Analysis lanes) "
        "beside ours, with the difference; ours agree within 1 % or docs/metrics.md says why."},
    {"tb_breakdown", "TensorBoard breakdown",
        "The step breakdown of the TensorBoard PyTorch-profiler plugin, with its rules: Kernel, "
        "Memcpy, Memset, Communication, Runtime, DataLoader, CPU Exec, Other in that priority, "
        "steps stretched to the device work they launched."},
    {"step_time_mean_us", "Step time (mean)",
        "Mean step time; each step counts with its slowest rank; a warm-up first step is "
        "left out."},
    {"step_time_median_us", "Step time (median)",
        "Median step time; each step counts with its slowest rank; a warm-up first step is "
        "left out."},
    {"step_time_p90_us", "Step time (p90)",
        "90th percentile of the step times (linear interpolation); a warm-up first step is "
        "left out."},
    {"samples_per_s", "Samples/s", "global_batch_size / mean step time (run config)."},
    {"tokens_per_s", "Tokens/s",
        "global_batch_size × sequence_length / mean step time (run config)."},
    {"mfu", "MFU",
        "Model FLOPs utilisation: FLOPs per token (default 6 × parameters) × tokens per step / "
        "(mean step time × peak FLOP/s per device × devices)."},
    {"comm_share", "Communication share",
        "Exposed communication / step time, over all steps and ranks but warm-up steps."},
    {"data_wait_share", "Data wait share",
        "Data loading / step time, over all steps and ranks but warm-up steps."},
    {"memory_peak_allocated_bytes", "Peak allocated",
        "Highest memory held by tensors (allocator Total Allocated), any rank."},
    {"memory_peak_reserved_bytes", "Peak reserved",
        "Highest memory the caching allocator reserved from the device, any rank."},
    {"bottleneck.data_loading", "Data loading (bottleneck)",
        "Share of step time the device waited for the DataLoader."},
    {"bottleneck.exposed_communication", "Exposed communication (bottleneck)",
        "Share of step time in communication not hidden by compute."},
    {"bottleneck.host_bound", "Host / launch bound (bottleneck)",
        "Share of step time the device waited for the host: preparing, launch gaps, host wait."},
    {"bottleneck.pipeline_bubble", "Pipeline bubble (bottleneck)",
        "Share of step time in pipeline receive waits."},
    {"bottleneck.memory_pressure", "Memory pressure (bottleneck)",
        "Peak reserved memory over device memory, listed from 90 %."},
    {"bottleneck.compute_efficiency", "Compute efficiency (bottleneck)",
        "Compute share × (1 − MFU): compute time spent below peak; needs MFU."},
    {"bottleneck.device_idle", "Device idle (bottleneck)",
        "Share of step time the device ran nothing, listed from 50 %; includes host wait, data "
        "loading and launch gaps."},
    {"memory.parameters", "Parameters",
        "Model weights (and, when inferred, anything alive for the whole capture)."},
    {"memory.gradients", "Gradients", "Gradients of the parameters."},
    {"memory.optimizer_state", "Optimizer state",
        "Optimizer moments and buffers (inferred: allocations by optimizer ops)."},
    {"memory.activations", "Activations",
        "Tensors kept from forward to backward, and the input batch (inferred: alive > 10 % of a "
        "step)."},
    {"memory.temporary", "Temporary", "Short-lived buffers inside an operator or between two."},
    {"memory.communication_buffers", "Communication buffers",
        "HCCL/NCCL buffers and allocations by communication ops."},
    {"memory.other", "Other", "Autograd internals and memory of unknown kind."},
    {"clock_offset", "Clock offset",
        "Added to this rank's times to align it with the first rank: median difference of "
        "matching collective end times; empty when they disagree by more than 1 ms."},
    {"straggler", "Straggler",
        "A step of a rank longer than the median of its pipeline stage's ranks in that step "
        "by more than max(3 × 1.4826 × MAD, 2 % of that median); a straggler rank has one "
        "or more."},
};

} // namespace

const std::vector<MetricDefinition> &metricDefinitions()
{
    return Definitions;
}

const MetricDefinition *metricDefinition(std::string_view key)
{
    for (const auto &d : Definitions) {
        if (d.key == key)
            return &d;
    }
    return nullptr;
}

} // namespace stepscope::analysis
