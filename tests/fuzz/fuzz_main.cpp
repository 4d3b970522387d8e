// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// One libFuzzer binary for every reader; STEPSCOPE_FUZZ_TARGET picks the target (targets.cpp).
//   STEPSCOPE_FUZZ_TARGET=kineto_json stepscope_fuzz CORPUS SEEDS   fuzz one target
//   stepscope_fuzz --list-targets                                   "name<TAB>seed globs" lines
// Each input is written to a file in a private temporary folder (the readers open paths, as
// the CLI does; none has an in-memory entry point), once per run, and loaded through the
// public entry point; the session is then dumped as JSON, so the output path
// (summary/dump --json) is fuzzed with every reader's strings.
#include "import/dump.h"
#include "import/loader.h"
#include "import/losslog/logdump.h"
#include "import/losslog/losslog.h"
#include "import/summary.h"
#include "model/loadreport.h"
#include "targets.h"
#include "util/progress.h"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace stepscope;

namespace {

const fuzz::Target *g_target = nullptr;
fs::path g_root;
fs::path g_file;

/// The input as the file the reader opens: one open/write/close per run (no iostream).
void writeFile(const fs::path &file, const std::uint8_t *data, std::size_t size)
{
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        std::abort();
    for (std::size_t done = 0; done < size;) {
        const ssize_t n = ::write(fd, data + done, size - done);
        if (n <= 0)
            std::abort();
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
}

std::string gzip(const std::uint8_t *data, std::size_t size)
{
    z_stream z {};
    if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        std::abort();
    std::string out(deflateBound(&z, static_cast<uLong>(size)) + 32, '\0');
    z.next_in = const_cast<Bytef *>(data);
    z.avail_in = static_cast<uInt>(size);
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        std::abort();
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

/// The JSON the CLI prints must serialise, as the CLI serialises it: import::jsonText
/// (bytes that are not UTF-8 become U+FFFD; docs/robustness.md), never an exception.
void dumpAll(const nlohmann::json &j)
{
    const std::string text = import::jsonText(j);
    if (text.empty())
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    for (int i = 1; i < *argc; ++i) {
        if (std::strcmp((*argv)[i], "--list-targets") == 0) {
            for (const fuzz::Target &t : fuzz::targets())
                std::printf("%s\t%s\n", t.name, t.seeds);
            std::exit(0);
        }
    }
    const char *name = std::getenv("STEPSCOPE_FUZZ_TARGET");
    for (const fuzz::Target &t : fuzz::targets()) {
        if (name != nullptr && std::strcmp(name, t.name) == 0)
            g_target = &t;
    }
    if (g_target == nullptr) {
        std::fprintf(stderr, "set STEPSCOPE_FUZZ_TARGET to one of:");
        for (const fuzz::Target &t : fuzz::targets())
            std::fprintf(stderr, " %s", t.name);
        std::fprintf(stderr, "\n");
        std::exit(2);
    }
    const char *tmp = std::getenv("TMPDIR");
    fs::path base = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::path(tmp ? tmp : "/tmp");
    g_root =
        base / ("stepscope-fuzz-" + std::string(g_target->name) + "-" + std::to_string(getpid()));
    fs::remove_all(g_root);
    g_file = g_root / g_target->path;
    fs::create_directories(g_file.parent_path());
    if (g_target->companion != nullptr) {
        const fs::path companion = g_root / g_target->companion;
        fs::create_directories(companion.parent_path());
        std::ofstream touch(companion);
    }
    std::atexit([] {
        std::error_code ec;
        fs::remove_all(g_root, ec);
    });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (g_target->mode == fuzz::Mode::FolderGzip) {
        const std::string z = gzip(data, size);
        writeFile(g_file, reinterpret_cast<const std::uint8_t *>(z.data()), z.size());
    } else {
        writeFile(g_file, data, size);
    }
    if (g_target->mode == fuzz::Mode::TrainingLog) {
        model::LoadReport report;
        const model::TrainingLog log = import::losslog::readTrainingLog(g_file, report);
        if (import::losslog::trainingLogToJson(log, true).empty())
            std::abort();
        for (const model::Diagnostic &d : report.diagnostics())
            dumpAll(import::diagnosticJson(d));
        return 0;
    }
    util::Progress progress;
    import::LoadOptions options;
    options.threads = 1;
    // The plan and the estimate run as for any load; a fixed 1 TiB "available" keeps every
    // run the same whatever the machine has free (the inputs are at most 64 KiB).
    options.availableBytes = std::uint64_t {1} << 40;
    const import::LoadResult result = import::loadPath(g_root, progress, options);
    if (result.session == nullptr)
        std::abort(); // never cancelled here
    dumpAll(import::importSummaryJson(*result.session));
    const nlohmann::json dump = import::dumpJson(*result.session);
    dumpAll(dump);
    if (g_target->mode == fuzz::Mode::FolderRanges) {
        util::Progress again;
        options.threads = 2;
        // Ranges of 1-64 bytes, at most about 128 of them (each is a job on the pool).
        options.chunkBytes = std::max<std::size_t>(1 + (size > 0 ? data[0] % 64 : 0), size / 128);
        const import::LoadResult ranges = import::loadPath(g_root, again, options);
        const nlohmann::json rangeDump =
            ranges.session != nullptr ? import::dumpJson(*ranges.session) : nlohmann::json();
        if (rangeDump != dump) {
            std::fprintf(stderr, "byte ranges of %zu bytes load differently from the stream\n",
                options.chunkBytes);
            // Both loads side by side for a diff, when asked.
            if (const char *dir = std::getenv("STEPSCOPE_FUZZ_DIFF_DIR")) {
                std::ofstream(fs::path(dir) / "stream.json") << dump.dump(1);
                std::ofstream(fs::path(dir) / "ranges.json") << rangeDump.dump(1);
            }
            std::abort();
        }
    }
    return 0;
}
