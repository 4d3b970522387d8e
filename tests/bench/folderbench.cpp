// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// `stepscope-bench folder DIR [--threads N]`: opens a folder of rank files as the CLI does
// (import::loadPath, args on demand) and analyses it (analysis::analyzeSession), printing
// wall-clock and CPU seconds, MB/s and files/s, and the peak RSS. Make DIR with
// `tests/bench/gen_trace.py --form kineto --size-mb 3 --ranks 1000 --out DIR`: a thousand-rank
// job's files, where a cost paid per file (threads, fresh buffers) shows against the bytes.
#include "analysis/analysissummary.h"
#include "benchregistry.h"
#include "import/loader.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/resource.h>

namespace {

namespace fs = std::filesystem;

double cpuSeconds()
{
    rusage u {};
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec)
        + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

int runFolder(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: stepscope-bench folder DIR [--threads N]\n");
        return 2;
    }
    const fs::path dir = argv[1];
    stepscope::import::LoadOptions options;
    for (int i = 2; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
            options.threads = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
        } else {
            std::fprintf(stderr, "usage: stepscope-bench folder DIR [--threads N]\n");
            return 2;
        }
    }
    std::uint64_t bytes = 0;
    std::uint64_t files = 0;
    std::error_code ec;
    for (const auto &entry : fs::recursive_directory_iterator(dir, ec)) {
        if (entry.is_regular_file(ec)) {
            bytes += entry.file_size(ec);
            ++files;
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpuSeconds();
    stepscope::util::Progress progress;
    const auto result = stepscope::import::loadPath(dir, progress, options);
    const auto t1 = std::chrono::steady_clock::now();
    if (!result.session || !result.session->hasContent()) {
        std::fprintf(stderr, "folder: nothing loaded from %s\n", dir.string().c_str());
        return 1;
    }
    const auto analysis = stepscope::analysis::analyzeSession(*result.session, {});
    const auto t2 = std::chrono::steady_clock::now();
    const double cpu = cpuSeconds() - cpu0;
    const double open = std::chrono::duration<double>(t1 - t0).count();
    const double analyse = std::chrono::duration<double>(t2 - t1).count();
    rusage u {};
    ::getrusage(RUSAGE_SELF, &u);
    std::printf("folder          %s (%llu files, %.1f MB)\n", dir.string().c_str(),
        static_cast<unsigned long long>(files), static_cast<double>(bytes) / 1e6);
    std::printf("ranks           %zu, %llu events, %zu diagnostics\n",
        result.session->traces.size(),
        static_cast<unsigned long long>(result.session->eventCount()),
        result.session->report.diagnostics().size());
    std::printf("open            %.3f s  %.1f MB/s  %.0f files/s\n", open,
        static_cast<double>(bytes) / 1e6 / open, static_cast<double>(files) / open);
    std::printf("analyse         %.3f s (%zu breakdowns)\n", analyse, analysis.breakdowns.size());
    std::printf("CPU             %.3f s user+sys over all threads (open + analyse)\n", cpu);
    std::printf("peak RSS        %.1f MB\n", static_cast<double>(u.ru_maxrss) / 1024.0);
    return 0;
}

} // namespace

STEPSCOPE_BENCH_COMMAND("folder", runFolder);
