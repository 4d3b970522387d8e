// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Issue 15: the default layout gives each bottom panel room to read. When a profile opens
// in the default window (1280×800, or the window of a 2× laptop screen), the raised panel
// of every bottom dock shows at its minimum size hint or more, without scrolling; the
// timeline keeps the rest; View › Reset Layout gives the same heights again.

#include "ui/defaultlayout.h"
#include "ui/kpistrip.h"
#include "ui/mainwindow.h"
#include "ui/panels/stepspanel.h"
#include "ui/windowsettings.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>

using namespace stepscope::ui;

namespace {

struct CleanSettings : ::testing::Test
{
    void SetUp() override { QSettings().clear(); }
    void TearDown() override { QSettings().clear(); }
};

struct DefaultLayout : CleanSettings, ::testing::WithParamInterface<QSize>
{
};

void settle()
{
    for (int i = 0; i < 10; ++i)
        QCoreApplication::processEvents();
}

/// Every tabbed bottom dock with a widget: raises it and checks that its panel shows whole.
void expectEveryBottomPanelFits(MainWindow &w, const std::string &when)
{
    int checked = 0;
    for (QDockWidget *dock : w.findChildren<QDockWidget *>()) {
        if (w.dockWidgetArea(dock) != Qt::BottomDockWidgetArea || !dock->isVisibleTo(&w))
            continue;
        dock->raise();
        settle();
        const std::string name = dock->objectName().toStdString() + " " + when;
        QWidget *content = dock->widget();
        ASSERT_NE(content, nullptr) << name;
        if (auto *area = qobject_cast<QScrollArea *>(content)) {
            QWidget *panel = area->widget();
            ASSERT_NE(panel, nullptr) << name;
            EXPECT_GE(area->viewport()->height(), panel->minimumSizeHint().height()) << name;
            EXPECT_GE(panel->height(), panel->minimumSizeHint().height()) << name;
            EXPECT_FALSE(area->verticalScrollBar()->isVisible()) << name;
        } else {
            EXPECT_GE(content->height(), content->minimumSizeHint().height()) << name;
        }
        ++checked;
    }
    EXPECT_GE(checked, 7) << when; // Details, Range stats, Steps, Memory, Comm., Cluster, …
}

} // namespace

TEST(DefaultLayoutSize, FitsTheScreenAndKeepsTheDocksBetweenAQuarterAndAHalf)
{
    using namespace defaultlayout;
    EXPECT_EQ(windowSize(QSize(1920, 1160)), QSize(1280, 800));
    EXPECT_EQ(windowSize(QSize(1280, 800)), QSize(1280, 800));
    // A 2560×1600 screen at 2× with a 40 px panel: 1280×760 logical.
    EXPECT_EQ(windowSize(QSize(1280, 760)), QSize(1280, 714));
    // 1920×1200 at 2×: 960×600.
    EXPECT_EQ(windowSize(QSize(960, 600)), QSize(902, 564));
    EXPECT_EQ(windowSize(QSize(300, 200)), QSize(640, 480));
    EXPECT_EQ(windowSize(QSize()), QSize(1280, 800));

    EXPECT_EQ(bottomDockHeight(800, 100), 200); // a quarter at least
    EXPECT_EQ(bottomDockHeight(800, 380), 380); // what the panels need
    EXPECT_EQ(bottomDockHeight(800, 700), 440); // the timeline keeps 45 %
}

