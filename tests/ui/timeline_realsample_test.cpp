// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The timeline on real samples: every rank shows a step lane equal to the analysis, the
// lanes are grouped as the profile names them, and the window opens on the data.
#include "analysis/breakdown.h"
#include "import/loader.h"
#include "ui/mainwindow.h"
#include "ui/palette.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/timelineview.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QElapsedTimer>

using namespace stepscope;
using namespace stepscope::ui;
using namespace stepscope::ui::timeline;

namespace {

std::shared_ptr<const model::Session> load(const char *relative)
{
    util::Progress progress;
    auto r = import::loadPath(std::filesystem::path(STEPSCOPE_TEST_DATA) / relative, progress);
    return r.session;
}

} // namespace

TEST(TimelineRealSample, AscendTwoRanksShowStepLanesFromTheAnalysis)
{
    auto session = load("ascend_pt/msinsight-cnn-level2-2rank");
    ASSERT_TRUE(session && session->hasContent());
    auto m = TimelineModel::build(session);
    ASSERT_EQ(session->traces.size(), 2u);
    int rankLanes = 0;
    for (const Lane &l : m->lanes())
        rankLanes += l.kind == LaneKind::Rank;
    EXPECT_EQ(rankLanes, 2);
    for (int ti = 0; ti < 2; ++ti) {
        const model::Trace &trace = *session->traces[static_cast<std::size_t>(ti)];
        const auto expected = analysis::stepLaneSegments(trace);
        ASSERT_FALSE(expected.empty());
        ASSERT_EQ(m->stepSegments(ti).size(), expected.size());
        // Rank 1 is moved by its clock offset (matched collectives, issue 11 item 5).
        const RankClock &clock = m->clocks()[static_cast<std::size_t>(ti)];
        const std::int64_t offset =
            trace.originNs - session->originNs() + (clock.applied ? clock.offsetNs : 0);
        EXPECT_EQ(m->offsetNs(ti), offset);
        for (std::size_t i = 0; i < expected.size(); ++i) {
            EXPECT_EQ(m->stepSegments(ti)[i].startNs, expected[i].startNs + offset);
            EXPECT_EQ(m->stepSegments(ti)[i].kind, expected[i].kind);
        }
        // One step (50) per rank in this sample: step_trace_time.csv has one row per rank.
        ASSERT_EQ(m->steps(ti).size(), 1u);
        EXPECT_EQ(m->steps(ti)[0].number, 50);
    }
    // The window fitted to the data shows the step lane of rank 0 in colour.
    TimelineView view;
    view.resize(1400, 900);
    view.setModel(m);
    const auto [lo, hi] = m->extent();
    EXPECT_LE(view.viewState().axis.startNs(), lo);
    EXPECT_GE(view.viewState().axis.endNs(), hi);
    EXPECT_LT(view.viewState().axis.spanNs(), (hi - lo) * 2);
    const Geometry g = view.currentGeometry();
    bool exposed = false;
    for (const RectBatch &b : g.content)
        exposed = exposed
            || (b.color == segmentColor(analysis::SegmentKind::CommExposed) && !b.rects.empty());
    EXPECT_TRUE(exposed);
}

TEST(TimelineRealSample, WindowOpensKinetoAndFitsTheData)
{
    MainWindow window;
    window.resize(1280, 800);
    window.show();
    bool done = false;
    bool ok = false;
    QObject::connect(&window, &MainWindow::loadFinished, [&](bool result) {
        done = true;
        ok = result;
    });
    window.openPath(QString::fromUtf8(STEPSCOPE_TEST_DATA)
        + QStringLiteral("/kineto/hta-ddp-a100-world2-nccl"));
    QElapsedTimer t;
    t.start();
    while (!done && t.elapsed() < 60000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    ASSERT_TRUE(done);
    ASSERT_TRUE(ok);
    const auto &m = *window.timelineView()->model();
    const auto [lo, hi] = m.extent();
    const TimeAxis &axis = window.timelineView()->viewState().axis;
    EXPECT_LE(axis.startNs(), lo);
    EXPECT_GE(axis.endNs(), hi);
    EXPECT_LT(axis.spanNs(), (hi - lo) * 2) << axis.spanNs() << " vs " << (hi - lo);
    EXPECT_GT(m.eventCount(), 0u);
}
