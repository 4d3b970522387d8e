// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/breakdown.h"
#include "timeline_testsupport.h"
#include "ui/palette.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/lanelayout.h"
#include "ui/timeline/timelinemodel.h"

#include <gtest/gtest.h>

using namespace stepscope;
using namespace stepscope::ui;
using namespace stepscope::ui::timeline;

TEST(TimelineStepLane, SegmentsMatchTheAnalysis)
{
    auto session = testsupport::makeSession(1000, 100, 100, 100, 2);
    auto m = TimelineModel::build(session);
    ASSERT_TRUE(m->hasBreakdownSegments());
    for (int ti = 0; ti < 2; ++ti) {
        const model::Trace &trace = *session->traces[static_cast<std::size_t>(ti)];
        const auto expected = analysis::stepLaneSegments(trace);
        const auto &got = m->stepSegments(ti);
        ASSERT_EQ(got.size(), expected.size());
        ASSERT_FALSE(got.empty());
        const std::int64_t offset = trace.originNs - session->originNs();
        for (std::size_t i = 0; i < got.size(); ++i) {
            EXPECT_EQ(got[i].startNs, expected[i].startNs + offset);
            EXPECT_EQ(got[i].endNs, expected[i].endNs + offset);
            EXPECT_EQ(got[i].step, expected[i].step);
            EXPECT_EQ(got[i].kind, expected[i].kind);
        }
        ASSERT_EQ(m->steps(ti).size(), 10u);
        EXPECT_EQ(m->steps(ti)[3].startNs, 3 * 100 * 200 + offset);
    }
}

TEST(TimelineStepLane, StepLaneIsPaintedFromTheSegments)
{
    auto session = testsupport::makeSession(1000, 100, 100, 100, 1);
    auto m = TimelineModel::build(session);
    const auto &segs = m->stepSegments(0);
    ASSERT_FALSE(segs.empty());
    // Fit step 2 so each of its segments is wider than a pixel.
    ViewState view;
    const StepSpan step = m->steps(0)[2];
    view.axis = TimeAxis(0, 1, 1000);
    view.axis.fit(step.startNs, step.endNs);
    const TimelineMetrics metrics;
    const QSize size(1230, 700);
    const Geometry g = buildGeometry(*m, view, size, metrics);
    const LaneBox *box = g.layout.boxOfLane(0);
    ASSERT_NE(box, nullptr);
    ASSERT_EQ(m->lanes()[0].kind, LaneKind::Rank);
    // Every segment of the step is a rect of its colour at its place in the step lane.
    int checked = 0;
    for (const StepLaneSegment &s : segs) {
        if (s.step != step.number)
            continue;
        const double x0 = metrics.headerWidth + view.axis.toPx(s.startNs);
        const double x1 = metrics.headerWidth + view.axis.toPx(s.endNs);
        if (x1 - x0 < 1)
            continue;
        bool found = false;
        for (const RectBatch &b : g.content) {
            if (b.color != segmentColor(s.kind))
                continue;
            for (const QRectF &r : b.rects)
                found = found
                    || (std::abs(r.left() - std::max<double>(x0, metrics.headerWidth)) < 0.01
                        && std::abs(r.right() - std::min<double>(x1, size.width())) < 0.01
                        && r.top() >= box->rect.top() && r.bottom() <= box->rect.bottom());
        }
        EXPECT_TRUE(found) << "segment at " << s.startNs;
        ++checked;
    }
    EXPECT_GT(checked, 1);
}

/// The x of each vertical line from `top` to `bottom`, in drawing order.
std::vector<double> verticalLinesAt(const Geometry &g, double top, double bottom)
{
    std::vector<double> xs;
    for (const LineItem &l : g.lines) {
        if (l.line.x1() == l.line.x2() && std::abs(l.line.y1() - top) < 0.01
            && std::abs(l.line.y2() - bottom) < 0.01)
            xs.push_back(l.line.x1());
    }
    return xs;
}

