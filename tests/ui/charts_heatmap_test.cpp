// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The heat map: colour scale ends, empty cells, hover text and click.

#include "chartsupport.h"
#include "ui/charts/heatmap.h"

#include <gtest/gtest.h>

#include <QRegularExpression>

#include <cmath>
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

// Ten thousand ranks: the communication panel froze (rows x columns cells, 800 MB, each painted
// and each measuring every row label). Now only the cells with traffic are kept and each pixel
// of the grid shows the largest of the ranks under it.
TEST(ChartsHeatMap, TenThousandRanksDrawThePixelsLargestCell)
{
    const int n = 10000;
    QStringList ranks;
    std::vector<ui::HeatCell> ring;
    for (int r = 0; r < n; ++r) {
        ranks << QString::number(r);
        ring.push_back({r, (r + 1) % n, 1.0 + r % 7});
    }
    ring.push_back({5000, 5001, 100.0}); // a later cell at the same place replaces the first
    ring.push_back({-1, 3, 5.0}); // outside the rows: ignored
    ui::HeatMap map;
    map.setAxisTitles(QStringLiteral("from rank"), QStringLiteral("to rank"));
    map.setCells(ranks, ranks, ring,
        [](double v) -> QString { return QString::number(v) + QStringLiteral(" MB"); });
    uitest::showAndSettle(map, 700, 600);
    ASSERT_TRUE(map.isBinned());
    EXPECT_EQ(map.rowCount(), n);
    EXPECT_EQ(map.value(5000, 5001), 100.0);
    EXPECT_EQ(map.value(9999, 0), 1.0 + 9999 % 7);
    EXPECT_TRUE(std::isnan(map.value(0, 5000)));

    const QImage shot = map.grab().toImage();
    const QPoint hot = map.cellRect(5000, 5001).center();
    EXPECT_EQ(map.cellAt(hot), std::make_pair(5000, 5001));
    EXPECT_EQ(shot.pixel(hot), map.cellColor(5000, 5001).rgb());
    const QString tip = map.toolTipAt(hot);
    EXPECT_TRUE(tip.startsWith(QStringLiteral("from rank 5000 → to rank 5001: 100 MB")))
        << tip.toStdString();
    // The pixel's ranks, which hold the cell.
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("\\(the largest of from rank (\\d+)–(\\d+) → to rank "
                                          "(\\d+)–(\\d+) under this pixel\\)$"))
            .match(tip);
    ASSERT_TRUE(m.hasMatch()) << tip.toStdString();
    EXPECT_LE(m.captured(1).toInt(), 5000);
    EXPECT_GE(m.captured(2).toInt(), 5000);
    EXPECT_LE(m.captured(3).toInt(), 5001);
    EXPECT_GE(m.captured(4).toInt(), 5001);
    EXPECT_GT(m.captured(2).toInt(), m.captured(1).toInt());

    // Far from the ring: no traffic under the pixel, drawn as the hatched empty cells.
    const QPoint cold = map.cellRect(0, 5000).center();
    const auto [r, c] = map.cellAt(cold);
    EXPECT_TRUE(std::isnan(map.value(r, c)));
    const QString coldTip = map.toolTipAt(cold);
    EXPECT_TRUE(
        QRegularExpression(QStringLiteral("^from rank \\d+–\\d+ → to rank \\d+–\\d+: no traffic$"))
            .match(coldTip)
            .hasMatch())
        << coldTip.toStdString();
    const QColor empty = shot.pixelColor(cold);
    EXPECT_TRUE(
        empty == map.palette().color(QPalette::Base) || empty == map.palette().color(QPalette::Mid))
        << empty.name().toStdString();
}

// Cells under MinCellPx but at least a pixel each: every cell keeps its own pixel, and the
// position of a cell gives that cell back.
TEST(ChartsHeatMap, SmallCellsMapToTheirOwnPixels)
{
    const int n = 40;
    QStringList ranks;
    std::vector<ui::HeatCell> cells;
    for (int r = 0; r < n; ++r) {
        ranks << QString::number(r);
        cells.push_back({r, (r + 3) % n, 1.0 + r});
    }
    ui::HeatMap map;
    map.setCells(ranks, ranks, cells, [](double v) { return QString::number(v); });
    uitest::showAndSettle(map, 260, 260);
    ASSERT_TRUE(map.isBinned());
    const QImage shot = map.grab().toImage();
    for (const ui::HeatCell &cell : cells) {
        const QPoint at = map.cellRect(cell.row, cell.column).center();
        EXPECT_EQ(map.cellAt(at), std::make_pair(cell.row, cell.column)) << cell.row;
        EXPECT_EQ(shot.pixel(at), map.cellColor(cell.row, cell.column).rgb()) << cell.row;
    }
}
