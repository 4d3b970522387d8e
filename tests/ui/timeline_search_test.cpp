// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timeline_testsupport.h"
#include "ui/palette.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/rangestatistics.h"
#include "ui/timeline/timelineview.h"

#include <gtest/gtest.h>

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
    EXPECT_EQ(view.setSearchText(QString()), 0);
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
