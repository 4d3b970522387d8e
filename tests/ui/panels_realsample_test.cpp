// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The three panels on real samples: they show data (not their "missing" message) wherever the
// profile has it. With STEPSCOPE_SHOT_DIR set, each panel is also rendered to a PNG there so a
// person can look at it (the app itself has no such mode).

#include "analysed.h"
#include "chartsupport.h"
#include "import/loader.h"
#include "ui/charts/barchart.h"
#include "ui/charts/heatmap.h"
#include "ui/charts/timechart.h"
#include "ui/panels/communicationpanel.h"
#include "ui/panels/memorypanel.h"
#include "ui/panels/stepspanel.h"
#include "ui/panels/tableitems.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QPixmap>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>

using namespace stepscope;

namespace {

std::shared_ptr<const model::Session> load(const char *relative)
{
    util::Progress progress;
    const auto result =
        import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/" + relative, progress);
    return result.session;
}

void shoot(QWidget &w, const char *name)
{
    const char *dir = std::getenv("STEPSCOPE_SHOT_DIR");
    if (!dir || !*dir)
        return;
    QDir().mkpath(QString::fromLocal8Bit(dir));
    const QString file = QDir(QString::fromLocal8Bit(dir)).filePath(QString::fromLatin1(name));
    EXPECT_TRUE(w.grab().save(file)) << file.toStdString();
}

} // namespace

TEST(PanelsRealSample, AscendLevel2TwoRanks)
{
    const auto session = load("ascend_pt/msinsight-cnn-level2-2rank");
    ASSERT_TRUE(session && session->hasContent());
    ASSERT_EQ(session->traces.size(), 2u);

    ui::StepsPanel steps;
    steps.setSession(session);
    uitest::showAndSettle(steps, 1400, 800);
    EXPECT_FALSE(steps.showsMessage());
    EXPECT_FALSE(steps.breakdowns().empty());
    shoot(steps, "steps-ascend-level2.png");

    ui::MemoryPanel memory;
    uitest::setAnalysed(memory, session);
    uitest::showAndSettle(memory, 1400, 800);
    ASSERT_FALSE(memory.showsMessage());
    EXPECT_EQ(memory.currentRank(), 0);
    // memory_record.csv of rank 0 has the components PTA+GE, PTA, GE and APP.
    EXPECT_TRUE(memory.components().contains(QStringLiteral("PTA (NPU:0)"))
        || memory.components().contains(QStringLiteral("PTA")))
        << memory.components().join(QStringLiteral(", ")).toStdString();
    EXPECT_TRUE(memory.curveNote().isEmpty());
    // operator_memory.csv of rank 0: 184 allocations.
    EXPECT_EQ(memory.allocationTable()->model()->rowCount(), 184);
    // The largest is 147 456.5 KB: sorted by size, it comes first.
    memory.allocationTable()->sortByColumn(1, Qt::DescendingOrder);
    const QModelIndex top = memory.allocationTable()->model()->index(0, 1);
    EXPECT_EQ(top.data(ui::SortRole).toDouble(), 147456.5 * 1024);
    memory.setComponent(QStringLiteral("PTA (NPU:0)"));
    shoot(memory, "memory-ascend-level2.png");

    ui::CommunicationPanel comm;
    uitest::setAnalysed(comm, session);
    uitest::showAndSettle(comm, 1400, 800);
    ASSERT_FALSE(comm.showsMessage());
    EXPECT_FALSE(comm.collectives().empty());
    // communication_matrix.json of rank 0 has links 0-0..0-7, rank 1's 1-0..1-7: the matrix
    // is over the two ranks profiled, and says what it leaves out (2 × 6 links to 2–7).
    EXPECT_EQ(comm.heatMap()->rowCount(), 2);
    EXPECT_EQ(comm.heatMap()->columnCount(), 2);
    EXPECT_TRUE(comm.matrixNote().isEmpty());
    EXPECT_TRUE(comm.extentNote().contains(QStringLiteral("ranks 2–7")))
        << comm.extentNote().toStdString();
    shoot(comm, "communication-ascend-level2.png");
}

TEST(PanelsRealSample, KinetoMemoryEvents)
{
    const auto session = load("kineto/hta-ddp-2rank-rank1-memory");
    ASSERT_TRUE(session && session->hasContent());
    ui::MemoryPanel memory;
    uitest::setAnalysed(memory, session);
    uitest::showAndSettle(memory, 1400, 800);
    ASSERT_FALSE(memory.showsMessage());
    ui::TimeChart *curves = memory.curveChart();
    ASSERT_GE(curves->seriesCount(), 1);
    // docs/formats.md §5.7: peak allocated 6.17 GiB over the 28 010 [memory] events; decimation
    // through the adapter keeps it.
    double peak = 0;
    for (const QPointF &p : curves->drawnPoints(0))
        peak = std::max(peak, p.y());
    EXPECT_NEAR(peak / (1024.0 * 1024 * 1024), 6.17, 0.005);
    shoot(memory, "memory-kineto-ddp-rank1.png");

    ui::StepsPanel steps;
    steps.setSession(session);
    uitest::showAndSettle(steps, 1400, 800);
    shoot(steps, "steps-kineto-ddp-rank1.png");
}

