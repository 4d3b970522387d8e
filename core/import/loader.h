// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "import/memorybudget.h"
#include "model/session.h"
#include "util/progress.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

namespace stepscope::import {

struct LoadOptions
{
    bool keepArgs = true; ///< keep each event's args (details pane); off for benchmarks
    /// With keepArgs: Chrome-trace files keep, per event with args, only its record offset and
    /// read the args back from the file when asked (model::ArgsTable::read). Off: resident.
    bool argsOnDemand = true;
    unsigned threads = 0; ///< worker threads for chunk parsing; 0 = hardware concurrency
    /// Bytes of a Chrome trace's event array per parse chunk; 0 = the default (4 MiB). Tests
    /// cut tiny chunks so that every boundary case meets a chunk edge.
    std::size_t chunkBytes = 0;
    /// Read a Chrome trace's plain events (ASCII, no escapes) in one walk of their bytes
    /// instead of through simdjson (chrometrace/plainevent.h). The same model either way;
    /// off only for tests that compare the two.
    bool plainEvents = true;
    /// Refuse a load whose memory estimate exceeds the available memory (memorybudget.h):
    /// nothing is read, the session holds the reason and LoadResult::refused the figures.
    bool checkMemory = true;
    /// The memory the check compares against; 0: what the machine has available now.
    std::uint64_t availableBytes = 0;
    /// Read only the ranks with these planned numbers (RankNeed::rank); empty: every rank.
    std::vector<std::int32_t> ranks;
};

struct LoadResult
{
    /// The loaded session, or a session holding only diagnostics when nothing usable was
    /// found (session->hasContent() is false). Null only when cancelled.
    std::shared_ptr<const model::Session> session;
    bool cancelled = false;
    /// Set when the memory budget refused the load: the estimate, the available memory and
    /// the ranks that fit (the window offers them).
    std::optional<MemoryBudget> refused;
};

/// Detects the format of a folder or file and loads it. Never throws: problems become
/// diagnostics in the session's report. Cancellation (through the progress's token) returns
/// promptly with cancelled set and everything partial freed.
LoadResult loadPath(
    const std::filesystem::path &path, util::Progress &progress, const LoadOptions &options = {});

} // namespace stepscope::import
