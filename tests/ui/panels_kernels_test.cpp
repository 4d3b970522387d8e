// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Kernels panel: the rank's device kernels by name as the load's analysis has them
// (analysis::KernelSummary), sorted by total, filtered by name, a click naming the longest
// instance; a profile without kernels says how to record them.

#include "analysis/units.h"
#include "chartsupport.h"
#include "compare_testsupport.h"
#include "ui/panels/kernelspanel.h"
#include "ui/panels/tableitems.h"

#include <gtest/gtest.h>

#include <QAbstractItemModel>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

#include <cmath>
#include <string>

using namespace stepscope;

namespace {

/// The two-rank DDP trace, loaded once for the tests that read it (the panel only reads it).
const ui::LoadedProfile &ddp()
{
    static const ui::LoadedProfile p = testsupport::loadProfile(
        std::string(STEPSCOPE_TEST_DATA) + "/kineto/hta-ddp-a100-world2-nccl");
    return p;
}

/// The panel on the DDP trace's analysis, shown at a table's size.
void showDdp(ui::KernelsPanel &panel)
{
    panel.setAnalysis(ddp().session, ddp().analysis);
    uitest::showAndSettle(panel, 1400, 400);
}

QString cell(const QAbstractItemModel *m, int row, int column)
{
    return m->index(row, column).data().toString();
}

} // namespace

// hta-ddp-a100-world2-nccl rank 0 (tests/tools/check_kernels.py): 72 names, 3 774 kernels,
// 165 ms; the NCCL all-reduce first with 15 kernels and 46.8 ms.
TEST(PanelsKernels, TheTableIsTheAnalysisLargestFirst)
{
    const ui::LoadedProfile &p = ddp();
    ASSERT_TRUE(p.session && p.analysis);
    ui::KernelsPanel panel;
    panel.setAnalysis(p.session, p.analysis);
    uitest::showAndSettle(panel, 1400, 400);
    ASSERT_FALSE(panel.showsMessage());
    const analysis::KernelSummary *k = panel.summary();
    ASSERT_NE(k, nullptr);
    const QAbstractItemModel *shown = panel.table()->model();
    ASSERT_EQ(shown->rowCount(), 72);
    EXPECT_EQ(cell(shown, 0, 0).toStdString(),
        "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)");
    EXPECT_EQ(cell(shown, 0, 1), QStringLiteral("communication"));
    EXPECT_EQ(cell(shown, 0, 2), QStringLiteral("15"));
    EXPECT_EQ(cell(shown, 0, 3), QStringLiteral("46.8 ms"));
    EXPECT_EQ(cell(shown, 0, 4), QStringLiteral("28.3 %"));
    EXPECT_EQ(cell(shown, 0, 6), QStringLiteral("2.52 ms")); // median, check_kernels.py
    EXPECT_TRUE(shown->headerData(6, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("middle duration")));
    EXPECT_EQ(cell(shown, 0, 8), QStringLiteral("5.99 ms"));
    EXPECT_TRUE(panel.headline().contains(QStringLiteral("72 names")))
        << panel.headline().toStdString();
    EXPECT_TRUE(panel.headline().contains(QStringLiteral("3,774 kernels")))
        << panel.headline().toStdString();
    // Every row is the analysis' and the totals add up to the rank's kernel time.
    double sum = 0;
    for (int r = 0; r < shown->rowCount(); ++r) {
        const double total = shown->index(r, 3).data(ui::SortRole).toDouble();
        if (r > 0) {
            EXPECT_LE(total, shown->index(r - 1, 3).data(ui::SortRole).toDouble());
        }
        sum += total;
    }
    EXPECT_EQ(static_cast<std::int64_t>(sum), k->totalNs);
    EXPECT_EQ(k->totalNs, 165'185'838);
}

