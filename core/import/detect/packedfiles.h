// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <filesystem>
#include <string>

namespace stepscope::import::detect {

/// Why a file StepScope cannot read is one it could once unpacked: a zip, tar (also
/// gzipped), 7z archive, a zstd, xz or bzip2 stream, or a Python pickle (a PyTorch memory
/// snapshot), said with what to do ("a zip archive: unpack it (`unzip prof.zip`) and open
/// the folder it holds"). "" when the file is none of these. Reads the file's first bytes.
std::string packedFileReason(const std::filesystem::path &file);

/// The same for the files directly in `dir` (not below): the first such file's reason,
/// naming the file, and how many more there are; "" when none.
std::string packedFilesIn(const std::filesystem::path &dir);

} // namespace stepscope::import::detect
