// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Compare any rank: the rank pickers, the Ranks tab of two clusters, and the report naming
// the ranks compared (the two 2-rank CNN samples; step times: tests/tools/
// check_compare_ranks.py).
#include "compare_testsupport.h"
#include "ui/compare/comparepictures.h"
#include "ui/compare/compareview.h"
#include "ui/compare/deltatable.h"
#include "ui/compare/rankdeltas.h"
#include "ui/export/imageexport.h"
#include "ui/kpistrip.h"
#include "ui/panels/clusterheatmap.h"
#include "ui/report/comparereport.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>

#include <cmath>

using namespace stepscope;
using ui::compare::CompareView;

namespace {

std::shared_ptr<const ui::compare::CompareData> cnnPair(ui::compare::CompareRanks ranks = {})
{
    const std::string root = std::string(STEPSCOPE_TEST_DATA) + "/ascend_pt/";
    static const auto base = ui::compare::CompareData::build(
        testsupport::loadProfile(root + "msinsight-cnn-level0-2rank"),
        testsupport::loadProfile(root + "msinsight-cnn-level2-2rank"), false);
    return ranks.before || ranks.after ? base->withRanks(ranks) : base;
}

/// Whether the compare report's "Loss curves" section opens with `paragraph`.
bool reportLossOpensWith(
    const std::shared_ptr<const ui::compare::CompareData> &data, const QString &paragraph)
{
    for (const ui::ReportSection &section : ui::buildCompareReport(data, QSize(800, 400)).sections)
        if (section.title == QStringLiteral("Loss curves")
            && section.paragraphs.value(0) == paragraph)
            return true;
    return false;
}

int tabIndex(const QTabWidget *tabs, const QString &title)
{
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i) == title)
            return i;
    return -1;
}

} // namespace

TEST(CompareRanks, DataFollowsTheChosenRanks)
{
    const auto def = cnnPair();
    EXPECT_EQ(def->comparison.beforeRank, 0); // slowest of level0: 135.6 ms vs 119.5 ms
    EXPECT_EQ(def->before.traceIndex, 0);
    const auto r = cnnPair({1, 0});
    EXPECT_EQ(r->comparison.beforeRank, 1);
    EXPECT_EQ(r->comparison.afterRank, 0);
    ASSERT_GE(r->before.traceIndex, 0);
    EXPECT_EQ(
        r->before.profile.session->traces[static_cast<std::size_t>(r->before.traceIndex)]->rank, 1);
    ASSERT_EQ(r->before.breakdowns.size(), 1u);
    EXPECT_EQ(r->before.breakdowns.front().rank, 1);
    EXPECT_NEAR(
        static_cast<double>(r->before.breakdowns.front().durationNs()) / 1e3, 119522.23, 0.01);
}

