// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The colour scale both heat maps share (HeatMap, ClusterHeatMap): its range, the colour
// and text of a value, and the legend's pixels.

#include "ui/charts/heatscale.h"
#include "ui/palette.h"

#include <gtest/gtest.h>

#include <QFontMetrics>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <cmath>
#include <limits>
#include <vector>

using namespace stepscope;
using ui::HeatScale;

namespace {

const double NaN = std::numeric_limits<double>::quiet_NaN();

HeatScale fitted(const std::vector<double> &values, HeatScale::Range range)
{
    HeatScale scale;
    scale.fit(values.data(), values.data() + values.size(), range);
    return scale;
}

} // namespace

TEST(ChartsHeatScale, RangeOfThePresentValues)
{
    const std::vector<double> values {NaN, 3.0, -2.0, 5.0};
    const HeatScale plain = fitted(values, HeatScale::Range::Values);
    EXPECT_EQ(plain.min(), -2.0);
    EXPECT_EQ(plain.max(), 5.0);
    const HeatScale positive = fitted({NaN, 3.0, 5.0}, HeatScale::Range::FromZero);
    EXPECT_EQ(positive.min(), 0.0); // traffic: the scale starts at 0
    EXPECT_EQ(positive.max(), 5.0);
    const HeatScale deltas = fitted(values, HeatScale::Range::Symmetric);
    EXPECT_EQ(deltas.min(), -5.0);
    EXPECT_EQ(deltas.max(), 5.0);
    const HeatScale none = fitted({NaN, NaN}, HeatScale::Range::Values);
    EXPECT_EQ(none.min(), 0.0);
    EXPECT_EQ(none.max(), 0.0);
}

TEST(ChartsHeatScale, ColourAndTextOfAValue)
{
    HeatScale scale = fitted({2.0, 4.0, 6.0}, HeatScale::Range::Values);
    const QColor empty(Qt::white);
    EXPECT_EQ(scale.color(NaN, false, empty), empty);
    EXPECT_EQ(scale.color(2.0, false, empty), ui::heatScaleColor(0.0));
    EXPECT_EQ(scale.color(4.0, false, empty), ui::heatScaleColor(0.5));
    EXPECT_EQ(scale.color(6.0, false, empty), ui::heatScaleColor(1.0));
    EXPECT_EQ(scale.color(3.0, true, empty), ui::divergingScaleColor(0.5));
    // One value: the range is empty, every cell gets the dark end.
    EXPECT_EQ(
        fitted({7.0}, HeatScale::Range::Values).color(7.0, false, empty), ui::heatScaleColor(1.0));
    EXPECT_EQ(scale.text(2.5), QStringLiteral("2.5"));
    scale.setFormat([](double v) -> QString { return QString::number(v) + QStringLiteral(" ms"); });
    EXPECT_EQ(scale.text(2.5), QStringLiteral("2.5 ms"));
}

TEST(ChartsHeatScale, LegendPaintsTheScaleAndItsEnds)
{
    const HeatScale scale = fitted({1.0, 9.0}, HeatScale::Range::Values);
    QImage image(300, 60, QImage::Format_RGB32);
    image.fill(Qt::white);
    const QRect bar(10, 5, 200, 12);
    QRect under;
    {
        QPainter p(&image);
        p.setPen(Qt::black);
        under =
            scale.paintLegend(p, bar, QFontMetrics(QGuiApplication::font()), ui::heatScaleColor);
    }
    EXPECT_EQ(image.pixelColor(bar.left(), bar.center().y()), ui::heatScaleColor(0.0));
    EXPECT_EQ(image.pixelColor(bar.right(), bar.center().y()), ui::heatScaleColor(1.0));
    EXPECT_EQ(under.top(), bar.bottom() + 1);
    EXPECT_EQ(under.width(), bar.width());
    // The end labels are written under the bar: some dark pixels there, none right of it.
    int inked = 0;
    for (int y = under.top(); y <= under.bottom() && y < image.height(); ++y)
        for (int x = under.left(); x <= under.right(); ++x)
            inked += image.pixelColor(x, y).lightness() < 128 ? 1 : 0;
    EXPECT_GT(inked, 0);
    EXPECT_EQ(image.pixelColor(bar.right() + 20, bar.center().y()), QColor(Qt::white));
}

// The MindInsight pipeline sample: ranks 2 and 3 spend 2.16 s and 2.38 s in step 1 (graph
// compilation) beside 178-210 ms steps, and the Cluster heat map was one light colour but for
// those two cells. Values over 3 times the median stay off the scale when they are few.
TEST(ChartsHeatScale, AFewFarOutliersStayOffTheScale)
{
    std::vector<double> steps(18, 179.0);
    steps[1] = 178.0;
    steps[2] = 210.0;
    steps.push_back(2160.0);
    steps.push_back(2380.0);
    steps.push_back(NaN);
    HeatScale scale;
    scale.fitClippingOutliers(steps.data(), steps.data() + steps.size());
    EXPECT_EQ(scale.min(), 178.0);
    EXPECT_EQ(scale.max(), 210.0);
    EXPECT_EQ(scale.clippedAbove(), 2);
    EXPECT_EQ(scale.clippedMax(), 2380.0);
    const QColor empty(Qt::white);
    EXPECT_EQ(scale.color(2380.0, false, empty), scale.color(210.0, false, empty));
    EXPECT_NE(scale.color(178.0, false, empty), scale.color(210.0, false, empty));

    // More than a quarter of the values far up is a second mode, not outliers: all on scale.
    std::vector<double> bimodal(12, 100.0);
    bimodal.insert(bimodal.end(), 5, 1000.0);
    scale.fitClippingOutliers(bimodal.data(), bimodal.data() + bimodal.size());
    EXPECT_EQ(scale.max(), 1000.0);
    EXPECT_EQ(scale.clippedAbove(), 0);
    // A median of 0 (a bubble most ranks do not have) clips nothing; nor do three values.
    std::vector<double> zeros = {0, 0, 0, 0, 0, 5};
    scale.fitClippingOutliers(zeros.data(), zeros.data() + zeros.size());
    EXPECT_EQ(scale.max(), 5.0);
    EXPECT_EQ(scale.clippedAbove(), 0);
    std::vector<double> three = {1, 1, 100};
    scale.fitClippingOutliers(three.data(), three.data() + three.size());
    EXPECT_EQ(scale.max(), 100.0);
    // fit() after a clipped fit forgets the clipping.
    scale.fitClippingOutliers(steps.data(), steps.data() + steps.size());
    scale.fit(steps.data(), steps.data() + steps.size(), HeatScale::Range::Values);
    EXPECT_EQ(scale.clippedAbove(), 0);
    EXPECT_EQ(scale.max(), 2380.0);
}
