// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "util/decimal.h"
#include "util/text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

using stepscope::util::parseDouble;
using stepscope::util::parseInt;
using stepscope::util::parseMicrosToNanos;
using stepscope::util::parseScaledDecimal;

TEST(Decimal, AscendEpochMicrosecondsAreExact)
{
    // trace_view.json writes "ts" as a string of epoch microseconds with 3 decimals.
    EXPECT_EQ(parseMicrosToNanos("1736412474730415.308"), 1736412474730415308LL);
    // Through double this would be off: 1736412474730415.308 * 1000 is not representable.
    const double viaDouble = 1736412474730415.308 * 1000.0;
    EXPECT_NE(static_cast<long long>(viaDouble), 1736412474730415308LL);
    EXPECT_EQ(parseMicrosToNanos("1736405444092247"), 1736405444092247000LL);
    // Trailing tab of torch_npu CSVs.
    EXPECT_EQ(parseMicrosToNanos("1736412474730135.222\t"), 1736412474730135222LL);
}

TEST(Decimal, KinetoRelativeAndIntegerTimes)
{
    EXPECT_EQ(parseMicrosToNanos("4458676522690.655"), 4458676522690655LL);
    EXPECT_EQ(parseMicrosToNanos("607312.0"), 607312000LL);
    EXPECT_EQ(parseMicrosToNanos("0"), 0);
    EXPECT_EQ(parseMicrosToNanos("311.64625"), 311646LL); // rounds .25 ns down
    EXPECT_EQ(parseMicrosToNanos("311.6465"), 311647LL); // half away from zero
    EXPECT_EQ(parseMicrosToNanos("-2.5"), -2500);
    EXPECT_EQ(parseMicrosToNanos("-0.0005"), -1);
}

TEST(Decimal, LenientNumberSyntax)
{
    EXPECT_EQ(parseScaledDecimal(".75", 0), 1);
    EXPECT_EQ(parseScaledDecimal("246.", 0), 246);
    EXPECT_EQ(parseScaledDecimal("+10.5", 1), 105);
    EXPECT_EQ(parseScaledDecimal("050", 0), 50);
    EXPECT_EQ(parseScaledDecimal("1.5e3", 0), 1500);
    EXPECT_EQ(parseScaledDecimal("2.4886349536847462e+17", 0), 248863495368474620LL);
    EXPECT_EQ(parseScaledDecimal("4e-5", 3), 0);
    EXPECT_EQ(parseScaledDecimal("6e-4", 3), 1);
}

TEST(Decimal, RejectsWhatIsNotANumber)
{
    for (const char *bad : {"", ".", "+", "-", "1.5e", "abc", "12a", "1..2", "0x10", "1 2"})
        EXPECT_FALSE(parseMicrosToNanos(bad).has_value()) << bad;
    EXPECT_FALSE(parseScaledDecimal("99999999999999999999", 0).has_value()); // > int64
    EXPECT_FALSE(parseMicrosToNanos("9223372036854776").has_value());
}

TEST(Decimal, Doubles)
{
    EXPECT_DOUBLE_EQ(*parseDouble(".75"), 0.75);
    EXPECT_DOUBLE_EQ(*parseDouble("246."), 246.0);
    EXPECT_DOUBLE_EQ(*parseDouble("+10.5"), 10.5);
    EXPECT_DOUBLE_EQ(*parseDouble("1.043863E+01"), 10.43863);
    EXPECT_FALSE(parseDouble("1.5e").has_value());
    EXPECT_FALSE(parseDouble("nan").has_value());
    EXPECT_TRUE(std::isnan(*parseDouble("NaN", true)));
    EXPECT_TRUE(std::isinf(*parseDouble("-inf", true)));
    EXPECT_EQ(parseInt(" 4294967295\t"), 4294967295LL);
    EXPECT_FALSE(parseInt("12.5").has_value());
}

TEST(Decimal, PlainTimesReadAsTheGeneralRuleReadsThem)
{
    // What traces write ([-]digits[.digits]) takes a short path; "e0" (the same value) sends
    // the same text through the general one. Every digit count, rounding digit and sign.
    std::mt19937_64 random(13);
    const auto digits = [&](int n) {
        std::string s;
        for (int i = 0; i < n; ++i)
            s.push_back(static_cast<char>('0' + random() % 10));
        return s;
    };
    int plain = 0;
    for (int round = 0; round < 20000; ++round) {
        const int scale = static_cast<int>(random() % 10);
        std::string text = random() % 4 == 0 ? "-" : "";
        text += digits(static_cast<int>(random() % 20));
        if (random() % 3 != 0)
            text += "." + digits(static_cast<int>(random() % 8));
        const auto general = parseScaledDecimal(text + "e0", scale);
        EXPECT_EQ(parseScaledDecimal(text, scale), general) << text << " scale " << scale;
        plain += general.has_value() ? 1 : 0;
    }
    EXPECT_GT(plain, 10000);
    EXPECT_EQ(parseMicrosToNanos("0.0005"), 1);
    EXPECT_EQ(parseMicrosToNanos("-0.0005"), -1);
    EXPECT_EQ(parseMicrosToNanos("-0.0004"), 0);
    EXPECT_EQ(parseMicrosToNanos("5."), 5000);
    EXPECT_EQ(parseMicrosToNanos(".5"), 500);
    EXPECT_EQ(parseMicrosToNanos("999999999999999.9995"), 1000000000000000000LL);
    EXPECT_EQ(parseMicrosToNanos("-"), std::nullopt);
    EXPECT_EQ(parseMicrosToNanos("."), std::nullopt);
}

TEST(Decimal, NonFiniteWordsInAnyCaseAndAsciiLowerLeavesOtherBytes)
{
    EXPECT_TRUE(std::isnan(parseDouble("NaN", true).value_or(0)));
    EXPECT_TRUE(std::isinf(parseDouble(" -INF ", true).value_or(0)));
    EXPECT_EQ(parseDouble("NaN", false), std::nullopt);
    // Only A-Z change: a UTF-8 name's bytes (and a locale's idea of them) are left as they are.
    EXPECT_EQ(stepscope::util::asciiLower("AllReduce_Ü.JSON"), "allreduce_\xc3\x9c.json");
    EXPECT_EQ(stepscope::util::asciiLower(""), "");
}

TEST(Text, OneLineJoinsLinesWithOneBlank)
{
    using stepscope::util::oneLine;
    EXPECT_EQ(oneLine("level is 2. \nChange it\nTry\r\n\tsudo sh -c 'x'\n to change. "),
        "level is 2. Change it Try sudo sh -c 'x' to change.");
    EXPECT_EQ(oneLine(" \n "), "");
    EXPECT_EQ(oneLine("one"), "one");
}
