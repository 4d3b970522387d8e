// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Memory panel on hand-built memory data: the category stack sums to the total, the
// allocation table sorts by size and lifetime, a row and a memory point link to the timeline,
// and a profile without memory says how to record it.

#include "analysed.h"
#include "chartsupport.h"
#include "compare_testsupport.h"
#include "core/analysis/memoryevents_testutil.h"
#include "model/tracebuilder.h"
#include "ui/charts/barchart.h"
#include "ui/charts/timechart.h"
#include "ui/export/imageexport.h"
#include "ui/panels/memorypanel.h"
#include "ui/panels/tableitems.h"

#include <gtest/gtest.h>

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QImage>
#include <QPainter>
#include <QStandardItemModel>
#include <QTableView>

#include <memory>
#include <tuple>
#include <vector>

using namespace stepscope;
using model::MemoryCategory;

namespace {

constexpr std::int64_t Ms = 1'000'000;
constexpr std::int64_t MiB = 1024 * 1024;

std::shared_ptr<const model::Session> memorySession()
{
    model::TraceBuilder tb;
    model::Trace &t = tb.trace();
    t.rank = 1;
    model::MemoryCurve curve;
    curve.component = "PTA";
    curve.device = "NPU:1";
    for (int i = 0; i < 10; ++i) {
        curve.timestampsNs.push_back(i * 10 * Ms);
        curve.allocatedBytes.push_back((i == 6 ? 900 : 100 + 10 * i) * MiB);
        curve.reservedBytes.push_back(1024 * MiB);
        curve.activeBytes.push_back(-1);
    }
    t.memory.curves.push_back(curve);
    auto &cats = t.memory.categories;
    for (auto &b : cats.bytes)
        b.assign(5, 0);
    for (int i = 0; i < 5; ++i) {
        const auto k = static_cast<std::size_t>(i);
        cats.timestampsNs.push_back(i * 20 * Ms);
        cats.bytes[static_cast<std::size_t>(MemoryCategory::Parameter)][k] = 400 * MiB;
        cats.bytes[static_cast<std::size_t>(MemoryCategory::Activation)][k] = i * 50 * MiB;
        cats.bytes[static_cast<std::size_t>(MemoryCategory::Gradient)][k] = i > 2 ? 400 * MiB : 0;
    }
    t.memory.allocations = {
        {"aten::empty", 4 * MiB, 5 * Ms, 7 * Ms, MemoryCategory::Temporary, false},
        {"aten::linear", 64 * MiB, 10 * Ms, 60 * Ms, MemoryCategory::Activation, false},
        {"hcom_allReduce_", 16 * MiB, 2 * Ms, -1, MemoryCategory::CommunicationBuffer, false},
    };
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));
    return session;
}

/// The real PyTorch trace with [memory] events, loaded once for the tests that read it.
const ui::LoadedProfile &htaMemory()
{
    static const ui::LoadedProfile p = testsupport::loadProfile(
        std::string(STEPSCOPE_TEST_DATA) + "/kineto/hta-ddp-2rank-rank1-memory");
    return p;
}

} // namespace

TEST(PanelsMemory, CurvesPeakAndCategoryStack)
{
    ui::MemoryPanel panel;
    uitest::setAnalysed(panel, memorySession());
    uitest::showAndSettle(panel, 1200, 700);
    ASSERT_FALSE(panel.showsMessage());
    EXPECT_EQ(panel.currentRank(), 1);
    EXPECT_EQ(panel.components(), QStringList {QStringLiteral("PTA (NPU:1)")});
    ui::TimeChart *curves = panel.curveChart();
    // allocated and reserved (active never recorded), plus the peak marker.
    ASSERT_EQ(curves->seriesCount(), 2);
    EXPECT_EQ(curves->valueAt(0, 65 * Ms), 900.0 * MiB);
    EXPECT_TRUE(panel.curveNote().isEmpty());

    // The stack: its top row equals the group total at every drawn point.
    const auto &groups = panel.groupTimeline();
    ASSERT_EQ(groups.timestampsNs.size(), 5u);
    ui::TimeChart *stack = panel.categoryChart();
    ASSERT_GE(stack->seriesCount(), 3);
    const QList<QPointF> top = stack->drawnPoints(stack->seriesCount() - 1);
    ASSERT_FALSE(top.isEmpty());
    for (const QPointF &p : top) {
        const auto i = static_cast<std::size_t>(p.x() / (20.0 * Ms));
        EXPECT_EQ(p.y(), static_cast<double>(groups.totalBytes[i])) << i;
    }
    EXPECT_EQ(groups.totalBytes[4], (400 + 200 + 400) * MiB);
}

