// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// What the window keeps between launches (QSettings), the View menu's panel toggles,
// View › Reset Layout and Help › About.

#include "ui/aboutdialog.h"
#include "ui/defaultlayout.h"
#include "ui/mainwindow.h"
#include "ui/windowsettings.h"
#include "window_testsupport.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace stepscope::ui;

namespace {

struct SettingsFixture : ::testing::Test
{
    void SetUp() override { QSettings().clear(); }
    void TearDown() override { QSettings().clear(); }
};

QDockWidget *dockNamed(const MainWindow &w, const QString &name)
{
    return w.findChild<QDockWidget *>(name);
}

QMenu *menuTitled(const MainWindow &w, const QString &title)
{
    for (QAction *a : w.menuBar()->actions()) {
        if (a->menu() && a->text().remove(QLatin1Char('&')) == title)
            return a->menu();
    }
    return nullptr;
}

} // namespace

TEST_F(SettingsFixture, GeometryAndDockStateSurviveARelaunch)
{
    {
        MainWindow first;
        first.show();
        first.resize(900, 640);
        QCoreApplication::processEvents();
        QDockWidget *memory = dockNamed(first, QStringLiteral("memoryDock"));
        ASSERT_NE(memory, nullptr);
        memory->setFloating(true);
        dockNamed(first, QStringLiteral("communicationDock"))->close();
        QCoreApplication::processEvents();
        first.close(); // closeEvent keeps the layout
    }
    MainWindow second;
    second.show();
    QCoreApplication::processEvents();
    EXPECT_EQ(second.size(), QSize(900, 640));
    EXPECT_TRUE(dockNamed(second, QStringLiteral("memoryDock"))->isFloating());
    EXPECT_FALSE(dockNamed(second, QStringLiteral("communicationDock"))->isVisible());
    EXPECT_TRUE(dockNamed(second, QStringLiteral("stepsDock"))->isVisibleTo(&second));
}

// A layout kept by a version without a panel (the Kernels dock came later): the new panel
// still shows, tabbed with the others at the bottom, not hidden or floating.
TEST_F(SettingsFixture, APanelTheKeptLayoutDoesNotKnowStillShows)
{
    {
        MainWindow first;
        first.show();
        QCoreApplication::processEvents();
        QDockWidget *kernels = dockNamed(first, QStringLiteral("kernelsDock"));
        ASSERT_NE(kernels, nullptr);
        first.removeDockWidget(kernels);
        kernels->setObjectName(QStringLiteral("notKeptDock"));
        dockNamed(first, QStringLiteral("memoryDock"))->setFloating(true); // a kept change
        QCoreApplication::processEvents();
        settings::saveWindowLayout(first, true);
    }
    MainWindow second;
    second.show();
    QCoreApplication::processEvents();
    ASSERT_TRUE(dockNamed(second, QStringLiteral("memoryDock"))->isFloating()); // restored
    QDockWidget *kernels = dockNamed(second, QStringLiteral("kernelsDock"));
    ASSERT_NE(kernels, nullptr);
    EXPECT_TRUE(kernels->isVisibleTo(&second));
    EXPECT_FALSE(kernels->isFloating());
    EXPECT_EQ(second.dockWidgetArea(kernels), Qt::BottomDockWidgetArea);
    EXPECT_FALSE(second.tabifiedDockWidgets(kernels).isEmpty());
}

TEST_F(SettingsFixture, WithoutKeptSettingsTheDefaultLayoutShows)
{
    MainWindow w;
    w.show();
    QCoreApplication::processEvents();
    // 1280×800, or what fits the screen (defaultlayout_test).
    EXPECT_EQ(w.size(), defaultlayout::windowSize(w.screen()->availableGeometry().size()));
    // The empty Details dock leaves the welcome page most of the window.
    EXPECT_LT(dockNamed(w, QStringLiteral("detailsDock"))->height(), w.height() / 3);
}

TEST_F(SettingsFixture, EveryPanelHasAViewMenuToggleAndResetBringsItBack)
{
    MainWindow w;
    w.show();
    QCoreApplication::processEvents();
    QMenu *view = menuTitled(w, QStringLiteral("View"));
    ASSERT_NE(view, nullptr);
    const QList<QDockWidget *> docks = w.findChildren<QDockWidget *>();
    ASSERT_GE(docks.size(), 6); // Details, Range stats, Steps, Memory, Communication, Diagnostics
    for (QDockWidget *dock : docks)
        EXPECT_TRUE(view->actions().contains(dock->toggleViewAction()))
            << dock->windowTitle().toStdString();

    QDockWidget *steps = dockNamed(w, QStringLiteral("stepsDock"));
    QSignalSpy visibility(steps, &QDockWidget::visibilityChanged);
    steps->toggleViewAction()->trigger(); // shown (tabbed) → closed
    QCoreApplication::processEvents();
    EXPECT_FALSE(steps->isVisibleTo(&w));
    EXPECT_GE(visibility.count(), 1);

    QAction *reset = nullptr;
    for (QAction *a : view->actions()) {
        if (a->text().remove(QLatin1Char('&')) == QStringLiteral("Reset Layout"))
            reset = a;
    }
    ASSERT_NE(reset, nullptr);
    reset->trigger();
    QCoreApplication::processEvents();
    EXPECT_TRUE(steps->isVisibleTo(&w));
    EXPECT_FALSE(steps->isFloating());
}

