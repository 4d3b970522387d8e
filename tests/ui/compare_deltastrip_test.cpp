// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "compare_testsupport.h"
#include "ui/compare/comparestrip.h"
#include "ui/compare/deltastrip.h"

#include <gtest/gtest.h>

#include <QFontMetricsF>

#include <algorithm>

using namespace stepscope;
using analysis::SegmentKind;
using ui::compare::DeltaStrip;
using ui::timeline::StepLaneSegment;

namespace {

const DeltaStrip *findStrip(const std::vector<DeltaStrip> &strips, std::optional<SegmentKind> kind)
{
    for (const auto &s : strips)
        if (s.kind == kind)
            return &s;
    return nullptr;
}

} // namespace

TEST(CompareDeltaStrip, SignsFollowWhichSideSpendsTheTime)
{
    // before: step [1000, 1100): compute 0-60, data loading 60-100 (relative)
    // after:  step [5000, 5070): compute 0-50, data loading 50-60, compute 60-70
    const std::vector<StepLaneSegment> before = {
        {1000, 1060, SegmentKind::Compute, 1}, {1060, 1100, SegmentKind::DataLoading, 1},
        {1100, 1200, SegmentKind::Compute, 2}, // next step: outside the window
    };
    const std::vector<StepLaneSegment> after = {
        {4990, 5000, SegmentKind::DataLoading, 0}, // previous step: outside
        {5000, 5050, SegmentKind::Compute, 1},
        {5050, 5060, SegmentKind::DataLoading, 1},
        {5060, 5070, SegmentKind::Compute, 1},
    };
    const auto strips = ui::compare::computeDeltaStrips(before, 1000, 1100, after, 5000, 5070);
    ASSERT_EQ(strips.size(), 3u); // step, compute, data loading

    const DeltaStrip *step = findStrip(strips, std::nullopt);
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->beforeNs, 100);
    EXPECT_EQ(step->afterNs, 70);
    ASSERT_EQ(step->pieces.size(), 1u);
    EXPECT_EQ(step->pieces[0].startNs, 70);
    EXPECT_EQ(step->pieces[0].endNs, 100);
    EXPECT_EQ(step->pieces[0].sign, -1); // after is shorter: green

    const DeltaStrip *compute = findStrip(strips, SegmentKind::Compute);
    ASSERT_NE(compute, nullptr);
    EXPECT_EQ(compute->beforeNs, 60);
    EXPECT_EQ(compute->afterNs, 60);
    // [50, 60): before computes, after loads data (−); [60, 70): after computes, before
    // loads data (+). Same total, so the strip's delta is 0 while its pieces show the shift.
    ASSERT_EQ(compute->pieces.size(), 2u);
    EXPECT_EQ(compute->pieces[0].startNs, 50);
    EXPECT_EQ(compute->pieces[0].endNs, 60);
    EXPECT_EQ(compute->pieces[0].sign, -1);
    EXPECT_EQ(compute->pieces[1].startNs, 60);
    EXPECT_EQ(compute->pieces[1].endNs, 70);
    EXPECT_EQ(compute->pieces[1].sign, 1);

    const DeltaStrip *data = findStrip(strips, SegmentKind::DataLoading);
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(data->beforeNs, 40);
    EXPECT_EQ(data->afterNs, 10);
    // [50, 60): after loads, before does not (+); [60, 100): before loads, after does not (−).
    ASSERT_EQ(data->pieces.size(), 2u);
    EXPECT_EQ(data->pieces[0].sign, 1);
    EXPECT_EQ(data->pieces[0].startNs, 50);
    EXPECT_EQ(data->pieces[0].endNs, 60);
    EXPECT_EQ(data->pieces[1].sign, -1);
    EXPECT_EQ(data->pieces[1].startNs, 60);
    EXPECT_EQ(data->pieces[1].endNs, 100);
    for (const auto &s : strips)
        EXPECT_EQ(s.moreNs() - s.lessNs(), s.deltaNs()) << s.label.toStdString();
}

