// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The bar adapter: stack totals, exact hover text, click -> (category, set).

#include "chartsupport.h"
#include "ui/charts/barchart.h"

#include <gtest/gtest.h>

#include <QSet>

#include <cmath>
#include <limits>
#include <vector>

using namespace stepscope;
using ui::BarChart;

TEST(ChartsBarChart, StackTotalsAndTooltips)
{
    BarChart chart;
    chart.setValueUnit(ui::ValueUnit::Duration);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    chart.setData({QStringLiteral("1"), QStringLiteral("2")},
        {{QStringLiteral("Compute"), Qt::blue, {80e6, 60e6}},
            {QStringLiteral("Idle"), Qt::gray, {20e6, nan}}},
        BarChart::Mode::Stacked);
    chart.setMarkers(QStringLiteral("profiler"), Qt::black, {100e6, 61e6});
    EXPECT_EQ(chart.categoryCount(), 2);
    EXPECT_EQ(chart.setCount(), 2);
    EXPECT_EQ(chart.stackTotal(0), 100e6);
    EXPECT_EQ(chart.stackTotal(1), 60e6);
    const QString tip = chart.toolTipFor(0, 0);
    EXPECT_TRUE(tip.contains(QStringLiteral("80.0 ms"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("80.0 %"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("profiler: 61.0 ms"))
        || chart.toolTipFor(0, 1).contains(QStringLiteral("profiler: 61.0 ms")));
}

TEST(ChartsBarChart, ClickEmitsCategoryAndSet)
{
    BarChart chart;
    chart.setValueUnit(ui::ValueUnit::Duration);
    chart.setData({QStringLiteral("10"), QStringLiteral("11"), QStringLiteral("12")},
        {{QStringLiteral("Compute"), Qt::blue, {50e6, 60e6, 70e6}},
            {QStringLiteral("Comm"), Qt::red, {40e6, 30e6, 20e6}}},
        BarChart::Mode::Stacked);
    uitest::showAndSettle(chart, 700, 400);
    std::vector<std::pair<int, int>> spy;
    QObject::connect(&chart, &BarChart::barClicked,
        [&](int category, int set) { spy.emplace_back(category, set); });
    uitest::clickChart(&chart, chart.barCenter(1, 2));
    ASSERT_EQ(spy.size(), 1u);
    EXPECT_EQ(spy[0].first, 2);
    EXPECT_EQ(spy[0].second, 1);
    uitest::clickChart(&chart, chart.barCenter(0, 0));
    ASSERT_EQ(spy.size(), 2u);
    EXPECT_EQ(spy[1].first, 0);
    EXPECT_EQ(spy[1].second, 0);
}

TEST(ChartsBarChart, GroupedBarsClickTheRightSet)
{
    BarChart chart;
    chart.setValueUnit(ui::ValueUnit::Bytes);
    chart.setData({QStringLiteral("parameters"), QStringLiteral("gradients")},
        {{QStringLiteral("measured"), Qt::blue, {4e9, 2e9}},
            {QStringLiteral("estimate"), Qt::gray, {3.5e9, 2e9}}},
        BarChart::Mode::Grouped);
    uitest::showAndSettle(chart, 700, 400);
    std::vector<std::pair<int, int>> spy;
    QObject::connect(&chart, &BarChart::barClicked,
        [&](int category, int set) { spy.emplace_back(category, set); });
    uitest::clickChart(&chart, chart.barCenter(1, 0));
    ASSERT_EQ(spy.size(), 1u);
    EXPECT_EQ(spy[0].first, 0);
    EXPECT_EQ(spy[0].second, 1);
}

TEST(ChartsBarChart, CategoryLabelsElidedInTheMiddleFullNameInTheTooltip)
{
    // The memory peak chart's seven categories in a narrow dock: "Optimiz…" (Qt's end
    // elision) became unreadable; middle elision keeps both ends, the tooltip the whole name.
    BarChart chart;
    chart.setValueUnit(ui::ValueUnit::Bytes);
    const QStringList names {QStringLiteral("Parameters"), QStringLiteral("Gradients"),
        QStringLiteral("Optimizer state"), QStringLiteral("Activations"),
        QStringLiteral("Temporary"), QStringLiteral("Communication buffers"),
        QStringLiteral("Other")};
    QList<double> values;
    for (int i = 0; i < names.size(); ++i)
        values << (i + 1) * 1e8;
    chart.setData(names, {{QStringLiteral("at peak"), Qt::blue, values}}, BarChart::Mode::Stacked);
    uitest::showAndSettle(chart, 640, 300);
    const QStringList shown = chart.shownCategories();
    ASSERT_EQ(shown.size(), names.size());
    EXPECT_EQ(QSet<QString>(shown.begin(), shown.end()).size(), shown.size());
    // Each label is whole, on two whole lines split at a space, or elided in the middle
    // keeping its first and last characters.
    int wrapped = 0;
    for (int i = 0; i < names.size(); ++i) {
        const QStringList lines = shown[i].split(QStringLiteral("<br>"));
        if (lines.size() == 2) {
            ++wrapped;
            EXPECT_EQ(lines.join(QLatin1Char(' ')), names[i]);
        } else if (shown[i] != names[i]) {
            EXPECT_TRUE(shown[i].contains(QChar(0x2026))) << shown[i].toStdString();
            EXPECT_TRUE(shown[i].startsWith(names[i].front())) << shown[i].toStdString();
            EXPECT_TRUE(shown[i].endsWith(names[i].back())) << shown[i].toStdString();
        }
    }
    EXPECT_EQ(wrapped, 0); // at 640 px no word fits ~45 px: middle elision
    // At 1100 px the room is ~118 px: "Communication buffers" on two whole lines.
    uitest::showAndSettle(chart, 1100, 300);
    EXPECT_EQ(chart.shownCategories()[5], QStringLiteral("Communication<br>buffers"));
    EXPECT_TRUE(chart.toolTipFor(0, 2).contains(names[2]));
    // Room enough: every name whole again.
    uitest::showAndSettle(chart, 1800, 300);
    EXPECT_EQ(chart.shownCategories(), names);
}

TEST(ChartsBarChart, CrowdedStepNumbersAreLabelledEveryNthWhole)
{
    // 331 steps (the 200 MB generated trace) in a 1100 px chart: each label was "…".
    BarChart chart;
    QStringList steps;
    QList<double> values;
    for (int s = 1; s <= 331; ++s) {
        steps << QString::number(s);
        values << 2e6;
    }
    chart.setData(steps, {{QStringLiteral("compute"), Qt::blue, values}}, BarChart::Mode::Stacked);
    uitest::showAndSettle(chart, 1100, 300);
    const int every = chart.labelEvery();
    EXPECT_GT(every, 1);
    const QStringList shown = chart.shownCategories();
    ASSERT_GT(shown.size(), 5);
    EXPECT_LE(shown.size(), 331 / every);
    for (const QString &label : shown) {
        bool ok = false;
        EXPECT_EQ(label.toInt(&ok) % every, 0) << label.toStdString();
        EXPECT_TRUE(ok) << label.toStdString(); // whole numbers, never "…"
    }
    // Wide enough for every number: each labelled again.
    chart.setData(steps.mid(0, 12), {{QStringLiteral("compute"), Qt::blue, values.mid(0, 12)}},
        BarChart::Mode::Stacked);
    uitest::showAndSettle(chart, 1100, 300);
    EXPECT_EQ(chart.labelEvery(), 1);
    EXPECT_EQ(chart.shownCategories(), steps.mid(0, 12));
}
