// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// `stepscope export --step N` and `--range A:B` show what the window shows: step N is where a
// click on its Steps row zooms the window, on every rank that has the step, and a range counts
// from the ruler's zero. Nothing is pinned: the export is checked against the window.
#include "analysis/analysissummary.h"
#include "chartsupport.h"
#include "ui/export/viewexport.h"
#include "ui/mainwindow.h"
#include "ui/panels/stepspanel.h"
#include "ui/timeline/timelinemodel.h"
#include "ui/timeline/timelineview.h"
#include "window_testsupport.h"

#include <gtest/gtest.h>

#include <QAbstractItemModel>
#include <QTableView>

#include <algorithm>
#include <optional>
#include <set>
#include <utility>

using namespace stepscope;
using namespace stepscope::ui;

namespace {

struct StepCase
{
    const char *sample;
    qint64 step;
};

/// The window's selected range after a click on step `step`'s row of the Steps panel for
/// `rank`; nullopt when the rank has no such row.
std::optional<std::pair<qint64, qint64>> clickStepRow(
    MainWindow &window, StepsPanel &panel, int rank, qint64 step)
{
    panel.setRank(rank);
    QTableView *table = panel.table();
    const QAbstractItemModel *rows = table->model();
    for (int r = 0; r < rows->rowCount(); ++r) {
        const QModelIndex cell = rows->index(r, 0);
        if (cell.data().toString() != QString::number(step))
            continue;
        table->scrollTo(cell);
        uitest::leftClick(table->viewport(), table->visualRect(cell).center());
        const auto range = window.timelineView()->viewState().range;
        if (!range)
            return std::nullopt;
        return std::make_pair(qint64 {range->first}, qint64 {range->second});
    }
    return std::nullopt;
}

} // namespace

class ExportSelection : public ::testing::TestWithParam<StepCase>
{
};

TEST_P(ExportSelection, AStepIsWhereAClickOnItsRowsZoomsTheWindow)
{
    const StepCase c = GetParam();
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(uitest::loadInWindow(window,
        QString::fromUtf8(STEPSCOPE_TEST_DATA) + QLatin1Char('/') + QString::fromUtf8(c.sample)));
    auto *panel = window.findChild<StepsPanel *>();
    ASSERT_NE(panel, nullptr);
    const auto &model = window.timelineView()->model();
    const auto &analysed = window.profile().analysis;
    ASSERT_TRUE(model && analysed);

    std::set<int> ranks;
    for (const auto &trace : window.session()->traces)
        ranks.insert(trace->rank);
    std::optional<std::pair<qint64, qint64>> clicked;
    int rowsClicked = 0;
    for (int rank : ranks) {
        const auto range = clickStepRow(window, *panel, rank, c.step);
        if (!range)
            continue;
        ++rowsClicked;
        clicked = clicked ? std::make_pair(std::min(clicked->first, range->first),
                      std::max(clicked->second, range->second))
                          : *range;
    }
    ASSERT_GT(rowsClicked, 0) << "no Steps row of step " << c.step;

    QString error;
    const auto exported = resolveSelection(*model, *analysed, TimeSelection {c.step, {}}, &error);
    ASSERT_TRUE(exported) << error.toStdString();
    EXPECT_EQ(*exported, *clicked)
        << c.sample << " step " << c.step << " over " << rowsClicked << " ranks";
    EXPECT_TRUE(checkSelection(*analysed, TimeSelection {c.step, {}}, &error));
}

// The step ids are the Steps panel's: the profiler's table where there is one. Before, the
// export looked for the trace's own step markers, and refused step 2 of the trimmed cluster
// (its ranks are the table's only) and the one inferred step 0 of the Nsight capture.
INSTANTIATE_TEST_SUITE_P(RealSamples, ExportSelection,
    ::testing::Values(StepCase {"ascend_pt/msinsight-gpt3-pp2-16rank-trimmed", 2},
        StepCase {"nsys_sqlite/pipit-cloverleaf-cuda", 0},
        StepCase {"ascend_pt/msinsight-cnn-level2-2rank", 50},
        StepCase {"mindspore_legacy/mindinsight-cluster-pp-4rank", 5},
        StepCase {"kineto/hta-mi250-minitoy-rocm", 1}));

TEST(ExportSelection, ARangeCountsFromTheRulersZero)
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(uitest::loadInWindow(window,
        QString::fromUtf8(STEPSCOPE_TEST_DATA)
            + QStringLiteral("/ascend_pt/msinsight-gpt3-pp2-16rank-trimmed")));
    const auto &model = window.timelineView()->model();
    const auto &analysed = window.profile().analysis;
    ASSERT_TRUE(model && analysed);
    const qint64 zero = window.timelineView()->viewState().rulerOriginNs;
    QString error;
    const auto range =
        resolveSelection(*model, *analysed, TimeSelection {{}, std::make_pair(10, 30)}, &error);
    ASSERT_TRUE(range) << error.toStdString();
    EXPECT_EQ(range->first, zero + 10'000);
    EXPECT_EQ(range->second, zero + 30'000);
    const auto all = resolveSelection(*model, *analysed, TimeSelection {}, &error);
    ASSERT_TRUE(all);
    EXPECT_EQ(all->first, model->extent().first);
    EXPECT_EQ(all->second, model->extent().second);

    EXPECT_FALSE(checkSelection(*analysed, TimeSelection {99, {}}, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("step 99 is not in the profile (its step: 2)")))
        << error.toStdString();
    // A window wholly before or after the trace draws nothing: refused, and said.
    const qint64 spanUs = (model->extent().second - zero + 999) / 1000;
    for (const auto &outside : {std::make_pair<qint64, qint64>(-100, -50),
             std::make_pair<qint64, qint64>(spanUs + 10, spanUs + 20)}) {
        error.clear();
        EXPECT_FALSE(resolveSelection(*model, *analysed, TimeSelection {{}, outside}, &error));
        EXPECT_TRUE(error.contains(
            QStringLiteral("lies outside the trace, which spans 0:%1 µs").arg(spanUs)))
            << error.toStdString();
    }
    EXPECT_FALSE(checkSelection(*analysed, TimeSelection {{}, std::make_pair(5, 5)}, &error));
}
