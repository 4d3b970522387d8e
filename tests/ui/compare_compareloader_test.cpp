// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "compare_testsupport.h"
#include "ui/compare/compareloader.h"
#include "ui/compare/compareview.h"
#include "ui/timeline/timelineview.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDeadlineTimer>

#include <vector>

using namespace stepscope;

TEST(CompareLoader, LoadsAndAnalysesBothRunsInTheBackground)
{
    ui::compare::CompareLoader loader;
    int readyCount = 0;
    QObject::connect(&loader, &ui::compare::CompareLoader::ready, [&](auto) { ++readyCount; });
    loader.start(QString::fromStdString(testsupport::demoPairDir() + "resnet50_num_workers_0"),
        QString::fromStdString(testsupport::demoPairDir() + "resnet50_num_workers_4"));
    const auto data = loader.waitForResult();
    ASSERT_TRUE(data);
    EXPECT_EQ(readyCount, 1);
    EXPECT_EQ(data->before.breakdowns.size(), 12u);
    EXPECT_EQ(data->after.breakdowns.size(), 12u);
    EXPECT_EQ(data->before.name(), QStringLiteral("resnet50_num_workers_0"));
}

TEST(CompareLoader, OpenComparePairFillsTheViewWhenReady)
{
    std::unique_ptr<ui::compare::CompareView> view(ui::compare::openComparePair(
        QString::fromStdString(testsupport::demoPairDir() + "resnet50_num_workers_0"),
        QString::fromStdString(testsupport::demoPairDir() + "resnet50_num_workers_4")));
    EXPECT_FALSE(view->data());
    std::vector<bool> finished; // the view says so once it shows the pair
    QObject::connect(view.get(), &ui::compare::CompareView::loadFinished,
        [&](bool ok) { finished.push_back(ok && view->data() != nullptr); });
    QDeadlineTimer deadline(120000);
    while (finished.empty() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    EXPECT_EQ(finished, std::vector<bool>({true}));
    ASSERT_TRUE(view->data());
    EXPECT_TRUE(view->aligned().valid);
    EXPECT_TRUE(view->beforeView()->model());
}

TEST(CompareLoader, ReportsAFolderWithNothingUsable)
{
    ui::compare::CompareLoader loader;
    QString message;
    QObject::connect(
        &loader, &ui::compare::CompareLoader::failed, [&](const QString &m) { message = m; });
    loader.start(QString::fromStdString(testsupport::demoPairDir() + "resnet50_num_workers_0"),
        QString::fromStdString(std::string(STEPSCOPE_TEST_DATA) + "/does-not-exist"));
    EXPECT_FALSE(loader.waitForResult());
    EXPECT_FALSE(message.isEmpty());
}

TEST(CompareLoader, OpenComparePairSaysWhenAPairCannotBeShown)
{
    std::unique_ptr<ui::compare::CompareView> view(ui::compare::openComparePair(
        QString::fromStdString(testsupport::demoPairDir() + "resnet50_num_workers_0"),
        QString::fromStdString(std::string(STEPSCOPE_TEST_DATA) + "/does-not-exist")));
    std::vector<bool> finished;
    QObject::connect(view.get(), &ui::compare::CompareView::loadFinished,
        [&](bool ok) { finished.push_back(ok); });
    QDeadlineTimer deadline(120000);
    while (finished.empty() && !deadline.hasExpired())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    EXPECT_EQ(finished, std::vector<bool>({false}));
    EXPECT_FALSE(view->data());
}
