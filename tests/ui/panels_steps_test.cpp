// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Steps panel on a hand-built trace: bars sum to the step time, the table sorts by number,
// a table row and a bar emit the step's time range, an empty session says what is missing.

#include "chartsupport.h"
#include "model/tracebuilder.h"
#include "ui/charts/barchart.h"
#include "ui/kpistrip.h"
#include "ui/panels/stepspanel.h"
#include "ui/panels/tableitems.h"

#include <gtest/gtest.h>

#include <QLocale>
#include <QStandardItemModel>
#include <QTableView>

#include <algorithm>
#include <memory>
#include <tuple>
#include <vector>

using namespace stepscope;

namespace {

constexpr std::int64_t Ms = 1'000'000;

/// A session of the one trace `tb` built.
std::shared_ptr<const model::Session> sessionOf(model::TraceBuilder &tb)
{
    auto session = std::make_shared<model::Session>();
    session->format = "test";
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));
    return session;
}

/// A device stream (rank 0, stream 7) of `tb`, the lane the one-rank tests below fill.
model::TrackId deviceStream(model::TraceBuilder &tb)
{
    model::TrackInfo info;
    info.kind = model::TrackKind::DeviceStream;
    info.threadId = "7";
    return tb.addTrack(info);
}

/// Two steps on rank 3: [0, 100) ms and [100, 250) ms; a device stream with compute and an
/// all-reduce partly overlapping it.
std::shared_ptr<const model::Session> twoStepSession()
{
    model::TraceBuilder tb;
    model::TrackInfo info;
    info.kind = model::TrackKind::DeviceStream;
    info.rank = 3;
    info.threadId = "7";
    const model::TrackId stream = tb.addTrack(info);
    const auto gemm = tb.intern("gemm");
    const auto allReduce = tb.intern("ncclKernel_AllReduce");
    tb.track(stream).add(10 * Ms, 60 * Ms, gemm, model::Category::Compute);
    tb.track(stream).add(110 * Ms, 100 * Ms, gemm, model::Category::Compute);
    info.threadId = "14";
    const model::TrackId comm = tb.addTrack(info);
    tb.track(comm).add(50 * Ms, 40 * Ms, allReduce, model::Category::Communication);
    tb.track(comm).add(200 * Ms, 30 * Ms, allReduce, model::Category::Communication);
    tb.trace().rank = 3;
    tb.trace().steps = {{1, 0, 100 * Ms}, {2, 100 * Ms, 250 * Ms}};
    return sessionOf(tb);
}

} // namespace

TEST(PanelsSteps, BarsSumToStepTimeAndLinkToTimeline)
{
    ui::StepsPanel panel;
    panel.setSession(twoStepSession());
    uitest::showAndSettle(panel, 1100, 700);
    ASSERT_FALSE(panel.showsMessage());
    ASSERT_EQ(panel.breakdowns().size(), 2u);
    EXPECT_EQ(panel.currentRank(), 3);
    ui::BarChart *chart = panel.chart();
    ASSERT_EQ(chart->categoryCount(), 2);
    // Every step's stacked bar sums to its wall time (the categories partition the step).
    EXPECT_DOUBLE_EQ(chart->stackTotal(0), 100.0 * Ms);
    EXPECT_DOUBLE_EQ(chart->stackTotal(1), 150.0 * Ms);
    // Step 1: compute [10, 70) and comm [50, 90): overlapped 20 ms, exposed 20 ms.
    const auto &kinds = panel.shownKinds();
    for (std::size_t k = 0; k < kinds.size(); ++k) {
        const double v = chart->value(static_cast<int>(k), 0);
        if (kinds[k] == analysis::SegmentKind::CommOverlapped) {
            EXPECT_DOUBLE_EQ(v, 20.0 * Ms);
        } else if (kinds[k] == analysis::SegmentKind::CommExposed) {
            EXPECT_DOUBLE_EQ(v, 20.0 * Ms);
        } else if (kinds[k] == analysis::SegmentKind::Compute) {
            EXPECT_DOUBLE_EQ(v, 40.0 * Ms);
        }
    }

    std::vector<std::tuple<int, qint64, qint64>> requests;
    QObject::connect(&panel, &ui::StepsPanel::timeRequested,
        [&](int rank, qint64 s, qint64 e) { requests.emplace_back(rank, s, e); });

    // Table: sort by duration, longest first -> step 2 on top; clicking it links to step 2.
    QTableView *table = panel.table();
    table->sortByColumn(3, Qt::DescendingOrder);
    EXPECT_EQ(table->model()->index(0, 0).data().toString(), QStringLiteral("2"));
    table->sortByColumn(3, Qt::AscendingOrder);
    EXPECT_EQ(table->model()->index(0, 0).data().toString(), QStringLiteral("1"));
    const QModelIndex cell = table->model()->index(0, 4);
    uitest::leftClick(table->viewport(), table->visualRect(cell).center());
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0], std::make_tuple(3, qint64 {0}, qint64 {100 * Ms}));

    // A click on the second step's bar.
    uitest::clickChart(chart, chart->barCenter(0, 1));
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[1], std::make_tuple(3, qint64 {100 * Ms}, qint64 {250 * Ms}));
}

