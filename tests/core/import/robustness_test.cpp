// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Hostile-input classes of issue 14 that the loader, detection and the JSON output own:
// bytes that are not UTF-8, special files, files reached twice, two files claiming one rank,
// misleading messages (docs/robustness.md lists each class with its tests).
#include "import/dump.h"
#include "import/loader.h"
#include "import/losslog/losslog.h"
#include "import/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <future>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace stepscope::import {
namespace {

namespace fs = std::filesystem;

const fs::path Data = fs::path(STEPSCOPE_TEST_DATA);

/// A fresh temporary folder, removed at the end of the test.
class TempDir
{
public:
    explicit TempDir(const std::string &name)
        : m_path(fs::temp_directory_path()
            / ("stepscope_robust_" + name + "_" + std::to_string(getpid())))
    {
        fs::remove_all(m_path);
        fs::create_directories(m_path);
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::remove_all(m_path, ec);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const fs::path &path() const { return m_path; }

private:
    fs::path m_path;
};

/// A small Kineto trace: one step, one kernel; `rank` < 0 writes no distributedInfo.
void writeKineto(const fs::path &file, int rank, const std::string &kernelName = "gemm")
{
    std::ofstream out(file, std::ios::binary);
    out << "{\"schemaVersion\": 1, ";
    if (rank >= 0)
        out << "\"distributedInfo\": {\"rank\": " << rank << ", \"world_size\": 2}, ";
    out << "\"traceEvents\": [\n"
        << "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", "
           "\"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 50},\n"
        << "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" << kernelName
        << "\", \"pid\": 0, \"tid\": 7, \"ts\": 110, \"dur\": 20, \"args\": {\"note\": \""
        << kernelName << "\"}}\n]}\n";
}

void makeFifo(const fs::path &p)
{
    ASSERT_EQ(::mkfifo(p.c_str(), 0644), 0) << p;
}

void makeSocket(const fs::path &p)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un addr {};
    addr.sun_family = AF_UNIX;
    ASSERT_LT(p.native().size(), sizeof(addr.sun_path));
    std::copy(p.native().begin(), p.native().end(), addr.sun_path);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)), 0) << p;
    ::close(fd); // the socket file stays
}

