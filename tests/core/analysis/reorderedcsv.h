// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// A copy of a metrics CSV (no quoted cells) with the columns after the first two in reverse
// order and every value as it was: what a log says must not depend on its column order.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace stepscope::testcsv {

/// Writes the copy of `source` to TMPDIR/stepscope_reordered_<pid>/<sub>/<its file name> and
/// returns that path; the caller removes the folder (reorderedCsvRoot()).
inline std::filesystem::path reorderedCsvRoot()
{
    return std::filesystem::temp_directory_path()
        / ("stepscope_reordered_" + std::to_string(::getpid()));
}

inline std::filesystem::path reorderedCsv(
    const std::filesystem::path &source, const std::string &sub)
{
    const std::filesystem::path out = reorderedCsvRoot() / sub / source.filename();
    std::filesystem::create_directories(out.parent_path());
    std::ifstream in(source, std::ios::binary);
    std::ofstream os(out, std::ios::binary);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string cell; std::getline(ss, cell, ',');)
            cells.push_back(cell);
        if (!line.empty() && line.back() == ',')
            cells.emplace_back();
        if (cells.size() > 2)
            std::reverse(cells.begin() + 2, cells.end());
        for (std::size_t i = 0; i < cells.size(); ++i)
            os << (i ? "," : "") << cells[i];
        os << '\n';
    }
    return out;
}

} // namespace stepscope::testcsv
