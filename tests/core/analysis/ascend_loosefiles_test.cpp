// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// The Ascend text export's files copied out of ASCEND_PROFILER_OUTPUT/, or opened one by one:
// the folder still opens, and the steps read are the profiler's table. The figures are
// msinsight-cnn-level2-2rank rank 0's step_trace_time.csv (one row, Step 50), as written.
#include "analysis/analysissummary.h"
#include "import/detect/detect.h"
#include "import/loader.h"
#include "import/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

using namespace stepscope;
using import::detect::detectPath;
using import::detect::Format;

namespace {

namespace fs = std::filesystem;

const fs::path Data = fs::path(STEPSCOPE_TEST_DATA);
const fs::path Rank0 = Data / "ascend_pt/msinsight-cnn-level2-2rank/rank0_ascend_pt";

class AscendLooseFiles : public ::testing::Test
{
protected:
    void SetUp() override
    {
        // One folder per test: ctest runs the tests of this fixture side by side.
        m_dir = fs::temp_directory_path()
            / ("stepscope_ascend_loose_"
                + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
        for (const char *name : {"step_trace_time.csv", "op_statistic.csv"})
            fs::copy_file(Rank0 / "ASCEND_PROFILER_OUTPUT" / name, m_dir / name);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    fs::path m_dir;
};

TEST_F(AscendLooseFiles, AFolderOfTheStepTableIsAscendFragments)
{
    for (const fs::path &p : {m_dir, m_dir / "step_trace_time.csv", m_dir / "op_statistic.csv"}) {
        SCOPED_TRACE(p.string());
        const auto d = detectPath(p);
        EXPECT_EQ(d.format, Format::AscendFragments);
        EXPECT_EQ(d.fragmentsDir, m_dir);
    }
}

TEST_F(AscendLooseFiles, AStepTableOfAnotherToolIsNotTaken)
{
    fs::remove(m_dir / "op_statistic.csv");
    std::ofstream(m_dir / "step_trace_time.csv", std::ios::trunc) << "step,time\n1,20\n";
    const auto d = detectPath(m_dir / "step_trace_time.csv");
    EXPECT_EQ(d.format, Format::Unknown);
    EXPECT_FALSE(d.reason.empty());
}

TEST_F(AscendLooseFiles, AnyFileOfTheOutputFolderOpensTheRank)
{
    for (const char *name : {"op_statistic.csv", "operator_memory.csv", "communication.json",
             "communication_matrix.json", "step_trace_time.csv"}) {
        SCOPED_TRACE(name);
        const auto d = detectPath(Rank0 / "ASCEND_PROFILER_OUTPUT" / name);
        EXPECT_EQ(d.format, Format::Ascend);
        ASSERT_EQ(d.ascendRankDirs.size(), 1u);
        EXPECT_EQ(d.ascendRankDirs[0], Rank0);
    }
    const fs::path cluster =
        Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed/cluster_analysis_output";
    for (const char *name : {"cluster_step_trace_time.csv", "communication_group.json"}) {
        SCOPED_TRACE(name);
        const auto d = detectPath(cluster / name);
        EXPECT_EQ(d.format, Format::Ascend);
        EXPECT_EQ(d.clusterDir, cluster);
    }
}

TEST_F(AscendLooseFiles, TheSummaryShowsTheProfilersStep)
{
    util::Progress progress;
    const auto r = import::loadPath(m_dir / "step_trace_time.csv", progress);
    ASSERT_TRUE(r.session);
    nlohmann::json summary = import::importSummaryJson(*r.session);
    analysis::addAnalysisToSummary(summary, *r.session, analysis::RunConfig {});
    EXPECT_EQ(summary["format"], "ascend-fragments");
    ASSERT_EQ(summary["steps"].size(), 1u);
    const auto &s = summary["steps"][0];
    EXPECT_EQ(s["step"], 50);
    // 8868.240000000003 / 95962.01599999999 / 4011.2620000000024 / 25032.619 / 17483.75 us.
    EXPECT_NEAR(s["compute_us"].get<double>(), 8868.240, 0.001);
    EXPECT_NEAR(s["comm_exposed_us"].get<double>(), 95962.016, 0.001);
    EXPECT_NEAR(s["comm_overlapped_us"].get<double>(), 4011.262, 0.001);
    EXPECT_NEAR(s["free_us"].get<double>(), 25032.619, 0.001);
    EXPECT_NEAR(s["preparing_us"].get<double>(), 17483.750, 0.001);
    ASSERT_EQ(summary["kernels"].size(), 1u);
    ASSERT_EQ(summary["kernels"][0]["op_types"].size(), 33u);
    EXPECT_EQ(summary["kernels"][0]["op_types"][0]["type"], "ForeachAddList");
}

/// An Ascend trace view under another name, in a folder of such traces (one per rank): each is
/// read with the Ascend dialect, as the file opened alone is. They read as generic Chrome
/// traces before, with 0 ns of compute and communication in every step.
TEST_F(AscendLooseFiles, RenamedTraceViewsInAFolderReadAsTheirFileAlone)
{
    const fs::path traces = m_dir / "traces";
    fs::create_directories(traces / "a");
    fs::create_directories(traces / "b");
    fs::copy_file(Rank0 / "ASCEND_PROFILER_OUTPUT/trace_view.json", traces / "a/rank0.json");
    fs::copy_file(Data
            / "ascend_pt/msinsight-cnn-level2-2rank/rank1_ascend_pt/"
              "ASCEND_PROFILER_OUTPUT/trace_view.json",
        traces / "b/rank1.json");
    const auto stepsOf = [](const fs::path &path) {
        util::Progress progress;
        const auto r = import::loadPath(path, progress);
        EXPECT_TRUE(r.session) << path;
        nlohmann::json summary = nlohmann::json::object();
        if (r.session) {
            EXPECT_EQ(r.session->format, "ascend-fragments") << path;
            for (const auto &t : r.session->traces)
                EXPECT_EQ(t->metadata.format, "ascend") << path;
            analysis::addAnalysisToSummary(summary, *r.session, analysis::RunConfig {});
        }
        return summary["steps"];
    };
    const nlohmann::json folder = stepsOf(traces);
    const nlohmann::json alone = stepsOf(traces / "a/rank0.json");
    ASSERT_EQ(folder.size(), 2u); // ranks 0 and 1, step 50 each
    ASSERT_EQ(alone.size(), 1u);
    for (const char *key : {"duration_us", "compute_us", "comm_exposed_us", "comm_overlapped_us",
             "free_us", "host_wait_us", "launch_gap_us", "preparing_us"}) {
        SCOPED_TRACE(key);
        EXPECT_DOUBLE_EQ(folder[0][key].get<double>(), alone[0][key].get<double>());
    }
    // The level2 trace's own Overlap Analysis lanes: 8 868.24 us Computing in step 50.
    EXPECT_NEAR(folder[0]["compute_us"].get<double>(), 8868.24, 1.0);
    EXPECT_GT(folder[1]["compute_us"].get<double>(), 8000.0);
}

} // namespace
