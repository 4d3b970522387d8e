// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Ascend communication summaries (docs/formats.md §2.7), times in ms and sizes in MB as written:
// - `communication.json`: step ("step50", or "step" without a number) -> "p2p"/"collective"
//   -> "<op>@<group hash>" -> {"Communication Time Info", "Communication Bandwidth Info"}
// - `communication_matrix.json`: step -> "p2p"/"collective" -> "<op or class>@<hash>" ->
//   "<src>-<dst>" -> link; both the 2023 op-keyed shape and the 2025 "allreduce-top1@hash"
//   shape.
// - cluster_analysis_output `cluster_communication.json` / `cluster_communication_matrix.json`:
//   the same, under a rank-group tuple ("(0, 1)") or "p2p" key, with a rank level in the
//   former.
// - `communication_group.json`: {"collective": [[ranks]...], "p2p": [[ranks]...]}.
//
// The per-op "Total Op Info" aggregate is not returned as a CollectiveStat (it would count
// every op twice); matrix files keep all their keys, aggregates included, as written.
// Unknown keys and shapes are skipped with a diagnostic naming the key path.

#include "import/importcontext.h"
#include "model/trace.h"

#include <filesystem>
#include <vector>

namespace stepscope::import::ascend {

std::vector<model::CollectiveStat> readCommunication(
    const std::filesystem::path &path, const ImportContext &ctx, std::int32_t rank);
std::vector<model::CommMatrixEntry> readCommunicationMatrix(
    const std::filesystem::path &path, const ImportContext &ctx);
/// CollectiveStat.group = the rank-group key ("(0, 1, 2, 3)" or "p2p"); rank = the rank key.
std::vector<model::CollectiveStat> readClusterCommunication(
    const std::filesystem::path &path, const ImportContext &ctx);
std::vector<model::CommMatrixEntry> readClusterCommunicationMatrix(
    const std::filesystem::path &path, const ImportContext &ctx);
/// Groups named "collective[i]" / "p2p[i]" (i = position in the file), kind empty.
std::vector<model::ParallelGroup> readCommunicationGroups(
    const std::filesystem::path &path, const ImportContext &ctx);

} // namespace stepscope::import::ascend
