// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "loader.h"
#include "model/loadreport.h"
#include "util/progress.h"

#include <filesystem>
#include <string>

namespace stepscope::import {

/// What every importer gets: where the opened folder is (for relative names in
/// diagnostics), the report to add diagnostics to, the progress sink and the options.
///
/// Importers never throw out of their entry point (STYLE.md §4): they catch library
/// exceptions at their boundary and turn them into diagnostics. The one exception is
/// util::Cancelled, thrown by progress->checkCancel() and caught by the loader.
struct ImportContext
{
    std::filesystem::path root;
    model::LoadReport *report = nullptr;
    util::Progress *progress = nullptr;
    LoadOptions options;

    /// `file` relative to root, with '/' separators; the file name when not below root; the
    /// folder's own name for root itself (not ".").
    std::string relative(const std::filesystem::path &file) const
    {
        std::error_code ec;
        // By the names first: a rank folder that is a symlink to elsewhere keeps its name here.
        const std::filesystem::path named =
            std::filesystem::absolute(file, ec).lexically_normal().lexically_relative(
                std::filesystem::absolute(root, ec).lexically_normal());
        if (!ec && !named.empty() && named != "." && named.native().rfind("..", 0) != 0)
            return named.generic_string();
        std::filesystem::path rel = std::filesystem::relative(file, root, ec);
        if (!ec && rel == ".") {
            const std::filesystem::path whole =
                std::filesystem::absolute(file, ec).lexically_normal();
            const std::filesystem::path name =
                whole.has_filename() ? whole.filename() : whole.parent_path().filename();
            return name.empty() ? whole.generic_string() : name.generic_string();
        }
        if (ec || rel.empty() || rel.native().rfind("..", 0) == 0)
            return file.filename().generic_string();
        return rel.generic_string();
    }

    void warn(const std::filesystem::path &file, std::string message, std::int64_t line = 0,
        std::int64_t offset = -1) const
    {
        report->add(model::Severity::Warning, relative(file), std::move(message), line, offset);
    }
    void error(const std::filesystem::path &file, std::string message, std::int64_t line = 0,
        std::int64_t offset = -1) const
    {
        report->add(model::Severity::Error, relative(file), std::move(message), line, offset);
    }
    void info(const std::filesystem::path &file, std::string message) const
    {
        report->add(model::Severity::Info, relative(file), std::move(message));
    }
};

} // namespace stepscope::import
