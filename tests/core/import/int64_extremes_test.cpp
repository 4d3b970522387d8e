// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Times and sizes near the int64 limits in the readers that sum, subtract or shift them
// (issue 14, docs/robustness.md "Findings fixed"): each test failed before its fix, in the
// asan-core build on UBSan's signed-overflow check, in the ci build on a wrapped number.
#include "chrometrace_testutil.h"
#include "import/kineto/kinetotrace.h"
#include "import/loader.h"
#include "import/torchmemory/memorytimeline.h"
#include "import/tracemerge.h"
#include "util/saturate.h"

#include <gtest/gtest.h>

namespace stepscope {
namespace {

using testsupport::said;
using testsupport::TempDirTest;

class Int64Extremes : public TempDirTest
{
protected:
    import::LoadResult loadTmp() { util::Progress progress;
    import::LoadOptions options;
    options.threads = 1;
    import::LoadResult r = import::loadPath(m_tmp, progress, options);
    m_text = r.session ? r.session->report.toText() : std::string();
    return r;
} std::string m_text;
}; // namespace

// A kernel at -9e15 us made the origin -9e18 ns, and a memory point at +9e15 us was then
// shifted by 1.8e19 ns. Times beyond 2^61 ns are now skipped as CSV rows, with the reason.
TEST_F(Int64Extremes, AscendCsvTimesBeyond2To61AreSkippedWithTheReason)
{
    const std::string dir = "r0_ascend_pt/ASCEND_PROFILER_OUTPUT/";
    std::filesystem::create_directories(m_tmp / dir);
    write(dir + "kernel_details.csv",
        "Name,Type,Start Time(us),Duration(us)\n"
        "far,MatMul,-9000000000000000,1\n"
        "huge,MatMul,5,9000000000000000\n"
        "gemm,MatMul,1,2\n");
    write(dir + "memory_record.csv",
        "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB)\n"
        "PTA,9000000000000000,1,2\n"
        "PTA,99999999999999999999999,1,2\n"
        "PTA,3,1,2\n");
    const import::LoadResult r = loadTmp();
    ASSERT_NE(r.session, nullptr);
    ASSERT_EQ(r.session->traces.size(), 1u) << m_text;
    const model::Trace &t = *r.session->traces.front();
    EXPECT_EQ(t.originNs, 1000);
    EXPECT_EQ(t.eventCount(), 1u);
    ASSERT_EQ(t.memory.curves.size(), 1u);
    EXPECT_EQ(t.memory.curves[0].timestampsNs, (std::vector<std::int64_t> {2000}));
    EXPECT_NE(m_text.find("`Start Time(us)` is beyond 2^61 ns"), std::string::npos) << m_text;
    EXPECT_NE(m_text.find("`Duration(us)` is beyond 2^61 ns"), std::string::npos) << m_text;
    EXPECT_NE(m_text.find("`Timestamp(us)` is beyond 2^61 ns"), std::string::npos) << m_text;
}

// Two rows of INT64_MAX bytes: the running total overflowed.
TEST_F(Int64Extremes, TorchMemoryTotalsSaturateAtTheInt64Limit)
{
    const auto file = write("memory_timeline.raw.json",
        "[[10, 1, 9223372036854775807, 0], [20, 1, 9223372036854775807, 0],"
        " [30, 3, -5, 0]]");
    const testsupport::Loaded r = testsupport::load(import::torchmemory::readMemoryTimeline, file);
    ASSERT_TRUE(r.ok) << r.report.toText();
    const auto &bytes = r.trace.memory.categories.bytes[0];
    EXPECT_EQ(
        bytes, (std::vector<std::int64_t> {util::Int64Max, util::Int64Max, util::Int64Max - 5}));
}

// The timeline form's first time is the origin: a later time 1.8e19 ns before it overflowed.
TEST_F(Int64Extremes, TorchMemoryTimesAreShiftedWithSaturation)
{
    const auto file = write("memory_timeline.json",
        "[[9000000000000000, -9000000000000000, 1],"
        " [[0, 1, 0, 0, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0, 0, 0, 0],"
        " [0, 3, 0, 0, 0, 0, 0, 0, 0]]]");
    const testsupport::Loaded r = testsupport::load(import::torchmemory::readMemoryTimeline, file);
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.trace.originNs, 9000000000000000000);
    EXPECT_EQ(r.trace.memory.categories.timestampsNs,
        (std::vector<std::int64_t> {0, util::Int64Min, 1000 - 9000000000000000000}));
}

model::Trace onePart(std::int64_t origin)
{
    model::TraceBuilder b;
    b.trace().originNs = origin;
    model::TrackInfo info;
    info.kind = model::TrackKind::DeviceStream;
    info.processId = "1";
    info.threadId = "7";
    const model::TrackId t = b.addTrack(info);
    b.track(t).add(0, 10, b.intern("k"), model::Category::Compute);
    b.trace().steps.push_back(model::Step {1, 0, 10});
    return b.finish().trace;
}

// Origins 2^62 and -2^62 on one clock: the later part's shift is 2^63, one past INT64_MAX.
TEST_F(Int64Extremes, TraceMergeShiftsAreHeldAtTheInt64Limit)
{
    const std::int64_t far = std::int64_t {1} << 62;
    std::vector<import::TracePart> parts;
    parts.push_back(import::TracePart {onePart(far), true});
    parts.push_back(import::TracePart {onePart(-far), true});
    const model::Trace t = import::mergeTraces(std::move(parts), 0);
    EXPECT_EQ(t.originNs, -far);
    ASSERT_EQ(t.tracks.size(), 1u);
    const model::Track &track = t.tracks[0];
    ASSERT_EQ(track.size(), 2u);
    EXPECT_EQ(track.checkInvariants(), "");
    EXPECT_EQ(track.start(0), 0);
    EXPECT_EQ(track.start(1), util::Int64Max);
    EXPECT_EQ(track.duration(1), 0);
    ASSERT_EQ(t.steps.size(), 2u);
    EXPECT_EQ(t.steps[0].startNs, 0); // sorted by start
    EXPECT_EQ(t.steps[1].startNs, util::Int64Max);
    EXPECT_EQ(t.steps[1].endNs, util::Int64Max);
}

// baseTimeNanoseconds 9e18 plus the first event's 1e18 ns overflowed the origin.
TEST_F(Int64Extremes, KinetoBaseTimeBeyond2To61IsNotUsedAndSaidSo)
{
    for (const char *base : {"9000000000000000000", "\"9000000000000000000\"",
             "18446744073709551615", "-3000000000000000000", "1.5e18", "\"soon\""}) {
        const auto file = write("w.pt.trace.json",
            std::string("{\"baseTimeNanoseconds\": ") + base
                + ", \"traceEvents\": [{\"ph\": \"X\", \"name\": \"k\", \"cat\": \"kernel\","
                  " \"pid\": 0, \"tid\": 7, \"ts\": 1000000000000000, \"dur\": 1}]}");
        const testsupport::Loaded r = testsupport::load(import::kineto::readTrace, file);
        ASSERT_TRUE(r.ok) << base << "\n" << r.report.toText();
        EXPECT_EQ(r.trace.originNs, 1000000000000000000) << base;
        EXPECT_TRUE(said(r.report, "`baseTimeNanoseconds` ")) << base << "\n" << r.report.toText();
    }
    const auto file = write("w.pt.trace.json",
        "{\"baseTimeNanoseconds\": 2000000000000000000, \"traceEvents\": [{\"ph\": \"X\","
        " \"name\": \"k\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 5, \"dur\": 1}]}");
    const testsupport::Loaded r = testsupport::load(import::kineto::readTrace, file);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.trace.originNs, 2000000000000005000);
    EXPECT_FALSE(said(r.report, "baseTimeNanoseconds")) << r.report.toText();
}

} // namespace stepscope
} // namespace stepscope
