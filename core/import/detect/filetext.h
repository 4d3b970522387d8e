// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>

namespace stepscope::util {
class Progress;
}

namespace stepscope::import::detect {

/// True when the file starts with the gzip magic bytes (whatever its name says); false
/// for anything but a regular file.
bool isGzipFile(const std::filesystem::path &file);

/// Reads up to `maxBytes` of a file's content, transparently gunzipping `.gz` files (by
/// magic bytes, not by name). Returns nullopt when the file cannot be opened or a gzip
/// stream is corrupt before any byte could be read; a gzip stream cut short returns what
/// was decompressed. Small files and file heads only: large traces are streamed by their
/// importers. With `progress`, the cancel token is checked every few MiB (may throw
/// util::Cancelled). Only regular files are opened (util::whyNotRegular): a FIFO, socket
/// or device gives nullopt, with the reason in `why` when given.
std::optional<std::string> readFileText(const std::filesystem::path &file,
    std::uint64_t maxBytes = UINT64_MAX, const util::Progress *progress = nullptr,
    std::string *why = nullptr);

/// Up to `bytes` bytes of an open stream at `offset`, as stored (no gzip inflate); fewer at
/// the end of the stream. Clears the stream's state first, so calls may follow each other.
std::string readBytesAt(std::istream &in, std::uint64_t offset, std::size_t bytes);

/// The last `maxBytes` of a plain (not gzip) regular file; nullopt for gzip or when the file
/// cannot be read. Where a trace-event file names its processes: metadata come last.
std::optional<std::string> readPlainFileTail(
    const std::filesystem::path &file, std::uint64_t maxBytes);

/// Why a file with nothing in it is no profile: empty (a profiler stopped before it wrote
/// its trace leaves one), blanks only, a trace-event array cut off before its first event,
/// or one without events; "" otherwise. Reads the file's first 4 KiB (inflated).
std::string emptyFileReason(const std::filesystem::path &file);

/// The file's size in bytes, 0 when it cannot be read.
std::uint64_t fileSize(const std::filesystem::path &file);

} // namespace stepscope::import::detect
