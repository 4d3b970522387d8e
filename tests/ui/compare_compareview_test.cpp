// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/units.h"
#include "compare_testsupport.h"
#include "ui/compare/comparepictures.h"
#include "ui/compare/compareview.h"
#include "ui/compare/deltatable.h"
#include "ui/compare/lossplot.h"
#include "ui/export/imageexport.h"
#include "ui/kpistrip.h"
#include "ui/timeline/timelineview.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

#include <cmath>
#include <cstdlib>

using namespace stepscope;
using ui::compare::CompareView;

namespace {

std::unique_ptr<CompareView> makeView()
{
    auto view = std::make_unique<CompareView>();
    view->resize(1400, 1000);
    view->show();
    view->setData(testsupport::demoPair());
    return view;
}

/// Window start relative to the side's aligned step.
std::int64_t relativeStart(const ui::timeline::TimelineView *v, std::int64_t anchor)
{
    return v->viewState().axis.startNs() - anchor;
}

} // namespace

TEST(CompareView, LockedZoomMovesBothSides)
{
    auto view = makeView();
    const auto &al = view->aligned();
    ASSERT_TRUE(al.valid);
    auto *b = view->beforeView();
    auto *a = view->afterView();
    EXPECT_EQ(relativeStart(b, al.beforeStartNs), relativeStart(a, al.afterStartNs));
    EXPECT_DOUBLE_EQ(b->viewState().axis.nsPerPixel(), a->viewState().axis.nsPerPixel());

    const double before = a->viewState().axis.nsPerPixel();
    b->zoomAt(200, 2.0);
    EXPECT_NEAR(a->viewState().axis.nsPerPixel(), before / 2, before * 1e-9);
    EXPECT_EQ(relativeStart(b, al.beforeStartNs), relativeStart(a, al.afterStartNs));
    a->panByPx(150); // the after side leads just as well
    EXPECT_EQ(relativeStart(b, al.beforeStartNs), relativeStart(a, al.afterStartNs));
    // The strip between them shows the same relative window.
    EXPECT_EQ(view->strip()->picture().axis.startNs(), relativeStart(b, al.beforeStartNs));

    view->setLocked(false);
    const auto afterAxis = a->viewState().axis;
    b->zoomAt(100, 3.0);
    EXPECT_EQ(a->viewState().axis, afterAxis); // unlocked: after stays
    view->setLocked(true); // locking again brings after to before's window
    EXPECT_EQ(relativeStart(b, al.beforeStartNs), relativeStart(a, al.afterStartNs));
    EXPECT_DOUBLE_EQ(b->viewState().axis.nsPerPixel(), a->viewState().axis.nsPerPixel());
}

TEST(CompareView, RulersMeasureFromTheAlignedStep)
{
    auto view = makeView();
    const auto &al = view->aligned();
    EXPECT_EQ(view->beforeView()->viewState().rulerOriginNs, al.beforeStartNs);
    EXPECT_EQ(view->afterView()->viewState().rulerOriginNs, al.afterStartNs);
}

TEST(CompareView, OverrideChangesThePairing)
{
    auto view = makeView();
    // Automatic: both runs number their steps 5..10, 16..21 -> by number, 12 pairs.
    EXPECT_EQ(view->pairing().mode, analysis::PairingMode::ByNumber);
    ASSERT_EQ(view->pairing().pairs.size(), 12u);
    EXPECT_EQ(view->aligned().pair.beforeStep, 6);
    EXPECT_EQ(view->aligned().pair.afterStep, 6);

    // Pick after step 8 for before step 6 (through the picker, as a user would).
    QComboBox *picker = view->afterPicker();
    const int i = picker->findData(QVariant::fromValue<qint64>(8));
    ASSERT_GE(i, 0);
    picker->setCurrentIndex(i);
    ASSERT_TRUE(view->anchor().has_value());
    EXPECT_EQ(view->anchor()->beforeStep, 6);
    EXPECT_EQ(view->anchor()->afterStep, 8);
    EXPECT_EQ(view->pairing().mode, analysis::PairingMode::Manual);
    EXPECT_EQ(view->aligned().pair.beforeStep, 6);
    EXPECT_EQ(view->aligned().pair.afterStep, 8);
    // Neighbours follow by the same offset: before 5 goes with after 7.
    const auto *p = view->pairing().findBefore(0);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->beforeStep, 5);
    EXPECT_EQ(p->afterStep, 7);
    // The after timeline now sits on step 8 (ProfilerStep#8 of num_workers_4: 126 272 us).
    EXPECT_EQ(view->aligned().afterEndNs - view->aligned().afterStartNs, 126272000);
    EXPECT_EQ(view->afterView()->viewState().rulerOriginNs, view->aligned().afterStartNs);

    view->setAnchor(std::nullopt);
    EXPECT_EQ(view->pairing().mode, analysis::PairingMode::ByNumber);
    EXPECT_EQ(view->aligned().pair.afterStep, 6);
}

