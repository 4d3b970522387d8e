// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The loader's plan (internal to core/import): which reader reads which files for which
// rank, before anything is read, so the memory budget can be weighed and --ranks applied.

#include "import/detect/detect.h"
#include "import/importcontext.h"
#include "import/memorybudget.h"
#include "import/tracemerge.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

namespace stepscope::import::plan {

/// Reads one piece of a rank; may throw util::Cancelled.
using PartReader = std::function<std::vector<TracePart>(const ImportContext &)>;

/// Everything one rank needs, read on one worker thread into its own report.
struct RankJob
{
    std::int32_t rank = -1; ///< -1: the rank the importer found
    std::vector<PartReader> readers;
    std::vector<TracePart> parts;
    model::LoadReport report;
    bool cancelled = false;
    /// For a rank claimed by one file (Kineto distributedInfo): the file, named when a
    /// second file claims the same rank.
    std::filesystem::path claimedBy;
    /// For an Ascend rank folder's job: the folder, named when another folder claims the
    /// same rank.
    std::filesystem::path folder;
    /// Kineto files that name no rank (no distributedInfo): numbered in name order, which
    /// collectTraces says when there are several.
    bool numberedInOrder = false;
    /// The files the readers will read, for the memory budget (memorybudget.h).
    std::vector<PlannedInput> inputs;
};

/// One job per rank (or per file that claims a rank), in a deterministic order.
std::vector<RankJob> planJobs(const detect::Detection &d);

/// How many jobs run at once: a few (each importer may use its own chunk workers too).
std::size_t jobWorkers(std::size_t jobs, const LoadOptions &options);

/// The chunk workers of each file while `workers` jobs run at once: with more jobs than
/// workers every core already reads a file, so each gets its share of the cores (a file's
/// own pool only added threads, and page-faulted fresh buffers, per file of a thousand-rank
/// cluster); with as many workers as jobs each file keeps the cores of `options`.
unsigned fileThreads(std::size_t jobs, std::size_t workers, const LoadOptions &options);

/// The rank each job is planned as (RankNeed::rank): its own number, else the first number
/// no job has, in job order.
std::vector<std::int32_t> plannedRanks(const std::vector<RankJob> &jobs);

/// Keeps the jobs whose planned rank LoadOptions::ranks names (`planned` alongside), and says
/// in the report which were left out, or that none matched.
void keepRanks(std::vector<RankJob> &jobs, std::vector<std::int32_t> &planned,
    const ImportContext &ctx, const std::filesystem::path &path);

/// The memory budget of running `jobs`, planned as `planned`, plus the files every rank shares.
MemoryBudget budgetOf(const std::vector<RankJob> &jobs, const std::vector<std::int32_t> &planned,
    const detect::Detection &d, const LoadOptions &options);

} // namespace stepscope::import::plan
