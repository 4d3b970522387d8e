// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "regularfile.h"

#include <cerrno>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace stepscope::util {

std::string whyNotRegular(const std::filesystem::path &file)
{
    struct stat st
    {
    };
    if (::stat(file.c_str(), &st) != 0) {
        const int err = errno;
        if (err == ENOENT) {
            struct stat lst
            {
            };
            if (::lstat(file.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode))
                return "a symbolic link whose target does not exist";
            return "no such file";
        }
        if (err == EACCES)
            return "permission denied";
        if (err == ELOOP)
            return "a symbolic link loop";
        return std::error_code(err, std::generic_category()).message();
    }
    if (S_ISREG(st.st_mode)) {
        if (::access(file.c_str(), R_OK) != 0 && errno == EACCES)
            return "permission denied";
        return {};
    }
    if (S_ISDIR(st.st_mode))
        return "a folder, not a file";
    if (S_ISFIFO(st.st_mode))
        return "a FIFO (named pipe), not a regular file";
    if (S_ISSOCK(st.st_mode))
        return "a socket, not a regular file";
    if (S_ISCHR(st.st_mode))
        return "a character device, not a regular file";
    if (S_ISBLK(st.st_mode))
        return "a block device, not a regular file";
    return "not a regular file";
}

bool openRegular(std::ifstream &in, const std::filesystem::path &file, std::string *why)
{
    std::string reason = whyNotRegular(file);
    if (reason.empty()) {
        in.open(file, std::ios::binary);
        if (in.is_open())
            return true;
        reason = "cannot be opened";
    }
    if (why != nullptr)
        *why = std::move(reason);
    return false;
}

FilePtr openRegularFile(const std::filesystem::path &file, std::string *why)
{
    std::string reason = whyNotRegular(file);
    if (reason.empty()) {
        FilePtr f(std::fopen(file.c_str(), "rb"));
        if (f)
            return f;
        reason = std::error_code(errno, std::generic_category()).message();
    }
    if (why != nullptr)
        *why = std::move(reason);
    return nullptr;
}

std::optional<FileId> fileId(const std::filesystem::path &path)
{
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0)
        return std::nullopt;
    return FileId {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)};
}

} // namespace stepscope::util
