// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Cluster panel (issue 11 item 3) shows core's cluster analysis: table rows = ranks,
// sorting, the heat map's extent, metric switch and shared colour scale, the cluster
// communication share beside the bubble, stages with their bubble, the stragglers, the
// communication groups and opening a rank. Numbers of the 16-rank sample are checked by hand
// with tests/tools/cluster_panel_check.py (steps, stages, shares) and
// tests/tools/check_cluster_groups.py (groups).

#include "analysis/analysissummary.h"
#include "analysis/cluster.h"
#include "import/loader.h"
#include "timeline_testsupport.h"
#include "ui/palette.h"
#include "ui/panels/clustergroups.h"
#include "ui/panels/clusterheatmap.h"
#include "ui/panels/clusterpanel.h"
#include "ui/panels/clusterrankmodel.h"
#include "ui/panels/tableitems.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QComboBox>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace stepscope;
using namespace stepscope::ui;
namespace fs = std::filesystem;

namespace {

constexpr const char *Sample = "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed";

std::shared_ptr<const model::Session> loadPath(const std::string &path)
{
    util::Progress progress;
    return import::loadPath(path, progress).session;
}

std::string dataPath(const std::string &relative)
{
    return std::string(STEPSCOPE_TEST_DATA) + "/" + relative;
}

/// Shows `session` with its analysis, as MainWindow does.
void show(ClusterPanel &panel, std::shared_ptr<const model::Session> session)
{
    panel.setAnalysis(std::make_shared<const analysis::SessionAnalysis>(
        analysis::analyzeSession(*session, analysis::RunConfig {})));
    panel.setSession(std::move(session));
}

int rowOfRank(const ClusterHeatMap &map, std::int32_t rank)
{
    for (int r = 0; r < map.rowCount(); ++r)
        if (map.rankOfRow(r) == rank)
            return r;
    return -1;
}

/// The row of `model` whose column 0 shows `text`, -1 when none.
int rowWithText(const QAbstractItemModel &model, const QString &text)
{
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.index(r, 0).data().toString() == text)
            return r;
    return -1;
}

/// A cluster_analysis_output/ of `ranks` × `steps` (one stage, no stage rows): computing
/// 100 ms, communication 50 ms, free 10 ms, except rank `slow` in step `slowStep` computing
/// 300 ms. Returns the folder.
fs::path writeCluster(const std::string &name, int ranks, int steps, int slow, int slowStep)
{
    const fs::path dir = fs::temp_directory_path()
        / (name + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    fs::remove_all(dir);
    fs::create_directories(dir / "cluster_analysis_output");
    std::ofstream f(dir / "cluster_analysis_output" / "cluster_step_trace_time.csv");
    f << "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,"
         "Stage,Bubble\n";
    for (int st = 0; st < steps; ++st)
        for (int r = 0; r < ranks; ++r) {
            const double compute = (r == slow && st == slowStep) ? 300'000.0 : 100'000.0 + r % 7;
            f << 10 + st << ",rank," << r << ',' << compute << ",50000,1000,51000,10000,"
              << compute + 60'000.0 << ",0\n";
        }
    return dir;
}

} // namespace

