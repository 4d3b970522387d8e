// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Issue 15: the Cluster heat map's empty cells (a rank without that step) are hatched like
// the communication matrix's, with a "no data" legend entry and tooltip, so they never read
// as the fast (light) end of the scale. Checked on known pixels of the grabbed widget.

#include "analysis/analysissummary.h"
#include "chartsupport.h"
#include "import/loader.h"
#include "ui/panels/clusterheatmap.h"
#include "ui/panels/clusterpanel.h"

#include <gtest/gtest.h>

#include <QImage>
#include <QPalette>
#include <QSet>

#include <cmath>

using namespace stepscope::ui;

namespace {

QString microseconds(double ns)
{
    return QString::number(ns / 1000.0) + QStringLiteral(" µs");
}

/// The distinct colours of `rect` (shrunk by 2 px, away from the outline) in `image`.
QSet<QRgb> coloursIn(const QImage &image, QRect rect)
{
    QSet<QRgb> colours;
    rect = rect.adjusted(2, 2, -2, -2);
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x)
            colours.insert(image.pixel(x, y) & 0xffffff);
    return colours;
}

/// The grid rectangle of cell (row, column) when each cell has pixels of its own.
QRect cellRect(const ClusterHeatMap &map, int row, int column)
{
    const QRect g = map.gridRect();
    const int w = g.width() / map.columnCount();
    const int h = g.height() / map.rowCount();
    return {g.left() + column * w, g.top() + row * h, w, h};
}

} // namespace

