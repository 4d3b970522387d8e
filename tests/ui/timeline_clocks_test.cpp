// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Clock alignment of ranks in the timeline (issue 11 item 5): known offsets move a rank's
// lanes, weak evidence is never applied silently, and the raw-clocks variant restores them.
#include "timeline_testsupport.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/lanelayout.h"
#include "ui/timeline/timelinemodel.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace stepscope;
using namespace stepscope::ui;
using namespace stepscope::ui::timeline;

namespace {

constexpr std::int64_t Skew = 5'000'000; // rank 1's clock runs 5 ms ahead

/// A rank with one device stream: 200 kernels of 1 µs every 2 µs, alternating compute and
/// communication, 10 steps of 20 kernels; its trace origin is `originNs`.
std::shared_ptr<const model::Trace> kernels(std::int32_t rank, std::int64_t originNs)
{
    model::TraceBuilder b;
    b.trace().rank = rank;
    b.trace().originNs = originNs;
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.rank = rank;
    dev.processId = "200";
    dev.threadId = "7";
    const model::TrackId d = b.addTrack(dev);
    for (int i = 0; i < 200; ++i)
        b.track(d).add(i * 2000, 1000, b.intern("kernel_" + std::to_string(i % 7)),
            i % 2 == 0 ? model::Category::Compute : model::Category::Communication);
    for (int k = 0; k < 10; ++k)
        b.trace().steps.push_back({k, k * 40'000, (k + 1) * 40'000});
    return std::make_shared<const model::Trace>(b.finish().trace);
}

/// Two identical ranks; rank 1's trace origin is `skew` later, so each of its collectives
/// ends `skew` later on the session clock.
std::shared_ptr<const model::Session> skewedSession(std::int64_t skew)
{
    auto session = std::make_shared<model::Session>();
    session->format = "synthetic";
    session->traces = {kernels(0, 1'000'000'000), kernels(1, 1'000'000'000 + skew)};
    return session;
}

/// One device stream with all-reduces ending at `ends` (own clock, ns).
std::shared_ptr<const model::Trace> collectives(std::int32_t rank, std::vector<std::int64_t> ends)
{
    model::TraceBuilder b;
    b.trace().rank = rank;
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.rank = rank;
    dev.processId = "200";
    dev.threadId = "1";
    const model::TrackId d = b.addTrack(dev);
    const model::StringId name = b.intern("hcom_allReduce_");
    for (std::int64_t e : ends)
        b.track(d).add(e - 100'000, 100'000, name, model::Category::Communication);
    return std::make_shared<const model::Trace>(b.finish().trace);
}

/// True when the content holds a rect spanning [x0, x1) px inside `box`.
bool hasRect(const Geometry &g, const LaneBox &box, double x0, double x1)
{
    for (const RectBatch &b : g.content)
        for (const QRectF &r : b.rects)
            if (std::abs(r.left() - x0) < 0.51 && std::abs(r.right() - x1) < 0.51
                && r.top() >= box.rect.top() && r.bottom() <= box.rect.bottom())
                return true;
    return false;
}

int deviceLane(const TimelineModel &m, int traceIndex)
{
    for (std::size_t i = 0; i < m.lanes().size(); ++i) {
        const Lane &l = m.lanes()[i];
        if (l.kind == LaneKind::Track && l.traceIndex == traceIndex
            && m.trace(traceIndex).tracks[static_cast<std::size_t>(l.trackIndex)].info().kind
                == model::TrackKind::DeviceStream)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace

TEST(TimelineClocks, KnownOffsetIsAppliedAndRawRestoresIt)
{
    const auto session = skewedSession(Skew);
    const auto aligned = TimelineModel::build(session);
    ASSERT_EQ(aligned->clocks().size(), 2u);
    const RankClock &clock = aligned->clocks()[1];
    EXPECT_TRUE(clock.known);
    EXPECT_TRUE(clock.applied);
    EXPECT_EQ(clock.offsetNs, -Skew);
    EXPECT_EQ(clock.matched, 100); // 100 communication kernels, matched by name and order
    EXPECT_EQ(clock.spreadNs, 0);
    // Aligned: rank 1 sits exactly on rank 0 again.
    EXPECT_EQ(aligned->offsetNs(1), aligned->offsetNs(0));
    EXPECT_EQ(aligned->steps(1)[3].startNs, aligned->steps(0)[3].startNs);
    EXPECT_EQ(aligned->stepSegments(1).front().startNs, aligned->stepSegments(0).front().startNs);

    const auto raw = TimelineModel::withClocks(aligned, false);
    EXPECT_FALSE(raw->clocksAligned());
    EXPECT_FALSE(raw->clocks()[1].applied);
    EXPECT_EQ(raw->offsetNs(1) - raw->offsetNs(0), Skew);
    EXPECT_EQ(raw->steps(1)[3].startNs - aligned->steps(1)[3].startNs, Skew);
    EXPECT_EQ(raw->extent().second - aligned->extent().second, Skew);
    // Lanes (and their LOD summaries) are shared, not rebuilt.
    EXPECT_EQ(&raw->lanes(), &aligned->lanes());
    // And back again.
    const auto again = TimelineModel::withClocks(raw, true);
    EXPECT_EQ(again->offsetNs(1), aligned->offsetNs(1));
    EXPECT_EQ(again->stepSegments(1).back().endNs, aligned->stepSegments(1).back().endNs);

    // The tooltip of rank 1's header states the offset and its evidence.
    int rankLane = -1;
    for (std::size_t i = 0; i < aligned->lanes().size(); ++i)
        if (aligned->lanes()[i].kind == LaneKind::Rank && aligned->lanes()[i].traceIndex == 1)
            rankLane = static_cast<int>(i);
    ASSERT_GE(rankLane, 0);
    const QString tip = aligned->laneTooltip(rankLane);
    EXPECT_TRUE(tip.contains(QStringLiteral("-5.00 ms applied"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("median of 100 collective ends matched with rank 0")));
    EXPECT_TRUE(raw->laneTooltip(rankLane).contains(QStringLiteral("Raw clock shown")));
}

TEST(TimelineClocks, LaneGeometryShiftsByTheOffset)
{
    // 21 µs: kernels are 1 µs every 2 µs, so the raw kernel falls in an aligned gap.
    constexpr std::int64_t Small = 21'000;
    const auto aligned = TimelineModel::build(skewedSession(Small));
    ASSERT_TRUE(aligned->clocks()[1].applied);
    const auto raw = TimelineModel::withClocks(aligned, false);
    const TimelineMetrics metrics;
    const QSize size(1230, 2000);
    ViewState view;
    view.axis = TimeAxis(0, 1, 1000);
    view.axis.fit(-5'000, 45'000); // 50 ns per px: a kernel is 20 px
    ASSERT_EQ(aligned->trace(1).tracks.size(), 1u);
    const model::Track &track = aligned->trace(1).tracks[0];
    const double x0 = metrics.headerWidth + view.axis.toPx(track.start(0)); // aligned: 0
    const double x1 = metrics.headerWidth + view.axis.toPx(track.end(0));
    const double shift = static_cast<double>(Small) / view.axis.nsPerPixel();
    ASSERT_EQ(aligned->offsetNs(1), 0);
    ASSERT_EQ(raw->offsetNs(1), Small);

    const Geometry ga = buildGeometry(*aligned, view, size, metrics);
    const Geometry gr = buildGeometry(*raw, view, size, metrics);
    const LaneBox *boxA = ga.layout.boxOfLane(deviceLane(*aligned, 1));
    const LaneBox *boxR = gr.layout.boxOfLane(deviceLane(*raw, 1));
    ASSERT_TRUE(boxA && boxR);
    EXPECT_TRUE(hasRect(ga, *boxA, x0, x1));
    EXPECT_FALSE(hasRect(ga, *boxA, x0 + shift, x1 + shift));
    EXPECT_TRUE(hasRect(gr, *boxR, x0 + shift, x1 + shift));
    EXPECT_FALSE(hasRect(gr, *boxR, x0, x1));
    // Rank 0 does not move.
    const LaneBox *ref = gr.layout.boxOfLane(deviceLane(*raw, 0));
    ASSERT_NE(ref, nullptr);
    EXPECT_TRUE(hasRect(gr, *ref, x0, x1));
}

TEST(TimelineClocks, WeakEvidenceIsNotAppliedAndSaysWhy)
{
    auto session = std::make_shared<model::Session>();
    // Rank 1's matched ends differ by 0, 5 and 10 ms: median 5 ms, spread 5 ms > 1 ms.
    session->traces = {collectives(0, {10'000'000, 20'000'000, 30'000'000}),
        collectives(1, {10'000'000, 15'000'000, 20'000'000}), collectives(2, {})};
    const auto m = TimelineModel::build(session);
    ASSERT_EQ(m->clocks().size(), 3u);
    EXPECT_FALSE(m->clocks()[1].known);
    EXPECT_FALSE(m->clocks()[1].applied);
    EXPECT_EQ(m->clocks()[1].matched, 3);
    EXPECT_EQ(m->offsetNs(1), m->offsetNs(0));
    std::vector<QString> tips;
    for (std::size_t i = 0; i < m->lanes().size(); ++i)
        if (m->lanes()[i].kind == LaneKind::Rank)
            tips.push_back(m->laneTooltip(static_cast<int>(i)));
    ASSERT_EQ(tips.size(), 3u);
    EXPECT_TRUE(tips[0].contains(QStringLiteral("reference rank")));
    EXPECT_TRUE(tips[1].contains(QStringLiteral("not applied: the evidence is weak")))
        << tips[1].toStdString();
    EXPECT_TRUE(tips[1].contains(QStringLiteral("spread 5.00 ms")));
    EXPECT_TRUE(tips[2].contains(QStringLiteral("no collective of this rank matches")));
}