TEST(PanelsSteps, KpisWithoutRunConfigSayWhatIsMissing)
{
    ui::StepsPanel panel;
    panel.setSession(twoStepSession());
    ui::KpiStrip *strip = panel.kpiStrip();
    EXPECT_FALSE(strip->isMissing("step_time_mean_us"));
    EXPECT_EQ(strip->text("step_time_mean_us"), QStringLiteral("step 125 ms"));
    EXPECT_TRUE(strip->isMissing("mfu"));
    EXPECT_TRUE(strip->toolTip("mfu").contains(QStringLiteral("Missing:")));
    int asked = 0;
    QObject::connect(&panel, &ui::StepsPanel::runConfigRequested, [&] { ++asked; });
    strip->click("mfu");
    EXPECT_EQ(asked, 1);
    strip->click("step_time_mean_us");
    EXPECT_EQ(asked, 1);
}

/// A run config with a batch and no sequence length (a CNN) gives samples/s: the throughput
/// slot shows it rather than "tok/s —" asking again for the config (alone and in compare).
TEST(PanelsSteps, TheThroughputSlotShowsSamplesWithoutASequenceLength)
{
    analysis::Kpis kpis;
    kpis.items.push_back({"samples_per_s", 195.0, "samples/s", ""});
    kpis.items.push_back({"tokens_per_s", std::nullopt, "tokens/s", "no sequence length"});
    ui::KpiStrip strip;
    strip.setKpis(kpis);
    EXPECT_EQ(strip.text("tokens_per_s"), QStringLiteral("195 samples/s"));
    EXPECT_FALSE(strip.isMissing("tokens_per_s"));
    analysis::Kpis after = kpis;
    after.items[0].value = 210.0;
    strip.setComparison(kpis, after, {});
    EXPECT_EQ(strip.text("tokens_per_s"), QStringLiteral("195 samples/s → 210 samples/s"));
    analysis::Kpis none;
    none.items.push_back({"tokens_per_s", std::nullopt, "tokens/s", "no run config"});
    strip.setKpis(none);
    EXPECT_EQ(strip.text("tokens_per_s"), QStringLiteral("tok/s —"));
    EXPECT_TRUE(strip.isMissing("tokens_per_s"));
}

TEST(PanelsSteps, EmptySessionExplains)
{
    ui::StepsPanel panel;
    panel.setSession(std::make_shared<model::Session>());
    EXPECT_TRUE(panel.showsMessage());
    EXPECT_TRUE(panel.messageText().contains(QStringLiteral("Open a profile")));
}

