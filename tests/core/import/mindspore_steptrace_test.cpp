// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/importcontext.h"
#include "import/mindspore/steptraceraw.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <vector>

namespace stepscope::import::mindspore {
namespace {

namespace fs = std::filesystem;

const fs::path Legacy = fs::path(STEPSCOPE_TEST_DATA) / "mindspore_legacy";

class StepTraceRawTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path()
            / ("stepscope_steptraceraw_"
                + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::create_directories(m_dir);
        m_ctx.root = Legacy;
        m_ctx.report = &m_report;
    }
    void TearDown() override { fs::remove_all(m_dir); }

    model::Trace read(
        const fs::path &p, std::int64_t originNs, std::size_t expectSteps, bool reduceLanes = true)
    {
        model::TraceBuilder b;
        b.trace().originNs = originNs;
        StepTraceOptions options;
        options.reduceLanes = reduceLanes;
        EXPECT_EQ(readStepTraceRaw(p, m_ctx, 1, b, options), expectSteps) << m_report.toText();
        model::Trace t = b.finish().trace;
        EXPECT_EQ(t.checkInvariants(), "");
        return t;
    }
    static const model::Track *track(
        const model::Trace &t, model::TrackKind kind, const std::string &thread)
    {
        for (const model::Track &tr : t.tracks) {
            if (tr.info().kind == kind && tr.info().threadId == thread)
                return &tr;
        }
        return nullptr;
    }
    static std::size_t events(const model::Trace &t, model::TrackKind kind)
    {
        std::size_t n = 0;
        for (const model::Track &tr : t.tracks)
            n += tr.info().kind == kind ? tr.size() : 0;
        return n;
    }

