// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Crowded category axes: which categories get a label, and where its interval lies.

#include "ui/charts/sparselabels.h"

#include <gtest/gtest.h>

using namespace stepscope;
using ui::sparseCategoryLabels;

namespace {

QStringList numbers(int first, int count, int stride = 1)
{
    QStringList out;
    for (int i = 0; i < count; ++i)
        out << QString::number(first + i * stride);
    return out;
}

} // namespace

TEST(ChartsSparseLabels, EveryNthStepNumberCentredOnItsBar)
{
    // 331 steps from 1, 2.8 px each, labels of 40 px: a stride of 10 gives 28 px, 20 gives 56.
    const QStringList steps = numbers(1, 331);
    const auto s = sparseCategoryLabels(steps, 2.8, 40);
    EXPECT_EQ(s.every, 20);
    ASSERT_EQ(s.labels.size(), 16u); // 20, 40, ... 320; 330's interval would pass the end
    EXPECT_EQ(s.labels.front().text, QStringLiteral("20"));
    EXPECT_EQ(s.labels.front().category, 19);
    EXPECT_DOUBLE_EQ(s.labels.front().start, 9);
    EXPECT_DOUBLE_EQ(s.labels.front().end, 29);
    EXPECT_EQ(s.labels.back().text, QStringLiteral("320"));
    for (std::size_t i = 0; i < s.labels.size(); ++i) {
        const auto &l = s.labels[i];
        EXPECT_EQ(l.text, steps[l.category]);
        EXPECT_DOUBLE_EQ((l.start + l.end) / 2, l.category); // under its own bar
        EXPECT_GE(l.start, -0.5);
        EXPECT_LE(l.end, 330.5);
        if (i > 0) {
            EXPECT_DOUBLE_EQ(l.start, s.labels[i - 1].end); // one interval after another
        }
    }
}

TEST(ChartsSparseLabels, RoomForAllLabelsEachOne)
{
    const QStringList steps = numbers(50, 8);
    const auto s = sparseCategoryLabels(steps, 100, 40);
    EXPECT_EQ(s.every, 1);
    ASSERT_EQ(s.labels.size(), 8u);
    EXPECT_EQ(s.labels[3].text, QStringLiteral("53"));
    EXPECT_DOUBLE_EQ(s.labels[3].start, 2.5);
}

TEST(ChartsSparseLabels, StepsWithGapsStillLandOnMultiplesWhereTheyCan)
{
    // Steps 3, 10, 17, ... (every 7th): stride 5 keeps to 45, 80, 115, ...
    const QStringList sevens = numbers(3, 40, 7);
    auto s = sparseCategoryLabels(sevens, 10, 45);
    EXPECT_EQ(s.every, 5);
    ASSERT_FALSE(s.labels.empty());
    EXPECT_EQ(s.labels.front().text, QStringLiteral("45"));
    for (const auto &l : s.labels)
        EXPECT_EQ(l.text.toInt() % 5, 0) << l.text.toStdString();
    // Odd steps only: no multiple of 2 anywhere, so the first whole interval's step, then
    // every second one.
    s = sparseCategoryLabels(numbers(1, 40, 2), 10, 15);
    EXPECT_EQ(s.every, 2);
    ASSERT_FALSE(s.labels.empty());
    EXPECT_EQ(s.labels.front().category, 1);
    EXPECT_EQ(s.labels.front().text, QStringLiteral("3"));
    EXPECT_EQ(s.labels[1].text, QStringLiteral("7"));
    const auto names = sparseCategoryLabels({QStringLiteral("a"), QStringLiteral("b")}, 0, 10);
    EXPECT_TRUE(names.labels.empty()); // no room at all: nothing, no division by zero
}
