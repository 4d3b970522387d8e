// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Filesystem helpers of the detection: listings that never throw, each real folder once.
#pragma once

#include "util/regularfile.h"

#include <cstdint>
#include <filesystem>
#include <set>
#include <string_view>
#include <vector>

namespace stepscope::import::detect {

/// How much of a file the detection reads to tell its kind.
inline constexpr std::uint64_t SniffBytes = 1 << 16;

/// The entries of `dir`, sorted; empty when it cannot be listed.
std::vector<std::filesystem::path> listDir(const std::filesystem::path &dir);
bool isDir(const std::filesystem::path &p);
bool isFile(const std::filesystem::path &p);
bool endsWith(std::string_view s, std::string_view suffix);
/// True the first time a real file or folder (device and inode) is seen.
bool firstVisit(const std::filesystem::path &p, std::set<util::FileId> &seen);

} // namespace stepscope::import::detect