TEST(PanelsMemory, AllocationTableSortsAndLinks)
{
    ui::MemoryPanel panel;
    uitest::setAnalysed(panel, memorySession());
    uitest::showAndSettle(panel, 1200, 700);
    QTableView *table = panel.allocationTable();
    QAbstractItemModel *m = table->model();
    ASSERT_EQ(m->rowCount(), 3);
    table->sortByColumn(1, Qt::DescendingOrder); // size
    EXPECT_EQ(m->index(0, 0).data().toString(), QStringLiteral("aten::linear"));
    EXPECT_EQ(m->index(2, 0).data().toString(), QStringLiteral("aten::empty"));
    table->sortByColumn(4, Qt::DescendingOrder); // lifetime: the live buffer first
    EXPECT_EQ(m->index(0, 0).data().toString(), QStringLiteral("hcom_allReduce_"));
    EXPECT_TRUE(m->index(0, 5).data().toString().startsWith(
        QStringLiteral("Communication buffers"), Qt::CaseInsensitive))
        << m->index(0, 5).data().toString().toStdString();

    std::vector<std::tuple<int, qint64, qint64>> requests;
    QObject::connect(&panel, &ui::MemoryPanel::timeRequested,
        [&](int rank, qint64 s, qint64 e) { requests.emplace_back(rank, s, e); });
    table->sortByColumn(1, Qt::DescendingOrder);
    uitest::leftClick(table->viewport(), table->visualRect(m->index(0, 2)).center());
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0], std::make_tuple(1, qint64 {10 * Ms}, qint64 {60 * Ms}));

    // A click on the curve at 65 ms selects the interval that value held: [60, 70) ms.
    ui::TimeChart *curves = panel.curveChart();
    uitest::clickChart(curves, curves->widgetPosition(65 * Ms, 500.0 * MiB));
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[1], std::make_tuple(1, qint64 {60 * Ms}, qint64 {70 * Ms}));
}

TEST(PanelsMemory, NoMemorySaysHowToCollect)
{
    model::TraceBuilder tb;
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));
    ui::MemoryPanel panel;
    uitest::setAnalysed(panel, session);
    EXPECT_TRUE(panel.showsMessage());
    EXPECT_TRUE(panel.messageText().contains(QStringLiteral("profile_memory=True")));
}

// Issue 15: in a short bottom dock (the default layout at 1280×800 gives the panels about
// 330 px) two time charts above each other kept plots of a few dozen pixels, ticks and axis
// titles cut to "…". There the four parts stand side by side at the dock's full height; a
// tall panel keeps two columns of two.
TEST(PanelsMemory, AShortWideDockPutsTheChartsSideBySide)
{
    ui::MemoryPanel panel;
    uitest::setAnalysed(panel, memorySession());
    uitest::showAndSettle(panel, 1280, 330);
    EXPECT_TRUE(panel.sideBySide());
    ui::TimeChart *curves = panel.curveChart();
    ui::TimeChart *stack = panel.categoryChart();
    EXPECT_GE(curves->height(), 260);
    EXPECT_GE(stack->height(), 260);
    EXPECT_EQ(curves->mapTo(&panel, QPoint()).y(), stack->mapTo(&panel, QPoint()).y());
    EXPECT_LT(curves->mapTo(&panel, QPoint()).x(), stack->mapTo(&panel, QPoint()).x());
    EXPECT_EQ(stack->legendAlignment(), Qt::AlignRight); // six entries: a column, not "Para…"

    panel.resize(1280, 720);
    uitest::showAndSettle(panel, 1280, 720);
    EXPECT_FALSE(panel.sideBySide());
    EXPECT_LT(curves->mapTo(&panel, QPoint()).y(), stack->mapTo(&panel, QPoint()).y());
    EXPECT_EQ(curves->mapTo(&panel, QPoint()).x(), stack->mapTo(&panel, QPoint()).x());
    EXPECT_EQ(stack->legendAlignment(), Qt::AlignBottom);

    // Too narrow for four columns: stacked even when short.
    uitest::showAndSettle(panel, 800, 330);
    EXPECT_FALSE(panel.sideBySide());
}