// Counts read as the Kernels panel's do: "1,200 steps", not "1200 steps" beside "3,774 kernels".
TEST(PanelsSteps, TheStepCountIsGroupedAsTheLocaleGroupsDigits)
{
    const QLocale kept;
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    model::TraceBuilder tb;
    const model::TrackId stream = deviceStream(tb);
    const auto gemm = tb.intern("gemm");
    for (std::int64_t k = 0; k < 1200; ++k) {
        tb.track(stream).add(k * Ms, Ms / 2, gemm, model::Category::Compute);
        tb.trace().steps.push_back({k + 1, k * Ms, (k + 1) * Ms});
    }
    const auto session = sessionOf(tb);
    ui::StepsPanel panel;
    panel.setSession(session);
    EXPECT_EQ(panel.summaryText().toStdString(), "1,200 steps, mean 1.00 ms");
    QLocale::setDefault(kept);
}

// Steps after the last device task (MindInsight records the first steps' timeline only) are
// untraced: their bars are "Outside the device timeline", not Preparing's yellow, and their
// table cell says why; a traced step keeps its own categories.
TEST(PanelsSteps, UntracedStepsAreNotDrawnAsPreparing)
{
    model::TraceBuilder tb;
    const model::TrackId stream = deviceStream(tb);
    tb.track(stream).add(10 * Ms, 60 * Ms, tb.intern("gemm"), model::Category::Compute);
    tb.trace().steps = {{1, 0, 100 * Ms}, {2, 100 * Ms, 200 * Ms}, {3, 200 * Ms, 300 * Ms}};
    const auto session = sessionOf(tb);
    ui::StepsPanel panel;
    panel.setSession(session);
    ui::BarChart *chart = panel.chart();
    const int untraced = chart->setCount() - 1;
    ASSERT_GE(untraced, 1);
    EXPECT_NE(
        chart->toolTipFor(untraced, 1).indexOf(QStringLiteral("Outside the device timeline")), -1)
        << chart->toolTipFor(untraced, 1).toStdString();
    for (int step : {1, 2}) {
        EXPECT_DOUBLE_EQ(chart->value(untraced, step), 100.0 * Ms);
        EXPECT_DOUBLE_EQ(chart->stackTotal(step), 100.0 * Ms);
    }
    EXPECT_DOUBLE_EQ(chart->value(untraced, 0), 0.0);
    EXPECT_DOUBLE_EQ(chart->value(0, 0), 60.0 * Ms); // step 1's compute
    auto *model = qobject_cast<QStandardItemModel *>(panel.table()->model());
    ASSERT_NE(model, nullptr);
    int preparing = -1;
    for (int c = 0; c < model->columnCount(); ++c)
        if (model->horizontalHeaderItem(c)->text() == QStringLiteral("Preparing"))
            preparing = c;
    ASSERT_GE(preparing, 0);
    EXPECT_NE(
        model->item(2, preparing)->toolTip().indexOf(QStringLiteral("Outside the device")), -1);
    EXPECT_EQ(
        model->item(0, preparing)->toolTip().indexOf(QStringLiteral("Outside the device")), -1);
}