TEST(CompareRanks, PickersCaptionsAndRanksTab)
{
    CompareView view;
    view.resize(1400, 1000);
    view.show();
    view.setData(cnnPair());
    ASSERT_EQ(view.beforeRankPicker()->count(), 2);
    EXPECT_EQ(view.beforeRankPicker()->currentData().toInt(), 0);
    EXPECT_EQ(view.beforeRankPicker()->itemText(0), QStringLiteral("rank 0 (slowest)"));
    EXPECT_TRUE(view.beforeCaption()->text().contains(QStringLiteral("rank 0 (slowest of 2")))
        << view.beforeCaption()->text().toStdString();

    // Both runs have two ranks: the Ranks tab shows the heat map and the per-rank table.
    const int tab = tabIndex(view.tabs(), QStringLiteral("Ranks"));
    ASSERT_GE(tab, 0);
    EXPECT_TRUE(view.tabs()->isTabVisible(tab));
    const ui::ClusterHeatMap *map = view.rankPane()->heatMap();
    ASSERT_EQ(map->rowCount(), 2);
    ASSERT_EQ(map->columnCount(), 1);
    EXPECT_EQ(map->stepOfColumn(0), 50);
    EXPECT_NEAR(map->value(1, 0), 27559.042, 0.01); // rank 1: 119.5 → 147.1 ms
    EXPECT_EQ(view.rankPane()->table()->rowCount(), 2);

    // Picking rank 1 for "before" recompares: steps, captions and the kernel tables follow.
    view.beforeRankPicker()->setCurrentIndex(1);
    EXPECT_EQ(view.comparison().beforeRank, 1);
    EXPECT_EQ(view.comparison().beforeRankChoice, analysis::RankChoice::Requested);
    EXPECT_EQ(view.comparison().afterRankChoice, analysis::RankChoice::Slowest);
    EXPECT_EQ(view.data()->before.breakdowns.front().rank, 1);
    EXPECT_TRUE(view.beforeCaption()->text().contains(QStringLiteral("rank 1 (chosen, of 2")))
        << view.beforeCaption()->text().toStdString();
    EXPECT_EQ(view.beforeRankPicker()->currentData().toInt(), 1);
    ASSERT_FALSE(view.comparison().meanStepRows.empty());
    EXPECT_NEAR(*view.comparison().meanStepRows.front().before, 119522.23, 0.01);
    // The Δ table says which rows cover the whole runs and which the compared ranks.
    const auto sections = ui::compare::deltaSections(view.comparison(), view.aligned());
    ASSERT_GE(sections.size(), 2u);
    EXPECT_EQ(sections[0].title, QStringLiteral("KPIs (whole runs, all ranks)"));
    EXPECT_TRUE(sections[1].title.endsWith(QStringLiteral(", rank 1 ↔ rank 0")))
        << sections[1].title.toStdString();
    // The KPI strip covers the whole runs too, and says so (its step time, 136 → 147 ms, is
    // the slowest rank's while the lanes show rank 1: 120 ms).
    const auto *scope = view.findChild<QLabel *>(QStringLiteral("kpiScope"));
    ASSERT_NE(scope, nullptr);
    EXPECT_FALSE(scope->isHidden());
    EXPECT_EQ(scope->text(), QStringLiteral("Whole runs, all ranks:"));
    EXPECT_TRUE(scope->toolTip().contains(QStringLiteral("rank 1 of before with rank 0 of after")))
        << scope->toolTip().toStdString();
}

TEST(CompareRanks, OneRankRunsHideTheRanksTab)
{
    CompareView view;
    view.setData(testsupport::demoPair());
    const int tab = tabIndex(view.tabs(), QStringLiteral("Ranks"));
    ASSERT_GE(tab, 0);
    EXPECT_FALSE(view.tabs()->isTabVisible(tab));
    EXPECT_FALSE(view.beforeRankPicker()->isEnabled());
    const auto *scope = view.findChild<QLabel *>(QStringLiteral("kpiScope"));
    ASSERT_NE(scope, nullptr);
    EXPECT_TRUE(scope->isHidden()); // one rank: the KPIs are that rank's
}

// The report used to print every rank of the session; it names the ranks compared.
TEST(CompareRanks, ReportNamesTheRanksCompared)
{
    const ui::Report report = ui::buildCompareReport(cnnPair({1, 0}), QSize(800, 400));
    ASSERT_FALSE(report.sections.empty());
    const ui::ReportSection &runs = report.sections.front();
    ASSERT_FALSE(runs.paragraphs.isEmpty());
    EXPECT_TRUE(runs.paragraphs.front().startsWith(
        QStringLiteral("Rank 1 of before against rank 0 of after")))
        << runs.paragraphs.front().toStdString();
    ASSERT_EQ(runs.tables.front().rows.size(), 2u);
    EXPECT_EQ(runs.tables.front().rows[0][3], QStringLiteral("rank 1 (chosen, of 2 ranks)"));
    EXPECT_EQ(runs.tables.front().rows[1][3], QStringLiteral("rank 0 (chosen, of 2 ranks)"));
    bool perRank = false;
    for (const ui::ReportSection &s : report.sections)
        if (s.title == QStringLiteral("Per-rank step time")) {
            perRank = true;
            ASSERT_EQ(s.tables.front().rows.size(), 2u);
            EXPECT_EQ(s.tables.front().rows[0][0], QStringLiteral("1")); // +27.6 ms first
        }
    EXPECT_TRUE(perRank);
    EXPECT_NE(report.summaryMarkdown.indexOf(QStringLiteral("rank 1 (chosen, of 2 ranks)")), -1);
    // The KPIs are both whole runs': the section says so, as the compare view's strip does.
    bool kpis = false;
    for (const ui::ReportSection &s : report.sections)
        if (s.title == QStringLiteral("KPIs")) {
            kpis = true;
            EXPECT_TRUE(s.paragraphs.contains(
                QStringLiteral("These KPIs cover all ranks of each run (2 and 2 ranks; a step's "
                               "time is its slowest rank's), not only rank 1 of before and rank "
                               "0 of after.")))
                << s.paragraphs.join(QLatin1Char('|')).toStdString();
        }
    EXPECT_TRUE(kpis);
}

