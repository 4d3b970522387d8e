// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Cluster panel (issue 11 item 3): table rows = ranks, sorting, the heat map's extent and
// metric switch, stages with their bubble, and opening a rank. Numbers of the 16-rank sample
// are checked by hand with tests/tools/cluster_panel_check.py.

#include "import/loader.h"
#include "timeline_testsupport.h"
#include "ui/panels/clusterheatmap.h"
#include "ui/panels/clusterpanel.h"
#include "ui/panels/clusterrankmodel.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QStandardItemModel>
#include <QTableView>

#include <cmath>

using namespace stepscope;
using namespace stepscope::ui;

namespace {

std::shared_ptr<const model::Session> load(const char *relative)
{
    util::Progress progress;
    return import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/" + relative, progress).session;
}

constexpr const char *Sample = "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed";

int rowOfRank(const ClusterHeatMap &map, std::int32_t rank)
{
    for (int r = 0; r < map.rowCount(); ++r)
        if (map.rankOfRow(r) == rank)
            return r;
    return -1;
}

/// A cluster table of `ranks` × `steps` (µs): computing 100 ms, communication 50 ms, free
/// 10 ms, except rank `slow` in step `slowStep` computing 300 ms.
std::shared_ptr<const model::Session> syntheticCluster(int ranks, int steps, int slow, int slowStep)
{
    auto s = std::make_shared<model::Session>();
    s->format = "synthetic";
    for (int st = 0; st < steps; ++st)
        for (int r = 0; r < ranks; ++r) {
            model::ReferenceStep row;
            row.rank = r;
            row.step = 10 + st;
            row.kind = "rank";
            const double compute = (r == slow && st == slowStep) ? 300'000.0 : 100'000.0 + r % 7;
            row.valuesUs = {{"Computing", compute}, {"Communication(Not Overlapped)", 50'000.0},
                {"Free", 10'000.0}};
            s->clusterSteps.push_back(std::move(row));
        }
    return s;
}

} // namespace

TEST(ClusterPanel, SixteenRankSampleShowsEveryRankAndSorts)
{
    const auto session = load(Sample);
    ASSERT_TRUE(session);
    ClusterPanel panel;
    panel.resize(1200, 600);
    panel.setSession(session);
    const cluster::ClusterData &d = panel.data();
    ASSERT_EQ(d.ranks.size(), 16u);
    ASSERT_EQ(d.steps.size(), 1u);
    EXPECT_EQ(d.steps.front(), 2);
    // Table rows = ranks.
    QAbstractItemModel *table = panel.rankTable()->model();
    EXPECT_EQ(table->rowCount(), 16);
    // Heat map: 16 ranks × 1 step; rank 11's step time = C + CNO + Free = 394 234.92 µs.
    const ClusterHeatMap &map = *panel.heatMap();
    EXPECT_EQ(map.rowCount(), 16);
    EXPECT_EQ(map.columnCount(), 1);
    EXPECT_NEAR(map.value(rowOfRank(map, 11), 0), 394'234'920.0, 1.0);
    EXPECT_NEAR(map.scaleRange().first, 284'960'040.0, 1.0); // rank 6
    EXPECT_NEAR(map.scaleRange().second, 394'234'920.0, 1.0);

    // Sorting by mean step: slowest rank 11 first when descending, fastest rank 6 ascending.
    const int mean = 3;
    ASSERT_EQ(table->headerData(mean, Qt::Horizontal).toString(), QStringLiteral("Mean step"));
    panel.rankTable()->sortByColumn(mean, Qt::DescendingOrder);
    EXPECT_EQ(table->index(0, 0).data().toString(), QStringLiteral("11"));
    EXPECT_EQ(table->index(15, 0).data().toString(), QStringLiteral("6"));
    panel.rankTable()->sortByColumn(mean, Qt::AscendingOrder);
    EXPECT_EQ(table->index(0, 0).data().toString(), QStringLiteral("6"));

    // Switching the heat map to a category shows that column of the table.
    const int bubble = panel.metricBox()->findText(QStringLiteral("Bubble"));
    ASSERT_GT(bubble, 0);
    panel.metricBox()->setCurrentIndex(bubble);
    EXPECT_EQ(map.title(), QStringLiteral("Bubble"));
    EXPECT_NEAR(map.value(rowOfRank(map, 11), 0), 195'498'280.0, 1.0);
    EXPECT_NEAR(map.value(rowOfRank(map, 0), 0), 0.0, 1e-9);

    // Two pipeline stages; the second one's bubble is 195.498 ms.
    ASSERT_EQ(d.stages.size(), 2u);
    EXPECT_EQ(panel.stageModel()->rowCount(), 2);
    EXPECT_EQ(d.stages[1].ranks.size(), 8u);
    EXPECT_NEAR(d.stages[1].bubbleNs, 195'498'280.0, 1.0);
    EXPECT_EQ(d.rows[12].stage, d.stages[1].name);
}

TEST(ClusterPanel, ThousandsOfRanksKeepTheStragglerVisible)
{
    constexpr int Ranks = 3000;
    const auto session = syntheticCluster(Ranks, 4, 1234, 2);
    ClusterPanel panel;
    panel.resize(900, 500);
    panel.show();
    panel.setSession(session);
    EXPECT_EQ(panel.rankTable()->model()->rowCount(), Ranks);
    const ClusterHeatMap &map = *panel.heatMap();
    ASSERT_EQ(map.rowCount(), Ranks);
    ASSERT_EQ(map.columnCount(), 4);
    const QRect g = map.gridRect();
    ASSERT_GT(g.height(), 10);
    ASSERT_LT(g.height(), Ranks); // more ranks than pixel rows: rows are bucketed
    // The pixel row covering rank 1234 reports it (the largest of its ranks) in step 12.
    const int y = g.top() + static_cast<int>(static_cast<double>(1234) * g.height() / Ranks);
    const auto [r0, r1] = map.rowsAtY(y);
    ASSERT_LE(r0, 1234);
    ASSERT_GT(r1, 1234);
    const int columnX = g.left() + g.width() * 2 / 4 + 1;
    const auto [row, col] = map.cellAt(QPoint(columnX, y));
    EXPECT_EQ(map.rankOfRow(row), 1234);
    EXPECT_EQ(map.stepOfColumn(col), 12);
    // Its colour is the top of the scale: the darkest cell of the grid.
    EXPECT_EQ(map.colorFor(map.value(row, col)), map.colorFor(map.scaleRange().second));
    // It is the only straggler, for slow compute.
    const cluster::ClusterData &d = panel.data();
    ASSERT_EQ(d.stragglers.size(), 1u);
    EXPECT_EQ(d.stragglers[0].rank, 1234);
    EXPECT_EQ(d.stragglers[0].step, 12);
    EXPECT_EQ(d.stragglers[0].reason, QStringLiteral("slow compute"));
    EXPECT_EQ(panel.stragglerModel()->rowCount(), 1);
}

TEST(ClusterPanel, ActivatingARankOpensWhatIsThere)
{
    auto traces = testsupport::makeSession(100, 1000, 1000, 10, 2);
    auto session = std::make_shared<model::Session>(*traces);
    // Rank 5 is known only from the cluster table.
    for (int r : {0, 1, 5}) {
        model::ReferenceStep row;
        row.rank = r;
        row.step = 0;
        row.kind = "rank";
        row.valuesUs = {{"Computing", 10.0}, {"Communication(Not Overlapped)", 5.0}, {"Free", 1.0}};
        session->clusterSteps.push_back(row);
    }
    ClusterPanel panel;
    panel.setSession(session);
    EXPECT_EQ(panel.data().ranks.size(), 3u);
    std::vector<std::pair<int, qint64>> time;
    int folders = 0;
    QStringList messages;
    QObject::connect(&panel, &ClusterPanel::timeRequested, [&](int rank, qint64 start, qint64) {
        time.push_back({rank, start});
    });
    QObject::connect(&panel, &ClusterPanel::rankFolderRequested, [&] { ++folders; });
    QObject::connect(
        &panel, &ClusterPanel::message, [&](const QString &text) { messages << text; });
    panel.activateRank(1);
    ASSERT_EQ(time.size(), 1u);
    EXPECT_EQ(time[0].first, 1);
    EXPECT_EQ(time[0].second, session->traces[1]->steps.front().startNs);
    panel.activateRank(5);
    EXPECT_EQ(time.size(), 1u);
    EXPECT_EQ(folders, 0);
    ASSERT_GE(messages.size(), 2);
    EXPECT_TRUE(messages.last().contains(QStringLiteral("no profile folder")));
}

TEST(ClusterPanel, RankFoldersAreFoundOnDemand)
{
    ClusterPanel panel;
    panel.setProfilePath(QString::fromUtf8(STEPSCOPE_TEST_DATA) + QStringLiteral("/")
        + QString::fromUtf8(Sample) + QStringLiteral("/cluster_analysis_output"));
    panel.setSession(syntheticCluster(16, 1, -1, -1));
    QStringList folders;
    QObject::connect(&panel, &ClusterPanel::rankFolderRequested,
        [&](int, const QString &folder) { folders << folder; });
    panel.activateRank(1);
    ASSERT_EQ(folders.size(), 1);
    EXPECT_TRUE(folders[0].endsWith(QStringLiteral("test_rank_1")));
    EXPECT_TRUE(panel.rankFolder(7).isEmpty());
}