// A step no timeline holds (a rank known only from cluster_step_trace_time.csv) was laid out
// from 0 and its Start read "0 ms", as if measured. Now it reads "—"; a rank with a timeline
// keeps its starts.
TEST(PanelsSteps, AStepFromTheTableAloneHasNoStart)
{
    const auto base = twoStepSession(); // rank 3, steps 1 and 2 on a timeline
    model::Trace tableOnly;
    tableOnly.rank = 4;
    model::ReferenceStep row;
    row.step = 2;
    row.source = "cluster_analysis_output/cluster_step_trace_time.csv";
    row.valuesUs = {{"Computing", 80000}, {"Communication(Not Overlapped)", 20000},
        {"Overlapped", 0}, {"Free", 5000}};
    tableOnly.referenceSteps.push_back(row);
    auto session = std::make_shared<model::Session>(*base);
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tableOnly)));
    ui::StepsPanel panel;
    panel.setSession(session);
    auto *model = qobject_cast<QStandardItemModel *>(panel.table()->model());
    ASSERT_NE(model, nullptr);
    ASSERT_EQ(model->horizontalHeaderItem(2)->text(), QStringLiteral("Start"));
    panel.setRank(4);
    ASSERT_EQ(model->rowCount(), 1);
    EXPECT_EQ(model->item(0, 2)->text(), QStringLiteral("—"));
    EXPECT_NE(model->item(0, 2)->toolTip().indexOf(QStringLiteral("Not measured")), -1);
    EXPECT_EQ(model->item(0, 3)->text(), QStringLiteral("105 ms")); // the table's duration
    // Its free time is the table's; the parts it splits into need a timeline.
    int checked = 0;
    for (int c = 0; c < model->columnCount(); ++c) {
        const QString header = model->horizontalHeaderItem(c)->text();
        if (header == QStringLiteral("Host wait") || header == QStringLiteral("Other idle")) {
            ++checked;
            EXPECT_EQ(model->item(0, c)->text(), QStringLiteral("—")) << header.toStdString();
            EXPECT_NE(model->item(0, c)->toolTip().indexOf(QStringLiteral("Not measured")), -1);
        }
        if (header == QStringLiteral("Free (idle)")) {
            ++checked;
            EXPECT_EQ(model->item(0, c)->text(), QStringLiteral("5.00 ms"));
        }
    }
    EXPECT_EQ(checked, 3);
    panel.setRank(3);
    ASSERT_EQ(model->rowCount(), 2);
    std::vector<QString> starts = {model->item(0, 2)->text(), model->item(1, 2)->text()};
    std::sort(starts.begin(), starts.end());
    EXPECT_EQ(starts, (std::vector<QString> {QStringLiteral("0 ms"), QStringLiteral("100 ms")}));
}

// A warm-up first step (over 3 times the median of the others) is marked in the table and
// left out of the KPI strip's step time; its own figures stay as measured.
TEST(PanelsSteps, AWarmUpStepIsMarkedAndKeptAsMeasured)
{
    model::TraceBuilder tb;
    const model::TrackId stream = deviceStream(tb);
    const auto gemm = tb.intern("gemm");
    // Step 1: 2 s; steps 2-5: 100 ms, each with 60 ms of compute.
    tb.trace().steps = {{1, 0, 2000 * Ms}};
    tb.track(stream).add(10 * Ms, 60 * Ms, gemm, model::Category::Compute);
    for (std::int64_t n = 2; n <= 5; ++n) {
        const std::int64_t start = 2000 * Ms + (n - 2) * 100 * Ms;
        tb.trace().steps.push_back({n, start, start + 100 * Ms});
        tb.track(stream).add(start + 10 * Ms, 60 * Ms, gemm, model::Category::Compute);
    }
    const auto session = sessionOf(tb);
    ui::StepsPanel panel;
    panel.setSession(session);
    auto *model = qobject_cast<QStandardItemModel *>(panel.table()->model());
    ASSERT_NE(model, nullptr);
    ASSERT_EQ(model->rowCount(), 5);
    int warm = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
        const QString step = model->item(row, 0)->text();
        if (!step.contains(QStringLiteral("warm-up")))
            continue;
        ++warm;
        EXPECT_EQ(step, QStringLiteral("1 · warm-up"));
        EXPECT_NE(model->item(row, 0)->toolTip().indexOf(QStringLiteral("over 3 times")), -1);
        EXPECT_EQ(model->item(row, 3)->text(), QStringLiteral("2.00 s")); // as measured
    }
    EXPECT_EQ(warm, 1);
    EXPECT_EQ(panel.findChild<ui::KpiStrip *>()->text("step_time_mean_us"),
        QStringLiteral("step 100 ms"));
    EXPECT_EQ(panel.summaryText(),
        QStringLiteral("5 steps, mean 480 ms (100 ms without the "
                       "warm-up step)"));
}