    fs::path m_dir;
    model::LoadReport m_report;
    ImportContext m_ctx;
};

TEST_F(StepTraceRawTest, WideDeepOlderSchemeAllSteps)
{
    // Origin on the tick clock: min_cycle_counter_1.txt = 43806841592 ticks.
    const std::int64_t origin = 43806841592LL * 10;
    const model::Trace t =
        read(Legacy / "mindinsight-widedeep-run1/step_trace_raw_1_detail_time.csv", origin, 322);
    // 322 steps, the "-" average row skipped (python3: csv rows with step_num != "-").
    ASSERT_EQ(t.steps.size(), 322u);
    EXPECT_EQ(t.steps.front().number, 1);
    EXPECT_EQ(t.steps.back().number, 322);
    EXPECT_EQ(t.steps.front().startNs, 43806850547LL * 10 - origin);
    EXPECT_EQ(t.steps.front().durationNs(), (43835277665LL - 43806850547LL) * 10);
    EXPECT_EQ(t.steps.back().startNs, 50407224451LL * 10 - origin);
    ASSERT_EQ(t.referenceSteps.size(), 322u);
    const model::ReferenceStep &s2 = t.referenceSteps[1];
    EXPECT_EQ(s2.step, 2);
    EXPECT_EQ(s2.source, "mindinsight-widedeep-run1/step_trace_raw_1_detail_time.csv");
    ASSERT_NE(s2.find("iteration_interval"), nullptr);
    EXPECT_DOUBLE_EQ(*s2.find("iteration_interval"), 210.81); // 21081 ticks
    EXPECT_DOUBLE_EQ(*s2.find("fp_and_bp"), 117997.58); // 11799758 ticks
    EXPECT_DOUBLE_EQ(*s2.find("tail"), 87475.19); // 8747519 ticks
    // Step lane: 322 steps + 965 non-zero phases (step 1 has iteration_interval 0).
    const model::Track *steps = track(t, model::TrackKind::Synthetic, "steps");
    ASSERT_NE(steps, nullptr);
    EXPECT_EQ(steps->size(), 322u + 965u);
    EXPECT_EQ(steps->rowCount(), 2u); // phases nest inside their step
    // 11 reduce streams, 322 x 11 = 3542 reduce events, the same as timeline_display pid 10000.
    EXPECT_EQ(events(t, model::TrackKind::CommunicationGroup), 3542u);
    std::size_t streams = 0;
    for (const model::Track &tr : t.tracks)
        streams += tr.info().kind == model::TrackKind::CommunicationGroup ? 1 : 0;
    EXPECT_EQ(streams, 11u);
    const model::Track *s520 = track(t, model::TrackKind::CommunicationGroup, "520");
    ASSERT_NE(s520, nullptr);
    EXPECT_EQ(s520->start(0), 43806979896LL * 10 - origin);
    EXPECT_EQ(s520->duration(0), 7862870LL * 10);
    EXPECT_EQ(t.strings.view(s520->name(0)), "stream_520_parallel_0");
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(StepTraceRawTest, ClusterNewerSchemeDurationFirst)
{
    const model::Trace t =
        read(Legacy / "mindinsight-cluster-pp-4rank/step_trace_raw_0_detail_time.csv",
            1162412079349LL * 10, 5);
    ASSERT_EQ(t.steps.size(), 5u);
    EXPECT_EQ(t.steps[0].startNs, 0);
    EXPECT_EQ(t.steps[0].endNs, (1162429898009LL - 1162412079349LL) * 10);
    // 97 reduce ops x 5 steps over 14 streams (python3 over the header suffixes).
    EXPECT_EQ(events(t, model::TrackKind::CommunicationGroup), 485u);
    const model::Track *s48 = track(t, model::TrackKind::CommunicationGroup, "48");
    ASSERT_NE(s48, nullptr);
    // stream_48_0_Receive-op663: duration 5010767 ticks from 1162411816566.
    EXPECT_EQ(t.strings.view(s48->name(0)), "stream_48_0_Receive-op663");
    EXPECT_EQ(s48->start(0), (1162411816566LL - 1162412079349LL) * 10);
    EXPECT_EQ(s48->duration(0), 5010767LL * 10);
    // 5 steps + 14 non-zero phases.
    EXPECT_EQ(events(t, model::TrackKind::Synthetic), 5u + 14u);
}

TEST_F(StepTraceRawTest, ZeroReduceEntriesAreNotEventsAndLanesCanBeOff)
{
    const fs::path f =
        Legacy / "mindinsight-profiler-dir-with-PROF-2dev/step_trace_raw_10_detail_time.csv";
    const model::Trace t = read(f, 0, 40);
    // 40 steps x 4 reduce columns = 160 entries, 80 of them all-zero (op not run).
    EXPECT_EQ(events(t, model::TrackKind::CommunicationGroup), 80u);
    EXPECT_EQ(events(t, model::TrackKind::Synthetic), 40u + 119u);
    const model::Trace noLanes = read(f, 0, 40, false);
    EXPECT_EQ(events(noLanes, model::TrackKind::CommunicationGroup), 0u);
    EXPECT_EQ(noLanes.steps.size(), 40u);
}

TEST_F(StepTraceRawTest, MalformedRowsAreSkippedWithLines)
{
    const fs::path f = m_dir / "step_trace_raw_0_detail_time.csv";
    std::ofstream(f, std::ios::binary)
        << "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,"
           "fp_and_bp,tail,stream_5_parallel_0_start_point,stream_5_parallel_0_end_point,"
           "stream_5_parallel_0\r\n"
        << "1,100,200,100,110,190,10,80,10,120,130,10\r\n" // line 2: good
        << "2,abc,300,100,210,290,10,80,10,220,230,10\r\n" // line 3: bad tick
        << "3,300,400,100,310,390,10,80,10,330,320,-10\r\n" // line 4: reduce ends before start
        << "4,400\r\n" // line 5: short row
        << "0,1,2,3,4,5,6,7,8,9,10,11\r\n" // summary row "0"
        << "-,1,2,3,4,5,6,7,8,9,10,11\r\n"; // summary row "-"
    m_ctx.root = m_dir;
    const model::Trace t = read(f, 0, 2);
    ASSERT_EQ(t.steps.size(), 2u);
    EXPECT_EQ(t.steps[0].number, 1);
    EXPECT_EQ(t.steps[1].number, 3);
    EXPECT_EQ(t.steps[1].startNs, 3000);
    bool badTick = false, badReduce = false, shortRow = false;
    for (const auto &d : m_report.diagnostics()) {
        badTick |= d.line == 3 && d.message.find("not integers") != std::string::npos;
        badReduce |= d.line == 4 && d.message.find("ends before") != std::string::npos;
        shortRow |= d.line == 5;
        EXPECT_EQ(d.file, "step_trace_raw_0_detail_time.csv");
    }
    EXPECT_TRUE(badTick) << m_report.toText();
    EXPECT_TRUE(badReduce) << m_report.toText();
    EXPECT_TRUE(shortRow) << m_report.toText();
}

TEST_F(StepTraceRawTest, TicksBeyondTheLimitAreSkippedNotOverflowed)
{
    // Found by fuzz-smoke: 4521007399972893148 ticks * 10 ns overflowed int64 (UBSan).
    const fs::path f = m_dir / "step_trace_raw_0_detail_time.csv";
    std::ofstream(f, std::ios::binary)
        << "step_num,start_point,end_point,total,fp_point,bp_point,iteration_interval,"
           "fp_and_bp,tail,stream_5_parallel_0_start_point,stream_5_parallel_0_end_point,"
           "stream_5_parallel_0\n"
        << "1,100,200,100,110,190,10,80,10,120,130,10\n" // line 2: good
        << "2,200,4521007399972893148,100,210,290,10,80,10,220,230,10\n" // line 3: huge end
        << "3,300,400,100,310,390,10,80,-9223372036854775808,330,340,10\n" // line 4: huge tail
        << "4,400,500,100,410,490,10,80,10,420,4521007399972893148,10\n"; // line 5: reduce
    m_ctx.root = m_dir;
    const model::Trace t = read(f, 0, 2);
    ASSERT_EQ(t.steps.size(), 2u);
    EXPECT_EQ(t.steps[0].number, 1);
    EXPECT_EQ(t.steps[1].number, 4);
    EXPECT_EQ(t.steps[1].endNs, 5000);
    std::vector<int> lines;
    for (const auto &d : m_report.diagnostics()) {
        if (d.message.find("beyond 2^58 ns") != std::string::npos)
            lines.push_back(static_cast<int>(d.line));
    }
    // Lines 3 and 4 share one message: merged into one diagnostic at the first line, "(2 times)".
    EXPECT_EQ(lines, (std::vector<int> {3, 5})) << m_report.toText();
    EXPECT_NE(m_report.toText().find("(2 times)"), std::string::npos) << m_report.toText();
    EXPECT_EQ(firstStepStartTicks(f), 100);
}

TEST_F(StepTraceRawTest, MissingColumnDropsTheFile)
{
    const fs::path f = m_dir / "step_trace_raw_0_detail_time.csv";
    std::ofstream(f, std::ios::binary) << "step_num,start_point\n1,100\n";
    m_ctx.root = m_dir;
    const model::Trace t = read(f, 0, 0);
    EXPECT_TRUE(t.steps.empty());
    ASSERT_FALSE(m_report.empty());
    EXPECT_EQ(m_report.diagnostics().front().severity, model::Severity::Error);
    EXPECT_NE(m_report.diagnostics().front().message.find("end_point"), std::string::npos);
}

TEST_F(StepTraceRawTest, GarbageAndEmptyFilesAreReportedNotFatal)
{
    const fs::path garbage = m_dir / "step_trace_raw_1_detail_time.csv";
    std::ofstream(garbage, std::ios::binary) << std::string("\x89PNG\r\n\x1a\n\0\0garbage", 17);
    m_ctx.root = m_dir;
    EXPECT_TRUE(read(garbage, 0, 0).steps.empty());
    ASSERT_FALSE(m_report.empty());
    EXPECT_EQ(m_report.diagnostics().front().severity, model::Severity::Error);

    m_report = model::LoadReport();
    const fs::path empty = m_dir / "step_trace_raw_2_detail_time.csv";
    std::ofstream(empty, std::ios::binary) << "";
    EXPECT_TRUE(read(empty, 0, 0).steps.empty());
    EXPECT_FALSE(m_report.empty());
}

TEST_F(StepTraceRawTest, TruncatedFileKeepsTheCompleteRows)
{
    // The real widedeep file cut in the middle of row 101 (line 102).
    std::ifstream in(
        Legacy / "mindinsight-widedeep-run1/step_trace_raw_1_detail_time.csv", std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t pos = 0;
    for (int line = 0; line < 101; ++line)
        pos = text.find('\n', pos) + 1;
    const fs::path cut = m_dir / "step_trace_raw_1_detail_time.csv";
    std::ofstream(cut, std::ios::binary) << text.substr(0, pos + 40);
    m_ctx.root = m_dir;
    const model::Trace t = read(cut, 0, 100);
    EXPECT_EQ(t.steps.size(), 100u);
    EXPECT_EQ(t.steps.back().number, 100);
    ASSERT_FALSE(m_report.empty());
    EXPECT_EQ(m_report.diagnostics().front().line, 102);
}

} // namespace
} // namespace stepscope::import::mindspore