/// Loads `path` on another thread. A reader that blocks on a FIFO fails the test instead of
/// hanging it: after `seconds` every FIFO below `fifos` is opened for writing (which wakes a
/// blocked reader) and nullptr is returned.
std::shared_ptr<const model::Session> loadWithin(
    const fs::path &path, const std::vector<fs::path> &fifos, int seconds = 30)
{
    auto job = std::async(std::launch::async, [path] {
        util::Progress progress;
        LoadOptions options;
        options.threads = 2;
        return loadPath(path, progress, options).session;
    });
    if (job.wait_for(std::chrono::seconds(seconds)) == std::future_status::ready)
        return job.get();
    for (const fs::path &f : fifos) {
        const int fd = ::open(f.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            ::close(fd);
    }
    job.wait();
    ADD_FAILURE() << "loading " << path << " blocked on a special file";
    return nullptr;
}

bool hasMessage(const model::Session &s, model::Severity severity, const std::string &text,
    const std::string &file = {})
{
    for (const auto &d : s.report.diagnostics()) {
        if (d.severity == severity && d.message.find(text) != std::string::npos
            && (file.empty() || d.file.find(file) != std::string::npos))
            return true;
    }
    return false;
}

// --- bytes that are not UTF-8 -----------------------------------------------------------

TEST(RobustnessUtf8, LatinOneNamesGiveValidJson)
{
    TempDir tmp("utf8");
    const fs::path dir = tmp.path() / "m\xfcller-\xff"; // a Latin-1 folder name
    fs::create_directories(dir);
    writeKineto(dir / "w0.1.pt.trace.json", -1, "k\xff\xfe");
    // A truncated second trace: its diagnostic names a file that is not UTF-8 either.
    std::ofstream(dir / "w1\xe9.1.pt.trace.json", std::ios::binary)
        << "{\"schemaVersion\": 1, \"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\xff";

    util::Progress progress;
    const LoadResult r = loadPath(dir, progress);
    ASSERT_TRUE(r.session);
    ASSERT_TRUE(r.session->hasContent()) << importSummaryText(*r.session);
    ASSERT_FALSE(r.session->report.empty());

    // What `dump --json` and `summary --json` printed before: nlohmann's strict dump throws
    // (type_error 316), which ended the CLI with abort().
    EXPECT_THROW((void)dumpJson(*r.session).dump(1), nlohmann::json::type_error);

    for (const std::string &text :
        {jsonText(dumpJson(*r.session), 1), jsonText(importSummaryJson(*r.session), 2)}) {
        nlohmann::json parsed;
        ASSERT_NO_THROW(parsed = nlohmann::json::parse(text)) << text.substr(0, 400);
        EXPECT_NE(text.find("\xef\xbf\xbd"), std::string::npos); // U+FFFD for each bad byte
    }
    const std::string dump = jsonText(dumpJson(*r.session), 1);
    // The file name's Latin-1 byte became U+FFFD (the trace reader itself already replaces
    // bad bytes in event names by '?': "k??").
    EXPECT_NE(dump.find("\"w1\xef\xbf\xbd.1.pt.trace.json\""), std::string::npos) << dump;
}

// --- special files -----------------------------------------------------------------------

TEST(RobustnessSpecialFiles, KinetoFolderSkipsFifoSocketAndDeviceWithAWarning)
{
    TempDir tmp("special_kineto");
    const fs::path dir = tmp.path();
    writeKineto(dir / "w0.1.pt.trace.json", -1);
    makeFifo(dir / "w1.1.pt.trace.json");
    fs::create_symlink("/dev/zero", dir / "w2.1.pt.trace.json");
    makeSocket(dir / "w3.json");

    const auto s = loadWithin(dir, {dir / "w1.1.pt.trace.json"});
    ASSERT_TRUE(s);
    ASSERT_EQ(s->traces.size(), 1u) << importSummaryText(*s);
    EXPECT_EQ(s->traces.front()->eventCount(), 2u);
    EXPECT_TRUE(hasMessage(*s, model::Severity::Warning, "skipped: a FIFO", "w1.1.pt.trace.json"))
        << importSummaryText(*s);
    EXPECT_TRUE(hasMessage(
        *s, model::Severity::Warning, "skipped: a character device", "w2.1.pt.trace.json"));
    EXPECT_TRUE(hasMessage(*s, model::Severity::Warning, "skipped: a socket", "w3.json"));
}

TEST(RobustnessSpecialFiles, FifoNamedLikeACannTimelineDoesNotBlock)
{
    TempDir tmp("special_cann");
    const fs::path device = tmp.path() / "PROF_000001_20230818142704322_ABCDEFGH" / "device_0";
    fs::create_directories(device / "timeline");
    const fs::path sample = Data
        / "mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev/"
          "PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0";
    fs::copy_file(sample / "info.json.0", device / "info.json.0");
    fs::copy_file(sample / "timeline/msprof_0_2_1.json", device / "timeline/msprof_0_2_1.json");
    const fs::path fifo = device / "timeline/msprof_0_2_2.json";
    makeFifo(fifo);

    const auto s = loadWithin(tmp.path(), {fifo});
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->hasContent()) << importSummaryText(*s);
    EXPECT_TRUE(hasMessage(*s, model::Severity::Error, "FIFO", "msprof_0_2_2.json"))
        << importSummaryText(*s);
}

TEST(RobustnessSpecialFiles, AscendRankFolderSkipsFifoAndDeviceLink)
{
    TempDir tmp("special_ascend");
    const fs::path out = tmp.path() / "rank0_ascend_pt" / "ASCEND_PROFILER_OUTPUT";
    fs::create_directories(out);
    const fs::path sample = Data / "ascend_pt/msinsight-cnn-level0-2rank/rank0_ascend_pt";
    fs::copy_file(sample / "ASCEND_PROFILER_OUTPUT/trace_view.json", out / "trace_view.json");
    fs::create_symlink("/dev/zero", out / "kernel_details.csv");
    makeFifo(out / "step_trace_time.csv");
    makeFifo(out / "communication.json");

    const auto s =
        loadWithin(tmp.path(), {out / "step_trace_time.csv", out / "communication.json"});
    ASSERT_TRUE(s);
    ASSERT_EQ(s->traces.size(), 1u) << importSummaryText(*s);
    EXPECT_GT(s->traces.front()->eventCount(), 0u);
    EXPECT_TRUE(hasMessage(
        *s, model::Severity::Warning, "skipped: a character device", "kernel_details.csv"))
        << importSummaryText(*s);
    EXPECT_TRUE(hasMessage(*s, model::Severity::Warning, "skipped: a FIFO", "step_trace_time.csv"));
    EXPECT_TRUE(hasMessage(*s, model::Severity::Warning, "skipped: a FIFO", "communication.json"));
}

