// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// `stepscope-bench cluster [--ranks N[,N...]] [--steps S] [--keep DIR]`: writes a generated
// cluster_analysis_output/ of N ranks × S steps (clustergen.h) for each N, then measures
// opening it (import::loadPath) and analysing it (analysis::analyzeSession, which includes
// the cluster analysis) as the CLI does, wall-clock and CPU seconds (open + analyse). Defaults:
// 1000 and 10000 ranks × 20 steps.
// `--keep DIR` writes the folders under DIR and leaves them (for the UI).
#include "analysis/analysissummary.h"
#include "analysis/cluster.h"
#include "benchregistry.h"
#include "clustergen.h"
#include "import/loader.h"
#include "util/progress.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double since(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// User + system CPU seconds of this process so far (all threads): unlike wall-clock time,
/// it does not grow when other processes share the cores.
double cpuSeconds()
{
    rusage u {};
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
        + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::vector<std::int64_t> parseList(const char *text)
{
    std::vector<std::int64_t> out;
    std::string s(text);
    std::size_t pos = 0;
    while (pos < s.size()) {
        const std::size_t comma = s.find(',', pos);
        out.push_back(std::stoll(s.substr(pos, comma - pos)));
        pos = comma == std::string::npos ? s.size() : comma + 1;
    }
    return out;
}

int runCluster(int argc, char **argv)
{
    std::vector<std::int64_t> rankCounts = {1000, 10000};
    std::int64_t steps = 20;
    fs::path keep;
    try {
        for (int i = 1; i < argc; ++i) {
            if (!std::strcmp(argv[i], "--ranks") && i + 1 < argc)
                rankCounts = parseList(argv[++i]);
            else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc)
                steps = std::stoll(argv[++i]);
            else if (!std::strcmp(argv[i], "--keep") && i + 1 < argc)
                keep = argv[++i];
            else {
                std::fprintf(stderr,
                    "usage: stepscope-bench cluster [--ranks N[,N...]] [--steps S] [--keep DIR]\n");
                return 2;
            }
        }
    } catch (const std::exception &) {
        std::fprintf(stderr, "cluster: --ranks and --steps take integers\n");
        return 2;
    }
    const fs::path base = keep.empty()
        ? fs::temp_directory_path() / ("stepscope-clusterbench-" + std::to_string(::getpid()))
        : keep;
    std::printf("%8s %6s %10s %9s %9s %9s %9s %9s %11s\n", "ranks", "steps", "MB", "write s",
        "open s", "analyse s", "total s", "cpu s", "us/rank-step");
    for (const std::int64_t ranks : rankCounts) {
        const fs::path dir =
            base / ("cluster-" + std::to_string(ranks) + "x" + std::to_string(steps));
        auto t0 = Clock::now();
        const std::uint64_t bytes = stepscope::bench::writeClusterFolder(dir, {ranks, steps});
        const double writeS = since(t0);

        t0 = Clock::now();
        const double cpu0 = cpuSeconds();
        stepscope::util::Progress progress;
        stepscope::import::LoadOptions options;
        const auto result = stepscope::import::loadPath(dir, progress, options);
        const double openS = since(t0);
        if (!result.session) {
            std::fprintf(stderr, "cluster: loading %s was cancelled\n", dir.string().c_str());
            return 1;
        }
        t0 = Clock::now();
        // analyzeSession includes the cluster analysis (SessionAnalysis::cluster), computed
        // once, as the CLI and the UI get it.
        const auto analysis = stepscope::analysis::analyzeSession(*result.session, {});
        const stepscope::analysis::ClusterAnalysis &cluster = analysis.cluster;
        const double analyseS = since(t0);
        const double cpuS = cpuSeconds() - cpu0;
        const double total = openS + analyseS;
        std::printf("%8lld %6lld %10.1f %9.2f %9.2f %9.2f %9.2f %9.2f %11.2f\n",
            static_cast<long long>(ranks), static_cast<long long>(steps),
            static_cast<double>(bytes) / 1e6, writeS, openS, analyseS, total, cpuS,
            total * 1e6 / static_cast<double>(ranks * steps));
        std::printf("         ranks loaded %zu, breakdowns %zu, stages %zu, groups %zu, "
                    "stragglers %zu, comm share %.1f %%, bubble %.1f %%\n",
            result.session->traces.size(), analysis.breakdowns.size(), cluster.stages.size(),
            cluster.groups.size(), cluster.stragglers.size(), 100.0 * cluster.shares.commShare,
            100.0 * cluster.shares.bubbleShare);
        std::fflush(stdout);
        if (keep.empty())
            fs::remove_all(dir);
    }
    if (keep.empty())
        fs::remove_all(base);
    return 0;
}

} // namespace

STEPSCOPE_BENCH_COMMAND("cluster", runCluster);
