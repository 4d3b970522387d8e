// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Training panel on the Lightning sample (tests/data/loss_logs/lightning-csvlogger-2runs,
// two runs, each lightning_logs/version_N/metrics.csv): the run picker names each run's
// folder, since both files are called metrics.csv (issue 15).

#include "chartsupport.h"
#include "import/loader.h"
#include "ui/charts/stepchart.h"
#include "ui/panels/trainingpanel.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QScrollArea>

using namespace stepscope;

namespace {

/// A sample of tests/data/loss_logs, loaded as the window loads it.
stepscope::import::LoadResult loadLogs(const std::string &name)
{
    util::Progress progress;
    return import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/loss_logs/" + name, progress);
}

/// The panel's chart of that title, nullptr when it has none.
const ui::StepChart *chartTitled(const ui::TrainingPanel &panel, const QString &title)
{
    for (const ui::StepChart *c : panel.charts())
        if (c->title() == title)
            return c;
    return nullptr;
}

} // namespace

TEST(PanelsTraining, RunPickerNamesEachRunsFolder)
{
    const auto result = loadLogs("lightning-csvlogger-2runs");
    ASSERT_TRUE(result.session);
    ui::TrainingPanel panel;
    panel.setSession(result.session);
    ASSERT_EQ(panel.runCount(), 2);
    QComboBox *picker = panel.runPicker();
    ASSERT_EQ(picker->count(), 2);
    QStringList texts;
    for (int i = 0; i < picker->count(); ++i) {
        texts << picker->itemText(i);
        EXPECT_TRUE(picker->itemData(i, Qt::ToolTipRole)
                        .toString()
                        .endsWith(QStringLiteral("/metrics.csv")));
    }
    const QString all = texts.join(QStringLiteral(" | "));
    EXPECT_EQ(texts.filter(QStringLiteral(": version_1/metrics.csv")).size(), 1)
        << all.toStdString();
    EXPECT_EQ(texts.filter(QStringLiteral(": version_3/metrics.csv")).size(), 1)
        << all.toStdString();
}

TEST(ChartsStepChart, ValueTitleFitsTheChartAndBytesUseBinaryUnits)
{
    ui::StepChart chart;
    chart.setTitle(QStringLiteral("Throughput"));
    chart.setValueAxisTitle(QStringLiteral("Throughput (samples/s)"));
    chart.addLine(
        QStringLiteral("samples/s"), Qt::blue, {1, 2, 3}, {100, 200, 300}, {0, 0, 0}, QString());
    uitest::showAndSettle(chart, 500, 700);
    EXPECT_EQ(chart.shownValueAxisTitle(), QStringLiteral("Throughput (samples/s)"));
    // A short chart: never Qt's end-cut "samp…"; the unit, or the title elided in the middle.
    uitest::showAndSettle(chart, 500, 170);
    const QString shortTitle = chart.shownValueAxisTitle();
    EXPECT_TRUE(shortTitle == QStringLiteral("(samples/s)")
        || (shortTitle.contains(QChar(0x2026)) && !shortTitle.endsWith(QChar(0x2026))))
        << shortTitle.toStdString();

    ui::StepChart memory;
    memory.setValueAxisTitle(QStringLiteral("Memory"));
    memory.setBytes(true);
    memory.addLine(
        QStringLiteral("mem-allocated-bytes"), Qt::blue, {1, 2}, {3e9, 5e8}, {0, 0}, QString());
    uitest::showAndSettle(memory, 500, 500);
    EXPECT_EQ(memory.shownValueAxisTitle(), QStringLiteral("Memory (GiB)"));
    ASSERT_EQ(memory.drawnPoints(0).size(), 2);
    EXPECT_NEAR(memory.drawnPoints(0)[0].y(), 3e9 / (1024.0 * 1024 * 1024), 1e-9);
    EXPECT_TRUE(memory.toolTipAt(1).contains(QStringLiteral("3"))); // raw value in the tooltip

    // Durations in the unit their span needs: MindFormers' 400 s first step read "400000"
    // on a "(ms)" axis.
    ui::StepChart time;
    time.setValueAxisTitle(QStringLiteral("Step time"));
    time.setDurationUnit(1e6);
    time.addLine(QStringLiteral("per_step_time"), Qt::blue, {1, 2, 3}, {400000, 900, 950},
        {0, 0, 0}, QString());
    uitest::showAndSettle(time, 600, 400);
    EXPECT_EQ(time.shownValueAxisTitle(), QStringLiteral("Step time (s)"));
    ASSERT_EQ(time.drawnPoints(0).size(), 3);
    EXPECT_NEAR(time.drawnPoints(0)[0].y(), 400.0, 1e-9);

    // A learning rate counts in units of 1e-5, the axis title says so.
    ui::StepChart lr;
    lr.setValueAxisTitle(QStringLiteral("Learning rate"));
    lr.addLine(QStringLiteral("lr"), Qt::blue, {1, 2, 3}, {1e-5, 3e-5, 2e-5}, {0, 0, 0}, QString());
    uitest::showAndSettle(lr, 600, 400);
    EXPECT_EQ(lr.shownValueAxisTitle(), QStringLiteral("Learning rate (×1e-5)"));
    ASSERT_EQ(lr.drawnPoints(0).size(), 3);
    EXPECT_NEAR(lr.drawnPoints(0)[1].y(), 3.0, 1e-9);
}

