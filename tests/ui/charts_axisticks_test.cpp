// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Axis ticks at round values in adaptive units (ui/charts/axisticks.h, DESIGN.md "Numbers and
// text"). Expected values worked out by hand from the 1-2-5 rule.

#include "ui/charts/axisticks.h"
#include "ui/charts/chartstyle.h"

#include <gtest/gtest.h>

#include <QStringList>
#include <QValueAxis>

#include <cmath>

using namespace stepscope::ui;

namespace {

QStringList labels(const AxisTicks &t)
{
    QStringList out;
    for (double v : t.values)
        out << t.label(v);
    return out;
}

} // namespace

TEST(AxisTicks, DurationsPickTheUnitOfTheLargestValue)
{
    // 0 … 155 ms (the report's "0 / 51.6 / 103 / 155 ms" case): steps of 50 ms, up to 200.
    const AxisTicks t = niceTicks(0, 155e6, TickUnit::Nanoseconds, 4);
    EXPECT_EQ(t.unit, QStringLiteral("ms"));
    EXPECT_DOUBLE_EQ(t.step, 50);
    EXPECT_EQ(labels(t),
        (QStringList {QStringLiteral("0 ms"), QStringLiteral("50 ms"), QStringLiteral("100 ms"),
            QStringLiteral("150 ms"), QStringLiteral("200 ms")}));
    // 20 s in ns (the "0, 2e+07, 4e+07" axis was seconds of a timestamp in µs): seconds.
    const AxisTicks s = niceTicks(0, 20e9, TickUnit::Nanoseconds, 5);
    EXPECT_EQ(s.unit, QStringLiteral("s"));
    EXPECT_DOUBLE_EQ(s.step, 5);
    EXPECT_EQ(s.label(s.values.back()), QStringLiteral("20 s"));
    // Sub-unit steps get decimals, and only as many as the step needs.
    const AxisTicks fine = niceTicks(1.0e6, 1.8e6, TickUnit::Nanoseconds, 4);
    EXPECT_EQ(fine.unit, QStringLiteral("ms"));
    EXPECT_DOUBLE_EQ(fine.step, 0.2);
    EXPECT_EQ(fine.decimals, 1);
    EXPECT_EQ(fine.label(fine.values.front()), QStringLiteral("1.0 ms"));
    EXPECT_EQ(fine.label(fine.values.back()), QStringLiteral("1.8 ms"));
}

TEST(AxisTicks, BytesInBinaryUnits)
{
    const double gib = 1024.0 * 1024 * 1024;
    const AxisTicks t = niceTicks(0, 6.17 * gib, TickUnit::Bytes, 5);
    EXPECT_EQ(t.unit, QStringLiteral("GiB"));
    EXPECT_DOUBLE_EQ(t.step, 2);
    EXPECT_DOUBLE_EQ(t.hi, 8);
    EXPECT_EQ(t.label(2), QStringLiteral("2 GiB"));
    const AxisTicks k = niceTicks(0, 3000, TickUnit::Bytes, 3);
    EXPECT_EQ(k.unit, QStringLiteral("KiB"));
    EXPECT_DOUBLE_EQ(k.step, 1);
    EXPECT_DOUBLE_EQ(k.hi, 3);
}

TEST(AxisTicks, EveryTickIsARoundMultipleOfTheStepAndCoversTheData)
{
    for (double hi : {1.0, 7.0, 13.0, 99.0, 101.0, 555.0, 1234.5, 98765.0, 3.3e7}) {
        for (int target : {3, 4, 5, 8}) {
            const AxisTicks t = niceTicks(0, hi, TickUnit::Plain, target);
            const double mantissa = t.step / std::pow(10.0, std::floor(std::log10(t.step)));
            EXPECT_TRUE(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9
                || std::abs(mantissa - 5) < 1e-9)
                << hi << " step " << t.step;
            EXPECT_LE(t.lo, 0);
            EXPECT_GE(t.hi, hi);
            EXPECT_LE(t.values.size(), static_cast<std::size_t>(2 * target + 2)) << hi;
            EXPECT_GE(t.values.size(), 2u);
            for (double v : t.values)
                EXPECT_NEAR(v / t.step, std::round(v / t.step), 1e-9) << v;
        }
    }
}

TEST(AxisTicks, AnEmptyRangeIsOneUnitNotAPicoscale)
{
    const AxisTicks zero = niceTicks(0, 0, TickUnit::Bytes);
    EXPECT_EQ(zero.unit, QStringLiteral("B"));
    EXPECT_DOUBLE_EQ(zero.lo, 0);
    EXPECT_DOUBLE_EQ(zero.hi, 1);
    for (double v : zero.values)
        EXPECT_FALSE(zero.label(v).contains(QLatin1Char('e'))) << zero.label(v).toStdString();
    const AxisTicks flat = niceTicks(5e6, 5e6, TickUnit::Nanoseconds);
    EXPECT_LT(flat.lo, 5);
    EXPECT_GT(flat.hi, 5);
    const AxisTicks nan = niceTicks(std::nan(""), 1, TickUnit::Plain);
    EXPECT_DOUBLE_EQ(nan.hi, 1);
}

