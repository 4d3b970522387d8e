// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Small Ascend JSON documents (communication*.json, profiler_info, profiler_metadata,
// cluster summaries) are parsed whole with nlohmann_json: they are kilobytes to a few MB.

#include "import/importcontext.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string_view>

namespace stepscope::import::ascend {

/// Parses the file; on failure adds an error with the byte offset and returns nullopt.
/// Advances progress by the file size. Never throws except util::Cancelled.
std::optional<nlohmann::json> readJsonFile(
    const std::filesystem::path &path, const ImportContext &ctx);

/// A number, or a string holding one; nullopt otherwise.
std::optional<double> jsonNumber(const nlohmann::json &object, std::string_view key);
/// A string value, a number as text, or empty.
std::string jsonText(const nlohmann::json &object, std::string_view key);

} // namespace stepscope::import::ascend