// The report's paired-steps picture was drawn while its chart took its size: the first layout
// (a tiny plot, where the step label "50" did not fit) swapped the category axis, and the swap
// reached the scene only after the painting, so a stale axis sat in the plot's corner. A chart
// laid out before it is painted draws the same picture the first time as the second.
TEST(CompareRanks, ThePairedStepsPictureIsLaidOutBeforeItIsPainted)
{
    const ui::PaintFunction paint = ui::compare::pairedStepBarsPainter(cnnPair(), {});
    const QImage first = ui::renderImage(paint, QSize(1000, 300), 2);
    const QImage second = ui::renderImage(paint, QSize(1000, 300), 2);
    ASSERT_FALSE(first.isNull());
    EXPECT_TRUE(first == second);
}

// Two training logs and no profile: the window opened on empty timelines and a table of dashes.
// It shows the loss curves, the comparison there is.
TEST(CompareRanks, TwoLogsAloneOpenOnTheLossCurves)
{
    const std::string t5 =
        std::string(STEPSCOPE_TEST_DATA) + "/loss_logs/megatron-golden-values/t5/";
    const auto data =
        ui::compare::CompareData::build(testsupport::loadProfile(t5 + "t5_mcore_te_tp2_pp1_vp1"),
            testsupport::loadProfile(t5 + "t5_mcore_te_tp2_pp1_vp1_sequence_parallel"), true);
    CompareView view;
    view.setData(data);
    view.resize(1200, 800);
    view.show();
    const auto *tabs = view.findChild<QTabWidget *>();
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->currentIndex(), tabIndex(tabs, QStringLiteral("Loss")));
    const auto *timelines = view.findChild<QWidget *>(QStringLiteral("compareTimelines"));
    ASSERT_NE(timelines, nullptr);
    EXPECT_FALSE(timelines->isVisible());
    const auto *pairing = view.findChild<QWidget *>(QStringLiteral("pairingBar"));
    ASSERT_NE(pairing, nullptr);
    EXPECT_FALSE(pairing->isVisible());
    EXPECT_FALSE(view.kpiStrip()->isVisible());
    EXPECT_NE(view.lossOverlay().beforeSeries, nullptr);
    EXPECT_NE(view.lossOverlay().afterSeries, nullptr);
    // The Loss tab and the report give the verdict `stepscope compare` gives (compareTraining),
    // in its words: the window showed only the printed values' divergence (0.116 %), the
    // command the smoothed curves' (0.0725 %).
    const analysis::TrainingComparison cli =
        analysis::compareTraining(*data->before.profile.session, *data->after.profile.session);
    ASSERT_TRUE(view.lossOverlay().convergence.has_value());
    EXPECT_EQ(view.lossOverlay().convergence->verdict, analysis::ConvergenceVerdict::Held);
    EXPECT_EQ(view.lossOverlay().convergence->reason, cli.convergence.reason);
    const QString verdict = QString::fromStdString(analysis::convergenceText(cli.convergence));
    EXPECT_TRUE(reportLossOpensWith(data, verdict)) << verdict.toStdString();

    // Profiles keep them.
    view.setData(cnnPair());
    EXPECT_TRUE(timelines->isVisible());
    EXPECT_TRUE(pairing->isVisible());
    EXPECT_TRUE(view.kpiStrip()->isVisible());
}

// A profile against a training log alone: the log's side has no timeline to show, so it shows
// its caption ("no profile") and no empty "-7 ns … 9 ns" ruler; the profile keeps its lanes.
TEST(CompareRanks, ASideWithNoProfileShowsNoTimeline)
{
    const auto data =
        ui::compare::CompareData::build(testsupport::loadProfile(std::string(STEPSCOPE_TEST_DATA)
                                            + "/ascend_pt/msinsight-cnn-level0-2rank"),
            testsupport::loadProfile(
                std::string(STEPSCOPE_TEST_DATA) + "/loss_logs/llamafactory-trainer-log-jsonl"),
            false);
    CompareView view;
    view.setData(data);
    view.resize(1200, 800);
    view.show();
    const auto *before = view.findChild<QWidget *>(QStringLiteral("beforeTimeline"));
    const auto *after = view.findChild<QWidget *>(QStringLiteral("afterTimeline"));
    ASSERT_TRUE(before && after);
    EXPECT_TRUE(before->isVisible());
    EXPECT_FALSE(after->isVisible());
    bool captioned = false;
    for (const QLabel *label : view.findChildren<QLabel *>())
        captioned = captioned
            || (label->isVisible() && label->text().endsWith(QStringLiteral("· no profile")));
    EXPECT_TRUE(captioned);
    view.setOverlay(true); // one axis in the strip: neither view
    EXPECT_FALSE(before->isVisible());
    view.setOverlay(false);
    EXPECT_TRUE(before->isVisible());
    EXPECT_FALSE(after->isVisible());
}

