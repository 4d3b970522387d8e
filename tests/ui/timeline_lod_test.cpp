// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timeline_testsupport.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/rowruns.h"
#include "ui/timeline/rowsummary.h"
#include "ui/timeline/timelinemodel.h"

#include <gtest/gtest.h>

using namespace stepscope;
using namespace stepscope::ui::timeline;

namespace {

const model::Track &deviceTrack(const model::Trace &t)
{
    for (const auto &tr : t.tracks)
        if (tr.info().kind == model::TrackKind::DeviceStream)
            return tr;
    return t.tracks.front();
}

void expectOrderedAndBounded(const std::vector<RowRun> &runs, int width)
{
    for (std::size_t i = 0; i < runs.size(); ++i) {
        EXPECT_LT(runs[i].x0, runs[i].x1);
        EXPECT_GE(runs[i].x1, 0.0);
        EXPECT_LE(runs[i].x0, width + 1.0);
        if (i > 0) { // pieces never overlap by more than a shared pixel edge
            EXPECT_GE(runs[i].x0, runs[i - 1].x1 - 1.0) << i;
        }
    }
}

} // namespace

TEST(TimelineLod, VisibleRangeSearchFindsOnlyWhatIsInView)
{
    // 1000 kernels of 100 ns every 200 ns: kernel i covers [200 i, 200 i + 100).
    auto session = testsupport::makeSession(1000, 100, 100);
    const model::Track &track = deviceTrack(*session->traces[0]);
    const auto [first, last] = track.visibleRange(0, 10'050, 10'450);
    EXPECT_EQ(first, 50u); // [10000, 10100) intersects
    EXPECT_EQ(last, 53u); // 52 starts at 10400 < 10450; 53 starts at 10600
    std::uint32_t e = 0;
    ASSERT_TRUE(eventAtTime(track, 0, 10'099, 0, e));
    EXPECT_EQ(e, 50u);
    EXPECT_FALSE(eventAtTime(track, 0, 10'150, 10, e)); // in a gap, 50 ns from both
    ASSERT_TRUE(eventAtTime(track, 0, 10'150, 60, e));
    EXPECT_TRUE(e == 50u || e == 51u);
}

TEST(TimelineLod, WideEventsAreDrawnOneByOneWhereTheyAre)
{
    auto session = testsupport::makeSession(1000, 100, 100);
    const model::Track &track = deviceTrack(*session->traces[0]);
    // 1 ns per pixel over [10000, 11000): kernels 50..54, each 100 px wide at x = 200 k.
    TimeAxis axis(10'000, 1.0, 1000);
    std::vector<RowRun> runs;
    collectRowRuns(track, 0, RowSummary {}, 0, axis, runs);
    ASSERT_EQ(runs.size(), 5u);
    for (std::size_t k = 0; k < runs.size(); ++k) {
        EXPECT_TRUE(runs[k].hasEvent);
        EXPECT_FALSE(runs[k].merged);
        EXPECT_EQ(runs[k].event, 50 + k);
        EXPECT_DOUBLE_EQ(runs[k].x0, 200.0 * static_cast<double>(k));
        EXPECT_DOUBLE_EQ(runs[k].x1, 200.0 * static_cast<double>(k) + 100.0);
    }
}

TEST(TimelineLod, SubPixelEventsMergeIntoRuns)
{
    auto session = testsupport::makeSession(100'000, 10, 10); // 20 ns period, 2 ms in all
    const model::Track &track = deviceTrack(*session->traces[0]);
    TimeAxis axis(0, 1000.0, 2000); // 1 µs per pixel: 50 events per pixel
    std::vector<RowRun> runs;
    collectRowRuns(track, 0, RowSummary {}, 0, axis, runs);
    expectOrderedAndBounded(runs, 2000);
    ASSERT_FALSE(runs.empty());
    // The row is busy everywhere: one run across it.
    EXPECT_EQ(runs.size(), 1u);
    EXPECT_TRUE(runs[0].merged);
    EXPECT_DOUBLE_EQ(runs[0].x0, 0.0);
    EXPECT_GE(runs[0].x1, 2000.0);
}

/// A merged run of sub-pixel events takes the category its members cover most of: four
/// 100 ns kernels and one 250 ns copy, over and over, read as compute (the widest member,
/// the copy, coloured the ResNet sample's whole GPU stream as memcpy).
TEST(TimelineLod, MergedRunsTakeTheCategoryCoveringMost)
{
    model::TraceBuilder b;
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.threadId = "7";
    const model::TrackId d = b.addTrack(dev);
    const model::StringId kernel = b.intern("kernel");
    const model::StringId copy = b.intern("Memcpy HtoD");
    std::int64_t t = 0;
    for (int group = 0; group < 200; ++group) {
        for (int k = 0; k < 5; ++k) {
            const std::int64_t ns = k < 4 ? 100 : 250;
            b.track(d).add(t, ns, k < 4 ? kernel : copy,
                k < 4 ? model::Category::Compute : model::Category::Memcpy);
            t += ns + 10;
        }
    }
    const model::Trace trace = std::move(b.finish().trace);
    const model::Track &track = trace.tracks[0];
    TimeAxis axis(0, 10'000.0, 100); // 10 us per pixel: the whole row in 14 pixels
    std::vector<RowRun> runs;
    collectRowRuns(track, 0, RowSummary {}, 0, axis, runs);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_TRUE(runs[0].merged);
    EXPECT_EQ(runs[0].categoryCode, static_cast<std::uint8_t>(model::Category::Compute) + 1);
}

TEST(TimelineLod, RunsStopAtGapsOfAPixelOrMore)
{
    // 10 ns kernels every 5 µs, 1 µs per pixel: each kernel is a tenth of a pixel with 5 px gaps.
    auto session = testsupport::makeSession(100, 10, 4'990);
    const model::Track &track = deviceTrack(*session->traces[0]);
    TimeAxis axis(0, 1000.0, 500);
    std::vector<RowRun> runs;
    collectRowRuns(track, 0, RowSummary {}, 0, axis, runs);
    ASSERT_EQ(runs.size(), 100u);
    for (std::size_t k = 0; k < runs.size(); ++k) {
        EXPECT_DOUBLE_EQ(runs[k].x0, 5.0 * static_cast<double>(k));
        EXPECT_DOUBLE_EQ(runs[k].x1, 5.0 * static_cast<double>(k) + 1.0);
        EXPECT_TRUE(runs[k].hasEvent); // a lone sub-pixel event keeps its identity
        EXPECT_EQ(runs[k].event, k);
    }
}

TEST(TimelineLod, SummaryPyramidMatchesTheEvents)
{
    // 8192 kernels of 100 ns every 300 ns; alternate Compute / Communication.
    auto session = testsupport::makeSession(8192, 100, 200);
    const model::Track &track = deviceTrack(*session->traces[0]);
    const RowSummary s = RowSummary::build(track, 0);
    ASSERT_FALSE(s.isEmpty());
    EXPECT_EQ(s.originNs(), 0);
    // n / 4 = 2048 buckets wanted over a span of 8191 * 300 + 100 ns.
    const std::int64_t span = 8191 * 300 + 100;
    EXPECT_EQ(s.bucket0Ns(), (span + 2047) / 2048);
    EXPECT_EQ(s.bucketCount(s.levelCount() - 1), 1u);
    // Coverage 1/3 everywhere at a coarse level (100 ns busy of every 300 ns).
    const int level = s.levelFor(static_cast<double>(s.bucket0Ns()) * 64);
    ASSERT_GE(level, 0);
    EXPECT_EQ(s.bucketNs(level), s.bucket0Ns() * 64);
    for (std::size_t b = 0; b + 1 < s.bucketCount(level); ++b)
        EXPECT_NEAR(s.coverage(level, b), 85, 3) << b;
    // A pixel narrower than a level-0 bucket is drawn from events.
    EXPECT_EQ(s.levelFor(static_cast<double>(s.bucket0Ns()) / 2), -1);
    // Rows with few events are not summarised.
    auto small = testsupport::makeSession(100, 100, 200);
    EXPECT_TRUE(RowSummary::build(deviceTrack(*small->traces[0]), 0).isEmpty());
}

/// A zoomed-out bucket takes the category that covers most of it, not that of its single
/// widest event: four 100 ns kernels and one 250 ns copy, over and over, read as compute (as
/// the ResNet sample's GPU stream, which read as all memcpy at fit-all).
TEST(TimelineLod, SummaryBucketsTakeTheCategoryCoveringMostOfThem)
{
    constexpr std::uint8_t Compute = 1;
    constexpr std::uint8_t Copy = 2;
    std::vector<std::int64_t> starts;
    std::vector<std::int64_t> ends;
    std::vector<std::uint8_t> codes;
    std::int64_t t = 0;
    for (int group = 0; group < 1000; ++group) {
        for (int k = 0; k < 5; ++k) {
            const std::int64_t d = k < 4 ? 100 : 250;
            starts.push_back(t);
            ends.push_back(t + d);
            codes.push_back(k < 4 ? Compute : Copy);
            t += d + 10;
        }
    }
    const RowSummary s = RowSummary::build(starts.size(), starts.data(), ends.data(), codes.data());
    ASSERT_FALSE(s.isEmpty());
    for (int level = 4; level < s.levelCount(); ++level) {
        for (std::size_t b = 0; b + 1 < s.bucketCount(level); ++b)
            EXPECT_EQ(s.categoryCode(level, b), Compute) << "level " << level << " bucket " << b;
    }
}

TEST(TimelineLod, PaintedRunsAreBoundedByTheWidthForAMillionEvents)
{
    // 1 M kernels of random-ish widths: 50..500 ns, gaps 0..300 ns.
    model::TraceBuilder b;
    const model::TrackId t = testsupport::addDeviceStream(b, "1", "7");
    const model::StringId name = b.intern("k");
    std::uint64_t x = 12345;
    std::int64_t at = 0;
    for (int i = 0; i < 1'000'000; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        const auto w = static_cast<std::int64_t>(50 + (x >> 33) % 450);
        const auto g = static_cast<std::int64_t>((x >> 13) % 300);
        b.track(t).add(at, w, name, (i % 3) ? model::Category::Compute : model::Category::Memcpy);
        at += w + g;
    }
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(b.finish().trace));
    auto m = TimelineModel::build(session);
    const Lane *lane = nullptr;
    for (const Lane &l : m->lanes())
        if (l.kind == LaneKind::Track)
            lane = &l;
    ASSERT_NE(lane, nullptr);
    ASSERT_FALSE(lane->summaries[0].isEmpty());
    const model::Track &track =
        session->traces[0]->tracks[static_cast<std::size_t>(lane->trackIndex)];
    const auto [lo, hi] = track.extent();
    const int width = 1920;
    // Whole trace, a 1/1000 window, and a window of about 1 event per pixel.
    for (double divisor : {1.0, 37.0, 1000.0, 2500.0, 1e5}) {
        TimeAxis axis(lo, static_cast<double>(hi - lo) / divisor / width, width);
        axis.setStart(lo + (hi - lo) / 3);
        std::vector<RowRun> runs;
        collectRowRuns(track, 0, lane->summaries[0], 0, axis, runs);
        expectOrderedAndBounded(runs, width);
        EXPECT_LE(runs.size(), static_cast<std::size_t>(2 * width)) << divisor;
        EXPECT_GT(runs.size(), 0u) << divisor;
    }
    // Through the geometry builder as well: no row paints more than 2 pieces per pixel.
    ViewState view;
    view.axis = TimeAxis(lo, static_cast<double>(hi - lo) / (width - 230), width - 230);
    const Geometry g = buildGeometry(*m, view, QSize(width, 1080));
    EXPECT_GE(g.rowsDrawn, 1u);
    EXPECT_LE(g.maxPiecesPerRow, static_cast<std::size_t>(2 * (width - 230)));
    EXPECT_LE(g.rectCount(), 2 * static_cast<std::size_t>(width) * g.rowsDrawn + 200);
}

TEST(TimelineLod, SummaryAndEventPathsAgreeOnBusyPixels)
{
    // At the zoom where the summary takes over, the same pixels are painted as from events.
    auto session = testsupport::makeSession(20'000, 100, 900); // 1 µs period
    const model::Track &track = deviceTrack(*session->traces[0]);
    const RowSummary s = RowSummary::build(track, 0);
    ASSERT_FALSE(s.isEmpty());
    const double nsPerPx = static_cast<double>(s.bucket0Ns()) * 4;
    TimeAxis axis(0, nsPerPx, 1000);
    std::vector<RowRun> fromSummary;
    collectRowRuns(track, 0, s, 0, axis, fromSummary);
    std::vector<RowRun> fromEvents;
    collectRowRuns(track, 0, RowSummary {}, 0, axis, fromEvents);
    auto busy = [](const std::vector<RowRun> &runs) {
        std::vector<int> px(1000, 0);
        for (const RowRun &r : runs)
            for (int p = std::max(0, static_cast<int>(r.x0));
                 p < std::min(1000, static_cast<int>(std::ceil(r.x1))); ++p)
                px[static_cast<std::size_t>(p)] = 1;
        return px;
    };
    const auto a = busy(fromSummary);
    const auto b = busy(fromEvents);
    int differ = 0;
    for (std::size_t p = 0; p < a.size(); ++p)
        differ += a[p] != b[p];
    EXPECT_LE(differ, 2); // at most the edge pixels of the trace
}

TEST(TimelineLod, ZoomedOutRunsKeepTheIdentityOfTheOneWideEvent)
{
    // 8192 compute kernels of 100 ns every 300 ns, and one communication kernel of 1 ms in
    // the middle of them: zoomed out, the wide one is still its own event, found through the
    // row's longest-event bound (RowSummary::longestNs) that lets other rows skip the search.
    model::TraceBuilder b;
    model::TrackInfo info;
    info.kind = model::TrackKind::DeviceStream;
    const model::TrackId t = b.addTrack(info);
    const model::StringId name = b.intern("k");
    std::int64_t at = 0;
    for (int i = 0; i < 8192; ++i) {
        const std::int64_t w = i == 4096 ? 1'000'000 : 100;
        b.track(t).add(
            at, w, name, i == 4096 ? model::Category::Communication : model::Category::Compute);
        at += w + 200;
    }
    const model::Trace trace = b.finish().trace;
    const model::Track &track = trace.tracks[0];
    const RowSummary s = RowSummary::build(track, 0);
    ASSERT_FALSE(s.isEmpty());
    EXPECT_EQ(s.longestNs(), 1'000'000);
    const auto [lo, hi] = track.extent();
    TimeAxis axis(lo, static_cast<double>(hi - lo) / 1000, 1000);
    ASSERT_GE(s.levelFor(axis.nsPerPixel()), 0); // the summary path
    std::vector<RowRun> runs;
    collectRowRuns(track, 0, s, 0, axis, runs);
    expectOrderedAndBounded(runs, 1000);
    int identified = 0;
    for (const RowRun &r : runs) {
        if (!r.hasEvent)
            continue;
        ++identified;
        EXPECT_EQ(r.event, 4096u);
        EXPECT_EQ(track.duration(r.event), 1'000'000);
    }
    EXPECT_EQ(identified, 1);
}