/// ] moved the focused timeline to its next step and the other side by the same time, so
/// the two sides showed different pairs (the hunt of session 28). It now aligns the next pair.
TEST(CompareView, StepKeysMoveBothSidesToTheNextPair)
{
    auto view = makeView();
    ASSERT_EQ(view->aligned().pair.beforeStep, 6);
    view->afterView()->setFocus();
    QTest::keyClick(view->afterView(), Qt::Key_BracketRight);
    const auto &al = view->aligned();
    EXPECT_EQ(al.pair.beforeStep, 7);
    EXPECT_EQ(al.pair.afterStep, 7);
    // Each side sits on its own step 7, the same time before it.
    EXPECT_EQ(relativeStart(view->beforeView(), al.beforeStartNs),
        relativeStart(view->afterView(), al.afterStartNs));
    EXPECT_LT(view->afterView()->viewState().axis.startNs(), al.afterStartNs);
    EXPECT_GT(view->afterView()->viewState().axis.endNs(), al.afterEndNs);
    QTest::keyClick(view->beforeView(), Qt::Key_BracketLeft);
    QTest::keyClick(view->beforeView(), Qt::Key_BracketLeft);
    EXPECT_EQ(view->aligned().pair.beforeStep, 5);
    QTest::keyClick(view->beforeView(), Qt::Key_BracketLeft); // the first pair: stays
    EXPECT_EQ(view->aligned().pair.beforeStep, 5);
    EXPECT_EQ(view->aligned().pair.afterStep, 5);
}

TEST(CompareView, OverlayDrawsBothStepLanesOnOneAxis)
{
    auto view = makeView();
    const int plain = view->strip()->height();
    view->setOverlay(true);
    EXPECT_FALSE(view->beforeView()->isVisible());
    EXPECT_TRUE(view->strip()->picture().overlay);
    EXPECT_GT(view->strip()->height(), plain);
    // Both sides' segment colours appear in the strip picture.
    const auto g = view->strip()->currentGeometry();
    bool hasCompute = false;
    bool hasLoading = false;
    for (const auto &batch : g.content) {
        hasCompute = hasCompute || batch.color == ui::segmentColor(analysis::SegmentKind::Compute);
        hasLoading =
            hasLoading || batch.color == ui::segmentColor(analysis::SegmentKind::DataLoading);
    }
    EXPECT_TRUE(hasCompute);
    EXPECT_TRUE(hasLoading);
    // Zoom on the strip in overlay mode moves both (hidden) timelines.
    const double scale = view->afterView()->viewState().axis.nsPerPixel();
    emit view->strip()->zoomRequested(100, 2.0);
    EXPECT_NEAR(view->afterView()->viewState().axis.nsPerPixel(), scale / 2, scale * 1e-9);
    EXPECT_EQ(view->strip()->picture().axis.nsPerPixel(),
        view->afterView()->viewState().axis.nsPerPixel());
    view->setOverlay(false);
    EXPECT_TRUE(view->beforeView()->isVisible());
}

TEST(CompareView, KpiStripAndKernelTabAreFilled)
{
    auto view = makeView();
    EXPECT_TRUE(view->kpiStrip()->text("step_time_mean_us").contains(QStringLiteral("→")))
        << view->kpiStrip()->text("step_time_mean_us").toStdString();
    // Every item names its KPI: tokens/s without a run config read "— → —" (issue 15).
    for (const std::string &key : ui::KpiStrip::shownKeys()) {
        const QString text = view->kpiStrip()->text(key);
        EXPECT_FALSE(text.startsWith(QStringLiteral("—"))) << key << ": " << text.toStdString();
    }
    const auto *data = view->data().get();
    EXPECT_FALSE(data->comparison.kernels.top.empty());
    // First row is the section title, then the top name by |Δ total|.
    ASSERT_GT(view->kernelTable()->rowCount(), 1);
    EXPECT_EQ(view->kernelTable()->item(1, 0)->text().toStdString(),
        data->comparison.kernels.top.front().name);
    // Its typical duration on each side, between that side's shortest and longest.
    QTableWidget *table = view->kernelTable();
    ASSERT_EQ(table->horizontalHeaderItem(8)->text(), QStringLiteral("Median before"));
    ASSERT_EQ(table->horizontalHeaderItem(9)->text(), QStringLiteral("Median after"));
    const analysis::NameDelta &first = data->comparison.kernels.top.front();
    for (const auto &[column, side] :
        {std::make_pair(8, &first.before), std::make_pair(9, &first.after)}) {
        if (side->count == 0)
            continue;
        EXPECT_GE(side->medianNs, static_cast<double>(side->minNs));
        EXPECT_LE(side->medianNs, static_cast<double>(side->maxNs));
        EXPECT_EQ(table->item(1, column)->text().toStdString(),
            analysis::formatDuration(std::llround(side->medianNs)));
    }
    // What the counts cover, as --markdown says it (the tab said "per profiled step" even
    // when the totals were the whole traces', and "Δ total" for a Δ per paired step).
    ASSERT_TRUE(data->comparison.perPairedStep);
    EXPECT_TRUE(table->item(0, 0)->text().contains(
        QStringLiteral("counts and totals over the paired steps, Δ per paired step")))
        << table->item(0, 0)->text().toStdString();
    EXPECT_EQ(table->horizontalHeaderItem(5)->text(), QStringLiteral("Δ per step"));
}