TEST(ClusterPanel, SixteenRankSampleShowsEveryRankAndSorts)
{
    const auto session = loadPath(dataPath(Sample));
    ASSERT_TRUE(session);
    ClusterPanel panel;
    panel.resize(1200, 600);
    show(panel, session);
    const analysis::ClusterAnalysis &c = panel.cluster();
    ASSERT_EQ(c.matrix.ranks.size(), 16u);
    ASSERT_EQ(c.matrix.steps, (std::vector<std::int64_t> {2}));
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
    // The colour scale is the application's one (ui/palette), not a copy.
    EXPECT_EQ(map.colorFor(map.scaleRange().second).rgb(), heatScaleColor(1.0).rgb());
    EXPECT_EQ(map.colorFor(map.scaleRange().first).rgb(), heatScaleColor(0.0).rgb());

    // Sorting by mean step: slowest rank 11 first when descending, fastest rank 6 ascending.
    using Model = cluster::RankTableModel;
    ASSERT_EQ(
        table->headerData(Model::Mean, Qt::Horizontal).toString(), QStringLiteral("Mean step"));
    panel.rankTable()->sortByColumn(Model::Mean, Qt::DescendingOrder);
    EXPECT_EQ(table->index(0, 0).data().toString(), QStringLiteral("11"));
    EXPECT_EQ(table->index(15, 0).data().toString(), QStringLiteral("6"));
    panel.rankTable()->sortByColumn(Model::Mean, Qt::AscendingOrder);
    EXPECT_EQ(table->index(0, 0).data().toString(), QStringLiteral("6"));
    // Rank 11 is 4.3 % over the median rank (377 975.7 µs): not coloured; its stage is 1.
    panel.rankTable()->sortByColumn(Model::Rank, Qt::AscendingOrder);
    EXPECT_EQ(table->index(11, Model::Stage).data().toString(), QStringLiteral("stage 1 (8–15)"));
    EXPECT_EQ(
        table->index(11, Model::TimelineColumn).data().toString(), QStringLiteral("table only"));

    // Switching the heat map to a category shows that column of the table.
    const int bubble = panel.metricBox()->findText(QStringLiteral("Pipeline bubble"));
    ASSERT_GT(bubble, 0);
    panel.metricBox()->setCurrentIndex(bubble);
    EXPECT_EQ(map.title(), QStringLiteral("Pipeline bubble"));
    EXPECT_NEAR(map.value(rowOfRank(map, 11), 0), 195'498'280.0, 1.0);
    EXPECT_NEAR(map.value(rowOfRank(map, 0), 0), 0.0, 1e-9);

    // Two pipeline stages: stage 1's bubble max is its stage row's Bubble (195 498.28 µs),
    // the mean over its rank rows 181 582.526 µs; stage 0 has none.
    ASSERT_EQ(c.stages.size(), 2u);
    QStandardItemModel *stages = panel.stageModel();
    ASSERT_EQ(stages->rowCount(), 2);
    EXPECT_EQ(stages->index(1, 1).data().toString(), QStringLiteral("8–15"));
    EXPECT_NEAR(stages->index(1, 3).data(SortRole).toDouble(), 181'582'526.0, 1.0);
    EXPECT_NEAR(stages->index(1, 4).data(SortRole).toDouble(), 195'498'280.0, 1.0);
    EXPECT_NEAR(stages->index(0, 4).data(SortRole).toDouble(), 0.0, 1e-9);
    EXPECT_EQ(c.ranks[12].stage, 1);

    // The cluster communication share over all ranks with the bubble beside it.
    const QString summary = panel.summaryLabel()->text();
    EXPECT_TRUE(summary.contains(QStringLiteral("16 ranks"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("communication 27.4 %"))) << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("pipeline bubble 26.9 %")))
        << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("54.3 %"))) << summary.toStdString();
    // In the window it says how to open a rank (an exported picture does not:
    // ExportViews.TheClusterPictureLeavesOutHowToClickARank).
    EXPECT_TRUE(summary.endsWith(QStringLiteral("Double-click a rank to open its timeline.")))
        << summary.toStdString();
}

