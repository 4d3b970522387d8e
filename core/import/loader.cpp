// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "loader.h"

#include <system_error>

namespace stepscope::import {

LoadResult loadPath(const std::filesystem::path &path, util::Progress &progress,
                    const LoadOptions &options)
{
    (void)options;
    LoadResult result;
    auto session = std::make_shared<model::Session>();
    session->rootPath = path.string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        session->report.add(model::Severity::Error, path.string(), "no such file or folder");
    } else if (progress.isCancelled()) {
        result.cancelled = true;
        return result;
    } else {
        // TODO(#3): format detection and the importers.
        session->report.add(model::Severity::Error, path.filename().string(),
                            "no supported profile format was recognised here");
    }
    result.session = std::move(session);
    return result;
}

} // namespace stepscope::import
