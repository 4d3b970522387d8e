// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Comparisons of durations at the int64 limits: kernel totals held at INT64_MAX instead of
// wrapping, rank step deltas taken in double, and Markdown values beyond int64 saturated.
#include "analysis/analysissummary.h"
#include "analysis/compare.h"
#include "analysis/compareoutput.h"
#include "analysis/units.h"
#include "model/tracebuilder.h"
#include "util/saturate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace stepscope;
using namespace stepscope::analysis;

namespace {

constexpr std::int64_t Max = std::numeric_limits<std::int64_t>::max();

// One device stream holding `gemm` kernels of the given durations, 1 ns apart.
model::Trace kernels(const std::vector<std::int64_t> &durations)
{
    model::TraceBuilder tb;
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.threadId = "stream 7";
    const model::TrackId d = tb.addTrack(dev);
    std::int64_t t = 0;
    for (const std::int64_t dur : durations)
        tb.track(d).add(t++, dur, tb.intern("gemm"), model::Category::Compute);
    return tb.finish().trace;
}

StepBreakdown step(std::int32_t rank, std::int64_t startNs, std::int64_t endNs)
{
    StepBreakdown b;
    b.rank = rank;
    b.step = 1;
    b.startNs = startNs;
    b.endNs = endNs;
    return b;
}

} // namespace

TEST(CompareExtremes, KernelTotalsNearInt64MaxAreHeldThereNotWrapped)
{
    // Two kernels of 2^62 ns: their sum is 2^63, one past INT64_MAX (it wrapped to INT64_MIN).
    const std::int64_t half = std::int64_t {1} << 62;
    const model::Trace before = kernels({half, half});
    const model::Trace after = kernels({1000});
    const auto stats = collectNameStats(before, OpScope::DeviceKernels, std::nullopt);
    ASSERT_EQ(stats.size(), 1U);
    EXPECT_EQ(stats[0].second.count, 2);
    EXPECT_EQ(stats[0].second.totalNs, Max);
    EXPECT_DOUBLE_EQ(stats[0].second.share, 1.0); // total saturated the same way

    const NameDeltaTable table = nameDeltas(before, after, NameDeltaOptions {});
    EXPECT_EQ(table.totalBeforeNs, Max);
    EXPECT_EQ(table.totalAfterNs, 1000);
    ASSERT_EQ(table.top.size(), 1U);
    EXPECT_LT(table.top[0].deltaTotalNs, -9e18); // after is far shorter, not longer
}

TEST(CompareExtremes, RankStepDeltaOfStepsAtTheLimitsIsTakenInDouble)
{
    // A step of INT64_MAX ns against one whose end lies before its start: the int64
    // difference of their durations (INT64_MAX - (-10)) overflowed.
    SessionAnalysis before;
    before.breakdowns = {step(0, 10, 0), step(1, 0, 100)};
    SessionAnalysis after;
    after.breakdowns = {step(0, 0, Max), step(1, 0, 300)};
    RunComparison r;
    r.beforeRanks = {0, 1};
    r.afterRanks = {0, 1};
    compareRanks(r, before, after);
    ASSERT_EQ(r.rankSteps.ranks.size(), 2U);
    ASSERT_EQ(r.rankSteps.steps, std::vector<std::int64_t>({1}));
    const double rank0 = r.rankSteps.deltaUs[0];
    EXPECT_GT(rank0, 9.2e15); // (2^63 - 1 + 10) ns in µs, positive
    EXPECT_NEAR(rank0, (static_cast<double>(Max) + 10.0) / 1000.0, 1e3);
    EXPECT_DOUBLE_EQ(r.rankSteps.deltaUs[1], 0.2);
}

TEST(CompareExtremes, MarkdownValuesBeyondInt64AreHeldAtTheLimit)
{
    // std::llround of a value outside int64 is unspecified (INT64_MIN on x86-64): a huge
    // positive time printed as a negative one.
    const std::string longest = formatDuration(Max);
    EXPECT_EQ(formatRowValue("ns", 1e30), longest);
    EXPECT_EQ(formatRowValue("us", 1e30), longest);
    EXPECT_EQ(formatRowValue("us", 1e30, true), "+" + longest);
    EXPECT_EQ(formatRowValue("us", -1e30, true), "\u2212" + longest);
    EXPECT_EQ(formatRowValue("bytes", 1e30), formatBytes(Max));
    EXPECT_EQ(formatRowValue("ns", std::nan("")), formatRowValue("ns", HUGE_VAL)); // both a dash
    EXPECT_EQ(formatRowValue("us", 2.5), "2.50 µs"); // in range: unchanged
}

TEST(CompareExtremes, StepBreakdownLengthHoldsAtTheLimits)
{
    StepBreakdown b;
    b.startNs = util::Int64Min;
    b.endNs = util::Int64Max;
    EXPECT_EQ(b.durationNs(), util::Int64Max); // wrapped to -1 before
    b.startNs = util::Int64Max;
    b.endNs = util::Int64Min;
    EXPECT_EQ(b.durationNs(), util::Int64Min);
}
