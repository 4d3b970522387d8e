// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/importcontext.h"
#include "import/loader.h"
#include "import/torchmemory/memorytimeline.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <numeric>

namespace stepscope::import::torchmemory {
namespace {

namespace fs = std::filesystem;

class TorchMemoryTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path()
            / ("stepscope_torchmemory_"
                + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_"
                + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(m_dir);
        m_ctx.root = m_dir;
        m_ctx.report = &m_report;
    }
    void TearDown() override { fs::remove_all(m_dir); }

    fs::path write(const std::string &name, const std::string &text)
    {
        const fs::path p = m_dir / name;
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }
    model::Trace read(const fs::path &p, bool expectOk = true)
    {
        model::TraceBuilder b;
        EXPECT_EQ(readMemoryTimeline(p, m_ctx, b), expectOk) << m_report.toText();
        return b.finish().trace;
    }
    bool hasDiagnostic(const std::string &text, std::int64_t offset = -2) const
    {
        for (const auto &d : m_report.diagnostics()) {
            if (d.message.find(text) != std::string::npos && (offset == -2 || d.offset == offset))
                return true;
        }
        return false;
    }

    fs::path m_dir;
    model::LoadReport m_report;
    ImportContext m_ctx;
};

std::int64_t totalAt(const model::CategoryTimeline &t, std::size_t i)
{
    std::int64_t sum = 0;
    for (const auto &series : t.bytes)
        sum += series[i];
    return sum;
}

TEST_F(TorchMemoryTest, RealRawSampleHasEveryRowAndExactFinalTotals)
{
    util::Progress progress;
    const LoadResult r =
        loadPath(fs::path(STEPSCOPE_TEST_DATA) / "torch_memory/hta-memory-timeline-raw", progress);
    ASSERT_TRUE(r.session);
    EXPECT_EQ(r.session->format, "torch-memory");
    ASSERT_EQ(r.session->traces.size(), 1u);
    const model::Trace &t = *r.session->traces.front();
    const model::CategoryTimeline &c = t.memory.categories;
    // 16 845 rows (python3: len(json.load(gzip.open(...)))), one point per row.
    ASSERT_EQ(c.timestampsNs.size(), 16845u);
    for (const auto &series : c.bytes)
        ASSERT_EQ(series.size(), 16845u);
    // Origin = the first real time; the 645 PREEXISTING rows (t = -1) sit at it.
    EXPECT_EQ(t.originNs, 1696966047096061874);
    EXPECT_EQ(c.timestampsNs[0], 0);
    EXPECT_EQ(c.timestampsNs[644], 0);
    EXPECT_EQ(c.timestampsNs.back(), 1696966048083248105 - 1696966047096061874);
    // Final totals per category, summed with python3 over all rows.
    const std::array<std::int64_t, 8> expected = {
        102440608, 102228128, 19395584, 0, 128000, 107868160, 0, 424};
    for (std::size_t k = 0; k < expected.size(); ++k)
        EXPECT_EQ(c.bytes[k].back(), expected[k]) << "category " << k;
    EXPECT_EQ(c.bytes[8].back(), 0); // CommunicationBuffer is not a PyTorch category
    std::int64_t peak = 0;
    for (std::size_t i = 0; i < c.timestampsNs.size(); ++i)
        peak = std::max(peak, totalAt(c, i));
    EXPECT_EQ(peak, 3082832104);
    EXPECT_TRUE(std::is_sorted(c.timestampsNs.begin(), c.timestampsNs.end()));
    EXPECT_EQ(r.session->report.count(model::Severity::Warning), 0u) << r.session->report.toText();
}

TEST_F(TorchMemoryTest, TorchNpuZeroBasedActionsDecode)
{
    // torch_npu numbers actions 0..3: PREEXISTING 0, CREATE 1, INCREMENT_VERSION 2, DESTROY 3.
    const auto p = write("npu.json",
        "[[-1, 0, 100, 0], [10, 1, 50, 4], [20, 2, -50, 4], "
        "[20, 2, 50, 5], [30, 3, -50, 5]]");
    const model::Trace t = read(p);
    const auto &c = t.memory.categories;
    ASSERT_EQ(c.timestampsNs.size(), 5u);
    EXPECT_EQ(t.originNs, 10);
    EXPECT_EQ(c.bytes[0].back(), 100);
    EXPECT_EQ(c.bytes[4][1], 50);
    EXPECT_EQ(c.bytes[4][2], 0);
    EXPECT_EQ(c.bytes[5][3], 50);
    EXPECT_EQ(c.bytes[5][4], 0);
    EXPECT_EQ(totalAt(c, 4), 100);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(TorchMemoryTest, TimelineFormTimesInMicroseconds)
{
    const auto p = write("timeline.json",
        "[[1000.5, 1001.25], [[0, 1, 2, 3, 4, 5, 6, 7, 8], "
        "[0, 10, 20, 30, 40, 50, 60, 70, 80]]]");
    const model::Trace t = read(p);
    const auto &c = t.memory.categories;
    ASSERT_EQ(c.timestampsNs.size(), 2u);
    EXPECT_EQ(t.originNs, 1000500);
    EXPECT_EQ(c.timestampsNs[1], 750);
    EXPECT_EQ(c.bytes[0][0], 1);
    EXPECT_EQ(c.bytes[7][1], 80);
    EXPECT_EQ(totalAt(c, 1), 360);
}

TEST_F(TorchMemoryTest, BadRowsAreSkippedWithTheirOffset)
{
    const std::string text = "[[1, 2, 10, 0], [2, \"x\", 5, 0], [3, 2, 7], [4, 2, 1, 9], "
                             "[5, 2, 3, 1]]";
    const auto p = write("bad.json", text);
    const model::Trace t = read(p);
    const auto &c = t.memory.categories;
    ASSERT_EQ(c.timestampsNs.size(), 2u);
    EXPECT_EQ(c.bytes[0].back(), 10);
    EXPECT_EQ(c.bytes[1].back(), 3);
    EXPECT_TRUE(hasDiagnostic(
        "not a list of 4 integers", static_cast<std::int64_t>(text.find("[2, \"x\""))))
        << m_report.toText();
    EXPECT_TRUE(hasDiagnostic(
        "category is not 0..7", static_cast<std::int64_t>(text.find("[4, 2, 1, 9]"))));
    // The two list-shape problems merge into one diagnostic with a count.
    for (const auto &d : m_report.diagnostics()) {
        if (d.message.find("not a list of 4 integers") != std::string::npos) {
            EXPECT_EQ(d.count, 2u);
        }
    }
}

TEST_F(TorchMemoryTest, TruncatedFileKeepsCompleteRows)
{
    const std::string text = "[[1, 2, 10, 0], [2, 2, 5, 1], [3, 2,";
    const auto p = write("cut.json", text);
    const model::Trace t = read(p);
    EXPECT_EQ(t.memory.categories.timestampsNs.size(), 2u);
    EXPECT_TRUE(hasDiagnostic("cut at byte")) << m_report.toText();
}

TEST_F(TorchMemoryTest, TruncatedGzipOfTheRealSampleKeepsItsRows)
{
    std::ifstream in(fs::path(STEPSCOPE_TEST_DATA)
            / "torch_memory/hta-memory-timeline-raw/memory_timeline.raw.gz",
        std::ios::binary);
    std::string gz((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto p = write("cut.raw.gz", gz.substr(0, gz.size() / 2));
    const model::Trace t = read(p);
    const std::size_t rows = t.memory.categories.timestampsNs.size();
    EXPECT_GT(rows, 1000u);
    EXPECT_LT(rows, 16845u);
    EXPECT_TRUE(hasDiagnostic("cut at byte")) << m_report.toText();
}

TEST_F(TorchMemoryTest, GarbageIsReportedAndNothingLoads)
{
    const auto p = write("garbage.json", "this is not json");
    const model::Trace t = read(p, false);
    EXPECT_TRUE(t.memory.empty());
    EXPECT_FALSE(m_report.empty());
    const auto empty = write("empty.json", "");
    read(empty, false);
}

TEST_F(TorchMemoryTest, SniffTellsTheTwoFormsApart)
{
    EXPECT_EQ(sniffMemoryTimeline("[[-1, 1, 37888, 7], [-1, 1, 512, 7]"), MemoryTimelineForm::Raw);
    EXPECT_EQ(sniffMemoryTimeline("[[1.5, 2.5, 3.5], [[0,1,2,3,4,5,6,7,8]"),
        MemoryTimelineForm::Timeline);
    EXPECT_EQ(sniffMemoryTimeline("[[1.5, 2.5, 3.5, 4], [[0,1,2,3,4,5,6,7,8]"),
        MemoryTimelineForm::Timeline);
    EXPECT_EQ(sniffMemoryTimeline("[{\"ph\": \"X\"}]"), MemoryTimelineForm::None);
    EXPECT_EQ(sniffMemoryTimeline("{\"traceEvents\": []}"), MemoryTimelineForm::None);
}

} // namespace
} // namespace stepscope::import::torchmemory
