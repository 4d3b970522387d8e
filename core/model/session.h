// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "loadreport.h"
#include "trace.h"
#include "traininglog.h"

#include <memory>
#include <string>
#include <vector>

namespace stepscope::model {

/// One training run as opened by the user: one Trace per rank, plus what the profiler's
/// cluster tools summarised over all ranks, plus the report of the load.
///
/// Invariants: traces sorted by rank, at most one per rank; immutable once loaded and shared
/// as `std::shared_ptr<const Session>`.
struct Session
{
    std::string format; ///< detected format name
    std::string rootPath; ///< what the user opened
    std::vector<std::shared_ptr<const Trace>> traces;
    LoadReport report;

    /// Cluster-level summaries (cluster_analysis_output and the like).
    std::vector<ReferenceStep> clusterSteps;
    std::vector<CollectiveStat> clusterCollectives;
    std::vector<CommMatrixEntry> clusterMatrix;
    /// Where clusterCollectives and clusterMatrix were read from (file, and table of a DB).
    std::string clusterCollectivesSource;
    std::string clusterMatrixSource;
    std::vector<ParallelGroup> communicationGroups;
    /// Training logs opened alone or found beside the profile (import::detect), by path.
    std::vector<std::shared_ptr<const TrainingLog>> trainingLogs;

    /// The earliest trace origin: the shared zero of a multi-rank timeline.
    std::int64_t originNs() const;
    std::uint64_t eventCount() const;
    const Trace *traceForRank(std::int32_t rank) const;
    /// True when something was loaded that can be shown.
    bool hasContent() const;
    /// No trace events, but memory records (a PyTorch memory timeline alone): nothing to draw
    /// on a time axis, everything in the memory view.
    bool memoryOnly() const;
};

} // namespace stepscope::model
