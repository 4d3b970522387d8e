// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timeline_testsupport.h"
#include "ui/palette.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/rangestatistics.h"
#include "ui/timeline/timelineview.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QElapsedTimer>

#include <map>
#include <utility>
#include <vector>

using namespace stepscope;
using namespace stepscope::ui;
using namespace stepscope::ui::timeline;

TEST(TimelineSearch, SubstringCaseInsensitiveWithNextAndPrevious)
{
    auto session = testsupport::makeSession(700, 100, 100);
    auto m = TimelineModel::build(session);
    // kernel_<i % 7>: 100 of each.
    EXPECT_EQ(m->search(QStringLiteral("KERNEL_3")).size(), 100u);
    EXPECT_EQ(m->search(QStringLiteral("rnel")).size(), 700u);
    EXPECT_TRUE(m->search(QStringLiteral("nomatch")).empty());

    TimelineView view;
    view.resize(1230, 500);
    view.setModel(m);
    view.fitRange(0, 20'000, false); // kernels 0..99
    EXPECT_EQ(view.setSearchText(QStringLiteral("Kernel_3")), 100);
    view.nextMatch();
    ASSERT_TRUE(view.viewState().selected.has_value());
    // The first match at or after the window start: kernel 3 at 600 ns.
    EXPECT_EQ(m->startOf(*view.viewState().selected), 600);
    EXPECT_EQ(m->nameOf(*view.viewState().selected), QStringLiteral("kernel_3"));
    view.nextMatch();
    EXPECT_EQ(m->startOf(*view.viewState().selected), 2'000); // kernel 10
    view.previousMatch();
    EXPECT_EQ(view.currentMatch(), 0);
    view.previousMatch(); // wraps to the last match: kernel 696
    EXPECT_EQ(m->startOf(*view.viewState().selected), 696 * 200);
    // The view moved to the match; matches in view are highlighted.
    EXPECT_LE(view.viewState().axis.startNs(), 696 * 200);
    EXPECT_GE(view.viewState().axis.endNs(), 696 * 200 + 100);
    const Geometry g = view.currentGeometry();
    std::size_t highlighted = 0;
    for (const OutlineBatch &o : g.outlines)
        if (o.color == searchMatchColor())
            highlighted += o.rects.size();
    EXPECT_GT(highlighted, 0u);
    // Each highlight has a dark halo under it, wider, with the same rectangles: the yellow
    // alone was lost on Preparing's yellow and on Python events' pale yellow.
    for (std::size_t i = 0; i < g.outlines.size(); ++i) {
        if (g.outlines[i].color != searchMatchColor())
            continue;
        ASSERT_GE(i, 1u);
        const OutlineBatch &halo = g.outlines[i - 1];
        EXPECT_EQ(halo.color, searchHaloColor());
        EXPECT_GT(halo.width, g.outlines[i].width);
        EXPECT_EQ(halo.rects, g.outlines[i].rects);
        // The pale fills the yellow is lost on: the halo stands out by lightness.
        for (model::Category c :
            {model::Category::Python, model::Category::Runtime, model::Category::Annotation})
            EXPECT_GT(categoryColor(c).lightness() - halo.color.lightness(), 150)
                << static_cast<int>(c);
    }
    EXPECT_EQ(view.setSearchText(QString()), 0);
}

TEST(TimelineSearch, MatchesOfEveryTrackInStartOrderTiesInTrackOrder)
{
    // Two streams whose kernels interleave; one start is on both.
    model::TraceBuilder b;
    model::TrackInfo info;
    info.kind = model::TrackKind::DeviceStream;
    info.threadId = "7";
    const model::TrackId s7 = b.addTrack(info);
    info.threadId = "20";
    const model::TrackId s20 = b.addTrack(info);
    const model::StringId k = b.intern("kernel");
    const model::StringId other = b.intern("memcpy");
    for (std::int64_t t : {0, 200, 400})
        b.track(s7).add(t, 50, k, model::Category::Compute);
    for (std::int64_t t : {100, 200, 300})
        b.track(s20).add(t, 50, k, model::Category::Compute);
    b.track(s20).add(500, 50, other, model::Category::Memcpy);
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(b.finish().trace));
    auto m = TimelineModel::build(session);
    const std::vector<EventKey> found = m->search(QStringLiteral("KERN"));
    ASSERT_EQ(found.size(), 6u);
    std::vector<std::int64_t> starts;
    for (const EventKey &e : found)
        starts.push_back(m->startOf(e));
    EXPECT_EQ(starts, (std::vector<std::int64_t> {0, 100, 200, 200, 300, 400}));
    EXPECT_EQ(m->track(found[2]).info().threadId, "7"); // the tie: the first track first
    EXPECT_EQ(m->track(found[3]).info().threadId, "20");
}

TEST(TimelineRangeStats, PerNameTotalsClippedToTheRange)
{
    auto session = testsupport::makeSession(700, 100, 100);
    auto m = TimelineModel::build(session);
    // [150, 1450): kernel 0 [0,100) no; kernel 1 [200,300) .. kernel 7 [1400,1500) clipped to 50.
    const auto stats = computeRangeStats(*m, 150, 1450);
    ASSERT_EQ(stats.size(), 7u);
    std::int64_t total = 0;
    std::uint64_t count = 0;
    for (const RangeStat &s : stats) {
        total += s.totalNs;
        count += s.count;
        if (s.name == QStringLiteral("kernel_0")) {
            EXPECT_EQ(s.count, 1u); // kernel 7
            EXPECT_EQ(s.totalNs, 50);
        }
    }
    EXPECT_EQ(count, 7u);
    EXPECT_EQ(total, 6 * 100 + 50);
    EXPECT_EQ(stats.front().totalNs, 100);
    EXPECT_NEAR(stats.front().share, 100.0 / 1300.0, 1e-12);
}

TEST(TimelineRangeStats, SelfTimePerRankWithSharesAtMostOne)
{
    // Two ranks; each host lane has ProfilerStep#0 [0, 1000) and #1 [1000, 2000) enclosing
    // five 25 ns launches each (at 0, 200, ..., 800 within the step); the device lane has ten
    // 100 ns kernels. Worked by hand: ProfilerStep self = 1000 - 5 × 25 = 875.
    auto session = testsupport::makeSession(10, 100, 100, 5, 2);
    auto m = TimelineModel::build(session);
    const auto stats = computeRangeStats(*m, 0, 2000);
    std::map<std::int32_t, std::int64_t> hostSelf;
    int step0Rows = 0;
    for (const RangeStat &s : stats) {
        EXPECT_LE(s.share, 1.0) << s.name.toStdString();
        EXPECT_GE(s.share, 0.0);
        EXPECT_LE(s.selfNs, s.totalNs);
        if (s.name == QStringLiteral("ProfilerStep#0")) {
            ++step0Rows;
            EXPECT_EQ(s.selfNs, 875);
            EXPECT_EQ(s.totalNs, 1000);
            EXPECT_NEAR(s.share, 875.0 / 2000.0, 1e-12);
        }
        if (s.name.startsWith(QStringLiteral("ProfilerStep")) || s.name == QStringLiteral("launch"))
            hostSelf[s.rank] += s.selfNs;
    }
    EXPECT_EQ(step0Rows, 2); // one row per rank, not one summed over both
    // Self times of one lane partition its busy time: here the whole range.
    EXPECT_EQ(hostSelf[0], 2000);
    EXPECT_EQ(hostSelf[1], 2000);
}

TEST(TimelineSearch, AHitUnderThreePixelsIsZoomedTo)
{
    auto session = testsupport::makeSession(700, 100, 100);
    auto m = TimelineModel::build(session);
    TimelineView view;
    view.resize(1230, 500);
    view.setModel(m);
    view.fitRange(0, 140'000, false); // 100 ns kernels are about 0.1 px wide
    ASSERT_LT(view.viewState().axis.toPxLength(100), 3);
    ASSERT_EQ(view.setSearchText(QStringLiteral("kernel_5")), 100);
    view.nextMatch();
    ASSERT_TRUE(view.viewState().selected.has_value());
    const std::int64_t s = m->startOf(*view.viewState().selected);
    const auto &axis = view.viewState().axis;
    EXPECT_GE(axis.toPxLength(100), 3);
    EXPECT_LE(axis.startNs(), s);
    EXPECT_GE(axis.endNs(), s + 100);
    // Backspace (undo zoom) goes back to the wide view.
    view.undoZoom();
    EXPECT_LT(view.viewState().axis.toPxLength(100), 3);
}

namespace {

/// The searchChanged signals of a view.
struct SearchSignals
{
    explicit SearchSignals(TimelineView &view)
    {
        QObject::connect(&view, &TimelineView::searchChanged,
            [this](int count, int current) { seen.emplace_back(count, current); });
    }
    std::vector<std::pair<int, int>> seen;
};

bool waitUntilIdle(const TimelineView &view, int timeoutMs = 10000)
{
    QElapsedTimer t;
    t.start();
    while (view.isSearching() && t.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return !view.isSearching();
}

} // namespace

TEST(TimelineSearch, AWorkerSearchesAndOnlyTheLastTermApplies)
{
    auto m = TimelineModel::build(testsupport::makeSession(700, 100, 100));
    TimelineView view;
    view.resize(1230, 500);
    view.setModel(m);
    view.fitRange(0, 20'000, false);
    SearchSignals spy(view);
    view.startSearch(QStringLiteral("rnel")); // 700 matches, replaced before it lands
    view.startSearch(QStringLiteral("Kernel_3"));
    // The calls returned without a result: the scan runs on a worker.
    EXPECT_TRUE(view.isSearching());
    EXPECT_EQ(view.matchCount(), 0);
    view.nextMatch(); // asked while searching: applied once the matches are in
    ASSERT_TRUE(waitUntilIdle(view));
    EXPECT_EQ(view.matchCount(), 100);
    ASSERT_TRUE(view.viewState().selected.has_value());
    EXPECT_EQ(m->startOf(*view.viewState().selected), 600); // kernel 3, as the sync search
    EXPECT_EQ(
        spy.seen, (std::vector<std::pair<int, int>> {{-1, -1}, {-1, -1}, {100, -1}, {100, 0}}));
}

TEST(TimelineSearch, ClearingTheTermDropsARunningSearch)
{
    auto m = TimelineModel::build(testsupport::makeSession(700, 100, 100));
    TimelineView view;
    view.setModel(m);
    SearchSignals spy(view);
    view.startSearch(QStringLiteral("rnel"));
    EXPECT_EQ(view.setSearchText(QString()), 0);
    EXPECT_FALSE(view.isSearching());
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 300)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    EXPECT_EQ(view.matchCount(), 0);
    EXPECT_EQ(spy.seen, (std::vector<std::pair<int, int>> {{-1, -1}, {0, -1}}));
    // A new model searches its own events again, on the worker.
    view.startSearch(QStringLiteral("kernel_5"));
    view.setModel(TimelineModel::build(testsupport::makeSession(70, 10, 100)));
    ASSERT_TRUE(waitUntilIdle(view));
    EXPECT_EQ(view.matchCount(), 10);
}