TEST(TimelineStepLane, ZoomedOutTheStepBoundariesStayApart)
{
    // 5 000 steps of 800 ns: fitted in 1 000 px, a step is a sixth of a pixel.
    auto session = testsupport::makeSession(20000, 100, 100, 4, 1);
    auto m = TimelineModel::build(session);
    ASSERT_EQ(m->steps(0).size(), 5000u);
    const TimelineMetrics metrics;
    const QSize size(1230, 700);
    ViewState view;
    view.axis = TimeAxis(0, 1, size.width() - metrics.headerWidth);
    view.axis.fit(m->steps(0).front().startNs, m->steps(0).back().endNs);
    Geometry g = buildGeometry(*m, view, size, metrics);
    const LaneBox *box = g.layout.boxOfLane(0);
    ASSERT_NE(box, nullptr);
    const double ruler = metrics.rulerHeight;
    for (const auto &xs : {verticalLinesAt(g, box->rect.top(), box->rect.bottom()),
             verticalLinesAt(g, ruler * 0.5, ruler)}) {
        ASSERT_GT(xs.size(), 100u); // the steps still show where they are
        EXPECT_LE(xs.size(), static_cast<std::size_t>(view.axis.widthPx() / 4 + 1));
        for (std::size_t i = 1; i < xs.size(); ++i)
            EXPECT_GE(xs[i] - xs[i - 1], 4 - 1e-9) << i;
    }
    // Zoomed in on steps 10 to 19, each step 100 px wide: every start is drawn, step 20's at
    // the right edge too.
    view.axis.fit(m->steps(0)[10].startNs, m->steps(0)[19].endNs);
    g = buildGeometry(*m, view, size, metrics);
    box = g.layout.boxOfLane(0);
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(verticalLinesAt(g, box->rect.top(), box->rect.bottom()).size(), 11u);
    EXPECT_EQ(verticalLinesAt(g, ruler * 0.5, ruler).size(), 11u);
}

TEST(TimelineLanes, GroupedRankProcessThreadAndCollapsible)
{
    auto session = testsupport::makeSession(100, 100, 100, 10, 2);
    auto m = TimelineModel::build(session);
    // rank 0, python (100), MainThread, GPU 0 (200), stream 7, then the same for rank 1.
    ASSERT_EQ(m->lanes().size(), 10u);
    EXPECT_EQ(m->lanes()[0].kind, LaneKind::Rank);
    EXPECT_EQ(m->lanes()[0].label, QStringLiteral("rank 0"));
    EXPECT_EQ(m->lanes()[1].kind, LaneKind::Process);
    EXPECT_EQ(m->lanes()[1].label, QStringLiteral("python (100)"));
    EXPECT_EQ(m->lanes()[2].label, QStringLiteral("MainThread"));
    EXPECT_EQ(m->lanes()[2].rows, 2); // ProfilerStep with launch children
    EXPECT_EQ(m->lanes()[3].label, QStringLiteral("GPU 0 (200)"));
    EXPECT_EQ(m->lanes()[4].label, QStringLiteral("stream 7"));
    EXPECT_EQ(m->lanes()[5].label, QStringLiteral("rank 1"));
    ViewState view;
    view.axis = TimeAxis(0, 100, 1000);
    const QSize size(1230, 2000);
    EXPECT_EQ(layoutLanes(*m, view, {}, size).boxes.size(), 10u);
    view.collapsed.insert(QStringLiteral("r0"));
    auto layout = layoutLanes(*m, view, {}, size);
    EXPECT_EQ(layout.boxes.size(), 6u); // rank 0's step lane stays
    view.collapsed.clear();
    view.collapsed.insert(m->lanes()[3].key); // GPU process of rank 0
    EXPECT_EQ(layoutLanes(*m, view, {}, size).boxes.size(), 9u);
    view.collapsed.clear();
    view.hidden.insert(m->lanes()[2].key);
    view.pinned.append(m->lanes()[9].key); // rank 1's stream pinned on top
    layout = layoutLanes(*m, view, {}, size);
    ASSERT_EQ(layout.boxes.size(), 9u);
    EXPECT_TRUE(layout.boxes.front().pinned);
    EXPECT_EQ(layout.boxes.front().lane, 9);
    EXPECT_EQ(layout.boxes.front().rect.top(), TimelineMetrics {}.rulerHeight);
}
