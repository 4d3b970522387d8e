// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Kineto / Chrome-trace `ts` and `dur` at the edges of int64 (issue 14): µs numbers or
// strings whose ns value lies beyond ±2^61 ns (73 years) are dropped with a diagnostic that
// names the field, so ts + dur and the shift to the trace's origin stay inside int64. Before,
// `dur` 9e15 µs overflowed ts + dur (UBSan in the asan-core build), and a `ts` of 1e18 µs
// was reported as "not a number".
#include "chrometrace_testutil.h"
#include "import/kineto/kinetotrace.h"

#include <gtest/gtest.h>

namespace stepscope {
namespace {

using testsupport::said;
using testsupport::TempDirTest;

class KinetoExtremes : public TempDirTest
{
protected:
    /// A trace with a normal kernel at ts 10 µs and one event of the given ts and dur text.
    testsupport::Loaded load(const std::string &ts, const std::string &dur)
    {
        const auto file = write("w.pt.trace.json",
            "{\"traceEvents\": [\n"
            "{\"ph\": \"X\", \"name\": \"ok\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7,"
            " \"ts\": 10, \"dur\": 1},\n"
            "{\"ph\": \"X\", \"name\": \"edge\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7,"
            " \"ts\": "
                + ts + ", \"dur\": " + dur + "}\n]}");
        return testsupport::load(import::kineto::readTrace, file);
    }
    static std::uint64_t events(const model::Trace &t) { return t.eventCount(); }
};

TEST_F(KinetoExtremes, TsNearPlusOrMinus1e18MicrosIsDroppedWithTheReason)
{
    for (const std::string ts : {"1e18", "-1e18", "1000000000000000000", "-1000000000000000000",
             "9000000000000000", "-9000000000000000", "\"9000000000000000\""}) {
        const testsupport::Loaded r = load(ts, "1");
        ASSERT_TRUE(r.ok) << ts << "\n" << r.report.toText();
        EXPECT_EQ(events(r.trace), 1u) << ts;
        EXPECT_EQ(r.trace.originNs, 10000) << ts;
        EXPECT_TRUE(said(r.report, "`ts` is beyond 2^61 ns")) << ts << "\n" << r.report.toText();
    }
}

TEST_F(KinetoExtremes, TsInsideTheBoundIsKeptExactly)
{
    // 2^61 ns is 2305843009213693.952 µs: just inside, on both sides.
    const testsupport::Loaded r = load("2305843009213693.951", "1");
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(events(r.trace), 2u);
    EXPECT_EQ(r.trace.originNs, 10000);
    EXPECT_FALSE(said(r.report, "beyond")) << r.report.toText();
    std::int64_t latest = 0;
    for (const model::Track &t : r.trace.tracks)
        for (std::uint32_t i = 0; i < t.size(); ++i)
            latest = std::max(latest, r.trace.originNs + t.start(i));
    EXPECT_EQ(latest, 2305843009213693951);
}

TEST_F(KinetoExtremes, DurNegativeNanOrHugeIsDroppedAndTheRestKept)
{
    const testsupport::Loaded negative = load("20", "-5");
    EXPECT_EQ(events(negative.trace), 1u);
    EXPECT_TRUE(said(negative.report, "negative `dur`")) << negative.report.toText();

    const testsupport::Loaded nan = load("20", "NaN");
    EXPECT_EQ(events(nan.trace), 1u) << nan.report.toText();

    const testsupport::Loaded nanText = load("20", "\"NaN\"");
    EXPECT_EQ(events(nanText.trace), 1u) << nanText.report.toText();
    EXPECT_TRUE(said(nanText.report, "`dur` is not a number")) << nanText.report.toText();

    for (const std::string dur : {"9000000000000000", "9.3e15", "1e300", "\"9000000000000000\""}) {
        const testsupport::Loaded huge = load("20", dur);
        ASSERT_TRUE(huge.ok) << dur;
        EXPECT_EQ(events(huge.trace), 1u) << dur;
        EXPECT_TRUE(said(huge.report, "`dur` is beyond 2^61 ns")) << dur << "\n"
                                                                  << huge.report.toText();
    }
}

TEST_F(KinetoExtremes, StringTimesAreReadExactly)
{
    const testsupport::Loaded r = load("\"1700000000000000.123\"", "\"2.5\"");
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(events(r.trace), 2u);
    bool found = false;
    for (const model::Track &t : r.trace.tracks)
        for (std::uint32_t i = 0; i < t.size(); ++i)
            if (r.trace.strings.view(t.name(i)) == "edge") {
                found = true;
                EXPECT_EQ(r.trace.originNs + t.start(i), 1700000000000000123);
                EXPECT_EQ(t.duration(i), 2500);
            }
    EXPECT_TRUE(found);
}

} // namespace
} // namespace stepscope