TEST(ClusterPanel, SixteenRankStragglersAndGroups)
{
    const auto session = loadPath(dataPath(Sample) + "/cluster_analysis_output");
    ASSERT_TRUE(session);
    ClusterPanel panel;
    show(panel, session);
    // Stage 1 in step 2: 374.1 … 394.2 ms; rank 11 alone is above its stage's median +
    // threshold, mostly pipeline bubble (195.5 ms vs the stage's 179.6 ms median).
    const analysis::ClusterAnalysis &c = panel.cluster();
    QStandardItemModel *stragglers = panel.stragglerModel();
    ASSERT_EQ(stragglers->rowCount(), static_cast<int>(c.stragglers.size()));
    const int r11 = rowWithText(*stragglers, QStringLiteral("11"));
    ASSERT_GE(r11, 0);
    EXPECT_EQ(stragglers->index(r11, 1).data().toString(), QStringLiteral("stage 1 (8–15)"));
    EXPECT_EQ(stragglers->index(r11, 7).data().toString(), QStringLiteral("pipeline bubble"));

    // Communication groups (check_cluster_groups.py): the TP group first by elapse.
    ClusterGroupsView &groups = *panel.groupsView();
    QStandardItemModel *g = groups.groupModel();
    ASSERT_EQ(g->rowCount(), 2);
    const int tp = rowWithText(*g, QStringLiteral("(0, 1, 2, 3, 4, 5, 6, 7)"));
    const int p2p = rowWithText(*g, QStringLiteral("p2p"));
    ASSERT_GE(tp, 0);
    ASSERT_GE(p2p, 0);
    EXPECT_EQ(g->index(tp, 1).data().toString(), QStringLiteral("0–7"));
    EXPECT_EQ(g->index(tp, 7).data().toString(), QStringLiteral("1")); // slowest rank
    EXPECT_EQ(g->index(p2p, 9).data().toString(), QStringLiteral("0 → 8"));
    EXPECT_EQ(g->index(p2p, 10).data().toString(), QStringLiteral("RDMA"));
    EXPECT_NEAR(g->index(p2p, 11).data(SortRole).toDouble(), 24.2778, 1e-9);

    groups.showGroup(g->index(tp, 0).data(ClusterGroupsView::GroupRole).toInt());
    QStandardItemModel *links = groups.linkModel();
    // HCCS and SDMA moved data (the records' zero-sized RDMA and PCIE are left out); only
    // HCCS has links in the matrix.
    ASSERT_EQ(links->rowCount(), 2);
    EXPECT_EQ(links->index(0, 0).data().toString(), QStringLiteral("HCCS"));
    EXPECT_EQ(links->index(0, 1).data().toString(), QStringLiteral("1 → 0"));
    EXPECT_NEAR(links->index(0, 2).data(SortRole).toDouble(), 0.0247, 1e-9);
    EXPECT_EQ(links->index(1, 0).data().toString(), QStringLiteral("SDMA"));
    EXPECT_EQ(links->index(1, 1).data().toString(), QStringLiteral("—"));
    QStandardItemModel *ops = groups.collectiveModel();
    ASSERT_EQ(ops->rowCount(), 2);
    EXPECT_EQ(ops->index(0, 0).data().toString(), QStringLiteral("hcom_broadcast__483_0"));
    EXPECT_NEAR(ops->index(0, 3).data(SortRole).toDouble(), 8.616021754, 1e-8); // wait
    EXPECT_NEAR(ops->index(1, 5).data(SortRole).toDouble(), 0.993539, 1e-6); // wait share
}

