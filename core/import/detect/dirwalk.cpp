// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "dirwalk.h"

#include <algorithm>
#include <optional>
#include <system_error>

namespace stepscope::import::detect {

namespace fs = std::filesystem;

std::vector<fs::path> listDir(const fs::path &dir)
{
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        out.push_back(it->path());
    std::sort(out.begin(), out.end());
    return out;
}

bool isDir(const fs::path &p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

bool isFile(const fs::path &p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool firstVisit(const fs::path &p, std::set<util::FileId> &seen)
{
    const std::optional<util::FileId> id = util::fileId(p);
    return !id || seen.insert(*id).second;
}

} // namespace stepscope::import::detect
