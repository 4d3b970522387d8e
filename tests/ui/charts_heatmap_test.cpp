// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The heat map: colour scale ends, empty cells, hover text and click.

#include "chartsupport.h"
#include "ui/charts/heatmap.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

using namespace stepscope;

TEST(ChartsHeatMap, ColoursHoverAndClick)
{
    ui::HeatMap map;
    map.setAxisTitles(QStringLiteral("from rank"), QStringLiteral("to rank"));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    map.setMatrix({QStringLiteral("0"), QStringLiteral("1")},
        {QStringLiteral("0"), QStringLiteral("1")}, {nan, 37.78, 1.5, nan},
        [](double v) -> QString { return QString::number(v) + QStringLiteral(" MB"); });
    uitest::showAndSettle(map, 400, 300);
    EXPECT_EQ(map.rowCount(), 2);
    EXPECT_EQ(map.value(0, 1), 37.78);
    // Larger values are darker.
    EXPECT_LT(map.cellColor(0, 1).lightnessF(), map.cellColor(1, 0).lightnessF());
    EXPECT_EQ(map.cellColor(0, 0), map.palette().color(QPalette::Base));
    EXPECT_EQ(map.toolTipFor(0, 1), QStringLiteral("from rank 0 → to rank 1: 37.78 MB"));
    EXPECT_TRUE(map.toolTipFor(1, 1).contains(QStringLiteral("no traffic")));

    std::vector<std::pair<int, int>> spy;
    QObject::connect(&map, &ui::HeatMap::cellClicked,
        [&](int row, int column) { spy.emplace_back(row, column); });
    const QRect cell = map.cellRect(1, 0);
    EXPECT_EQ(map.cellAt(cell.center()), std::make_pair(1, 0));
    uitest::leftClick(&map, cell.center());
    ASSERT_EQ(spy.size(), 1u);
    EXPECT_EQ(spy[0].first, 1);
    EXPECT_EQ(spy[0].second, 0);
}

// Sixteen ranks in a narrow dock: the cells are narrower than "10", and ranks 10 to 15 were
// each labelled "…". Now every second rank is labelled whole, each over its own column; with
// room, every column is.
TEST(ChartsHeatMap, CrowdedColumnsAreLabelledEveryNthWhole)
{
    QStringList ranks;
    QList<double> values;
    for (int r = 0; r < 16; ++r)
        ranks << QString::number(r);
    for (int i = 0; i < 16 * 16; ++i)
        values << (i % 17 == 0 ? 21.0 : std::numeric_limits<double>::quiet_NaN());
    ui::HeatMap map;
    map.setMatrix(ranks, ranks, values, [](double v) { return QString::number(v); });
    uitest::showAndSettle(map, 300, 300);
    ASSERT_LT(
        map.cellRect(0, 0).width(), map.fontMetrics().horizontalAdvance(QStringLiteral("15")) + 4);
    auto shown = map.shownColumnLabels();
    ASSERT_GE(shown.size(), 2u);
    ASSERT_LT(shown.size(), 16u);
    for (const auto &[column, text] : shown) {
        EXPECT_EQ(text, ranks[column]) << "column " << column; // whole, not elided
        EXPECT_EQ(column % 2, 0) << text.toStdString(); // on round ranks
    }
    EXPECT_EQ(shown.front(), std::make_pair(0, QStringLiteral("0")));
    EXPECT_EQ(shown.back().second.size(), 2); // a two-digit rank is among them

    uitest::showAndSettle(map, 1400, 900);
    shown = map.shownColumnLabels();
    ASSERT_EQ(shown.size(), 16u);
    for (int c = 0; c < 16; ++c)
        EXPECT_EQ(shown[static_cast<std::size_t>(c)], std::make_pair(c, ranks[c]));
}
