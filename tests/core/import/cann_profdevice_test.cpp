// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "chrometrace_testutil.h"
#include "import/cann/profdevice.h"
#include "import/detect/detect.h"
#include "import/loader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace stepscope::import::cann {
namespace {

namespace fs = std::filesystem;

const fs::path Prof =
    fs::path(STEPSCOPE_TEST_DATA) / "mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev";

TEST(CannProfDeviceTest, RankFromInfoJson)
{
    // info.json.0 / info.json.1 hold "rank_id": 0 / 1.
    EXPECT_EQ(
        profDeviceRank(Prof / "PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0", 9), 0);
    EXPECT_EQ(
        profDeviceRank(Prof / "PROF_000001_20230818142704567_GQFAMHBKGODKJMLA/device_1", 9), 1);
}

TEST(CannProfDeviceTest, FallbackWhenInfoIsMissingBrokenOrNone)
{
    const fs::path dir = fs::temp_directory_path() / "stepscope_cann_profdevice/device_3";
    fs::create_directories(dir);
    EXPECT_EQ(profDeviceRank(dir, 3), 3);
    std::ofstream(dir / "info.json.3") << "{\"rank_id\": ";
    EXPECT_EQ(profDeviceRank(dir, 3), 3);
    std::ofstream(dir / "info.json.3") << "{\"rank_id\": 4294967295}";
    EXPECT_EQ(profDeviceRank(dir, 3), 3);
    std::ofstream(dir / "info.json.3") << "{\"rank_id\": 12}";
    EXPECT_EQ(profDeviceRank(dir, 3), 12);
    fs::remove_all(dir.parent_path());
}

TEST(CannProfDeviceTest, ProfFolderAloneLoadsOneRank)
{
    util::Progress progress;
    const LoadResult r =
        loadPath(Prof / "PROF_000001_20230818142704567_GQFAMHBKGODKJMLA", progress);
    ASSERT_TRUE(r.session);
    EXPECT_EQ(r.session->format, "cann-prof");
    ASSERT_EQ(r.session->traces.size(), 1u);
    const model::Trace &t = *r.session->traces.front();
    EXPECT_EQ(t.rank, 1);
    // msprof_1_0_*.json: 10 841 X events (python3), steps = Iteration ID 1..10.
    EXPECT_EQ(t.eventCount(), 10841u);
    EXPECT_EQ(t.steps.size(), 10u);
    // Wall clock: collectionTimeBegin of start_info.1 is 2023-08-18 14:27:04.570093 UTC.
    EXPECT_GE(t.originNs, 1692340024570093000LL);
}

/// A PROF folder as the profiler leaves it before any parse: raw data only (`device_<n>/data/`,
/// `host/data/`), no `device_<n>/timeline/` and no `mindstudio_profiler_output/`.
class CannProfRaw : public testsupport::TempDirTest
{
protected:
    fs::path rawProf(const fs::path &parent)
    {
        const fs::path prof = parent / "PROF_000001_20250109093015123_KJHGFDSAQWERTYUI";
        fs::create_directories(prof / "device_0/data");
        fs::create_directories(prof / "host/data");
        testsupport::writeFile(prof / "device_0/data/ts_track.data.0.slice_0", "raw");
        testsupport::writeFile(prof / "device_0/start_info.0", "{}");
        testsupport::writeFile(prof / "host/data/api_event.data.slice_0", "raw");
        return prof;
    }
    /// The loader's errors and warnings, one line each.
    static std::string messages(const model::Session &s)
    {
        std::string text;
        for (const auto &d : s.report.diagnostics())
            text += d.message + "\n";
        return text;
    }
};

/// It was read as a device folder and said only "no timeline/msprof_*.json files in this
/// device folder"; it now says the data is raw and how to parse it, naming the folder.
TEST_F(CannProfRaw, RawProfFolderSaysToParseItWithMsprof)
{
    const fs::path prof = rawProf(m_tmp);
    for (const fs::path &open : {prof, prof / "device_0", m_tmp}) {
        SCOPED_TRACE(open.string());
        util::Progress progress;
        const auto s = loadPath(open, progress).session;
        const std::string text = messages(*s);
        EXPECT_TRUE(s->traces.empty());
        EXPECT_EQ(s->report.count(model::Severity::Error), 1u) << text;
        EXPECT_NE(text.find(prof.string()
                      + " holds only raw CANN profiling data (device_0/data/, "
                        "host/data/), never parsed"),
            std::string::npos)
            << text;
        EXPECT_NE(
            text.find("`msprof --export=on --output=" + prof.string() + "`"), std::string::npos)
            << text;
        EXPECT_EQ(text.find("no timeline/msprof_*.json"), std::string::npos) << text;
    }
}

/// torch_npu writes FRAMEWORK/ beside the PROF folder: the advice is its offline parse of the
/// whole run folder, which writes the ASCEND_PROFILER_OUTPUT/ StepScope reads.
TEST_F(CannProfRaw, RawTorchNpuRunSaysToParseItWithTorchNpu)
{
    const fs::path run = m_tmp / "worker0_20250109_ascend_pt";
    rawProf(run);
    fs::create_directories(run / "FRAMEWORK");
    testsupport::writeFile(run / "FRAMEWORK/torch.op_range", "raw");
    util::Progress progress;
    const auto s = loadPath(run, progress).session;
    const std::string text = messages(*s);
    EXPECT_NE(text.find("torch_npu.profiler.profiler.analyse(\"" + run.string() + "\")"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("../FRAMEWORK/"), std::string::npos) << text;
}

/// Beside profiles that load (a MindSpore legacy folder), a raw PROF folder is named as not
/// read; once exported to a DB inside it, the PROF folder opens as that DB.
TEST_F(CannProfRaw, RawProfBesideOtherDataIsSkippedAndItsDbExportLoads)
{
    const fs::path prof = rawProf(m_tmp);
    testsupport::writeFile(m_tmp / "step_trace_raw_0_detail_time.csv", "step_num\n");
    const detect::Detection d = detect::detectPath(m_tmp);
    EXPECT_EQ(d.format, detect::Format::MindSporeLegacy);
    EXPECT_TRUE(d.profDevices.empty());
    ASSERT_EQ(d.skipped.size(), 1u);
    EXPECT_EQ(d.skipped[0].first, prof);
    EXPECT_NE(d.skipped[0].second.find("raw CANN profiling data"), std::string::npos);

    fs::copy_file(fs::path(STEPSCOPE_TEST_DATA)
            / "ascend_db/msinsight-cnn-db-level0-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
              "ascend_pytorch_profiler_0.db",
        prof / "msprof_20250109093015.db");
    util::Progress progress;
    const auto s = loadPath(prof, progress).session;
    EXPECT_EQ(s->format, "ascend-db") << messages(*s);
    EXPECT_EQ(s->traces.size(), 1u) << messages(*s);
}

} // namespace
} // namespace stepscope::import::cann
