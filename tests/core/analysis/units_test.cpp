// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// analysis/units.h: durations to three significant digits, time points exact to the ns.
#include "analysis/units.h"
#include "util/saturate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace stepscope;
using analysis::formatDuration;
using analysis::formatTimePoint;

TEST(Units, TimePointsAreExactToTheNanosecond)
{
    EXPECT_EQ(formatTimePoint(0), "0 ns");
    EXPECT_EQ(formatTimePoint(512), "512 ns");
    EXPECT_EQ(formatTimePoint(72'312), "72.312 µs");
    EXPECT_EQ(formatTimePoint(1'000), "1 µs");
    EXPECT_EQ(formatTimePoint(100'000'000), "100 ms");
    EXPECT_EQ(formatTimePoint(12'000'050), "12.00005 ms");
    EXPECT_EQ(formatTimePoint(1'500'000'000), "1.5 s");
    // An event 77 s into a trace: the duration format says "77.0 s" for all of them.
    EXPECT_EQ(formatTimePoint(77'000'123'456), "77.000123456 s");
    EXPECT_EQ(formatDuration(77'000'123'456), "77.0 s");
    EXPECT_EQ(formatTimePoint(-2'000), "-2 µs");
    EXPECT_EQ(formatTimePoint(util::Int64Min), "-9223372036.854775808 s");
    EXPECT_EQ(formatTimePoint(util::Int64Max), "9223372036.854775807 s");
}

// The profiler's MB (bytes / 10^6) and GB/s, as the Communication panel and `stepscope
// summary` both show them: 4e-05 MB read "4e-05 MB" in the summary and "40 B" in the panel.
// The evidence texts' numbers: four significant digits, and the MB of a log's memory line
// as written rather than "1.248e+04".
/// A loss divergence of 0.0015 % read "0.0 %" in the compare Markdown and report.
TEST(Units, RelativeDifferencesKeepThreeSignificantDigits)
{
    EXPECT_EQ(analysis::formatRelative(0.000015), "0.0015 %");
    EXPECT_EQ(analysis::formatRelative(0.123456), "12.3 %");
    EXPECT_EQ(analysis::formatRelative(0), "0 %");
    EXPECT_EQ(analysis::formatShare(0.000015), "0.0 %"); // shares of time keep one decimal
}

TEST(Units, ShortNumbersOfTheEvidenceTexts)
{
    using analysis::formatShort;
    EXPECT_EQ(formatShort(87.3456), "87.35");
    EXPECT_EQ(formatShort(0.0123456), "0.01235");
    EXPECT_EQ(formatShort(12480.4), "12480");
    EXPECT_EQ(formatShort(-20000), "-20000");
    EXPECT_EQ(formatShort(1.5e13), "1.5e+13");
    EXPECT_EQ(formatShort(std::nan("")), "nan");
}

TEST(Units, ProfilerMegabytesAndBandwidths)
{
    using analysis::formatBandwidth;
    using analysis::formatMegabytes;
    EXPECT_EQ(formatMegabytes(4e-05), "40 B");
    EXPECT_EQ(formatMegabytes(21.1), "20.1 MiB"); // 21 100 000 bytes
    // The matrix of msinsight-cnn-level2-2rank: 61.210624 MB are 59 776 KiB.
    EXPECT_EQ(formatMegabytes(61.210624), "58.4 MiB");
    EXPECT_EQ(formatMegabytes(0), "0 B");
    EXPECT_EQ(formatMegabytes(-1), "0 B");
    // A size from a file past any real one is bounded, not an overflow of int64 bytes.
    EXPECT_EQ(formatMegabytes(std::numeric_limits<double>::infinity()), formatMegabytes(1e12));
    EXPECT_EQ(formatBandwidth(24.3), "24.3 GB/s");
    EXPECT_EQ(formatBandwidth(0.0247), "24.7 MB/s");
    EXPECT_EQ(formatBandwidth(0.00008), "80.0 kB/s");
    EXPECT_EQ(formatBandwidth(0), "–");
}