// Two log files of one folder: each side compares the file opened, as `stepscope compare`
// does. The window scanned the folder and compared its first log (train_my_implementation)
// with itself: "held", 0 %, where the command says the fp16 run drifted.
TEST(CompareRanks, TwoLogFilesOfOneFolderAreTheFilesOpened)
{
    const std::string dir = std::string(STEPSCOPE_TEST_DATA)
        + "/loss_logs/deepspeed-random-ltd-kernel-vs-python/output1/check/";
    const auto data =
        ui::compare::CompareData::build(testsupport::loadProfile(dir + "train_with_kernel.log"),
            testsupport::loadProfile(dir + "train_with_kernel_fp16.log"), true);
    ASSERT_FALSE(data->before.logs.empty());
    ASSERT_FALSE(data->after.logs.empty());
    EXPECT_EQ(data->before.logs.front()->source,
        data->before.profile.session->trainingLogs.front()->source);
    EXPECT_NE(data->before.logs.front()->source.find("train_with_kernel.log"), std::string::npos)
        << data->before.logs.front()->source;
    EXPECT_NE(
        data->after.logs.front()->source.find("train_with_kernel_fp16.log"), std::string::npos)
        << data->after.logs.front()->source;
    CompareView view;
    view.setData(data);
    const analysis::TrainingComparison cli =
        analysis::compareTraining(*data->before.profile.session, *data->after.profile.session);
    ASSERT_TRUE(view.lossOverlay().convergence.has_value());
    EXPECT_EQ(view.lossOverlay().convergence->verdict, cli.convergence.verdict);
    EXPECT_EQ(view.lossOverlay().convergence->reason, cli.convergence.reason);
    EXPECT_EQ(cli.convergence.verdict, analysis::ConvergenceVerdict::Drifted);
}

// A folder of several logs: each side compares the run `stepscope compare` gates on
// (analysis::mainTrainingRun, the run with the most loss points), in the Loss tab, its verdict
// and the report. The window took the first log with a loss: test_ds3_pretrain's pta_det.txt
// (10 points, 13.42 → 13.10) where the command compares test_xiaoyi_sft's (11 points).
TEST(CompareRanks, AFolderOfLogsComparesTheRunTheGateCompares)
{
    const std::string dir =
        std::string(STEPSCOPE_TEST_DATA) + "/loss_logs/mindspeed-megatron-det-vs-nondet";
    const auto data = ui::compare::CompareData::build(testsupport::loadProfile(dir),
        testsupport::loadProfile(dir + "/test_xiaoyi_sft/pta_non_det.txt"), true);
    const analysis::TrainingComparison cli =
        analysis::compareTraining(*data->before.profile.session, *data->after.profile.session);
    ASSERT_TRUE(cli.hasLogs);
    EXPECT_EQ(cli.convergence.verdict, analysis::ConvergenceVerdict::Held);
    EXPECT_EQ(cli.convergence.commonSteps, 11u);
    CompareView view;
    view.setData(data);
    const ui::compare::LossOverlay &loss = view.lossOverlay();
    ASSERT_TRUE(loss.convergence.has_value());
    EXPECT_EQ(loss.convergence->verdict, cli.convergence.verdict);
    EXPECT_EQ(loss.convergence->reason, cli.convergence.reason);
    ASSERT_NE(loss.beforeSeries, nullptr);
    EXPECT_EQ(loss.beforeSeries->size(), 11u);
    EXPECT_TRUE(loss.beforeSource.contains(QStringLiteral("test_xiaoyi_sft")))
        << loss.beforeSource.toStdString();
    const QString verdict = QString::fromStdString(analysis::convergenceText(cli.convergence));
    EXPECT_TRUE(reportLossOpensWith(data, verdict)) << verdict.toStdString();
}