TEST(RobustnessSpecialFiles, TrainingLogFifoIsRefusedAtOnce)
{
    TempDir tmp("special_log");
    const fs::path fifo = tmp.path() / "train.log";
    makeFifo(fifo);
    auto job = std::async(std::launch::async, [&] {
        model::LoadReport report;
        const model::TrainingLog log = losslog::readTrainingLog(fifo, report);
        const auto found = losslog::findTrainingLogs(tmp.path());
        return std::make_pair(report.toText(), found.size());
    });
    if (job.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            ::close(fd);
        job.wait();
        FAIL() << "reading a FIFO as a training log blocked";
    }
    const auto [text, found] = job.get();
    EXPECT_NE(text.find("FIFO"), std::string::npos) << text;
    EXPECT_EQ(found, 0u);
}

// --- misleading messages about the opened path --------------------------------------------

TEST(RobustnessMessages, FifoAsThePathSaysFifoNotNoSuchFile)
{
    TempDir tmp("fifo_path");
    const fs::path fifo = tmp.path() / "trace.json";
    makeFifo(fifo);
    const auto s = loadWithin(fifo, {fifo});
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->hasContent());
    EXPECT_TRUE(hasMessage(*s, model::Severity::Error, "a FIFO (named pipe)"))
        << importSummaryText(*s);
    EXPECT_FALSE(hasMessage(*s, model::Severity::Error, "no such file"));
}

TEST(RobustnessMessages, UnreadableFolderSaysPermissionDenied)
{
    if (::geteuid() == 0)
        GTEST_SKIP() << "root reads every folder: permissions cannot be tested as root";
    TempDir tmp("noperm");
    const fs::path dir = tmp.path() / "locked";
    fs::create_directories(dir);
    writeKineto(dir / "w0.1.pt.trace.json", -1);
    fs::permissions(dir, fs::perms::none);
    const auto s = loadWithin(dir, {});
    fs::permissions(dir, fs::perms::owner_all);
    ASSERT_TRUE(s);
    EXPECT_TRUE(hasMessage(*s, model::Severity::Error, "permission denied"))
        << importSummaryText(*s);
}

TEST(RobustnessMessages, DanglingSymlinkIsNamedAsSuch)
{
    TempDir tmp("dangling");
    const fs::path link = tmp.path() / "trace.json";
    fs::create_symlink(tmp.path() / "gone.json", link);
    const auto s = loadWithin(link, {});
    ASSERT_TRUE(s);
    EXPECT_TRUE(hasMessage(*s, model::Severity::Error, "symbolic link whose target does not"))
        << importSummaryText(*s);
}

TEST(RobustnessMessages, UnclosedBeginEventsAreCounted)
{
    TempDir tmp("unclosed");
    {
        std::ofstream out(tmp.path() / "w0.1.pt.trace.json", std::ios::binary);
        out << "{\"schemaVersion\": 1, \"traceEvents\": [\n"
            << "{\"ph\": \"X\", \"name\": \"k\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}";
        for (int i = 0; i < 1001; ++i)
            out << ",\n{\"ph\": \"B\", \"name\": \"open" << i
                << "\", \"pid\": 1, \"tid\": 2, \"ts\": " << 10 + i << "}";
        out << "\n]}\n";
    }
    const auto s = loadWithin(tmp.path(), {});
    ASSERT_TRUE(s);
    ASSERT_EQ(s->traces.size(), 1u) << importSummaryText(*s);
    EXPECT_TRUE(hasMessage(*s, model::Severity::Warning, "1001 begin events ('B'/'b') never closed",
        "w0.1.pt.trace.json"))
        << importSummaryText(*s);
}

