// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/timeaxis.h"

#include <gtest/gtest.h>

using stepscope::ui::timeline::TimeAxis;

TEST(TimeAxis, MapsTimeToPixelsAtSeveralZooms)
{
    // 1 µs per pixel, 1000 px: [5 ms, 6 ms).
    TimeAxis a(5'000'000, 1000.0, 1000);
    EXPECT_DOUBLE_EQ(a.toPx(5'000'000), 0.0);
    EXPECT_DOUBLE_EQ(a.toPx(5'500'000), 500.0);
    EXPECT_EQ(a.toNs(250.0), 5'250'000);
    EXPECT_EQ(a.endNs(), 6'000'000);
    // 10 ns per pixel.
    TimeAxis b(0, 10.0, 800);
    EXPECT_DOUBLE_EQ(b.toPx(4000), 400.0);
    EXPECT_EQ(b.toNs(799.0), 7990);
    // 0.5 ns per pixel: a nanosecond spans two pixels.
    TimeAxis c(100, 0.5, 200);
    EXPECT_DOUBLE_EQ(c.toPx(101), 2.0);
    EXPECT_EQ(c.toNs(3.0), 102); // 101.5 rounds away from zero
    // 1 s per pixel; round trip of a large timestamp stays exact to the ns scale used.
    TimeAxis d(1'700'000'000'000'000'000, 1e9, 1920);
    EXPECT_EQ(d.toNs(d.toPx(1'700'000'010'000'000'000)), 1'700'000'010'000'000'000);
}

TEST(TimeAxis, FitShowsTheRangeAcrossTheWidth)
{
    TimeAxis a(0, 1.0, 1000);
    a.fit(2'000, 12'000);
    EXPECT_EQ(a.startNs(), 2'000);
    EXPECT_DOUBLE_EQ(a.nsPerPixel(), 10.0);
    EXPECT_DOUBLE_EQ(a.toPx(12'000), 1000.0);
}

TEST(TimeAxis, ZoomKeepsTheTimeUnderTheAnchor)
{
    TimeAxis a(0, 100.0, 1000);
    const std::int64_t under = a.toNs(300.0);
    a.zoomAt(300.0, 4.0);
    EXPECT_DOUBLE_EQ(a.nsPerPixel(), 25.0);
    EXPECT_EQ(a.toNs(300.0), under);
    a.zoomAt(300.0, 0.5);
    EXPECT_EQ(a.toNs(300.0), under);
    EXPECT_DOUBLE_EQ(a.nsPerPixel(), 50.0);
}

TEST(TimeAxis, ScaleIsClamped)
{
    TimeAxis a(0, 1.0, 100);
    a.zoomAt(0, 1e9);
    EXPECT_DOUBLE_EQ(a.nsPerPixel(), TimeAxis::MinNsPerPixel);
    a.fit(0, 0); // empty range: one ns over the width
    EXPECT_GE(a.nsPerPixel(), TimeAxis::MinNsPerPixel);
}

TEST(TimeAxis, PanMovesByPixels)
{
    TimeAxis a(1000, 10.0, 100);
    a.panPx(15);
    EXPECT_EQ(a.startNs(), 1150);
    a.panPx(-30);
    EXPECT_EQ(a.startNs(), 850);
}

TEST(TimeAxis, RulerUnitsAdapt)
{
    using stepscope::ui::timeline::tickSpacing;
    EXPECT_STREQ(tickSpacing(0.1, 90).unit, "ns");
    EXPECT_EQ(tickSpacing(0.1, 90).stepNs, 10);
    EXPECT_STREQ(tickSpacing(50, 90).unit, "µs");
    EXPECT_EQ(tickSpacing(50, 90).stepNs, 5'000);
    EXPECT_STREQ(tickSpacing(1e5, 90).unit, "ms");
    EXPECT_EQ(tickSpacing(1e5, 90).stepNs, 10'000'000);
    EXPECT_STREQ(tickSpacing(2e7, 90).unit, "s");
    EXPECT_EQ(tickSpacing(2e7, 90).stepNs, 2'000'000'000);
    const auto t = tickSpacing(50, 90);
    EXPECT_EQ(stepscope::ui::timeline::tickLabel(15'000, t), QStringLiteral("15 µs"));
    const auto t2 = tickSpacing(2, 90); // 200 ns steps, labelled in µs? no: ns
    EXPECT_EQ(stepscope::ui::timeline::tickLabel(1'200, t2), QStringLiteral("1200 ns"));
    // Five digits in the unit: the next unit up, with the decimals the step needs.
    const auto t3 = tickSpacing(1e6, 90); // 100 ms steps
    EXPECT_EQ(stepscope::ui::timeline::tickLabel(9'900'000'000, t3), QStringLiteral("9900 ms"));
    EXPECT_EQ(stepscope::ui::timeline::tickLabel(460'200'000'000, t3), QStringLiteral("460.2 s"));
    EXPECT_EQ(stepscope::ui::timeline::tickLabel(12'000, t2), QStringLiteral("12.0 µs"));
}