TEST(CompareDeltaStrip, DemoPairStripsMatchTheBreakdowns)
{
    const auto data = testsupport::demoPair();
    ASSERT_TRUE(data && data->before.profile.timeline && data->after.profile.timeline);
    ASSERT_EQ(data->before.breakdowns.size(), 12u); // ProfilerStep#5..10 and #16..21
    const auto pairing = data->pairing(std::nullopt);
    const auto aligned = ui::compare::alignedPair(*data, pairing, {});
    ASSERT_TRUE(aligned.valid);
    EXPECT_EQ(aligned.pair.beforeStep, 6); // the second pair: the first step carries warm-up
    EXPECT_EQ(aligned.pair.afterStep, 6);
    // ProfilerStep#6: 173 992 us with 0 workers, 123 884 us with 4 (trace "dur" fields).
    EXPECT_EQ(aligned.beforeEndNs - aligned.beforeStartNs, 173992000);
    EXPECT_EQ(aligned.afterEndNs - aligned.afterStartNs, 123884000);

    const auto strips = ui::compare::computeDeltaStrips(
        data->before.profile.timeline->stepSegments(0), aligned.beforeStartNs, aligned.beforeEndNs,
        data->after.profile.timeline->stepSegments(0), aligned.afterStartNs, aligned.afterEndNs);
    const auto &b = data->before.breakdowns[aligned.pair.beforeIndex];
    const auto &a = data->after.breakdowns[aligned.pair.afterIndex];
    const DeltaStrip *step = findStrip(strips, std::nullopt);
    ASSERT_NE(step, nullptr);
    EXPECT_EQ(step->deltaNs(), 123884000 - 173992000);
    const DeltaStrip *loading = findStrip(strips, SegmentKind::DataLoading);
    ASSERT_NE(loading, nullptr);
    EXPECT_EQ(loading->beforeNs, b.dataLoadingNs);
    EXPECT_EQ(loading->afterNs, a.dataLoadingNs);
    EXPECT_LT(loading->deltaNs(), 0); // four workers: the wait for data collapses
    for (const auto &s : strips)
        EXPECT_EQ(s.moreNs() - s.lessNs(), s.deltaNs()) << s.label.toStdString();
}

TEST(CompareDeltaStrip, StripColoursFollowTheSign)
{
    const std::vector<StepLaneSegment> before = {{0, 100, SegmentKind::DataLoading, 1}};
    const std::vector<StepLaneSegment> after = {
        {0, 40, SegmentKind::DataLoading, 1}, {40, 150, SegmentKind::Compute, 1}};
    ui::compare::StripPicture p;
    p.strips = ui::compare::computeDeltaStrips(before, 0, 100, after, 0, 150);
    p.axis = ui::timeline::TimeAxis(0, 0.5, 400); // 150 ns = 300 px
    const ui::compare::StripMetrics m;
    const auto g = ui::compare::buildStripGeometry(p, QSize(m.headerWidth + 400, 200), m);
    const QColor red = ui::worseColor();
    const QColor green = ui::betterColor();
    // Expected red: step [100,150) and compute [40,150); green: data loading [40,100).
    double redPx = 0;
    double greenPx = 0;
    for (const auto &batch : g.content) {
        for (const QRectF &r : batch.rects) {
            if (batch.color == red)
                redPx += r.width();
            if (batch.color == green) {
                greenPx += r.width();
                // Green lies in the data-loading strip's time [40, 100) only.
                EXPECT_GE(r.left(), m.headerWidth + 40 / 0.5 - 0.5);
                EXPECT_LE(r.right(), m.headerWidth + 100 / 0.5 + 0.5);
            }
        }
    }
    EXPECT_NEAR(redPx, (50 + 110) / 0.5, 1.0);
    EXPECT_NEAR(greenPx, 60 / 0.5, 1.0);
}

