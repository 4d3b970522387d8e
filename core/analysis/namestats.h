// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Per-name statistics of a trace's device kernels or host ops: what compare's kernel and op
// deltas and the Kernels panel (with `summary --json` "kernels") are built on.

#include "model/category.h"
#include "model/ids.h"
#include "model/trace.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::analysis {

enum class OpScope : std::uint8_t {
    /// DeviceStream tracks, categories Compute, Communication, Memcpy, Memset; Communication
    /// only when the trace has no CommunicationGroup lanes (their operators' tasks otherwise)
    DeviceKernels,
    HostOps, ///< HostThread tracks, category HostOp (inclusive time, nested ops too)
};

/// Count and time of one name.
struct NameStats
{
    std::int64_t count = 0;
    std::int64_t totalNs = 0;
    double meanNs = 0;
    double share = 0; ///< totalNs / total of all names in scope (0..1)
    std::int64_t minNs = 0;
    std::int64_t maxNs = 0;
    /// Sample standard deviation of the durations (divided by count - 1; 0 for one instance).
    double stddevNs = 0;
    /// The middle duration; with an even count, the mean of the two middle ones.
    double medianNs = 0;
    /// The longest instance (the earliest in track order of equal ones) and its category.
    model::EventRef longest;
    model::Category category = model::Category::Other;
};

/// Per-name statistics of one trace, sorted by name. With `window`, only the events whose
/// start lies in [first, second) (trace-relative ns) count.
std::vector<std::pair<std::string, NameStats>> collectNameStats(const model::Trace &trace,
    OpScope scope, std::optional<std::pair<std::int64_t, std::int64_t>> window = std::nullopt);

/// The device kernels of one rank by name (the Kernels panel, `summary --json` "kernels"):
/// kernels, memcpys and memsets of its device streams, as the profiler recorded them. A trace
/// of a long run holds thousands of names: `top` keeps the MaxListedKernels largest in total,
/// `nameCount` says how many there are in all. Where the profiler wrote its own table of
/// kernels by type (Ascend `op_statistic.csv`), `opTypes` holds its rows as written, largest
/// total first (ties by type, then core type): the profiler's figures, beside ours by name.
inline constexpr std::size_t MaxListedKernels = 500;
struct KernelSummary
{
    std::int32_t rank = 0;
    std::int64_t totalNs = 0; ///< sum over all kernels (concurrent ones each count)
    std::int64_t count = 0; ///< kernels in all
    std::size_t nameCount = 0;
    /// By total time, largest first (ties by name); shares are of totalNs.
    std::vector<std::pair<std::string, NameStats>> top;
    std::vector<model::OpStatistic> opTypes;
};
/// With `window`, only the kernels whose start lies in [first, second) (trace-relative ns,
/// e.g. one step's) count, and `opTypes` stays empty: the profiler's table covers the run.
KernelSummary summarizeKernels(const model::Trace &trace, std::size_t maxListed = MaxListedKernels,
    std::optional<std::pair<std::int64_t, std::int64_t>> window = std::nullopt);

} // namespace stepscope::analysis
