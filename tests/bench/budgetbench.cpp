// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// `stepscope-bench budget PATH [--analyse]`: the memory budget's estimate of loading PATH
// (import/memorybudget.h) against what the load really takes, in one run:
//   - the estimate: loadPath with 1 byte available, which refuses and returns the figures;
//   - measured: loadPath without the check; the peak is VmHWM of this process less its VmRSS
//     before the load (the counter is reset first through /proc/self/clear_refs), the resident
//     bytes are VmRSS once the load returned and malloc_trim gave back what it could, less the
//     same baseline. With --analyse, also analyzeSession (what `summary` adds).
// Prints the input bytes by kind, each figure, and measured / input ratios: the bytes per
// input byte that the constants in memorybudget.cpp must cover (tests/tools/
// measure_load_memory.sh runs it over generated inputs of every kind).
#include "analysis/analysissummary.h"
#include "benchregistry.h"
#include "import/loader.h"
#include "import/memorybudget.h"
#include "util/progress.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <malloc.h>
#include <string>

namespace {

namespace fs = std::filesystem;
using stepscope::import::formatBudgetBytes;

/// A "VmRSS:" / "VmHWM:" line of /proc/self/status, in bytes.
std::uint64_t statusBytes(const char *key)
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) == 0)
            return std::stoull(line.substr(std::strlen(key))) * 1024;
    }
    return 0;
}

void resetPeak()
{
    std::ofstream("/proc/self/clear_refs") << "5"; // resets VmHWM to the current RSS
}

int runBudget(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: stepscope-bench budget PATH [--analyse]\n");
        return 2;
    }
    const fs::path path = argv[1];
    const bool analyse = argc > 2 && std::strcmp(argv[2], "--analyse") == 0;
    namespace import = stepscope::import;

    stepscope::util::Progress progress;
    import::LoadOptions estimateOnly;
    estimateOnly.availableBytes = 1;
    const import::LoadResult refused = import::loadPath(path, progress, estimateOnly);
    if (!refused.refused) {
        std::fprintf(stderr, "budget: %s has nothing to estimate\n", path.c_str());
        return 1;
    }
    const import::MemoryBudget &b = *refused.refused;
    std::uint64_t input = 0;
    std::uint64_t resident = 0;
    for (const import::RankNeed &r : b.ranks) {
        input += r.inputBytes;
        resident += r.residentBytes;
    }

    ::malloc_trim(0);
    const std::uint64_t base = statusBytes("VmRSS:");
    resetPeak();
    import::LoadOptions options;
    options.checkMemory = false;
    import::LoadResult loaded = import::loadPath(path, progress, options);
    const std::uint64_t peak = statusBytes("VmHWM:") - base;
    ::malloc_trim(0);
    const std::uint64_t held = statusBytes("VmRSS:") - base;
    std::uint64_t analysedPeak = 0;
    if (analyse && loaded.session) {
        [[maybe_unused]] const auto a = stepscope::analysis::analyzeSession(*loaded.session, {});
        analysedPeak = statusBytes("VmHWM:") - base;
    }

    const auto ratio = [input](std::uint64_t v) {
        return input == 0 ? 0.0 : static_cast<double>(v) / static_cast<double>(input);
    };
    std::printf("path            %s\n", path.c_str());
    std::printf("ranks           %zu (concurrency %u)\n", b.ranks.size(), b.concurrency);
    std::printf("input           %s (%llu B)\n", formatBudgetBytes(input).c_str(),
        static_cast<unsigned long long>(input));
    std::printf("estimate        resident %s, need %s\n", formatBudgetBytes(resident).c_str(),
        formatBudgetBytes(b.needBytes()).c_str());
    std::printf("measured        resident %s (%.3f x input), peak %s (%.3f x input)\n",
        formatBudgetBytes(held).c_str(), ratio(held), formatBudgetBytes(peak).c_str(), ratio(peak));
    if (analyse)
        std::printf("with analysis   peak %s (%.3f x input)\n",
            formatBudgetBytes(analysedPeak).c_str(), ratio(analysedPeak));
    std::printf("estimate/peak   %.2f\n",
        peak == 0 ? 0.0 : static_cast<double>(b.needBytes()) / static_cast<double>(peak));
    return 0;
}

} // namespace

STEPSCOPE_BENCH_COMMAND("budget", runBudget);