// A rank with an allocator curve and no categories (the ResNet demo): stacked, the note
// saying so took half the column and the curve kept a plot of a few dozen pixels, its ticks
// "…" (an exported memory picture at 1400×700). The note takes its text's height.
TEST(PanelsMemory, ANoteWithoutCategoriesLeavesTheCurveTheRoom)
{
    model::TraceBuilder tb;
    tb.trace().memory.curves = memorySession()->traces[0]->memory.curves;
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));
    ui::MemoryPanel panel;
    uitest::setAnalysed(panel, session);
    uitest::showAndSettle(panel, 1400, 700);
    ASSERT_FALSE(panel.sideBySide());
    ASSERT_FALSE(panel.categoryNote().isEmpty());
    ui::TimeChart *curves = panel.curveChart();
    ASSERT_TRUE(curves->isVisible());
    EXPECT_GE(curves->height(), 400);
    // With categories, the two charts share the column as before.
    ui::MemoryPanel both;
    uitest::setAnalysed(both, memorySession());
    uitest::showAndSettle(both, 1400, 700);
    EXPECT_NEAR(both.curveChart()->height(), both.categoryChart()->height(), 20);
}

// Side by side in a 1900 px window, the real trace's table shows its op chains (capped at
// 40 characters) and the allocation and release times without scrolling.
TEST(PanelsMemory, SideBySideTheTableShowsTheTimes)
{
    const ui::LoadedProfile &p = htaMemory();
    ASSERT_TRUE(p.session && p.analysis);
    ui::MemoryPanel panel;
    panel.setAnalysis(p.session, p.analysis);
    uitest::showAndSettle(panel, 1900, 330);
    ASSERT_TRUE(panel.sideBySide());
    QTableView *table = panel.allocationTable();
    ASSERT_TRUE(table->isVisible());
    const int released = 3;
    EXPECT_LE(table->columnViewportPosition(released) + table->columnWidth(released),
        table->viewport()->width());
}

// The panel shows the load's analysis and computes no memory series of its own (a second pass
// over 13 M `[memory]` events blocked the window for a minute on a 20 GB trace): an analysis
// whose series differs from what the session would give is what the panel shows.
TEST(PanelsMemory, ShowsTheAnalysisItIsGivenNotItsOwnPass)
{
    const auto session = memorySession();
    auto changed =
        std::make_shared<analysis::SessionAnalysis>(analysis::analyzeSession(*session, {}));
    ASSERT_EQ(changed->memory.size(), 1u);
    ASSERT_TRUE(changed->memory[0].groups);
    EXPECT_EQ(changed->memory[0].groups->totalBytes[4], (400 + 200 + 400) * MiB);
    auto groups = std::make_shared<analysis::MemoryGroupTimeline>();
    groups->timestampsNs = {0, 30 * Ms};
    for (auto &b : groups->bytes)
        b = {0, 0};
    groups->bytes[static_cast<std::size_t>(analysis::MemoryGroup::Gradients)] = {7 * MiB, 3 * MiB};
    groups->totalBytes = {7 * MiB, 3 * MiB};
    groups->source = "test";
    changed->memory[0].groups = groups;
    changed->memory[0].byGroupAtPeak = {};
    changed->memory[0].byGroupAtPeak[static_cast<std::size_t>(analysis::MemoryGroup::Gradients)] =
        7 * MiB;

    ui::MemoryPanel panel;
    panel.setAnalysis(session, changed);
    uitest::showAndSettle(panel, 1200, 700);
    ASSERT_FALSE(panel.showsMessage());
    EXPECT_EQ(panel.groupTimeline().totalBytes, (std::vector<std::int64_t> {7 * MiB, 3 * MiB}));
    EXPECT_EQ(
        panel.summary().byGroupAtPeak[static_cast<std::size_t>(analysis::MemoryGroup::Gradients)],
        7 * MiB);
    EXPECT_EQ(
        panel.summary().byGroupAtPeak[static_cast<std::size_t>(analysis::MemoryGroup::Parameters)],
        0);
    ui::TimeChart *stack = panel.categoryChart();
    ASSERT_EQ(stack->seriesCount(), 1); // Gradients alone
    EXPECT_EQ(stack->valueAt(0, 10 * Ms), 7.0 * MiB);

    // Without an analysis the panel has nothing to show for the rank's categories.
    panel.setAnalysis(session, nullptr);
    EXPECT_TRUE(panel.groupTimeline().timestampsNs.empty());
}

