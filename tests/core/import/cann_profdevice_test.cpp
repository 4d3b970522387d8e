// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/cann/profdevice.h"
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

} // namespace
} // namespace stepscope::import::cann
