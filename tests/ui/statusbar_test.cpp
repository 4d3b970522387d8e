// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The status bar's counts are the panels' counts: its steps are the Steps panel's rows (the
// profiler's table where there is one), counted on the rank with the most, its digits
// grouped as the panels group theirs. Nothing is pinned: the bar is checked against the load.
#include "analysis/analysissummary.h"
#include "analysis/trainingsummary.h"
#include "ui/mainwindow.h"
#include "ui/panels/tableitems.h"
#include "window_testsupport.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QLocale>
#include <QStatusBar>

#include <algorithm>
#include <map>

using namespace stepscope;
using namespace stepscope::ui;

class StatusBarCounts : public ::testing::TestWithParam<const char *>
{
};

TEST_P(StatusBarCounts, TheStepsAreTheStepsPanelsRowsOfTheFullestRank)
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(uitest::loadInWindow(window,
        QString::fromUtf8(STEPSCOPE_TEST_DATA) + QLatin1Char('/') + QString::fromUtf8(GetParam())));
    const auto &analysed = window.profile().analysis;
    ASSERT_TRUE(analysed);
    std::map<int, long long> rowsOfRank;
    for (const analysis::StepBreakdown &b : analysed->breakdowns)
        ++rowsOfRank[b.rank];
    long long steps = 0;
    for (const auto &[rank, rows] : rowsOfRank)
        steps = std::max(steps, rows);
    const auto &session = *window.session();
    const QString status = window.statusBar()->findChild<QLabel *>()->text();
    EXPECT_TRUE(status.contains(
        QStringLiteral(" · ") + countText(steps, QStringLiteral("step"), QStringLiteral("steps"))))
        << status.toStdString() << " (the Steps panel has " << steps << " rows on one rank)";
    EXPECT_TRUE(status.contains(countText(static_cast<long long>(session.traces.size()),
        QStringLiteral("rank"), QStringLiteral("ranks"))))
        << status.toStdString();
    EXPECT_TRUE(status.contains(countText(static_cast<long long>(session.eventCount()),
        QStringLiteral("event"), QStringLiteral("events"))))
        << status.toStdString();
}

INSTANTIATE_TEST_SUITE_P(RealSamples, StatusBarCounts,
    ::testing::Values("ascend_pt/msinsight-gpt3-pp2-16rank-trimmed",
        "ascend_pt/mstt-advisor-fragments", "ascend_pt/msinsight-cnn-level2-2rank",
        "ascend_db/msinsight-cnn-db-level2-2rank", "nsys_sqlite/pipit-cloverleaf-cuda",
        "mindspore_legacy/mindinsight-cluster-pp-4rank",
        "mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev",
        "kineto/hta-sampled-2of128-ranks", "kineto/tracelens-mi300-resnet-actckpt-rank0of8"));

// Digits are grouped as the user's locale groups them, in the bar as in the panels.
TEST(StatusBarCounts, DigitsAreGroupedAsThePanelsGroupThem)
{
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    const bool loaded = uitest::loadInWindow(window,
        QString::fromUtf8(STEPSCOPE_TEST_DATA)
            + QStringLiteral("/kineto/hta-ddp-a100-world2-nccl"));
    const QString status = window.statusBar()->findChild<QLabel *>()->text();
    const auto events = static_cast<long long>(loaded ? window.session()->eventCount() : 0);
    const QString expected = countText(events, QStringLiteral("event"), QStringLiteral("events"));
    QLocale::setDefault(before);
    ASSERT_TRUE(loaded);
    ASSERT_GE(events, 1000); // a group separator to see
    EXPECT_TRUE(expected.contains(QLatin1Char('.'))) << expected.toStdString();
    EXPECT_TRUE(status.contains(expected))
        << status.toStdString() << " has no " << expected.toStdString();
}

// Training logs alone: the bar counts their runs and points as the Training panel does
// (loggedPoints), not "0 ranks · 0 events · 0 steps".
TEST(StatusBarCounts, TrainingLogsAloneCountTheirRunsAndPoints)
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(uitest::loadInWindow(window,
        QString::fromUtf8(STEPSCOPE_TEST_DATA)
            + QStringLiteral("/loss_logs/mindformers-llama3-8b-lora-2runs")));
    const std::vector<analysis::TrainingRun> runs = analysis::trainingRuns(*window.session());
    ASSERT_EQ(runs.size(), 2u);
    long long points = 0;
    for (const analysis::TrainingRun &run : runs)
        points += static_cast<long long>(analysis::loggedPoints(run));
    const QString status = window.statusBar()->findChild<QLabel *>()->text();
    EXPECT_TRUE(status.startsWith(QStringLiteral("training-log · 2 training runs · ")
        + countText(points, QStringLiteral("point"), QStringLiteral("points"))))
        << status.toStdString();
    EXPECT_FALSE(status.contains(QStringLiteral("0 ranks"))) << status.toStdString();
}