TEST(PanelsRealSample, TorchMemoryTimelineCategories)
{
    const auto session = load("torch_memory/hta-memory-timeline-raw");
    ASSERT_TRUE(session && session->hasContent());
    ui::MemoryPanel memory;
    uitest::setAnalysed(memory, session);
    uitest::showAndSettle(memory, 1400, 800);
    ASSERT_FALSE(memory.showsMessage());
    EXPECT_TRUE(memory.categoryNote().isEmpty());
    const auto &groups = memory.groupTimeline();
    ASSERT_FALSE(groups.timestampsNs.empty());
    EXPECT_FALSE(groups.inferred);
    // The stack's top equals the total at every drawn point.
    ui::TimeChart *stack = memory.categoryChart();
    ASSERT_GE(stack->seriesCount(), 4);
    const QList<QPointF> top = stack->drawnPoints(stack->seriesCount() - 1);
    std::size_t checked = 0;
    for (const QPointF &p : top) {
        const auto t = static_cast<std::int64_t>(p.x());
        // Several events can share a timestamp: the point is the total after one of them.
        const auto [lo, hi] =
            std::equal_range(groups.timestampsNs.begin(), groups.timestampsNs.end(), t);
        ASSERT_NE(lo, hi) << t;
        bool found = false;
        for (auto it = lo; it != hi; ++it)
            found = found
                || p.y()
                    == static_cast<double>(groups.totalBytes[static_cast<std::size_t>(
                        it - groups.timestampsNs.begin())]);
        EXPECT_TRUE(found) << t;
        ++checked;
    }
    EXPECT_GT(checked, 10u);
    shoot(memory, "memory-torch-timeline.png");
}

// The "Profiler's step time" marker summed Bubble on top of Communication(Not Overlapped),
// which already holds the receive time: on MindInsight's pipeline cluster it stood at 235 ms
// over 178 ms steps. The profiler's step is Preparing + Computing + Communication(Not
// Overlapped) + Free (steps.h tableStepNs), the bar's height on every table step; the Overlap
// Analysis lanes (device span only) give no marker.
TEST(PanelsRealSample, ProfilerStepMarkerIsTheTablesStepTime)
{
    struct Case
    {
        const char *sample;
        std::vector<int> ranks;
    };
    for (const Case &c : {Case {"mindspore_legacy/mindinsight-cluster-pp-4rank", {0, 1, 2, 3}},
             Case {"ascend_pt/msinsight-gpt3-pp2-16rank-trimmed", {0, 1, 8, 11}}}) {
        const auto session = load(c.sample);
        ASSERT_TRUE(session) << c.sample;
        ui::StepsPanel steps;
        steps.setSession(session);
        uitest::showAndSettle(steps, 1400, 800);
        int checked = 0;
        for (int rank : c.ranks) {
            steps.setRank(rank);
            ui::BarChart *chart = steps.chart();
            for (int k = 0; k < chart->categoryCount(); ++k) {
                const double marker = chart->marker(k);
                if (std::isnan(marker))
                    continue;
                EXPECT_NEAR(marker, chart->stackTotal(k), 0.01 * chart->stackTotal(k))
                    << c.sample << " rank " << rank << " step " << k;
                ++checked;
            }
        }
        EXPECT_GT(checked, 0) << c.sample;
    }
    // A partial copy without ranks 2 and 3's cluster split: their step_trace_raw gives only
    // each step's total, and that total is the marker (there was none).
    QTemporaryDir partial;
    ASSERT_TRUE(partial.isValid());
    const QDir from(
        QStringLiteral(STEPSCOPE_TEST_DATA "/mindspore_legacy/mindinsight-cluster-pp-4rank"));
    for (const QString &f : from.entryList(QDir::Files)) {
        if (f.endsWith(QStringLiteral("_2_4_2.csv")) || f.endsWith(QStringLiteral("_2_4_3.csv")))
            continue;
        ASSERT_TRUE(QFile::copy(from.filePath(f), QDir(partial.path()).filePath(f)));
    }
    util::Progress progress;
    const auto trimmed = import::loadPath(partial.path().toStdString(), progress).session;
    ASSERT_TRUE(trimmed);
    ui::StepsPanel trimmedSteps;
    trimmedSteps.setSession(trimmed);
    uitest::showAndSettle(trimmedSteps, 1400, 800);
    trimmedSteps.setRank(3);
    ui::BarChart *chart3 = trimmedSteps.chart();
    ASSERT_GT(chart3->categoryCount(), 0);
    for (int k = 0; k < chart3->categoryCount(); ++k) {
        ASSERT_FALSE(std::isnan(chart3->marker(k))) << k;
        EXPECT_NEAR(chart3->marker(k), chart3->stackTotal(k), 0.01 * chart3->stackTotal(k)) << k;
    }

    const auto advisor = load("ascend_pt/mstt-advisor-fragments");
    ASSERT_TRUE(advisor);
    ui::StepsPanel steps;
    steps.setSession(advisor);
    uitest::showAndSettle(steps, 1400, 800);
    steps.setRank(0);
    ASSERT_GT(steps.chart()->categoryCount(), 0);
    EXPECT_TRUE(std::isnan(steps.chart()->marker(0)));
}
