// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Internal pieces of analyzeCluster() (cluster.cpp), one file per seam.

#include "cluster.h"

#include <cstdint>
#include <vector>

namespace stepscope::analysis::detail {

/// Median (lower middle + half the gap for an even count); 0 when empty. Reorders v.
std::int64_t median(std::vector<std::int64_t> &v);
inline std::int64_t median(std::vector<std::int64_t> &&v)
{
    return median(v);
}

/// The per-step straggler rule of docs/metrics.md over the matrix; stageOf[rankIndex] is the
/// rank's peer group (-1: all ranks without a stage form one group). clusterstragglers.cpp.
std::vector<Straggler> findStragglers(
    const ClusterMatrix &m, const std::vector<std::int32_t> &stageOf, double k, double minFraction);
/// Fills stragglerSteps and the most frequent reason of each row.
void summariseStragglers(
    const std::vector<Straggler> &stragglers, std::vector<ClusterRankRow> &rows);

/// Communication groups from cluster_communication.json (else the ranks' communication.json)
/// and the slowest link from the cluster matrix (else the ranks' matrices). clustercomm.cpp.
std::vector<CommGroupSummary> communicationGroups(const model::Session &session);

} // namespace stepscope::analysis::detail