TEST(AxisTicks, NegativeValuesAndNoMinusZero)
{
    const AxisTicks t = niceTicks(-30e6, 45e6, TickUnit::Nanoseconds, 5);
    EXPECT_EQ(t.unit, QStringLiteral("ms"));
    EXPECT_LE(t.lo, -30);
    EXPECT_GE(t.hi, 45);
    for (double v : t.values)
        EXPECT_NE(t.label(v), QStringLiteral("-0 ms"));
}

TEST(AxisTicks, AtMostSoManyLabelsForShortCharts)
{
    // 0 … 7.3: target 3 gives 0, 2, 4, 6, 8 (five); at most four takes 0, 5, 10.
    const AxisTicks t = niceTicksAtMost(0, 7.3, TickUnit::Plain, 4);
    EXPECT_LE(t.values.size(), 4u);
    EXPECT_DOUBLE_EQ(t.step, 5);
    EXPECT_DOUBLE_EQ(t.hi, 10);
    // 0 … 2.9: target 3 gives 0, 1, 2, 3 (four): kept.
    const AxisTicks u = niceTicksAtMost(0, 2.9, TickUnit::Plain, 4);
    EXPECT_DOUBLE_EQ(u.step, 1);
    EXPECT_EQ(u.values.size(), 4u);
    for (double hi : {0.37, 13.0, 101.0, 555.0, 98765.0})
        EXPECT_LE(niceTicksAtMost(0, hi, TickUnit::Plain, 4).values.size(), 4u) << hi;
}

TEST(ApplyTicks, OneRoutineForDataRangesAndWindows)
{
    // The data range: the axis spans the first to the last round tick.
    QValueAxis axis;
    const AxisTicks t = niceTicks(0, 155e6, TickUnit::Nanoseconds, 4);
    applyTicks(&axis, t);
    EXPECT_DOUBLE_EQ(axis.min(), 0);
    EXPECT_DOUBLE_EQ(axis.max(), 200);
    EXPECT_EQ(axis.tickType(), QValueAxis::TicksDynamic);
    EXPECT_DOUBLE_EQ(axis.tickAnchor(), 0);
    EXPECT_DOUBLE_EQ(axis.tickInterval(), 50);
    EXPECT_EQ(axis.labelFormat(), QStringLiteral("%.0f"));
    // A zoomed window: the axis spans it, the ticks stay at the round multiples inside.
    QValueAxis window;
    applyTicks(
        &window, niceTicks(12.3e6, 13.1e6, TickUnit::Nanoseconds, 4), {std::make_pair(12.3, 13.1)});
    EXPECT_DOUBLE_EQ(window.min(), 12.3);
    EXPECT_DOUBLE_EQ(window.max(), 13.1);
    EXPECT_DOUBLE_EQ(window.tickInterval(), 0.2);
    EXPECT_EQ(window.labelFormat(), QStringLiteral("%.1f"));
    // An empty window still has a width of one step.
    QValueAxis flat;
    applyTicks(&flat, t, {std::make_pair(5.0, 5.0)});
    EXPECT_DOUBLE_EQ(flat.max(), 55);
    // Learning rates count in units of 1e-5 (TinyValuesCountInAPowerOfTen): a step of 2e-6
    // is 0.2 of them, "%.1f", not "0.000002".
    QValueAxis lr;
    const AxisTicks small = niceTicks(1e-5, 1.8e-5, TickUnit::Plain, 4);
    EXPECT_EQ(small.decimals, 1);
    applyTicks(&lr, small);
    EXPECT_EQ(lr.labelFormat(), QStringLiteral("%.1f"));
}

// MindFormers' learning rate (1e-5 … 3e-5): its ticks printed as 0.00002 were wider than
// Qt's axis and cut to "..." in every size of chart. Values under 1e-3 count in units of a
// power of ten, named in the axis title.
TEST(AxisTicks, TinyValuesCountInAPowerOfTen)
{
    const AxisTicks t = niceTicks(0, 2.5e-5, TickUnit::Plain, 4);
    EXPECT_DOUBLE_EQ(t.scale, 1e-5);
    EXPECT_EQ(t.unit, QStringLiteral("×1e-5"));
    EXPECT_DOUBLE_EQ(t.hi, 3); // 0, 1, 2, 3 (× 1e-5)
    EXPECT_EQ(t.decimals, 0);
    const AxisTicks ordinary = niceTicks(0, 2.5, TickUnit::Plain, 4);
    EXPECT_DOUBLE_EQ(ordinary.scale, 1);
    EXPECT_TRUE(ordinary.unit.isEmpty());
}