TEST(CompareDeltaStrip, TheDeltaStaysInViewBesideALongName)
{
    // "Δ Communication (overlapped)  +9.9 ms" is wider than the header: the name was cut with
    // the figure after it. The figure now has its own right-aligned text; the name is elided.
    const std::vector<StepLaneSegment> before = {{0, 100, SegmentKind::CommOverlapped, 1}};
    const std::vector<StepLaneSegment> after = {{0, 150, SegmentKind::CommOverlapped, 1}};
    ui::compare::StripPicture p;
    p.strips = ui::compare::computeDeltaStrips(before, 0, 100, after, 0, 150);
    p.axis = ui::timeline::TimeAxis(0, 0.5, 400);
    ui::compare::StripMetrics m;
    m.headerWidth = 150;
    const QFont font;
    const QFontMetricsF fm(font);
    const auto g = ui::compare::buildStripGeometry(p, QSize(m.headerWidth + 400, 200), m, font);
    bool sawDelta = false;
    bool sawName = false;
    for (const auto &t : g.texts) {
        if (t.text == QStringLiteral("+50 ns")) {
            sawDelta = true;
            EXPECT_TRUE(t.flags & Qt::AlignRight);
        }
        if (t.text.startsWith(QStringLiteral("Δ Comm"))) {
            sawName = true;
            EXPECT_LE(fm.horizontalAdvance(t.text) + fm.horizontalAdvance(QStringLiteral("+50 ns")),
                t.rect.width())
                << t.text.toStdString();
        }
    }
    EXPECT_TRUE(sawDelta);
    EXPECT_TRUE(sawName);
}

/// The report's aligned-timelines picture cut "Δ Compute (not overla…" and "Δ Communication
/// (exp…" in its 230 px header even at 2000 px wide; the picture now widens its header to
/// stripHeaderWidth, at which every name and label of the strip is whole; a ruler label the
/// right edge would cut is left out.
TEST(CompareDeltaStrip, AtItsHeaderWidthNoNameIsCut)
{
    const std::vector<StepLaneSegment> before = {{0, 100, SegmentKind::Compute, 1},
        {100, 200, SegmentKind::CommExposed, 1}, {200, 300, SegmentKind::CommOverlapped, 1}};
    const std::vector<StepLaneSegment> after = {{0, 150, SegmentKind::Compute, 1},
        {150, 220, SegmentKind::CommExposed, 1}, {220, 400, SegmentKind::CommOverlapped, 1}};
    ui::compare::StripPicture p;
    p.strips = ui::compare::computeDeltaStrips(before, 0, 300, after, 0, 400);
    p.axis = ui::timeline::TimeAxis(0, 1, 400);
    p.overlay = true;
    p.beforeLabel = QStringLiteral("before · step 123456");
    const QFont font;
    ui::compare::StripMetrics m;
    m.headerWidth = ui::compare::stripHeaderWidth(p, font);
    EXPECT_GT(m.headerWidth, 230); // wider than the timelines' default header
    const auto g = ui::compare::buildStripGeometry(p, QSize(m.headerWidth + 400, 300), m, font);
    int names = 0;
    const QFontMetricsF fm(font);
    for (const auto &t : g.texts) {
        EXPECT_FALSE(t.text.contains(QChar(0x2026))) << t.text.toStdString();
        // Nor is any text cut at the right edge (the ruler's last label was: "140 r").
        EXPECT_LE(t.rect.left() + fm.horizontalAdvance(t.text), m.headerWidth + 400)
            << t.text.toStdString();
        names += t.text.startsWith(QStringLiteral("Δ ")) ? 1 : 0;
    }
    EXPECT_EQ(names, static_cast<int>(p.strips.size()));
    // A few pixels narrower, the longest name is cut.
    m.headerWidth -= 4;
    const auto narrower =
        ui::compare::buildStripGeometry(p, QSize(m.headerWidth + 400, 300), m, font);
    EXPECT_TRUE(std::any_of(narrower.texts.begin(), narrower.texts.end(),
        [](const auto &t) { return t.text.contains(QChar(0x2026)); }));
}