TEST(ClusterEmptyCells, AreHatchedWithALegendEntryAndTooltip)
{
    ClusterHeatMap map;
    // 3 ranks × 4 steps; rank 2 has no step 13.
    std::vector<double> values(12);
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = 100'000.0 + 1000.0 * static_cast<double>(i);
    values[2 * 4 + 3] = std::nan("");
    map.setMatrix({0, 1, 2}, {10, 11, 12, 13}, values, QStringLiteral("Step time"), microseconds);
    stepscope::uitest::showAndSettle(map, 700, 300);
    ASSERT_TRUE(map.isEmptyCell(2, 3));
    ASSERT_FALSE(map.isEmptyCell(2, 2));
    ASSERT_TRUE(map.hasEmptyCells());
    const QImage image = map.grab().toImage();
    const QRgb base = map.palette().color(QPalette::Base).rgb() & 0xffffff;
    const QRgb mid = map.palette().color(QPalette::Mid).rgb() & 0xffffff;

    // The empty cell holds the hatch (Mid lines over Base), not one flat Base fill.
    const QSet<QRgb> empty = coloursIn(image, cellRect(map, 2, 3));
    EXPECT_TRUE(empty.contains(base));
    EXPECT_TRUE(empty.contains(mid));
    // A cell with a value is one flat colour of the scale.
    const QSet<QRgb> full = coloursIn(image, cellRect(map, 2, 2));
    EXPECT_EQ(full.size(), 1);
    EXPECT_FALSE(full.contains(mid));

    // The legend says what the hatch means, inside the widget, clear of the scale's caption.
    const QRect legend = map.emptyLegendRect();
    ASSERT_FALSE(legend.isEmpty());
    EXPECT_TRUE(map.rect().contains(legend));
    EXPECT_FALSE(legend.intersects(map.captionRect()));
    EXPECT_TRUE(coloursIn(image, QRect(legend.topLeft(), QSize(legend.height(), legend.height())))
                    .contains(mid));
    EXPECT_EQ(ClusterHeatMap::emptyText(), QStringLiteral("no data"));
    // The tooltip of the empty cell names what is missing.
    const QString tip = map.toolTipAt(cellRect(map, 2, 3).center());
    EXPECT_TRUE(tip.contains(QStringLiteral("no data"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("rank 2 recorded no step 13"))) << tip.toStdString();
}

TEST(ClusterEmptyCells, WithoutEmptyCellsThereIsNoLegendEntry)
{
    ClusterHeatMap map;
    map.setMatrix({0, 1}, {1, 2}, {1e5, 2e5, 3e5, 4e5}, QStringLiteral("Step time"), microseconds);
    stepscope::uitest::showAndSettle(map, 600, 260);
    (void)map.grab();
    EXPECT_FALSE(map.hasEmptyCells());
    EXPECT_TRUE(map.emptyLegendRect().isEmpty());
}

TEST(ClusterEmptyCells, BucketedRanksWithoutAStepAreHatchedToo)
{
    // 2000 ranks over fewer pixel rows: ranks 0–999 lack step 2 (a cluster of which half the
    // ranks recorded one step less). The pixel rows covering only those ranks are hatched
    // in the step-2 column; the other half's cells are flat.
    constexpr int Ranks = 2000;
    std::vector<std::int32_t> ranks(Ranks);
    std::vector<double> values(static_cast<std::size_t>(Ranks) * 2);
    for (int r = 0; r < Ranks; ++r) {
        ranks[static_cast<std::size_t>(r)] = r;
        values[static_cast<std::size_t>(r) * 2] = 1e5 + r;
        values[static_cast<std::size_t>(r) * 2 + 1] = r < Ranks / 2 ? std::nan("") : 2e5 + r;
    }
    ClusterHeatMap map;
    map.setMatrix(ranks, {1, 2}, values, QStringLiteral("Step time"), microseconds);
    stepscope::uitest::showAndSettle(map, 500, 400);
    const QRect g = map.gridRect();
    ASSERT_LT(g.height(), Ranks);
    const QImage image = map.grab().toImage();
    const QRgb mid = map.palette().color(QPalette::Mid).rgb() & 0xffffff;
    const int half = g.width() / 2;
    const QRect emptyPart(g.left() + half, g.top(), half, g.height() / 2 - 2);
    const QRect fullPart(g.left() + half, g.top() + g.height() / 2 + 2, half, g.height() / 2 - 4);
    EXPECT_TRUE(coloursIn(image, emptyPart).contains(mid));
    EXPECT_FALSE(coloursIn(image, fullPart).contains(mid));
}

TEST(ClusterEmptyCells, TheMsttSampleShowsItsMissingStepsHatchedAndItsStepWithoutAnId)
{
    // mstt-advisor-fragments: rank 0 has step 1 only, ranks 1–7 only the step without an id
    // (an empty Step column, imported as -1).
    stepscope::util::Progress progress;
    auto session = stepscope::import::loadPath(
        std::string(STEPSCOPE_TEST_DATA) + "/ascend_pt/mstt-advisor-fragments", progress)
                       .session;
    ASSERT_TRUE(session);
    ClusterPanel panel;
    panel.setAnalysis(std::make_shared<const stepscope::analysis::SessionAnalysis>(
        stepscope::analysis::analyzeSession(*session, stepscope::analysis::RunConfig {})));
    panel.setSession(session);
    stepscope::uitest::showAndSettle(panel, 1200, 600);
    ClusterHeatMap &map = *panel.heatMap();
    ASSERT_EQ(map.columnCount(), 2);
    ASSERT_EQ(map.rankOfRow(0), 0);
    ASSERT_EQ(map.stepOfColumn(0), -1);
    ASSERT_GE(map.rowCount(), 2);
    EXPECT_TRUE(map.isEmptyCell(0, 0)); // rank 0, step without an id
    EXPECT_FALSE(map.isEmptyCell(0, 1));
    EXPECT_TRUE(map.isEmptyCell(1, 1));
    const QImage image = map.grab().toImage();
    const QRgb mid = map.palette().color(QPalette::Mid).rgb() & 0xffffff;
    EXPECT_TRUE(coloursIn(image, cellRect(map, 1, 1)).contains(mid));
    EXPECT_FALSE(map.emptyLegendRect().isEmpty());
    // The step without an id reads "–" as in the Steps table, not "-1".
    const QString tip = map.toolTipAt(cellRect(map, 1, 0).center());
    EXPECT_TRUE(tip.contains(QStringLiteral("step –"))) << tip.toStdString();
    EXPECT_FALSE(tip.contains(QStringLiteral("-1"))) << tip.toStdString();
}
