// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Two profiling windows far apart (issue 11 item 7): the stretch between them is drawn as a
// break of the axis, not as empty ruler with two slivers; the mapping stays exact elsewhere.
#include "model/tracebuilder.h"
#include "ui/timeline/axisbreaks.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/timelinemodel.h"
#include "ui/timeline/timelineview.h"

#include <gtest/gtest.h>

using namespace stepscope;
using namespace stepscope::ui::timeline;

namespace {

constexpr std::int64_t Ms = 1'000'000;
constexpr std::int64_t S = 1000 * Ms;

// One rank: window A = 5 steps of 100 ms from 0, window B = 5 steps from 460 s.
std::shared_ptr<const model::Session> twoWindows(std::int64_t secondAt = 460 * S)
{
    model::TraceBuilder tb;
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.threadId = "7";
    const model::TrackId d = tb.addTrack(dev);
    int n = 1;
    for (const std::int64_t base : {std::int64_t {0}, secondAt}) {
        for (int i = 0; i < 5; ++i, ++n) {
            const std::int64_t t0 = base + i * 100 * Ms;
            tb.trace().steps.push_back({n, t0, t0 + 100 * Ms});
            tb.track(d).add(t0 + 5 * Ms, 80 * Ms, tb.intern("gemm"), model::Category::Compute);
        }
    }
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(tb.finish().trace));
    return session;
}

AxisBreaks oneBreak(std::int64_t start, std::int64_t end)
{
    return std::make_shared<const std::vector<AxisBreak>>(std::vector<AxisBreak> {{start, end}});
}

/// A rank with only its step table: step `number` over [startNs, endNs), no events.
std::shared_ptr<const model::Trace> tableOnlyRank(
    std::int32_t rank, std::int64_t number, std::int64_t startNs, std::int64_t endNs)
{
    model::TraceBuilder tb;
    tb.trace().rank = rank;
    tb.trace().steps.push_back({number, startNs, endNs});
    return std::make_shared<const model::Trace>(tb.finish().trace);
}

/// A rank with step `step` and one gemm on device stream 7 inside it.
std::shared_ptr<const model::Trace> rankWithAGemm(
    std::int32_t rank, model::Step step, std::int64_t gemmStartNs, std::int64_t gemmNs)
{
    model::TraceBuilder tb;
    tb.trace().rank = rank;
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.threadId = "7";
    const model::TrackId d = tb.addTrack(dev);
    tb.trace().steps.push_back(step);
    tb.track(d).add(gemmStartNs, gemmNs, tb.intern("gemm"), model::Category::Compute);
    return std::make_shared<const model::Trace>(tb.finish().trace);
}

} // namespace

