// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// util/saturate.h: int64 arithmetic held at the limits, doubles to int64 without UB.
#include "model/trace.h"
#include "util/saturate.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace stepscope::util;

TEST(Saturate, SumsDifferencesAndProductsHoldAtTheLimits)
{
    EXPECT_EQ(satAdd(2, 3), 5);
    EXPECT_EQ(satAdd(Int64Max, 1), Int64Max);
    EXPECT_EQ(satAdd(Int64Min, -1), Int64Min);
    EXPECT_EQ(satAdd(Int64Max, Int64Min), -1);
    EXPECT_EQ(satSub(2, 3), -1);
    EXPECT_EQ(satSub(Int64Max, -1), Int64Max);
    EXPECT_EQ(satSub(Int64Min, 1), Int64Min);
    EXPECT_EQ(satSub(0, Int64Min), Int64Max);
    EXPECT_EQ(satMul(-4, 5), -20);
    EXPECT_EQ(satMul(4521007399972893148, 10), Int64Max);
    EXPECT_EQ(satMul(-4521007399972893148, 10), Int64Min);
    EXPECT_EQ(satMul(Int64Min, -1), Int64Max);
}

TEST(Saturate, DoublesOutsideInt64AreRefusedOrHeld)
{
    EXPECT_EQ(int64FromDouble(-2.9), -2);
    EXPECT_EQ(int64FromDouble(-9223372036854775808.0), Int64Min);
    EXPECT_FALSE(int64FromDouble(9223372036854775808.0).has_value());
    EXPECT_FALSE(int64FromDouble(1e300).has_value());
    EXPECT_FALSE(int64FromDouble(std::nan("")).has_value());
    EXPECT_FALSE(int64FromDouble(-std::numeric_limits<double>::infinity()).has_value());
    EXPECT_EQ(saturatingInt64(1e300), Int64Max);
    EXPECT_EQ(saturatingInt64(-1e300), Int64Min);
    EXPECT_EQ(saturatingInt64(std::nan("")), 0);
    EXPECT_EQ(saturatingInt64(7.9), 7);
    EXPECT_EQ(saturatingRound(2.5), 3);
    EXPECT_EQ(saturatingRound(-2.5), -3);
    EXPECT_EQ(saturatingRound(std::numeric_limits<double>::infinity()), Int64Max);
}

TEST(Saturate, StepLengthsHoldAtTheLimits)
{
    // Step times come from files (a profiler's step table); their difference must not
    // overflow (UBSan stops the fuzz targets on it).
    const stepscope::model::Step wide {1, Int64Min, Int64Max};
    EXPECT_EQ(wide.durationNs(), Int64Max);
    const stepscope::model::Step backwards {2, Int64Max, Int64Min};
    EXPECT_EQ(backwards.durationNs(), Int64Min);
    const stepscope::model::Step plain {3, 100, 350};
    EXPECT_EQ(plain.durationNs(), 250);
}