TEST(ClusterPanel, ThousandsOfRanksKeepTheStragglerVisible)
{
    constexpr int Ranks = 3000;
    const fs::path dir = writeCluster("stepscope-cluster-panel", Ranks, 4, 1234, 2);
    const auto session = loadPath(dir.string());
    ASSERT_TRUE(session);
    ClusterPanel panel;
    panel.resize(900, 500);
    panel.show();
    show(panel, session);
    EXPECT_EQ(panel.rankTable()->model()->rowCount(), Ranks);
    const ClusterHeatMap &map = *panel.heatMap();
    ASSERT_EQ(map.rowCount(), Ranks);
    ASSERT_EQ(map.columnCount(), 4);
    const QRect grid = map.gridRect();
    ASSERT_GT(grid.height(), 10);
    ASSERT_LT(grid.height(), Ranks); // more ranks than pixel rows: rows are bucketed
    // The pixel row covering rank 1234 reports it (the largest of its ranks) in step 12.
    const int y = grid.top() + static_cast<int>(static_cast<double>(1234) * grid.height() / Ranks);
    const auto [r0, r1] = map.rowsAtY(y);
    ASSERT_LE(r0, 1234);
    ASSERT_GT(r1, 1234);
    const int columnX = grid.left() + grid.width() * 2 / 4 + 1;
    const auto [row, col] = map.cellAt(QPoint(columnX, y));
    EXPECT_EQ(map.rankOfRow(row), 1234);
    EXPECT_EQ(map.stepOfColumn(col), 12);
    // Its colour is the top of the scale: the darkest cell of the grid.
    EXPECT_EQ(map.colorFor(map.value(row, col)), map.colorFor(map.scaleRange().second));
    // It is marked on the heat map, the only straggler, for slow compute.
    ASSERT_EQ(map.markers().size(), 1u);
    EXPECT_EQ(map.markers()[0], std::make_pair(row, col));
    const analysis::ClusterAnalysis &c = panel.cluster();
    ASSERT_EQ(c.stragglers.size(), 1u);
    EXPECT_EQ(c.stragglers[0].rank, 1234);
    EXPECT_EQ(c.stragglers[0].step, 12);
    EXPECT_EQ(c.stragglers[0].reason, analysis::StragglerReason::SlowCompute);
    ASSERT_EQ(panel.stragglerModel()->rowCount(), 1);
    EXPECT_EQ(
        panel.stragglerModel()->index(0, 7).data().toString(), QStringLiteral("slow compute"));
    // The rank table marks it in the palette's "worse" colour.
    QAbstractItemModel *table = panel.rankTable()->model();
    using Model = cluster::RankTableModel;
    table->sort(Model::StragglerColumn, Qt::DescendingOrder);
    EXPECT_EQ(table->index(0, Model::Rank).data().toString(), QStringLiteral("1234"));
    EXPECT_EQ(table->index(0, Model::StragglerColumn).data().toString(), QStringLiteral("1"));
    EXPECT_EQ(
        table->index(0, Model::StragglerColumn).data(Qt::ForegroundRole).value<QBrush>().color(),
        worseColor(currentTheme()));
    fs::remove_all(dir);
}

TEST(ClusterPanel, ActivatingARankOpensWhatIsThere)
{
    auto traces = testsupport::makeSession(100, 1000, 1000, 10, 2);
    auto session = std::make_shared<model::Session>(*traces);
    // Rank 5 is known only from its step table: a trace without events.
    auto tableOnly = std::make_shared<model::Trace>();
    tableOnly->rank = 5;
    model::ReferenceStep row;
    row.rank = 5;
    row.step = 3;
    row.valuesUs = {{"Computing", 10.0}, {"Communication(Not Overlapped)", 5.0}, {"Free", 1.0}};
    tableOnly->referenceSteps.push_back(row);
    session->traces.push_back(tableOnly);
    ClusterPanel panel;
    show(panel, session);
    EXPECT_EQ(panel.cluster().rankCount, 3);
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
    panel.activateRank(5); // its step lane, drawn from the table
    ASSERT_EQ(time.size(), 2u);
    EXPECT_EQ(time[1].first, 5);
    EXPECT_TRUE(messages.last().contains(QStringLiteral("no trace events")));
    panel.activateRank(9);
    EXPECT_EQ(time.size(), 2u);
    EXPECT_EQ(folders, 0);
    EXPECT_TRUE(messages.last().contains(QStringLiteral("no profile folder")));
}

TEST(ClusterPanel, RankFoldersAreOpenedOnDemandWhenNotLoaded)
{
    // cluster_analysis_output opened alone: ranks 0 and 1 have folders beside it, not loaded.
    const QString clusterDir =
        QString::fromStdString(dataPath(Sample) + "/cluster_analysis_output");
    ClusterPanel panel;
    panel.setProfilePath(clusterDir);
    show(panel, loadPath(clusterDir.toStdString()));
    QStringList folders;
    std::vector<int> time;
    QObject::connect(&panel, &ClusterPanel::rankFolderRequested,
        [&](int, const QString &folder) { folders << folder; });
    QObject::connect(&panel, &ClusterPanel::timeRequested,
        [&](int rank, qint64, qint64) { time.push_back(rank); });
    panel.activateRank(1);
    ASSERT_EQ(folders.size(), 1);
    EXPECT_TRUE(folders[0].endsWith(QStringLiteral("test_rank_1")));
    EXPECT_TRUE(panel.rankFolder(7).isEmpty());
    panel.activateRank(7); // no folder: its table-only step lane
    EXPECT_EQ(time, std::vector<int> {7});

    // The parent opened: test_rank_1 is already loaded, so it is shown, not reopened.
    ClusterPanel parent;
    parent.setProfilePath(QString::fromStdString(dataPath(Sample)));
    show(parent, loadPath(dataPath(Sample)));
    int reopened = 0;
    QObject::connect(&parent, &ClusterPanel::rankFolderRequested, [&] { ++reopened; });
    time.clear();
    QObject::connect(&parent, &ClusterPanel::timeRequested,
        [&](int rank, qint64, qint64) { time.push_back(rank); });
    parent.activateRank(1);
    EXPECT_EQ(reopened, 0);
    EXPECT_EQ(time, std::vector<int> {1});
}