TEST_P(DefaultLayout, EveryBottomPanelHasItsMinimumHeightWhenAProfileOpens)
{
    MainWindow w;
    w.resize(GetParam()); // the window of a first launch on that screen
    w.show();
    settle();
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    w.openPath(QStringLiteral(STEPSCOPE_TEST_DATA "/kineto/hta-ddp-a100-world2-nccl"));
    ASSERT_TRUE(finished.wait(60000));
    ASSERT_TRUE(finished.front().front().toBool());
    settle();
    // The room the docks get shows the step breakdown, not an empty Details pane.
    QDockWidget *stepsDock = w.findChild<QDockWidget *>(QStringLiteral("stepsDock"));
    QDockWidget *detailsDock = w.findChild<QDockWidget *>(QStringLiteral("detailsDock"));
    ASSERT_NE(stepsDock, nullptr);
    ASSERT_NE(detailsDock, nullptr);
    EXPECT_FALSE(stepsDock->visibleRegion().isEmpty());
    EXPECT_TRUE(detailsDock->visibleRegion().isEmpty());
    expectEveryBottomPanelFits(w, "after load");
    // One KPI strip in the window: above the timeline, not again on the Steps panel.
    auto *stepsPanel = w.findChild<StepsPanel *>();
    ASSERT_NE(stepsPanel, nullptr);
    EXPECT_FALSE(stepsPanel->kpiStrip()->isVisibleTo(stepsPanel));
    int shownStrips = 0;
    for (KpiStrip *strip : w.findChildren<KpiStrip *>())
        shownStrips += strip->isVisibleTo(&w) ? 1 : 0;
    EXPECT_EQ(shownStrips, 1);
    // The timeline keeps at least 45 % of the window.
    QDockWidget *steps = w.findChild<QDockWidget *>(QStringLiteral("stepsDock"));
    ASSERT_NE(steps, nullptr);
    EXPECT_LE(steps->height(), defaultlayout::bottomDockHeight(w.height(), w.height()));
}

/// View › Reset Layout (the action of the View menu).
QAction *resetAction(MainWindow &w)
{
    for (QAction *a : w.findChildren<QAction *>())
        if (a->text().remove(QLatin1Char('&')) == QStringLiteral("Reset Layout"))
            return a;
    return nullptr;
}

TEST_F(CleanSettings, ResetLayoutGivesThePanelsTheirRoomAgain)
{
    MainWindow w; // the first-launch size for this screen
    w.show();
    settle();
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    w.openPath(QStringLiteral(STEPSCOPE_TEST_DATA "/kineto/hta-ddp-a100-world2-nccl"));
    ASSERT_TRUE(finished.wait(60000));
    settle();
    QDockWidget *steps = w.findChild<QDockWidget *>(QStringLiteral("stepsDock"));
    ASSERT_NE(steps, nullptr);
    steps->raise(); // a tab behind another keeps the height of its last layout
    settle();
    const int loaded = steps->height();
    EXPECT_GE(loaded, w.height() * defaultlayout::MinDockShare - 1);
    // A user squeezes the docks and floats one, then View › Reset Layout.
    w.resizeDocks({steps}, {120}, Qt::Vertical);
    w.findChild<QDockWidget *>(QStringLiteral("memoryDock"))->setFloating(true);
    settle();
    ASSERT_LT(steps->height(), loaded);
    QAction *reset = resetAction(w);
    ASSERT_NE(reset, nullptr);
    reset->trigger();
    settle();
    steps->raise();
    settle();
    EXPECT_FALSE(w.findChild<QDockWidget *>(QStringLiteral("memoryDock"))->isFloating());
    EXPECT_NEAR(steps->height(), loaded, 2);
}

INSTANTIATE_TEST_SUITE_P(Screens, DefaultLayout,
    ::testing::Values(QSize(1280, 800), // 1×, the preferred size
        QSize(1280, 714)), // the 2× laptop screen of the test above
    [](const ::testing::TestParamInfo<QSize> &p) {
        return std::to_string(p.param.width()) + "x" + std::to_string(p.param.height());
    });

TEST_F(CleanSettings, AUserLayoutKeptWithAProfileIsNotResized)
{
    int kept = 0;
    {
        MainWindow first;
        first.resize(1280, 800);
        first.show();
        QSignalSpy finished(&first, &MainWindow::loadFinished);
        first.openPath(QStringLiteral(STEPSCOPE_TEST_DATA "/kineto/hta-ddp-a100-world2-nccl"));
        ASSERT_TRUE(finished.wait(60000));
        settle();
        QDockWidget *steps = first.findChild<QDockWidget *>(QStringLiteral("stepsDock"));
        first.resizeDocks({steps}, {500}, Qt::Vertical);
        settle();
        kept = steps->height();
        first.close();
    }
    EXPECT_TRUE(settings::keptLayoutHadProfile());
    MainWindow second;
    second.show();
    QSignalSpy finished(&second, &MainWindow::loadFinished);
    second.openPath(QStringLiteral(STEPSCOPE_TEST_DATA "/kineto/hta-ddp-a100-world2-nccl"));
    ASSERT_TRUE(finished.wait(60000));
    settle();
    EXPECT_NEAR(second.findChild<QDockWidget *>(QStringLiteral("stepsDock"))->height(), kept, 2);
}