TEST(TimeAxisBreaks, ACompressedBreakTakesItsWidthAndTheRestKeepsTheScale)
{
    TimeAxis axis(0, 1000.0, 1000); // 1 µs per pixel
    axis.setBreaks(oneBreak(100'000, 10'100'000)); // 10 ms of nothing from 100 µs
    ASSERT_TRUE(axis.compresses(axis.breaks().front()));
    EXPECT_DOUBLE_EQ(axis.toPx(50'000), 50.0);
    EXPECT_DOUBLE_EQ(axis.toPx(100'000), 100.0);
    EXPECT_NEAR(axis.toPx(10'100'000), 100.0 + TimeAxis::BreakPx, 1e-9);
    // After the break, one µs is still one pixel.
    EXPECT_NEAR(axis.toPx(10'150'000) - axis.toPx(10'100'000), 50.0, 1e-9);
    for (const double px : {0.0, 37.0, 99.0, 130.0, 500.0, 999.0})
        EXPECT_NEAR(axis.toPx(axis.toNs(px)), px, 1e-3) << px;
    EXPECT_EQ(axis.endNs(), axis.toNs(1000));
    EXPECT_GT(axis.spanNs(), 10'000'000); // the break's time is in view
}

TEST(TimeAxisBreaks, ABreakShorterThanItsWidthIsDrawnToScale)
{
    TimeAxis axis(0, 1000.0, 1000);
    axis.setBreaks(oneBreak(100'000, 110'000)); // 10 µs = 10 px < BreakPx
    EXPECT_FALSE(axis.compresses(axis.breaks().front()));
    EXPECT_DOUBLE_EQ(axis.toPx(110'000), 110.0);
    EXPECT_EQ(axis.toNs(500), 500'000);
}

TEST(TimeAxisBreaks, FitZoomAndPanKeepTheirPromises)
{
    TimeAxis axis(0, 1.0, 1000);
    axis.setBreaks(oneBreak(500 * Ms, 460 * S));
    axis.fit(0, 460 * S + 500 * Ms);
    EXPECT_EQ(axis.startNs(), 0);
    EXPECT_NEAR(axis.toPx(460 * S + 500 * Ms), 1000.0, 1.0);
    // Both windows get most of the width (each about (1000 - BreakPx) / 2 px).
    EXPECT_GT(axis.toPx(500 * Ms), 450.0);
    const std::int64_t anchor = axis.toNs(700);
    axis.zoomAt(700, 4.0);
    EXPECT_NEAR(axis.toPx(anchor), 700.0, 1.0);
    const TimeAxis before = axis;
    axis.panPx(120);
    axis.panPx(-120);
    EXPECT_NEAR(static_cast<double>(axis.startNs()), static_cast<double>(before.startNs()),
        2 * axis.nsPerPixel());
    axis.centreOn(460 * S + 100 * Ms);
    EXPECT_NEAR(axis.toPx(460 * S + 100 * Ms), 500.0, 1.0);
}

TEST(AxisBreaks, OnlyAGapOfSeveralStepsIsABreak)
{
    // 100 ms steps: the threshold is five of them.
    EXPECT_EQ(breakThresholdNs({100 * Ms, 90 * Ms, 110 * Ms}, 10 * S), 500 * Ms);
    // Without steps, a quarter of the extent.
    EXPECT_EQ(breakThresholdNs({}, 40 * S), 10 * S);
    const std::vector<AxisBreak> none = findBreaks({{0, 100}, {400, 500}}, 1000);
    EXPECT_TRUE(none.empty());
    const std::vector<AxisBreak> one = findBreaks({{0, 100}, {50, 200}, {5200, 5300}}, 1000);
    ASSERT_EQ(one.size(), 1U);
    EXPECT_GE(one.front().startNs, 200); // clear of the island before
    EXPECT_LE(one.front().endNs, 5200);
    EXPECT_GT(one.front().lengthNs(), 4000);
}

// mstt-advisor-fragments: seven table ranks' 1.7 s steps from 0 and rank 0's 14 ms trace at
// its epoch. The threshold (5 × the median step, 8.5 s) made both margins 1.7 s: 1.7 s of
// nothing after the table steps and before the trace, the trace a sliver at the right edge.
// Each margin is at most a tenth of the run beside it.
TEST(AxisBreaks, MarginsScaleWithTheRunBesideTheBreak)
{
    constexpr std::int64_t Epoch = 1'704'161'511'420'289'011;
    const std::int64_t threshold = breakThresholdNs({14 * Ms, 1700 * Ms, 1720 * Ms}, 0);
    EXPECT_EQ(threshold, 8500 * Ms);
    const std::vector<AxisBreak> b =
        findBreaks({{0, 1720 * Ms}, {Epoch, Epoch + 14 * Ms}}, threshold);
    ASSERT_EQ(b.size(), 1U);
    EXPECT_EQ(b.front().startNs, 1720 * Ms + 172 * Ms);
    EXPECT_EQ(b.front().endNs, Epoch - 1'400'000);
    // A run of one instant keeps 1 us.
    const std::vector<AxisBreak> instant = findBreaks({{0, 0}, {10 * S, 10 * S}}, S);
    ASSERT_EQ(instant.size(), 1U);
    EXPECT_EQ(instant.front().startNs, 1'000);
    EXPECT_EQ(instant.front().endNs, 10 * S - 1'000);
}

TEST(AxisBreaks, TwoProfilingWindowsShareTheRulerInsteadOfTwoSlivers)
{
    auto model = TimelineModel::build(twoWindows());
    ASSERT_EQ(model->breaks()->size(), 1U);
    const AxisBreak b = model->breaks()->front();
    EXPECT_GE(b.startNs, 500 * Ms);
    EXPECT_LE(b.endNs, 460 * S);

    TimelineView view;
    view.resize(1200, 400);
    view.show();
    view.setModel(model);
    view.fitAll();
    const TimeAxis &axis = view.viewState().axis;
    // Each window is over a third of the lane width (margins and the break take the rest),
    // not a sliver at each end.
    const double a0 = axis.toPx(0);
    const double a1 = axis.toPx(500 * Ms);
    const double b0 = axis.toPx(460 * S);
    const double b1 = axis.toPx(460 * S + 500 * Ms);
    EXPECT_GT(a1 - a0, 0.35 * axis.widthPx());
    EXPECT_GT(b1 - b0, 0.35 * axis.widthPx());
    // The ruler labels the second window with its own time, 460 s on.
    QStringList labels;
    for (const TextItem &t : view.currentGeometry().texts)
        if (t.rect.bottom() <= view.metrics().rulerHeight * 0.5 + 1)
            labels << t.text;
    EXPECT_TRUE(labels.contains(QStringLiteral("0 ms")))
        << labels.join(QStringLiteral(" | ")).toStdString();
    EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [](const QString &l) {
        return l.startsWith(QStringLiteral("4602")) || l.startsWith(QStringLiteral("460."))
            || l.startsWith(QStringLiteral("4601"));
    })) << labels.join(QStringLiteral(" | ")).toStdString();

    // To scale on request: the break is gone and the first window is a sliver again.
    view.setGapBreaks(false);
    const TimeAxis &linear = view.viewState().axis;
    EXPECT_FALSE(linear.hasBreaks());
    EXPECT_LT(linear.toPx(500 * Ms) - linear.toPx(0), 0.01 * linear.widthPx());
}

TEST(AxisBreaks, AFragmentOnAnotherClockIsLabelledFromItsBreak)
{
    // A relative window at 0 and an epoch-stamped one 1.7e9 s on (Ascend advisor fragments):
    // "1704161510.5 s" is unreadable, so past that break the ruler counts "+0 ms", "+100 ms".
    TimelineView view;
    view.resize(1200, 400);
    view.show();
    view.setModel(TimelineModel::build(twoWindows(1'704'161'510 * S)));
    view.fitAll();
    const auto rulerLabels = [&view] {
        QStringList labels;
        for (const TextItem &t : view.currentGeometry().texts)
            if (t.rect.bottom() <= view.metrics().rulerHeight * 0.5 + 1)
                labels << t.text;
        return labels;
    };
    QStringList labels = rulerLabels();
    const QString all = labels.join(QStringLiteral(" | "));
    EXPECT_TRUE(labels.contains(QStringLiteral("0 ms"))) << all.toStdString();
    EXPECT_TRUE(labels.contains(QStringLiteral("+0 ms"))) << all.toStdString();
    EXPECT_FALSE(all.contains(QStringLiteral("170416"))) << all.toStdString();
    // Zoomed into the second window alone (its break off screen), the same count holds.
    view.fitRange(1'704'161'510 * S + 100 * Ms, 1'704'161'510 * S + 300 * Ms, false);
    labels = rulerLabels();
    EXPECT_FALSE(labels.isEmpty());
    for (const QString &l : labels)
        EXPECT_TRUE(l.startsWith(QLatin1Char('+')))
            << labels.join(QStringLiteral(" | ")).toStdString();
}

TEST(AxisBreaks, StepsCloseTogetherGetNoBreak)
{
    // The second window right after the first: nothing to break.
    auto model = TimelineModel::build(twoWindows(600 * Ms));
    EXPECT_TRUE(model->breaks()->empty());
}

TEST(AxisBreaks, ATableOnlyRankLinesUpWithTheRanksThatHaveEvents)
{
    // Rank 0: its step table only (step 2 from 0, no clock); rank 1: events stamped in epoch
    // ns with its step 2. They used to lie 56 years apart on each side of a break.
    auto session = std::make_shared<model::Session>();
    constexpr std::int64_t Epoch = 1'764'246'877'100'000'000;
    session->traces = {tableOnlyRank(0, 2, 0, 374 * Ms),
        rankWithAGemm(1, {2, Epoch, Epoch + 380 * Ms}, Epoch + 5 * Ms, 300 * Ms)};
    auto model = TimelineModel::build(session);
    EXPECT_TRUE(model->breaks()->empty());
    ASSERT_EQ(model->steps(0).size(), 1U);
    ASSERT_EQ(model->steps(1).size(), 1U);
    EXPECT_EQ(model->steps(0).front().startNs, model->steps(1).front().startNs);
    EXPECT_LT(model->extent().second - model->extent().first, 400 * Ms);
}

// The same with a real step table (a rank of cluster_step_trace_time.csv without its folder):
// the lane is the table's, so the rank's header and the lane's segments say that it was placed
// beside rank 1, not measured. The header used to give a clock note ("no collective of this
// rank matches"), which has nothing to say about a rank without events.
TEST(AxisBreaks, ATableOnlyRankSaysWhereItsLaneIsDrawn)
{
    model::Trace table;
    table.rank = 0;
    model::ReferenceStep row;
    row.step = 2;
    row.source = "cluster_analysis_output/cluster_step_trace_time.csv";
    row.valuesUs = {{"Computing", 300000}, {"Communication(Not Overlapped)", 50000},
        {"Overlapped", 0}, {"Free", 24000}};
    table.referenceSteps.push_back(row);
    auto session = std::make_shared<model::Session>();
    constexpr std::int64_t Epoch = 1'764'246'877'100'000'000;
    session->traces = {std::make_shared<const model::Trace>(std::move(table)),
        rankWithAGemm(1, {2, Epoch, Epoch + 380 * Ms}, Epoch + 5 * Ms, 300 * Ms)};
    auto model = TimelineModel::build(session);
    using Drawn = stepscope::analysis::LaneSegment::Drawn;
    ASSERT_FALSE(model->stepSegments(0).empty());
    for (const StepLaneSegment &seg : model->stepSegments(0))
        EXPECT_EQ(seg.drawn, Drawn::FromTableOnly);
    ASSERT_FALSE(model->stepSegments(1).empty());
    for (const StepLaneSegment &seg : model->stepSegments(1))
        EXPECT_EQ(seg.drawn, Drawn::AsHappened);
    const auto rankTip = [](const TimelineModel &m, int rank) {
        for (std::size_t i = 0; i < m.lanes().size(); ++i)
            if (m.lanes()[i].kind == LaneKind::Rank && m.lanes()[i].rank == rank)
                return m.laneTooltip(static_cast<int>(i));
        return QString();
    };
    const QString tip = rankTip(*model, 0);
    EXPECT_TRUE(tip.contains(QStringLiteral("No timeline: the steps come from the profiler's "
                                            "table (cluster_analysis_output/"
                                            "cluster_step_trace_time.csv) alone")))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Step 2 is placed where rank 1's step 2 starts")))
        << tip.toStdString();
    EXPECT_FALSE(tip.contains(QStringLiteral("collective"))) << tip.toStdString();
    EXPECT_FALSE(rankTip(*model, 1).contains(QStringLiteral("No timeline")));
    // The header says it too, without hovering.
    EXPECT_EQ(model->lanes().front().label, QStringLiteral("rank 0 · table only"));
    for (const Lane &l : model->lanes()) {
        if (l.kind == LaneKind::Rank && l.rank == 1) {
            EXPECT_EQ(l.label, QStringLiteral("rank 1"));
        }
    }
    // Alone, its steps are laid from 0, and the note says that instead.
    auto alone = std::make_shared<model::Session>();
    alone->traces.push_back(session->traces[0]);
    const QString aloneTip = rankTip(*TimelineModel::build(alone), 0);
    EXPECT_TRUE(aloneTip.contains(QStringLiteral("laid one after the other from 0")))
        << aloneTip.toStdString();
}

TEST(AxisBreaks, PanningStopsHalfAWindowBeyondTheDataOnScreen)
{
    // With a break the window's real span includes the 460 s gap; the pan limit used to be
    // half of that, so the view could be panned minutes into empty time before the first event.
    TimelineView view;
    view.resize(1200, 400);
    view.show();
    view.setModel(TimelineModel::build(twoWindows()));
    view.fitAll();
    const double half = view.viewState().axis.widthPx() / 2;
    view.panByPx(-1e7);
    const std::int64_t first = 5 * Ms; // the first kernel's start
    EXPECT_LE(view.viewState().axis.toPx(first), half + 1);
    EXPECT_GE(view.viewState().axis.toPx(first), half - 1);
    view.panByPx(1e7);
    const std::int64_t last = 460 * S + 500 * Ms - 15 * Ms; // the last kernel's end
    EXPECT_GE(view.viewState().axis.toPx(last), half - 1);
    EXPECT_LE(view.viewState().axis.toPx(last), half + 1);
}

// A rank with only a step no rank with events has (a cluster table's whole-capture row, its
// step id blank) has no place beside those events: the view spans the events. The fragments
// sample opened on 1.7 s of table rows with rank 0's 14 ms step squeezed to the right edge.
TEST(AxisBreaks, TableStepsNoRankSharesDoNotWidenTheView)
{
    auto session = std::make_shared<model::Session>();
    constexpr std::int64_t Epoch = 1'764'246'877'100'000'000;
    session->traces = {rankWithAGemm(0, {1, Epoch, Epoch + 14 * Ms}, Epoch + 1 * Ms, 12 * Ms),
        tableOnlyRank(1, -1, 0, 1700 * Ms)};
    auto model = TimelineModel::build(session);
    EXPECT_LT(model->extent().second - model->extent().first, 15 * Ms);
    // Alone, such a rank still opens on its steps.
    auto alone = std::make_shared<model::Session>();
    alone->traces.push_back(session->traces[1]);
    const auto aloneExtent = TimelineModel::build(alone)->extent();
    EXPECT_EQ(aloneExtent.second - aloneExtent.first, 1700 * Ms);
}