// The run config's model-state estimate reaches the peak chart, on a rank shown first and
// when the config comes after the analysis (MemoryPanel::rebuildPeak applies it).
TEST(PanelsMemory, RunConfigEstimateBesideTheMeasuredPeak)
{
    analysis::RunConfig config;
    config.parameters = 1e9; // mixed-precision Adam by default: 16 B per parameter
    ui::MemoryPanel before;
    before.setRunConfig(config);
    uitest::setAnalysed(before, memorySession());
    ui::MemoryPanel after;
    uitest::setAnalysed(after, memorySession());
    EXPECT_FALSE(after.summary().estimate);
    EXPECT_EQ(after.peakChart()->setCount(), 1); // measured only
    after.setRunConfig(config);
    for (ui::MemoryPanel *panel : {&before, &after}) {
        ASSERT_TRUE(panel->summary().estimate);
        EXPECT_EQ(panel->summary().estimate->totalBytes, 16'000'000'000);
        ASSERT_TRUE(panel->summary().nonModelStateBytes);
        EXPECT_EQ(*panel->summary().nonModelStateBytes, 900 * MiB - 16'000'000'000);
        EXPECT_EQ(panel->peakChart()->setCount(), 2); // measured and estimate
    }
    before.setRank(1); // the same rank again: the estimate stays
    ASSERT_TRUE(before.summary().estimate);
    EXPECT_EQ(before.summary().estimate->totalBytes, 16'000'000'000);
}

TEST(PanelsMemory, AllocatorEventsArePairedIntoTheTable)
{
    // A PyTorch trace with [memory] events: its allocator events built the chart by category,
    // so the table lists the same pairs (it said "not listed"; before that, "no records").
    using testsupport::MemoryEvent;
    const auto trace = std::make_shared<const model::Trace>(testsupport::memoryEventTrace(
        {MemoryEvent {0, 4096, 8 * MiB, 8 * MiB}, MemoryEvent {10 * Ms, 4096, -8 * MiB, 0},
            MemoryEvent {20 * Ms, 4096, 16 * MiB, 16 * MiB},
            MemoryEvent {30 * Ms, 4096, -16 * MiB, 0}},
        {{15 * Ms, 10 * Ms, "aten::mm"}}));
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(trace);
    ui::MemoryPanel panel;
    uitest::setAnalysed(panel, session);
    uitest::showAndSettle(panel, 1200, 700);
    ASSERT_FALSE(panel.showsMessage());
    EXPECT_TRUE(panel.allocationNote().isEmpty()) << panel.allocationNote().toStdString();
    EXPECT_TRUE(panel.allocationSource().contains(QStringLiteral("2 allocations paired")))
        << panel.allocationSource().toStdString();
    EXPECT_TRUE(
        panel.allocationSource().contains(QStringLiteral("4 device-memory <code>[memory]</code>")))
        << panel.allocationSource().toStdString();
    QAbstractItemModel *m = panel.allocationTable()->model();
    ASSERT_EQ(m->rowCount(), 2);
    panel.allocationTable()->sortByColumn(1, Qt::DescendingOrder);
    // The 16 MiB block allocated at 20 ms inside aten::mm [15, 25) ms, freed at 30 ms.
    EXPECT_EQ(m->index(0, 0).data().toString(), QStringLiteral("aten::mm"));
    EXPECT_EQ(m->index(0, 1).data(ui::SortRole).toDouble(), 16.0 * MiB);
    EXPECT_EQ(m->index(0, 2).data(ui::SortRole).toDouble(), 20.0 * Ms);
    EXPECT_EQ(m->index(0, 3).data(ui::SortRole).toDouble(), 30.0 * Ms);
    EXPECT_EQ(m->index(1, 1).data(ui::SortRole).toDouble(), 8.0 * MiB);

    // Curves alone: nothing to pair, the old advice stands; with records: the table, no note.
    model::TraceBuilder bare;
    bare.trace().memory.curves = trace->memory.curves;
    auto curvesOnly = std::make_shared<model::Session>();
    curvesOnly->traces.push_back(
        std::make_shared<const model::Trace>(std::move(bare.finish().trace)));
    uitest::setAnalysed(panel, curvesOnly);
    uitest::showAndSettle(panel, 1200, 700);
    EXPECT_TRUE(panel.allocationNote().contains(QStringLiteral("No allocation records")))
        << panel.allocationNote().toStdString();
    uitest::setAnalysed(panel, memorySession());
    uitest::showAndSettle(panel, 1200, 700);
    EXPECT_TRUE(panel.allocationNote().isEmpty()) << panel.allocationNote().toStdString();
}

TEST(PanelsMemory, ThePeakNoteSaysWhenTheCategoriesPartFromTheAllocator)
{
    // Two frees at addresses never allocated, counted by the allocator against its 8 MiB: the
    // categories peak at 16 MiB beside a curve at 8, and the note under the bars says why.
    using testsupport::MemoryEvent;
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(
        testsupport::memoryEventTrace({MemoryEvent {0, 0x1000, 8 * MiB, 8 * MiB},
            MemoryEvent {10 * Ms, 0x9001, -4 * MiB, 4 * MiB},
            MemoryEvent {20 * Ms, 0x9002, -4 * MiB, 0}})));
    ui::MemoryPanel panel;
    uitest::setAnalysed(panel, session);
    uitest::showAndSettle(panel, 1200, 700);
    EXPECT_TRUE(panel.peakNote().contains(QStringLiteral("do not add up to the allocator")))
        << panel.peakNote().toStdString();
    EXPECT_TRUE(panel.peakNote().contains(QStringLiteral("2 frees match no allocation")))
        << panel.peakNote().toStdString();
}

// The real PyTorch trace with [memory] events: the table lists the allocations the chart by
// category sums, each in the chart's group. Summed from the table's cells at the peak's
// time, per group, they give the peak bar's figures (6 629 508 096 B in all, docs/metrics.md).
TEST(PanelsMemory, TheTableHoldsWhatTheChartSums)
{
    const ui::LoadedProfile &p = htaMemory();
    ASSERT_TRUE(p.session && p.analysis);
    ui::MemoryPanel panel;
    panel.setAnalysis(p.session, p.analysis);
    uitest::showAndSettle(panel, 1200, 700);
    const analysis::MemorySummary &summary = panel.summary();
    ASSERT_TRUE(summary.hasGroups && summary.peakNs);
    // The table's times count from the panel's zero (no timeline: the first memory record).
    const std::int64_t peak = *summary.peakNs - panel.timeZero();
    QAbstractItemModel *m = panel.allocationTable()->model();
    ASSERT_GT(m->rowCount(), 1000);
    std::array<std::int64_t, analysis::MemoryGroupCount> alive {};
    for (int r = 0; r < m->rowCount(); ++r) {
        const auto size = static_cast<std::int64_t>(m->index(r, 1).data(ui::SortRole).toDouble());
        const auto from = static_cast<std::int64_t>(m->index(r, 2).data(ui::SortRole).toDouble());
        const QString released = m->index(r, 3).data().toString();
        const bool freed = released != QStringLiteral("still alive");
        const auto to = static_cast<std::int64_t>(m->index(r, 3).data(ui::SortRole).toDouble());
        const QString category = m->index(r, 5).data().toString();
        int group = -1;
        for (analysis::MemoryGroup g : analysis::AllMemoryGroups)
            if (category.startsWith(QString::fromUtf8(analysis::memoryGroupName(g).data())))
                group = static_cast<int>(g);
        ASSERT_GE(group, 0) << category.toStdString();
        if (from <= peak && !(freed && to <= peak))
            alive[static_cast<std::size_t>(group)] += size;
    }
    std::int64_t total = 0;
    for (std::size_t g = 0; g < alive.size(); ++g) {
        EXPECT_EQ(alive[g], summary.byGroupAtPeak[g])
            << analysis::memoryGroupKey(static_cast<analysis::MemoryGroup>(g));
        total += alive[g];
    }
    EXPECT_EQ(total, 6'629'508'096);
    EXPECT_TRUE(panel.allocationSource().contains(QStringLiteral("[memory]")));
}

// `stepscope export --view memory` paints a panel it has just shown, without an event loop:
// the peak chart of msinsight-cnn-level2-2rank kept the size it had before the picture's
// (about 130 px wide in a 1200 px picture, its bars and labels cut to "…") until the layouts'
// posted requests were handled before painting.
TEST(PanelsMemory, AnExportedPanelIsLaidOutAtThePicturesSize)
{
    const ui::LoadedProfile p = testsupport::loadProfile(
        std::string(STEPSCOPE_TEST_DATA) + "/ascend_pt/msinsight-cnn-level2-2rank");
    ASSERT_TRUE(p.session && p.analysis);
    ui::MemoryPanel panel;
    panel.setAnalysis(p.session, p.analysis);
    panel.setAttribute(Qt::WA_DontShowOnScreen);
    panel.show(); // as the export does: no event loop runs before the painting
    // The plot area Qt Charts lays out inside the chart, as it is when the chart is painted.
    auto *view = panel.peakChart()->findChild<QChartView *>();
    ASSERT_NE(view, nullptr);
    struct PaintedPlot : QObject
    {
        QChart *chart = nullptr;
        QRectF plot;
        bool eventFilter(QObject *, QEvent *event) override
        {
            if (event->type() == QEvent::Paint)
                plot = chart->plotArea();
            return false;
        }
    } painted;
    painted.chart = view->chart();
    view->viewport()->installEventFilter(&painted);
    QImage image(1200, 872, QImage::Format_ARGB32);
    QPainter painter(&image);
    ui::widgetPainter (&panel)(painter, image.size());
    painter.end();
    // Stacked: the right column is 40 % of the width, the peak chart its upper half.
    EXPECT_GE(painted.plot.width(), 300) << painted.plot.width();
    EXPECT_GE(painted.plot.height(), 200) << painted.plot.height();
}

// The ResNet demo's shape: two captures of the allocator 470 s apart. Painted as the export
// paints it (no event loop), the curve chart cuts the gap short, each capture takes about
// half the plot, and the category chart shares the cut.
TEST(PanelsMemory, TwoCapturesShareThePlotInsteadOfTheGap)
{
    constexpr std::int64_t S = 1'000'000'000;
    model::TraceBuilder tb;
    model::Trace &t = tb.trace();
    for (std::int64_t base : {std::int64_t {0}, 470 * S}) {
        model::MemoryCurve curve;
        curve.component = "PyTorch";
        curve.device = "cuda:0";
        for (std::int64_t k = 0; k <= 100; ++k) {
            curve.timestampsNs.push_back(base + k * 10 * Ms);
            curve.allocatedBytes.push_back((k % 30) * 64 * MiB);
        }
        t.memory.curves.push_back(curve);
    }
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));
    ui::MemoryPanel panel;
    uitest::setAnalysed(panel, session);
    panel.setAttribute(Qt::WA_DontShowOnScreen);
    panel.show();
    QImage image(1400, 700, QImage::Format_ARGB32);
    QPainter painter(&image);
    ui::widgetPainter (&panel)(painter, image.size());
    painter.end();
    ui::TimeChart *curves = panel.curveChart();
    ASSERT_EQ(curves->seriesCount(), 2);
    EXPECT_EQ(curves->cutCount(), 1);
    const auto x = [&](std::int64_t at) { return curves->widgetPosition(at, 0).x(); };
    const double plot = x(471 * S) - x(0);
    EXPECT_GE(x(S) - x(0), 0.4 * plot);
    EXPECT_GE(x(471 * S) - x(470 * S), 0.4 * plot);
}
