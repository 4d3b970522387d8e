// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/session.h"
#include "util/progress.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stepscope::analysis {

/// One row of the per-collective table: one op name and group, summed over its calls.
struct CollectiveRow
{
    std::string name; ///< op kind: "allReduce", "broadcast", "AllReduce", "SendRecv" ...
    std::string group; ///< group hash / ranks / process-group name; "" when unknown
    std::int32_t rank = -1; ///< -1 = all ranks together
    bool p2p = false;
    std::int64_t count = 0;
    double totalUs = 0;
    double meanUs = 0;
    std::optional<double> bytes; ///< total bytes moved, when the data says
    std::optional<double> bandwidthGBps; ///< bytes / transit (or elapsed) time
    /// NCCL kernels that name their group's size: nccl-tests' bus bandwidth, the bandwidth
    /// times 2(n-1)/n for an all-reduce, (n-1)/n for an all-gather, reduce-scatter or
    /// all-to-all, 1 otherwise; comparable with a link's speed whatever the collective.
    std::optional<double> busBandwidthGBps;
    std::optional<double> waitUs; ///< Ascend: wait time (total)
    std::optional<double> transitUs; ///< Ascend: transit time (total)
    std::string source; ///< "communication.json", "timeline"
};

/// Per-collective table: from the profiler's communication summaries when present (the
/// cluster file's ops, then the ops of the ranks' own files the cluster file does not hold:
/// each row names its file), else from the communication events of the timeline (NCCL
/// kernels, HCCL top-level ops).
/// Sorted by total time, largest first. Throws util::Cancelled when `cancel` is set while the
/// timeline's args are read back.
std::vector<CollectiveRow> collectiveTable(
    const model::Session &session, const util::CancelToken *cancel = nullptr);

/// Rank-to-rank traffic summed over ops and steps.
struct MatrixCell
{
    std::int32_t srcRank = 0;
    std::int32_t dstRank = 0;
    std::string transport;
    double sizeMb = 0;
    double timeMs = 0;
    std::optional<double> bandwidthGBps; ///< sizeMb / timeMs (GB/s = MB/ms)
    std::int64_t ops = 0;
};
struct CommMatrix
{
    std::vector<std::int32_t> ranks; ///< sorted, every rank that appears
    std::vector<MatrixCell> cells; ///< sorted by (src, dst)
    std::string source; ///< "communication_matrix.json" / "cluster_communication_matrix.json"
};
/// From the cluster matrix when present, else from the per-rank matrices. Only the
/// "<collective>-total" entries of the 2025 layout are summed (the others are sample ops);
/// in the 2023 layout the ops are summed and "Total Op Info" skipped: nothing counts twice.
CommMatrix communicationMatrix(const model::Session &session);

} // namespace stepscope::analysis
