// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Communication panel: the matrix heat map holds the traffic per link, the table sorts,
// a profile without communication says how to record it.

#include "analysed.h"
#include "model/tracebuilder.h"
#include "ui/charts/elide.h"
#include "ui/charts/heatmap.h"
#include "ui/panels/communicationpanel.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QStandardItemModel>
#include <QTableView>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace stepscope;

TEST(PanelsCommunication, MatrixAndTable)
{
    model::TraceBuilder tb;
    model::Trace &t = tb.trace();
    t.commMatrix = {
        {"step50", "hcom_allReduce__271_2_1", 0, 1, {"HCCS", 37.78, 2.24, 16.86}},
        {"step50", "hcom_allReduce__271_2_1", 1, 0, {"HCCS", 12.5, 1.0, 12.5}},
    };
    model::CollectiveStat a;
    a.name = "hcom_allReduce_";
    a.group = "1102";
    a.elapseMs = 86.47;
    a.transitMs = 0.238;
    a.waitMs = 2.56;
    model::CollectiveStat b = a;
    b.name = "hcom_broadcast_";
    b.elapseMs = 3.0;
    t.collectives = {a, b};
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));

    ui::CommunicationPanel panel;
    uitest::setAnalysed(panel, session);
    ASSERT_FALSE(panel.showsMessage());
    ui::HeatMap *map = panel.heatMap();
    ASSERT_EQ(map->rowCount(), 2);
    EXPECT_DOUBLE_EQ(map->value(0, 1), 37.78);
    EXPECT_DOUBLE_EQ(map->value(1, 0), 12.5);
    EXPECT_TRUE(std::isnan(map->value(0, 0)));
    panel.setMatrixMetric(ui::CommunicationPanel::MatrixMetric::TimeMs);
    EXPECT_DOUBLE_EQ(map->value(0, 1), 2.24);

    QTableView *table = panel.table();
    ASSERT_EQ(table->model()->rowCount(), 2);
    table->sortByColumn(5, Qt::AscendingOrder); // total time
    EXPECT_EQ(table->model()->index(0, 0).data().toString(), QStringLiteral("broadcast"));
    table->sortByColumn(5, Qt::DescendingOrder);
    EXPECT_EQ(table->model()->index(0, 0).data().toString(), QStringLiteral("allReduce"));
}

// The table is the load's analysis (SessionAnalysis::collectives), not a pass of the panel's
// own: reading every collective's args from a 20 GB file on the GUI thread froze the window.
TEST(PanelsCommunication, ShowsTheAnalysisItIsGivenNotItsOwnPass)
{
    model::TraceBuilder tb;
    model::CollectiveStat a;
    a.name = "hcom_allReduce_";
    a.group = "1102";
    a.elapseMs = 86.47;
    tb.trace().collectives = {a};
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));
    auto changed =
        std::make_shared<analysis::SessionAnalysis>(analysis::analyzeSession(*session, {}));
    ASSERT_EQ(changed->collectives.size(), 1u);
    EXPECT_EQ(changed->collectives[0].name, "allReduce");
    changed->collectives[0].name = "fromTheAnalysis";
    changed->collectives[0].count = 42;

    ui::CommunicationPanel panel;
    panel.setAnalysis(session, changed);
    ASSERT_FALSE(panel.showsMessage());
    ASSERT_EQ(panel.collectives().size(), 1u);
    EXPECT_EQ(panel.collectives()[0].count, 42);
    ASSERT_EQ(panel.table()->model()->rowCount(), 1);
    EXPECT_EQ(
        panel.table()->model()->index(0, 0).data().toString(), QStringLiteral("fromTheAnalysis"));
}

TEST(PanelsCommunication, MatrixOnlyOverRanksPresentInHumanUnits)
{
    // Ranks 0 and 1 were profiled; their links reach ranks 0..3 (the ascend_db sample's
    // 2 × 8 shape): the matrix is 2 × 2 and a note names the four links left out.
    model::Session built;
    for (int src = 0; src < 2; ++src) {
        model::TraceBuilder tb;
        model::Trace &t = tb.trace();
        t.rank = src;
        for (int dst = 0; dst < 4; ++dst)
            t.commMatrix.push_back({"step1", "hcom_allReduce__1", src, dst,
                {"HCCS", dst == 1 ? 0.00004 : 1.5, 0.5, 0.0}});
        built.traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));
    }
    auto session = std::make_shared<model::Session>(std::move(built));
    ui::CommunicationPanel panel;
    uitest::setAnalysed(panel, session);
    ui::HeatMap *map = panel.heatMap();
    EXPECT_EQ(map->rowCount(), 2);
    EXPECT_EQ(map->columnCount(), 2);
    EXPECT_EQ(
        panel.extentNote(), QStringLiteral("4 links to ranks 2, 3 (not in this profile) left out"));
    // As drawn at the export's default size: whole, not elided beside the metric's combo box.
    panel.resize(1400, 700);
    panel.show();
    QApplication::processEvents();
    const auto labels = panel.findChildren<ui::ElidedLabel *>();
    const auto note = std::find_if(labels.begin(), labels.end(),
        [&](const ui::ElidedLabel *l) { return l->fullText() == panel.extentNote(); });
    ASSERT_NE(note, labels.end());
    EXPECT_EQ((*note)->text(), panel.extentNote());
    // 0.00004 MB = 40 bytes (MB as the profiler writes them: 10^6 bytes); no "4e-05 MB".
    EXPECT_TRUE(map->toolTipFor(0, 1).contains(QStringLiteral("40 B")))
        << map->toolTipFor(0, 1).toStdString();
    EXPECT_FALSE(map->toolTipFor(0, 1).contains(QStringLiteral("e-")));
    panel.setMatrixMetric(ui::CommunicationPanel::MatrixMetric::Bandwidth);
    // Bandwidth is size / time: 0.00004 MB in 0.5 ms = 80 kB/s, not "0 GB/s".
    EXPECT_TRUE(map->toolTipFor(0, 1).contains(QStringLiteral("80.0 kB/s")))
        << map->toolTipFor(0, 1).toStdString();
    EXPECT_TRUE(map->toolTipFor(0, 0).contains(QStringLiteral("3.00 GB/s")));

    EXPECT_EQ(ui::formatBandwidth(12.34), QStringLiteral("12.3 GB/s"));
    EXPECT_EQ(ui::formatBandwidth(0.0456), QStringLiteral("45.6 MB/s"));
    EXPECT_EQ(ui::formatBandwidth(0), QStringLiteral("–"));
    EXPECT_EQ(ui::formatMegabytes(0), QStringLiteral("0 B"));
}

TEST(PanelsCommunication, NoCommunicationExplains)
{
    model::TraceBuilder tb;
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));
    ui::CommunicationPanel panel;
    uitest::setAnalysed(panel, session);
    EXPECT_TRUE(panel.showsMessage());
    EXPECT_TRUE(panel.messageText().contains(QStringLiteral("communication_matrix.json")));
}
