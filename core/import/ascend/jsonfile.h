// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Small Ascend JSON documents (profiler_info, profiler_metadata, communication_group.json)
// are parsed whole with nlohmann_json: they are kilobytes. The communication files grow with
// steps, ops and ranks (105 MB for 10 000 ranks of 20 steps, a DOM of 500 MB): they are
// streamed, one value at a time (streamJsonFile).

#include "import/importcontext.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::import::ascend {

/// Parses the file; on failure adds an error with the byte offset and returns nullopt.
/// Advances progress by the file size. Never throws except util::Cancelled.
std::optional<nlohmann::json> readJsonFile(
    const std::filesystem::path &path, const ImportContext &ctx);

/// Streams the file, handing `visit` each value that sits `depth` object keys deep (`keys`:
/// the keys above it, outermost first) and dropping it after, so memory holds one such value
/// at a time whatever the file's size. A value above that depth that is not an object (the
/// top level, a step that is a number) reaches `visit` too, with fewer keys, as null: its
/// content is not read. A syntax error adds an error with the byte offset; the values handed
/// over before it stay. Advances progress by the file size and checks for cancel as it goes.
/// False when the file could not be opened or holds no JSON at all.
using JsonVisitor =
    std::function<void(const std::vector<std::string> &keys, const nlohmann::json &value)>;
bool streamJsonFile(const std::filesystem::path &path, const ImportContext &ctx, std::size_t depth,
    const JsonVisitor &visit);

/// A number, or a string holding one; nullopt otherwise.
std::optional<double> jsonNumber(const nlohmann::json &object, std::string_view key);
/// A string value, a number as text, or empty.
std::string jsonText(const nlohmann::json &object, std::string_view key);

} // namespace stepscope::import::ascend