TEST(PanelsKernels, TheFilterKeepsTheNamesHoldingIt)
{
    ui::KernelsPanel panel;
    showDdp(panel);
    const analysis::KernelSummary *k = panel.summary();
    ASSERT_NE(k, nullptr);
    int expected = 0;
    for (const auto &row : k->top)
        expected += QString::fromStdString(row.first).contains(QStringLiteral("cudnn")) ? 1 : 0;
    ASSERT_GT(expected, 1);
    // Typed as a user types, in another case.
    auto *filter = panel.findChild<QLineEdit *>(QStringLiteral("kernelFilter"));
    ASSERT_NE(filter, nullptr);
    QTest::keyClicks(filter, QStringLiteral("CuDNN"));
    const QAbstractItemModel *shown = panel.table()->model();
    EXPECT_EQ(shown->rowCount(), expected);
    for (int r = 0; r < shown->rowCount(); ++r)
        EXPECT_TRUE(cell(shown, r, 0).contains(QStringLiteral("cudnn")));
    panel.setFilter({});
    EXPECT_EQ(shown->rowCount(), 72);
}

// The category box lists the categories the rank's kernels hold, largest total first; a
// choice keeps that category's rows, with the name filter, and the headline gives what they
// add up to (hta-ddp-a100-world2-nccl rank 0: the NCCL all-reduce and broadcast are the
// communication, 21 kernels, 46.9 ms, 28.4 %; tests/tools/check_kernels.py).
TEST(PanelsKernels, TheCategoryFilterKeepsItsKernelsAndSaysTheirSum)
{
    ui::KernelsPanel panel;
    showDdp(panel);
    const analysis::KernelSummary *k = panel.summary();
    ASSERT_NE(k, nullptr);
    auto *box = panel.findChild<QComboBox *>(QStringLiteral("kernelCategory"));
    ASSERT_NE(box, nullptr);
    ASSERT_EQ(box->count(), 5);
    EXPECT_EQ(box->itemText(0), QStringLiteral("all"));
    EXPECT_EQ(box->itemText(1), QStringLiteral("compute"));
    EXPECT_EQ(box->itemText(2), QStringLiteral("communication"));
    EXPECT_EQ(box->itemText(3), QStringLiteral("memcpy"));
    EXPECT_EQ(box->itemText(4), QStringLiteral("memset"));
    EXPECT_FALSE(panel.headline().contains(QStringLiteral("Shown")));
    // Chosen as a user does.
    box->setCurrentIndex(2);
    emit box->activated(2);
    const QAbstractItemModel *shown = panel.table()->model();
    ASSERT_EQ(shown->rowCount(), 2);
    EXPECT_EQ(cell(shown, 0, 1), QStringLiteral("communication"));
    EXPECT_EQ(cell(shown, 1, 1), QStringLiteral("communication"));
    EXPECT_TRUE(
        panel.headline().contains(QStringLiteral("Shown: 2 rows, 21 kernels, 46.9 ms (28.4 %).")))
        << panel.headline().toStdString();
    // Compute and a name: the rows holding both, their kernels and time summed.
    panel.setCategoryFilter(QStringLiteral("compute"));
    panel.setFilter(QStringLiteral("cudnn"));
    int rows = 0;
    long long count = 0;
    std::int64_t totalNs = 0;
    for (const auto &[name, s] : k->top) {
        if (s.category == model::Category::Compute
            && QString::fromStdString(name).contains(QStringLiteral("cudnn"))) {
            ++rows;
            count += s.count;
            totalNs += s.totalNs;
        }
    }
    ASSERT_GT(rows, 1);
    EXPECT_EQ(shown->rowCount(), rows);
    EXPECT_TRUE(panel.headline().contains(
        QStringLiteral("Shown: %1 rows, %L2 kernels, %3")
            .arg(rows)
            .arg(count)
            .arg(QString::fromStdString(analysis::formatDuration(totalNs)))))
        << panel.headline().toStdString();
    panel.setCategoryFilter({});
    panel.setFilter({});
    EXPECT_EQ(shown->rowCount(), 72);
    EXPECT_FALSE(panel.headline().contains(QStringLiteral("Shown")));
}