TEST(CompareView, Screenshot)
{
    auto view = makeView();
    view->setOverlay(false);
    QCoreApplication::processEvents(); // let the layout take the strip's height
    const QImage image = view->grab().toImage();
    EXPECT_EQ(image.width(), 1400);
    const char *dir = std::getenv("STEPSCOPE_SCREENSHOT_DIR");
    if (!dir)
        GTEST_SKIP() << "set STEPSCOPE_SCREENSHOT_DIR to write the compare screenshots";
    ASSERT_TRUE(
        image.save(QDir(QString::fromLocal8Bit(dir)).filePath(QStringLiteral("compare_view.png"))));
    view->setOverlay(true);
    view->tabs()->setCurrentIndex(1);
    QCoreApplication::processEvents();
    ASSERT_TRUE(view->grab().toImage().save(
        QDir(QString::fromLocal8Bit(dir)).filePath(QStringLiteral("compare_view_overlay.png"))));
    const std::string logs = std::string(STEPSCOPE_TEST_DATA)
        + "/loss_logs/mindspeed-megatron-det-vs-nondet/test_qwen_sft/";
    view->setLossLog(false, ui::compare::readLog(QString::fromStdString(logs + "pta_det.txt")));
    view->setLossLog(true, ui::compare::readLog(QString::fromStdString(logs + "pta_non_det.txt")));
    view->tabs()->setCurrentIndex(4);
    QCoreApplication::processEvents();
    ASSERT_TRUE(view->grab().toImage().save(
        QDir(QString::fromLocal8Bit(dir)).filePath(QStringLiteral("compare_view_loss.png"))));
    const QImage pic = ui::renderImage(
        ui::compare::alignedTimelinesPainter(testsupport::demoPair()), QSize(1600, 900), 1.0);
    ASSERT_TRUE(pic.save(QDir(QString::fromLocal8Bit(dir))
                             .filePath(QStringLiteral("compare_timelines_export.png"))));
}

/// A side whose one step is its whole capture (no step markers): the pairing bar says the
/// steps are not the profiler's and its tooltip says what they are, as compare --json does.
TEST(CompareView, APairingOfStepsNotTheProfilersIsSaid)
{
    const std::string data = STEPSCOPE_TEST_DATA;
    CompareView view;
    view.setData(ui::compare::CompareData::build(
        testsupport::loadProfile(
            data + "/kineto/kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0"),
        testsupport::loadProfile(data + "/nsys_sqlite/pipit-cloverleaf-cuda"), false));
    const auto *label = view.findChild<QLabel *>(QStringLiteral("pairingLabel"));
    ASSERT_NE(label, nullptr);
    EXPECT_TRUE(label->text().startsWith(QStringLiteral("1 pair, by order")))
        << label->text().toStdString();
    EXPECT_TRUE(label->text().contains(QStringLiteral("not the profiler's")));
    EXPECT_TRUE(label->toolTip().startsWith(
        QStringLiteral("after: no step markers, so the whole capture (")))
        << label->toolTip().toStdString();

    CompareView demo;
    demo.setData(testsupport::demoPair());
    const auto *plain = demo.findChild<QLabel *>(QStringLiteral("pairingLabel"));
    ASSERT_NE(plain, nullptr);
    EXPECT_FALSE(plain->text().contains(QStringLiteral("not the profiler's")));
    EXPECT_TRUE(plain->toolTip().isEmpty());
}
