// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// MindSpore legacy `step_trace_raw_<rank>_detail_time.csv` (docs/formats.md §4.2): one row per
// step in 10 ns device ticks, then a summary row (`step_num` "-" or "0") that is not a step.
// Per-reduce columns come in two naming schemes (`stream_<s>_parallel_<k>[_start_point|
// _end_point]` and `stream_<s>_<k>_<Op>-op<N>[...]`, duration first); they are grouped by
// their base name whatever the order.

#include "import/importcontext.h"
#include "model/tracebuilder.h"

#include <filesystem>

namespace stepscope::import::mindspore {

/// Ticks of the legacy device counter are 10 ns (100 MHz syscnt, docs/formats.md §4.1).
inline constexpr std::int64_t TickNs = 10;

/// The largest tick count the readers accept (2^58 ns, about nine years): tick times in ns,
/// their differences and a step's phases laid end to end then stay far inside int64. A value
/// beyond it is not a real counter reading; its row is skipped with a diagnostic.
inline constexpr std::int64_t MaxTicks = (std::int64_t {1} << 58) / TickNs;

inline constexpr bool ticksInRange(std::int64_t ticks)
{
    return ticks >= -MaxTicks && ticks <= MaxTicks;
}

struct StepTraceOptions
{
    /// Also draw the per-reduce columns as events (one CommunicationGroup track per stream).
    /// Off when a timeline_display file of the rank already holds these lanes (pid 10000).
    bool reduceLanes = true;
};

/// Reads the file into `out`: trace steps (times relative to out.trace().originNs, which
/// must be on the tick clock in ns), one ReferenceStep per step with `total`,
/// `iteration_interval`, `fp_and_bp` and `tail` in us, a Synthetic "Step Trace" track with
/// one "Step N" event per step and its three phases nested below, and the reduce lanes.
/// Bad rows are skipped with their line. Returns the number of steps read. Never throws
/// except util::Cancelled.
std::size_t readStepTraceRaw(const std::filesystem::path &path, const ImportContext &ctx,
    std::int32_t rank, model::TraceBuilder &out, const StepTraceOptions &options = {});

/// The first step's start_point in ticks (to pick an origin), or -1 (also when it is beyond
/// MaxTicks).
std::int64_t firstStepStartTicks(const std::filesystem::path &path);

} // namespace stepscope::import::mindspore