TEST(PanelsKernels, AClickNamesTheLongestInstance)
{
    const ui::LoadedProfile &p = ddp();
    ui::KernelsPanel panel;
    showDdp(panel);
    QSignalSpy requested(&panel, &ui::KernelsPanel::eventRequested);
    // The second row by total: sorted by the view, so the click must map to the right name.
    QTableView *view = panel.table();
    const QString name = cell(view->model(), 1, 0);
    const QRect rect = view->visualRect(view->model()->index(1, 3));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
    ASSERT_EQ(requested.count(), 1);
    const int rank = requested.at(0).at(0).toInt();
    const auto event = requested.at(0).at(1).value<model::EventRef>();
    const model::Trace *trace = p.session->traceForRank(rank);
    ASSERT_NE(trace, nullptr);
    const model::Track &track = trace->track(event.track);
    EXPECT_EQ(
        QString::fromStdString(std::string(trace->strings.view(track.name(event.index)))), name);
    // The longest of that name: 153.439 us (check_kernels.py).
    EXPECT_EQ(track.duration(event.index), 153'439);
}

TEST(PanelsKernels, NoKernelsSaysHowToRecordThem)
{
    const ui::LoadedProfile p = testsupport::loadProfile(
        std::string(STEPSCOPE_TEST_DATA) + "/torch_memory/hta-memory-timeline-raw");
    ASSERT_TRUE(p.session);
    ui::KernelsPanel panel;
    panel.setAnalysis(p.session, p.analysis);
    EXPECT_TRUE(panel.showsMessage());
    EXPECT_TRUE(panel.messageText().contains(QStringLiteral("No device kernels")));
    EXPECT_TRUE(panel.messageText().contains(QStringLiteral("ProfilerActivity.CUDA")));
    EXPECT_TRUE(panel.headline().isEmpty());
}

// Ascend writes its own table of kernels by type (op_statistic.csv): "Group by" shows it as
// written (tests/tools/check_op_statistic.py: 33 types, 187 ops, ForeachAddList first with
// 3 x, 1 954.719 us, 22.042 %). A Kineto trace has no such table and no such choice.
TEST(PanelsKernels, GroupedByOpTypeItIsTheProfilersTable)
{
    const ui::LoadedProfile p = testsupport::loadProfile(
        std::string(STEPSCOPE_TEST_DATA) + "/ascend_pt/msinsight-cnn-level2-2rank");
    ASSERT_TRUE(p.session && p.analysis);
    ui::KernelsPanel panel;
    panel.setAnalysis(p.session, p.analysis);
    uitest::showAndSettle(panel, 1400, 400);
    ASSERT_TRUE(panel.hasOpTypes());
    auto *grouping = panel.findChild<QComboBox *>(QStringLiteral("kernelGrouping"));
    ASSERT_NE(grouping, nullptr);
    EXPECT_TRUE(grouping->isVisible());
    const QLabel *groupLabel = nullptr;
    for (const QLabel *l : panel.findChildren<QLabel *>()) {
        if (l->buddy() == grouping)
            groupLabel = l;
    }
    ASSERT_NE(groupLabel, nullptr);
    EXPECT_TRUE(groupLabel->isVisible());
    EXPECT_EQ(panel.grouping(), ui::KernelsPanel::Grouping::Name);
    panel.setGrouping(ui::KernelsPanel::Grouping::OpType);
    const QAbstractItemModel *shown = panel.table()->model();
    ASSERT_EQ(shown->rowCount(), 33);
    EXPECT_EQ(cell(shown, 0, 0), QStringLiteral("ForeachAddList"));
    EXPECT_EQ(cell(shown, 0, 1), QStringLiteral("AI_VECTOR_CORE"));
    EXPECT_EQ(cell(shown, 0, 2), QStringLiteral("3"));
    EXPECT_EQ(cell(shown, 0, 3), QStringLiteral("1.95 ms"));
    EXPECT_EQ(std::llround(shown->index(0, 3).data(ui::SortRole).toDouble()), 1'954'719);
    EXPECT_EQ(cell(shown, 0, 4), QStringLiteral("22.0 %"));
    EXPECT_EQ(cell(shown, 0, 5), QStringLiteral("652 µs"));
    EXPECT_EQ(cell(shown, 0, 6), QStringLiteral("624 µs"));
    EXPECT_EQ(cell(shown, 0, 7), QStringLiteral("700 µs"));
    EXPECT_TRUE(panel.headline().contains(QStringLiteral("33 op types, 187 ops")))
        << panel.headline().toStdString();
    // The profiler's table has no categories; its rows filtered by name sum as ops.
    auto *category = panel.findChild<QComboBox *>(QStringLiteral("kernelCategory"));
    ASSERT_NE(category, nullptr);
    EXPECT_FALSE(category->isVisible());
    int rows = 0;
    long long ops = 0;
    for (const model::OpStatistic &o : panel.summary()->opTypes) {
        if (QString::fromStdString(o.name).contains(QStringLiteral("conv"), Qt::CaseInsensitive)) {
            ++rows;
            ops += o.count;
        }
    }
    ASSERT_GT(rows, 1);
    panel.setFilter(QStringLiteral("conv"));
    EXPECT_EQ(shown->rowCount(), rows);
    EXPECT_TRUE(
        panel.headline().contains(QStringLiteral("Shown: %1 rows, %2 ops").arg(rows).arg(ops)))
        << panel.headline().toStdString();
    panel.setFilter({});

    const ui::LoadedProfile &kineto = ddp();
    panel.setAnalysis(kineto.session, kineto.analysis);
    EXPECT_FALSE(panel.hasOpTypes());
    EXPECT_FALSE(grouping->isVisible());
    EXPECT_FALSE(groupLabel->isVisible()); // no "Group by:" left without its choice
    EXPECT_EQ(panel.table()->model()->rowCount(), 72); // by name, whatever was chosen before
}

// One step's kernels, chosen by its number (the profiler's step id): those that start in it.
// tests/tools/check_kernels.py gives ProfilerStep#6 of rank 0: 1 258 kernels, 72 names,
// 62 207.957 us; the NCCL all-reduce first, 5 x 22 550.355 us.
TEST(PanelsKernels, OneStepsKernelsAreThoseThatStartInIt)
{
    const ui::LoadedProfile &p = ddp();
    ui::KernelsPanel panel;
    showDdp(panel);
    auto *steps = panel.findChild<QComboBox *>(QStringLiteral("kernelStep"));
    ASSERT_NE(steps, nullptr);
    ASSERT_EQ(steps->count(), 4); // all, 4, 5, 6
    EXPECT_EQ(steps->itemText(3), QStringLiteral("6"));
    steps->setCurrentIndex(3);
    emit steps->activated(3);
    ASSERT_EQ(panel.currentStep(), std::optional<std::int64_t>(6));
    const QAbstractItemModel *shown = panel.table()->model();
    ASSERT_EQ(shown->rowCount(), 72);
    EXPECT_TRUE(panel.headline().contains(QStringLiteral("1,258 kernels")))
        << panel.headline().toStdString();
    EXPECT_TRUE(panel.headline().contains(QStringLiteral("in step 6")))
        << panel.headline().toStdString();
    ASSERT_NE(panel.summary(), nullptr);
    EXPECT_EQ(panel.summary()->totalNs, 62'207'957);
    EXPECT_TRUE(cell(shown, 0, 0).startsWith(QStringLiteral("ncclKernel_AllReduce")));
    EXPECT_EQ(cell(shown, 0, 2), QStringLiteral("5"));
    EXPECT_EQ(std::llround(shown->index(0, 3).data(ui::SortRole).toDouble()), 22'550'355);
    // A click names the longest all-reduce of the step, not of the run.
    const model::EventRef longest = panel.summary()->top.front().second.longest;
    const model::Trace &trace = *p.session->traces.front();
    const model::Track &track = trace.tracks[longest.track.value()];
    const auto stepRows = analysis::breakdownsOfRank(*p.analysis, 0);
    const analysis::StepBreakdown &six = stepRows.back();
    ASSERT_EQ(six.step, 6);
    EXPECT_GE(track.start(longest.index), six.startNs);
    EXPECT_LT(track.start(longest.index), six.endNs);

    // Back to the whole run: the load's analysis as before.
    panel.setStep(std::nullopt);
    EXPECT_EQ(panel.summary(), analysis::kernelsOfRank(*p.analysis, 0));
    EXPECT_EQ(steps->currentIndex(), 0);
    EXPECT_TRUE(panel.headline().contains(QStringLiteral("3,774 kernels")));
}
