// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Writes a msprof-analyze `cluster_analysis_output/` of N ranks × S steps shaped like the
// real 16-rank GPT-3 sample (tests/data/ascend_pt/msinsight-gpt3-pp2-16rank-trimmed): two
// pipeline stages (the second with ~180 ms of bubble), tensor-parallel groups of 8, the
// same columns, rank rows then stage rows per step, one collective per group and step in
// cluster_communication.json, ring links in cluster_communication_matrix.json and
// communication_group.json. Every 97th rank computes 20 % longer (a straggler).

#include <cstdint>
#include <filesystem>

namespace stepscope::bench {

struct ClusterShape
{
    std::int64_t ranks = 1000;
    std::int64_t steps = 20;
};

/// Writes `<root>/cluster_analysis_output/`; returns the bytes written.
std::uint64_t writeClusterFolder(const std::filesystem::path &root, const ClusterShape &shape);

} // namespace stepscope::bench
