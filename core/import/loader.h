// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/session.h"
#include "util/progress.h"

#include <filesystem>
#include <memory>

namespace stepscope::import {

struct LoadOptions
{
    bool keepArgs = true; ///< keep each event's args (details pane); off for benchmarks
    /// With keepArgs: Chrome-trace files keep, per event with args, only its record offset and
    /// read the args back from the file when asked (model::ArgsTable::read). Off: resident.
    bool argsOnDemand = true;
    unsigned threads = 0; ///< worker threads for chunk parsing; 0 = hardware concurrency
};

struct LoadResult
{
    /// The loaded session, or a session holding only diagnostics when nothing usable was
    /// found (session->hasContent() is false). Null only when cancelled.
    std::shared_ptr<const model::Session> session;
    bool cancelled = false;
};

/// Detects the format of a folder or file and loads it. Never throws: problems become
/// diagnostics in the session's report. Cancellation (through the progress's token) returns
/// promptly with cancelled set and everything partial freed.
LoadResult loadPath(
    const std::filesystem::path &path, util::Progress &progress, const LoadOptions &options = {});

} // namespace stepscope::import