// megatron-golden-values has three charts (loss, step time, memory): the memory chart alone
// in the last row kept its 170 px minimum when the dock grew, its axis title cut to "(MiB)".
// Every row now has the same height.
TEST(PanelsTraining, EveryRowOfChartsHasTheSameHeight)
{
    const auto result = loadLogs("megatron-golden-values");
    ASSERT_TRUE(result.session);
    // In a scroll area, as the Training dock holds it, at the dock's height in the window.
    QScrollArea area;
    area.setWidgetResizable(true);
    auto *panel = new ui::TrainingPanel;
    area.setWidget(panel);
    // The dock is low until the logs load, then the window gives it three quarters.
    uitest::showAndSettle(area, 1400, 200);
    panel->setSession(result.session);
    uitest::showAndSettle(area, 1400, 600);
    const std::vector<ui::StepChart *> charts = panel->charts();
    ASSERT_EQ(charts.size(), 3u);
    EXPECT_EQ(charts[0]->y(), charts[1]->y()); // loss and step time side by side
    EXPECT_GT(charts[2]->y(), charts[0]->y()); // memory below, the whole width
    EXPECT_GT(charts[2]->width(), charts[0]->width() * 3 / 2);
    EXPECT_NEAR(charts[2]->height(), charts[0]->height(), 4);
}

// MindFormers' learning rate warms up from 0 and decays towards 0: drawn log-scaled, its
// "1e-05" ticks were cut to "..." by Qt Charts. It is drawn linear, its ticks in ×1e-6.
TEST(PanelsTraining, TheLearningRateIsLinearInAPowerOfTen)
{
    const auto result = loadLogs("mindformers-llama3-8b-lora-2runs");
    ASSERT_TRUE(result.session);
    ui::TrainingPanel panel;
    panel.setSession(result.session);
    uitest::showAndSettle(panel, 1400, 900);
    const ui::StepChart *lr = chartTitled(panel, QStringLiteral("Learning rate"));
    ASSERT_NE(lr, nullptr);
    EXPECT_TRUE(lr->shownValueAxisTitle().contains(QStringLiteral("×1e-")))
        << lr->shownValueAxisTitle().toStdString();
}

// DeepSpeed logs give each skipped step twice: an OVERFLOW line when it is skipped and the
// running total `skipped=N` printed every few steps. The charts counted both ("skipped step
// (212)" for the 139 of opt-1.3b); each skipped step now counts once. The counts are
// tests/tools/check_training_logs.py's (OVERFLOW lines, and the last `skipped=`).
TEST(PanelsTraining, EachSkippedStepCountsOnce)
{
    for (const auto &[sample, skipped] : {std::make_pair("deepspeed-chat-step1-opt1.3b", 139),
             std::make_pair("deepspeed-random-ltd-kernel-vs-python", 4)}) {
        const auto result = loadLogs(sample);
        ASSERT_TRUE(result.session) << sample;
        ui::TrainingPanel panel;
        panel.setSession(result.session);
        uitest::showAndSettle(panel, 1400, 900);
        // Runs that overflow mark their skipped steps (the fp16 runs of the pair); the others
        // mark none.
        int markedRuns = 0;
        for (int run = 0; run < panel.runCount(); ++run) {
            panel.runPicker()->setCurrentIndex(run);
            bool marked = false;
            for (const ui::StepChart *c : panel.charts()) {
                if (c->eventLegends().isEmpty())
                    continue;
                marked = true;
                EXPECT_EQ(c->eventLegends(),
                    QStringList {QStringLiteral("skipped steps (%1)").arg(skipped)})
                    << sample << " run " << run << ": " << c->title().toStdString();
            }
            markedRuns += marked ? 1 : 0;
        }
        EXPECT_GT(markedRuns, 0) << sample << ": no chart marks the skipped steps";
    }
}

// DeepSpeed's loss scale of opt-1.3b moves between powers of two (65536 down to 2048 on
// overflow): on a base-10 axis it read one lone "10000". Its axis ticks powers of two.
TEST(PanelsTraining, ALossScaleAxisReadsPowersOfTwo)
{
    const auto result = loadLogs("deepspeed-chat-step1-opt1.3b");
    ASSERT_TRUE(result.session);
    ui::TrainingPanel panel;
    panel.setSession(result.session);
    uitest::showAndSettle(panel, 1400, 900);
    const ui::StepChart *scale = chartTitled(panel, QStringLiteral("Loss scale"));
    const ui::StepChart *perplexity = chartTitled(panel, QStringLiteral("Perplexity"));
    ASSERT_TRUE(scale && perplexity);
    ASSERT_TRUE(scale->logScale());
    const QStringList labels = scale->valueAxisLabels();
    EXPECT_GE(labels.size(), 2) << labels.join(QLatin1Char(' ')).toStdString();
    EXPECT_TRUE(labels.contains(QStringLiteral("65536")))
        << labels.join(QLatin1Char(' ')).toStdString();
    // Perplexity spans decades (3 to 5 000): powers of ten, as before.
    ASSERT_TRUE(perplexity->logScale());
    EXPECT_TRUE(perplexity->valueAxisLabels().contains(QStringLiteral("1000")))
        << perplexity->valueAxisLabels().join(QLatin1Char(' ')).toStdString();
}
