// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ascendfiles.h"

#include "import/detect/dirwalk.h"
#include "import/detect/filetext.h"
#include "import/sqlite/sqlitekind.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string_view>

namespace stepscope::import::detect {

namespace fs = std::filesystem;

bool looksLikeAscendTraceView(const fs::path &file)
{
    const auto head = readFileText(file, SniffBytes);
    if (!head)
        return false;
    const std::string_view h(*head);
    const auto first = h.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && h[first] == '['
        && (h.find("Ascend Hardware") != std::string_view::npos
            || h.find("Overlap Analysis") != std::string_view::npos
            || h.find("\"ts\": \"") != std::string_view::npos
            || h.find("\"ts\":\"") != std::string_view::npos);
}

bool looksLikeAscendByContent(const fs::path &file)
{
    const auto says = [](const std::optional<std::string> &text) {
        return text
            && (text->find("\"Ascend Hardware\"") != std::string::npos
                || text->find("\"Overlap Analysis\"") != std::string::npos
                || text->find("\"async_npu\"") != std::string::npos);
    };
    return says(readFileText(file, SniffBytes)) || says(readPlainFileTail(file, SniffBytes));
}

std::optional<fs::path> ascendTraceViewIn(const fs::path &dir)
{
    for (const char *name : {"trace_view.json", "trace_view.json.gz"})
        if (isFile(dir / name) && looksLikeAscendTraceView(dir / name))
            return dir / name;
    return std::nullopt;
}

bool looksLikeAscendKernelDetails(const fs::path &file)
{
    const auto head = readFileText(file, 4096);
    return head && head->find("Accelerator Core") != std::string::npos;
}

bool looksLikeAscendStepTrace(const fs::path &file)
{
    const auto head = readFileText(file, 4096);
    return head && head->find("Computing,Communication(Not Overlapped)") != std::string::npos;
}

bool isAscendOutputFile(const std::string &name)
{
    static const std::set<std::string, std::less<>> names {"trace_view.json", "kernel_details.csv",
        "step_trace_time.csv", "op_statistic.csv", "operator_details.csv", "operator_memory.csv",
        "memory_record.csv", "npu_module_mem.csv", "static_op_mem.csv", "communication.json",
        "communication_matrix.json", "api_statistic.csv", "l2_cache.csv", "data_preprocess.csv",
        "cluster_step_trace_time.csv", "cluster_communication.json",
        "cluster_communication_matrix.json", "communication_group.json"};
    return names.count(name) > 0;
}

std::optional<fs::path> clusterDbIn(const fs::path &dir)
{
    const auto isClusterDb = [](const fs::path &p) {
        return isFile(p) && sqlite::sniffSqlite(p) == sqlite::SqliteKind::AscendCluster;
    };
    // By its own name whatever it holds: the reader says what is wrong with a damaged one.
    if (isFile(dir / "cluster_analysis.db"))
        return dir / "cluster_analysis.db";
    for (const fs::path &p : listDir(dir))
        if (p.extension() == ".db" && isClusterDb(p))
            return p;
    return std::nullopt;
}

bool isClusterOutputDir(const fs::path &dir)
{
    if (dir.filename() == "cluster_analysis_output")
        return isDir(dir);
    const fs::path csv = dir / "cluster_step_trace_time.csv";
    if (isFile(csv) && looksLikeAscendStepTrace(csv))
        return true;
    if (clusterDbIn(dir))
        return true;
    return isFile(dir / "cluster_communication.json")
        || isFile(dir / "cluster_communication_matrix.json");
}

void pickClusterDir(const std::vector<fs::path> &dirs, Detection &d)
{
    std::vector<fs::path> clusters;
    std::copy_if(dirs.begin(), dirs.end(), std::back_inserter(clusters), isClusterOutputDir);
    std::vector<fs::path> named;
    std::copy_if(clusters.begin(), clusters.end(), std::back_inserter(named),
        [](const fs::path &p) { return p.filename() == "cluster_analysis_output"; });
    const std::vector<fs::path> &pick = named.size() == 1 ? named : clusters;
    if (pick.size() == 1)
        d.clusterDir = pick.front();
    for (const fs::path &p : clusters) {
        if (p == d.clusterDir)
            continue;
        d.skipped.emplace_back(p,
            d.clusterDir.empty() ? "one of " + std::to_string(clusters.size())
                    + " cluster summaries here (msprof-analyze output): none was read, as which "
                      "one goes with the ranks cannot be told. Open a folder holding one"
                                 : "another cluster summary (msprof-analyze output): only "
                    + d.clusterDir.filename().string() + " was read");
    }
}

} // namespace stepscope::import::detect
