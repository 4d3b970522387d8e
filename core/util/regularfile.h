// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

namespace stepscope::util {

/// Why `file` cannot be read as a regular file, in words for a diagnostic ("a FIFO (named
/// pipe), not a regular file", "permission denied", "no such file"); empty when it can.
/// Follows symlinks, so a link to /dev/zero is a character device. Never opens the file:
/// opening a FIFO blocks until a writer appears, reading a device never ends.
std::string whyNotRegular(const std::filesystem::path &file);

/// Opens a regular file for binary reading. Every reader opens its files through one of
/// these two (docs/robustness.md): special files are refused with `why` set instead of
/// hanging the CLI or the window.
bool openRegular(std::ifstream &in, const std::filesystem::path &file, std::string *why = nullptr);

struct FileCloser
{
    void operator()(std::FILE *f) const
    {
        if (f != nullptr)
            std::fclose(f);
    }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

/// As openRegular, as a stdio stream ("rb"); null with `why` set on failure.
FilePtr openRegularFile(const std::filesystem::path &file, std::string *why = nullptr);

/// A file's identity (device and inode, after following symlinks): the same file reached
/// through two paths (a symlink loop, a bind mount) has one FileId.
struct FileId
{
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
    bool operator<(const FileId &o) const
    {
        return device != o.device ? device < o.device : inode < o.inode;
    }
    bool operator==(const FileId &o) const { return device == o.device && inode == o.inode; }
};

/// nullopt when the path cannot be stat()ed.
std::optional<FileId> fileId(const std::filesystem::path &path);

} // namespace stepscope::util