// Two ranks of a 128-rank job (HTA's sampled traces): the panel says the figures are of a
// sample, with the ranks the files lack; `summary --json` carries the same.
TEST(ClusterPanel, ASampleOfALargerJobNamesTheRanksNotInTheFiles)
{
    const auto session = loadPath(dataPath("kineto/hta-sampled-2of128-ranks"));
    ASSERT_TRUE(session);
    const auto a = analysis::analyzeSession(*session, analysis::RunConfig {});
    EXPECT_EQ(a.cluster.worldSize, 128);
    EXPECT_EQ(a.cluster.missingRankCount, 126);
    ASSERT_EQ(a.cluster.missingRanks.size(), 1u);
    EXPECT_EQ(a.cluster.missingRanks[0], std::make_pair(2, 127));
    const nlohmann::json j = analysis::clusterJson(a.cluster);
    EXPECT_EQ(j["world_size"], 128);
    EXPECT_EQ(j["missing_rank_count"], 126);
    EXPECT_EQ(j["missing_ranks"], nlohmann::json::parse("[[2, 127]]"));
    ClusterPanel panel;
    show(panel, session);
    const QString summary = panel.summaryLabel()->text();
    EXPECT_TRUE(summary.contains(
        QStringLiteral(" of a world of 128 (<b>126 ranks not in the files</b>: 2–127)")))
        << summary.toStdString();
    EXPECT_NE(analysis::analysisSummaryText(*session, a)
                  .find("  world size 128: 126 ranks not in the files (2–127)\n"),
        std::string::npos);
    // Every rank present: nothing said. Runs are listed up to a limit.
    const auto whole =
        analysis::analyzeSession(*loadPath(dataPath(Sample)), analysis::RunConfig {});
    EXPECT_EQ(whole.cluster.missingRankCount, 0);
    EXPECT_EQ(analysis::rankRunsText({{1, 1}, {3, 5}, {9, 9}}, 2), "1, 3–5, …");
}

// The MindInsight pipeline sample's step 1 (graph compilation: 2.16 s and 2.38 s on ranks 2
// and 3, beside steps of 178-210 ms) left every other cell of the step-time heat map the same
// light colour. The two stay off the scale, said in the legend, and keep their value.
TEST(ClusterPanel, AWarmUpStepDoesNotWashOutTheHeatMap)
{
    const auto session = loadPath(dataPath("mindspore_legacy/mindinsight-cluster-pp-4rank"));
    ASSERT_TRUE(session);
    ClusterPanel panel;
    show(panel, session);
    ClusterHeatMap *map = panel.heatMap();
    ASSERT_EQ(map->rowCount(), 4);
    ASSERT_EQ(map->columnCount(), 5);
    const QString caption = map->legendCaption();
    EXPECT_TRUE(caption.contains(QStringLiteral("2 cells over 3× the median, up to 2.38 s")))
        << caption.toStdString();
    double steady = 0;
    for (int r = 0; r < 4; ++r)
        for (int c = 1; c < 5; ++c)
            steady = std::max(steady, map->value(r, c));
    EXPECT_LT(steady, 0.25e9); // the steady steps: under 250 ms
    EXPECT_GT(map->value(3, 0), 2e9); // the value itself is kept (its tooltip says it)
}
