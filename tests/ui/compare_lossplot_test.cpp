// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "chartsupport.h"
#include "compare_testsupport.h"
#include "ui/compare/compareview.h"
#include "ui/compare/lossplot.h"

#include <gtest/gtest.h>

#include <QImage>
#include <QPainter>
#include <QTabWidget>
#include <QTableWidget>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace stepscope;

namespace {

const std::string Pair = std::string(STEPSCOPE_TEST_DATA)
    + "/loss_logs/mindspeed-megatron-det-vs-nondet/test_ds3_pretrain/";

/// Pixels of exactly `c` in the image.
int countColour(const QImage &img, const QColor &c)
{
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x)
            n += img.pixelColor(x, y) == c ? 1 : 0;
    return n;
}

} // namespace

TEST(CompareLossPlot, LossTabShowsBothSeries)
{
    ui::compare::CompareView view;
    view.resize(1200, 900);
    view.setData(testsupport::demoPair());
    EXPECT_FALSE(view.lossOverlay().hasAny()); // the demo has no training logs beside it

    auto det = ui::compare::readLog(QString::fromStdString(Pair + "pta_det.txt"));
    auto nondet = ui::compare::readLog(QString::fromStdString(Pair + "pta_non_det.txt"));
    ASSERT_TRUE(det && nondet);
    view.setLossLog(false, det);
    view.setLossLog(true, nondet);
    const auto &o = view.lossOverlay();
    ASSERT_NE(o.beforeSeries, nullptr);
    ASSERT_NE(o.afterSeries, nullptr);
    EXPECT_EQ(o.beforeSeries->name, "lm loss");
    // Ten "lm loss" iterations in each log (checked with a regex over the files).
    EXPECT_EQ(o.beforeSeries->size(), 10u);
    EXPECT_EQ(o.afterSeries->size(), 10u);
    ASSERT_TRUE(o.comparison.has_value());
    EXPECT_EQ(o.comparison->points.size(), 10u);
    // Largest relative divergence at iteration 7: |13.409561 - 13.411173| / 13.411173.
    EXPECT_EQ(o.comparison->maxRelativeStep, 7);
    EXPECT_NEAR(*o.comparison->maxRelative, 1.2017663e-4, 1e-9);
    EXPECT_EQ(o.comparison->finalStep, 10);
    EXPECT_NEAR(*o.comparison->finalRelative, 3.0138725e-5, 1e-10);
    // The log's iteration time is a cross-check row (as printed, in ms).
    QTableWidget *table = view.crossCheckTable();
    EXPECT_GT(table->rowCount(), 1);
    // On the Loss tab the figures sit under the plot, every column in sight (beside the plot,
    // the numbers had been scrolled out of the pane), and every row too up to 300 px (this
    // pair prints 11 rows: 9 in sight).
    for (int t = 0; t < view.tabs()->count(); ++t)
        if (view.tabs()->tabText(t) == QStringLiteral("Loss"))
            view.tabs()->setCurrentIndex(t);
    uitest::showAndSettle(view, 1200, 900);
    const QRect viewport = table->viewport()->rect();
    int rowsInSight = 0;
    for (int r = 0; r < table->rowCount(); ++r)
        rowsInSight += viewport.contains(table->visualRect(table->model()->index(r, 0))) ? 1 : 0;
    EXPECT_EQ(rowsInSight, std::min(table->rowCount(), 9));
    for (int c = 0; c < table->columnCount(); ++c)
        EXPECT_TRUE(viewport.contains(table->visualRect(table->model()->index(1, c)))) << c;

    // Both curves are drawn: each colour appears in the picture.
    QImage img(900, 400, QImage::Format_ARGB32);
    QPainter p(&img);
    ui::compare::paintLossOverlay(p, img.size(), o);
    p.end();
    EXPECT_GT(countColour(img, ui::beforeColor()), 20);
    EXPECT_GT(countColour(img, ui::afterColor()), 20);
}

TEST(CompareLossPlot, NonFiniteValuesAreMarkersNotLinePoints)
{
    model::LogSeries s;
    s.name = "loss";
    s.kind = model::LogSeriesKind::Loss;
    s.add(1, 2.0, 1);
    s.add(2, std::numeric_limits<double>::quiet_NaN(), 2);
    s.add(3, std::numeric_limits<double>::infinity(), 3);
    s.add(4, 1.5, 4);
    const auto pts = ui::compare::lossPolyline(s, 1, 4, 300);
    ASSERT_EQ(pts.size(), 2u);
    EXPECT_EQ(pts[0], QPointF(1, 2.0));
    EXPECT_EQ(pts[1], QPointF(4, 1.5));
    EXPECT_EQ(s.nonFiniteCount(), 2u);
}

TEST(CompareLossPlot, PolylineKeepsSpikesPerPixelColumn)
{
    model::LogSeries s;
    for (int i = 0; i < 1000; ++i)
        s.add(i, i == 500 ? 9.0 : 1.0, i + 1);
    const auto pts = ui::compare::lossPolyline(s, 0, 999, 100); // ten steps per column
    EXPECT_LT(pts.size(), 300u);
    double top = 0;
    for (const auto &p : pts)
        top = std::max(top, p.y());
    EXPECT_EQ(top, 9.0);
}

/// The convergence verdict is a sentence the report's loss picture printed on one line, cut
/// even at 2000 px ("… at step 7 (10 com…"): it now takes a second line when it needs one.
TEST(CompareLossPlot, TheVerdictTakesTwoLinesRatherThanBeingCut)
{
    const QFontMetrics fm {QFont()};
    const QString verdict = QString::fromUtf8(
        "Convergence of lm loss: held — within the tolerance 2 % of the smoothed 5-point curves "
        "over 10 common steps; largest difference 0.00699 % at step 7 (10 common steps).");
    const int whole = fm.horizontalAdvance(verdict);
    EXPECT_EQ(ui::compare::twoLines(fm, verdict, whole), QStringList {verdict});
    const int width = whole * 2 / 3;
    const QStringList lines = ui::compare::twoLines(fm, verdict, width);
    ASSERT_EQ(lines.size(), 2);
    EXPECT_EQ(lines.join(QLatin1Char(' ')), verdict);
    for (const QString &line : lines)
        EXPECT_LE(fm.horizontalAdvance(line), width) << line.toStdString();
    // Too long for two lines: the second one ends elided.
    const QStringList cut = ui::compare::twoLines(fm, verdict, whole / 3);
    ASSERT_EQ(cut.size(), 2);
    EXPECT_TRUE(cut[1].endsWith(QChar(0x2026))) << cut[1].toStdString();
    EXPECT_LE(fm.horizontalAdvance(cut[1]), whole / 3);
}
