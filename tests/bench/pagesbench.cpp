// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// stepscope-bench pages [FILE] [--mb N]
//
// What memory costs on this machine, the figures behind util/allocator.h and the importer's
// use of pread (docs/performance.md):
//   - fresh anonymous memory written once, N MiB (default 256): in 4 KiB pages (no huge page
//     advised), on 2 MiB pages from a 2 MiB boundary (MADV_HUGEPAGE), and as a block from
//     `new` after util::returnLargeBlocks(), as the importer's columns are;
//   - with FILE: the file read in 4 MiB blocks with pread into one reused buffer, as the
//     importer reads it, and the same bytes read through a private mapping. One byte in 64 is
//     summed either way, so that both touch every cache line.
// Each figure is the best of three runs, with the minor page faults it took, and the time of
// the first run.

#include "benchregistry.h"
#include "util/allocator.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <functional>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t MiB = std::size_t {1} << 20;

long minorFaults()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

struct Run
{
    double seconds = 0;
    long faults = 0;
    double firstSeconds = 0; ///< the first of the three runs
};

/// The best of three runs of `body`.
Run best(const std::function<void()> &body)
{
    Run out {1e300, 0, 0};
    for (int i = 0; i < 3; ++i) {
        const long faults0 = minorFaults();
        const auto t0 = Clock::now();
        body();
        const double s = std::chrono::duration<double>(Clock::now() - t0).count();
        if (i == 0)
            out.firstSeconds = s;
        if (s < out.seconds)
            out = {s, minorFaults() - faults0, out.firstSeconds};
    }
    return out;
}

void print(const char *what, const Run &r, std::size_t bytes)
{
    std::printf("%-44s %.3f s  %6.2f GB/s  %7ld page faults", what, r.seconds,
        static_cast<double>(bytes) / r.seconds / 1e9, r.faults);
    if (r.faults >= 100)
        std::printf(" (%.1f us each)", r.seconds * 1e6 / static_cast<double>(r.faults));
    // Memory the process has not used before may also have to be backed by the host first
    // (a virtual machine that takes freed pages back): the first run shows that.
    std::printf("; first run %.3f s\n", r.firstSeconds);
}

/// Writes one byte per 4 KiB page of [p, p + n).
void touch(char *p, std::size_t n)
{
    for (std::size_t i = 0; i < n; i += 4096)
        p[i] = 1;
}

void anonymous(std::size_t bytes)
{
    const Run small = best([bytes] {
        void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return;
        madvise(p, bytes, MADV_NOHUGEPAGE);
        touch(static_cast<char *>(p), bytes);
        munmap(p, bytes);
    });
    print("fresh memory, 4 KiB pages", small, bytes);
    const Run huge = best([bytes] {
        // A 2 MiB boundary inside a mapping 2 MiB larger.
        const std::size_t span = bytes + 2 * MiB;
        void *p = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return;
        const auto at = (reinterpret_cast<std::uintptr_t>(p) + 2 * MiB - 1) & ~(2 * MiB - 1);
        char *aligned = reinterpret_cast<char *>(at);
        madvise(aligned, bytes, MADV_HUGEPAGE);
        touch(aligned, bytes);
        munmap(p, span);
    });
    print("fresh memory, 2 MiB pages (MADV_HUGEPAGE)", huge, bytes);
    stepscope::util::returnLargeBlocks();
    const Run block = best([bytes] {
        // ::operator new itself: a new-expression whose block is never read may be elided.
        char *p = static_cast<char *>(::operator new(bytes));
        touch(p, bytes);
        ::operator delete(p);
    });
    print(stepscope::util::placesLargeBlocks() ? "a block from new (2 MiB boundary)"
                                               : "a block from new (this build: malloc's)",
        block, bytes);
}

void file(const std::string &path)
{
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st
    {
    };
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size <= 0) {
        std::fprintf(stderr, "pages: cannot read %s\n", path.c_str());
        if (fd >= 0)
            close(fd);
        return;
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    volatile unsigned long sink = 0;
    const Run pread4 = best([&] {
        std::vector<char> buffer(4 * MiB);
        unsigned long sum = 0;
        for (std::size_t off = 0; off < size;) {
            const ssize_t got = pread(fd, buffer.data(), buffer.size(), static_cast<off_t>(off));
            if (got <= 0)
                break;
            for (ssize_t i = 0; i < got; i += 64)
                sum += static_cast<unsigned char>(buffer[static_cast<std::size_t>(i)]);
            off += static_cast<std::size_t>(got);
        }
        sink = sum;
    });
    print("file by pread, 4 MiB blocks", pread4, size);
    const Run mapped = best([&] {
        void *p = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED)
            return;
        const char *bytes = static_cast<const char *>(p);
        unsigned long sum = 0;
        for (std::size_t i = 0; i < size; i += 64)
            sum += static_cast<unsigned char>(bytes[i]);
        sink = sum;
        munmap(p, size);
    });
    print("file through a mapping", mapped, size);
    (void)sink;
    close(fd);
}

int runPages(int argc, char **argv)
{
    std::string path;
    std::size_t mb = 256;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--mb" && i + 1 < argc)
            mb = static_cast<std::size_t>(std::max(1L, std::strtol(argv[++i], nullptr, 10)));
        else
            path = arg;
    }
    anonymous(mb * MiB);
    if (!path.empty())
        file(path);
    return 0;
}

} // namespace

STEPSCOPE_BENCH_COMMAND("pages", runPages);