TEST_F(SettingsFixture, LastFoldersExportAndRunConfigDefaultsRoundTrip)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("trace.json"));
    settings::setLastFolder(QStringLiteral("open"), file);
    EXPECT_EQ(settings::lastFolder(QStringLiteral("open")), dir.path());
    EXPECT_EQ(settings::lastFolder(QStringLiteral("export")), QDir::homePath());
    settings::setLastFolder(QStringLiteral("export"), dir.path());
    EXPECT_EQ(settings::lastFolder(QStringLiteral("export")), dir.path());

    settings::ExportDefaults d;
    d.scale = 2.0;
    d.format = QStringLiteral("svg");
    d.size = QSize(1600, 900);
    settings::setExportDefaults(d);
    const settings::ExportDefaults back = settings::exportDefaults();
    EXPECT_EQ(back.scale, 2.0);
    EXPECT_EQ(back.format, QStringLiteral("svg"));
    EXPECT_EQ(back.size, QSize(1600, 900));
    // Values a user did not write (an edited file) fall back to the defaults.
    QSettings().setValue(QStringLiteral("export/scale"), 40);
    QSettings().setValue(QStringLiteral("export/format"), QStringLiteral("gif"));
    EXPECT_EQ(settings::exportDefaults().scale, 1.0);
    EXPECT_EQ(settings::exportDefaults().format, QStringLiteral("png"));

    EXPECT_EQ(settings::runConfigDefaults(), std::string());
    settings::setRunConfigDefaults(R"({"parameters": 7000000000})");
    EXPECT_EQ(settings::runConfigDefaults(), R"({"parameters": 7000000000})");
}

TEST_F(SettingsFixture, AGarbledLayoutIsIgnored)
{
    QSettings().setValue(QStringLiteral("window/geometry"), QByteArray("not a geometry"));
    QSettings().setValue(QStringLiteral("window/state"), QByteArray("nor a state"));
    MainWindow w;
    w.show();
    QCoreApplication::processEvents();
    // 1280×800, or what fits the screen (defaultlayout_test).
    EXPECT_EQ(w.size(), defaultlayout::windowSize(w.screen()->availableGeometry().size()));
    EXPECT_TRUE(dockNamed(w, QStringLiteral("detailsDock"))->isVisibleTo(&w));
}

TEST(About, NamesVersionsAndTheBundledDataLicences)
{
    const QString text = aboutMarkdown();
    EXPECT_TRUE(text.contains(QStringLiteral(STEPSCOPE_VERSION)));
    EXPECT_TRUE(text.contains(QString::fromLatin1(qVersion())));
    // From resources/demo/NOTICE.md and tests/data/NOTICE.md, compiled in.
    EXPECT_TRUE(text.contains(QStringLiteral("BSD 3-Clause"))) << text.left(400).toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Mulan PSL v2")));
    EXPECT_FALSE(text.contains(QStringLiteral("is missing from this build")));
}

TEST_F(SettingsFixture, AMemoryOnlyProfileOpensOnTheMemoryPanel)
{
    MainWindow w;
    w.show();
    QSignalSpy finished(&w, &MainWindow::loadFinished);
    w.openPath(QStringLiteral(STEPSCOPE_TEST_DATA "/torch_memory/hta-memory-timeline-raw"));
    ASSERT_TRUE(finished.wait(30000));
    ASSERT_EQ(finished.count(), 1);
    EXPECT_TRUE(finished.front().front().toBool());
    QCoreApplication::processEvents();
    QDockWidget *memory = dockNamed(w, QStringLiteral("memoryDock"));
    ASSERT_NE(memory, nullptr);
    // Raised above the tabbed Details dock, and given most of the height.
    EXPECT_FALSE(memory->visibleRegion().isEmpty());
    EXPECT_TRUE(dockNamed(w, QStringLiteral("detailsDock"))->visibleRegion().isEmpty());
    EXPECT_GT(memory->height(), w.height() / 2);
}

// Training logs opened alone: the Training panel is the view, raised and given most of the
// height above the sentence that says there is no timeline (mainwindowdocks.cpp).
TEST_F(SettingsFixture, TrainingLogsAloneOpenOnTheTrainingPanel)
{
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    ASSERT_TRUE(stepscope::uitest::loadInWindow(
        w, QStringLiteral(STEPSCOPE_TEST_DATA "/loss_logs/deepspeed-chat-step1-opt1.3b")));
    QDockWidget *training = dockNamed(w, QStringLiteral("trainingDock"));
    ASSERT_NE(training, nullptr);
    EXPECT_FALSE(training->visibleRegion().isEmpty());
    EXPECT_GT(training->height(), w.height() * 2 / 3) << training->height() << " of " << w.height();
}