// --- files read twice ------------------------------------------------------------------

TEST(RobustnessFilesOnce, SymlinkLoopReadsTheTraceOnce)
{
    TempDir tmp("loop");
    const fs::path sub = tmp.path() / "run";
    fs::create_directories(sub);
    writeKineto(sub / "w0.1.pt.trace.json", -1);
    fs::create_directory_symlink("..", sub / "loop"); // run/loop -> the folder again

    const auto s = loadWithin(tmp.path(), {});
    ASSERT_TRUE(s);
    ASSERT_EQ(s->traces.size(), 1u) << importSummaryText(*s);
    EXPECT_EQ(s->traces.front()->eventCount(), 2u);
    EXPECT_EQ(s->traces.front()->steps.size(), 1u);
}

TEST(RobustnessFilesOnce, SecondLinkToARankFolderIsNotASecondRank)
{
    TempDir tmp("rank_alias");
    const fs::path rank0 = Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed/test_rank_0";
    fs::copy(rank0, tmp.path() / "test_rank_0", fs::copy_options::recursive);
    fs::create_directory_symlink("test_rank_0", tmp.path() / "zz_alias_rank_0");

    const auto s = loadWithin(tmp.path(), {});
    ASSERT_TRUE(s);
    ASSERT_EQ(s->traces.size(), 1u) << importSummaryText(*s);
    EXPECT_FALSE(hasMessage(*s, model::Severity::Warning, "claim rank"));
}

// --- ranks merged ------------------------------------------------------------------------

TEST(RobustnessRanks, TwoKinetoFilesClaimingOneRankStayApartWithAWarning)
{
    TempDir tmp("duprank");
    // Two captures (their kernels differ): a byte copy would be read once (DetectTest).
    writeKineto(tmp.path() / "a.1.pt.trace.json", 0, "gemm_a");
    writeKineto(tmp.path() / "b.1.pt.trace.json", 0, "gemm_b");

    const auto s = loadWithin(tmp.path(), {});
    ASSERT_TRUE(s);
    ASSERT_EQ(s->traces.size(), 2u) << importSummaryText(*s);
    EXPECT_EQ(s->traces[0]->rank, 0);
    EXPECT_EQ(s->traces[1]->rank, 1);
    for (const auto &t : s->traces)
        EXPECT_EQ(t->steps.size(), 1u); // merged, the one step would count twice
    EXPECT_TRUE(hasMessage(*s, model::Severity::Warning,
        "this file and a.1.pt.trace.json both claim rank 0 (distributedInfo); kept apart, this "
        "one is shown as rank 1",
        "b.1.pt.trace.json"))
        << importSummaryText(*s);
    // One folder: two ranks of one run written twice, not two runs.
    EXPECT_FALSE(hasMessage(*s, model::Severity::Warning, "two runs side by side"));
}

/// The same rank claimed from two folders (two runs' log folders side by side): the warning
/// also says that it is most likely two runs.
TEST(RobustnessRanks, ARankClaimedFromTwoFoldersIsSaidToBeTwoRuns)
{
    TempDir tmp("duprankfolders");
    fs::create_directories(tmp.path() / "run_a");
    fs::create_directories(tmp.path() / "run_b");
    writeKineto(tmp.path() / "run_a/w.1.pt.trace.json", 0, "gemm_a");
    writeKineto(tmp.path() / "run_b/w.1.pt.trace.json", 0, "gemm_b");
    const auto s = loadWithin(tmp.path(), {});
    ASSERT_TRUE(s);
    ASSERT_EQ(s->traces.size(), 2u) << importSummaryText(*s);
    EXPECT_TRUE(hasMessage(*s, model::Severity::Warning,
        "both claim rank 0 (distributedInfo); kept apart, this one is shown as rank 1. Files of "
        "two folders: two runs side by side?",
        "run_b/w.1.pt.trace.json"))
        << importSummaryText(*s);
}

} // namespace
} // namespace stepscope::import
