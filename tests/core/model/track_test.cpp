// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "model/track.h"

#include <gtest/gtest.h>

#include <random>

using namespace stepscope::model;

namespace {
StringId name(std::uint32_t i)
{
    return StringId(i);
}
} // namespace

TEST(Track, SortsByStartLongerFirst)
{
    TrackBuilder b;
    const auto late = b.add(50, 10, name(1), Category::Compute);
    const auto shortFirst = b.add(0, 10, name(2), Category::Compute);
    const auto longFirst = b.add(0, 100, name(3), Category::Compute);
    auto r = b.finish();
    const Track &t = r.track;
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t.checkInvariants(), "");
    // The long event at 0 is the parent (row 0); the short one at 0 and the one at 50 nest.
    EXPECT_EQ(t.row(r.finalIndex[longFirst]), 0u);
    EXPECT_EQ(t.row(r.finalIndex[shortFirst]), 1u);
    EXPECT_EQ(t.row(r.finalIndex[late]), 1u);
    EXPECT_LT(r.finalIndex[shortFirst], r.finalIndex[late]);
    EXPECT_EQ(t.name(r.finalIndex[late]), name(1));
    EXPECT_EQ(r.partialOverlaps, 0u);
}

TEST(Track, TouchingEventsAreSiblings)
{
    TrackBuilder b;
    b.add(0, 10, name(1), Category::HostOp);
    b.add(10, 10, name(2), Category::HostOp);
    b.add(10, 0, name(3), Category::HostOp); // zero-length at the boundary
    auto r = b.finish();
    EXPECT_EQ(r.track.checkInvariants(), "");
    EXPECT_EQ(r.track.rowCount(), 2u);
    EXPECT_EQ(r.track.row(r.finalIndex[0]), 0u);
    EXPECT_EQ(r.track.row(r.finalIndex[1]), 0u);
    EXPECT_EQ(r.track.row(r.finalIndex[2]), 1u); // nested in [10, 20)
}

TEST(Track, PartialOverlapIsKeptOnAnotherRow)
{
    TrackBuilder b;
    b.add(0, 100, name(1), Category::Compute);
    b.add(50, 100, name(2), Category::Compute); // starts inside, ends outside: no nesting
    b.add(120, 10, name(3), Category::Compute); // after the first ended: top level again
    auto r = b.finish();
    const Track &t = r.track;
    EXPECT_EQ(t.size(), 3u); // never dropped
    EXPECT_EQ(r.partialOverlaps, 1u);
    EXPECT_EQ(t.checkInvariants(), "");
    EXPECT_EQ(t.row(r.finalIndex[0]), 0u);
    EXPECT_EQ(t.row(r.finalIndex[1]), 1u);
    // [120, 130) sits inside the second event, so it is nested below it.
    EXPECT_EQ(t.row(r.finalIndex[2]), 2u);
}

TEST(Track, IdenticalEventsStayAll)
{
    TrackBuilder b;
    for (int i = 0; i < 5; ++i)
        b.add(100, 50, name(1), Category::Compute);
    auto r = b.finish();
    EXPECT_EQ(r.track.size(), 5u);
    EXPECT_EQ(r.track.rowCount(), 5u);
    EXPECT_EQ(r.track.checkInvariants(), "");
}

TEST(Track, RandomEventsKeepInvariants)
{
    std::mt19937_64 rng(42);
    TrackBuilder b;
    for (int i = 0; i < 20000; ++i) {
        const auto start = static_cast<std::int64_t>(rng() % 1000000);
        const auto dur = static_cast<std::int64_t>(rng() % 5000);
        b.add(start, dur, name(static_cast<std::uint32_t>(i)), Category::Other);
    }
    auto r = b.finish();
    EXPECT_EQ(r.track.size(), 20000u);
    EXPECT_EQ(r.track.checkInvariants(), "");
    // The permutation is a bijection that preserves each event.
    std::vector<bool> seen(20000, false);
    for (std::uint32_t k = 0; k < 20000; ++k) {
        ASSERT_FALSE(seen[r.finalIndex[k]]);
        seen[r.finalIndex[k]] = true;
        EXPECT_EQ(r.track.name(r.finalIndex[k]), name(k));
    }
}

TEST(Track, VisibleRangeUsesBinarySearchBounds)
{
    TrackBuilder b;
    for (int i = 0; i < 100; ++i)
        b.add(i * 10, 5, name(1), Category::Compute); // [0,5) [10,15) ...
    auto r = b.finish();
    const Track &t = r.track;
    auto [first, last] = t.visibleRange(0, 12, 33);
    EXPECT_EQ(first, 1u); // [10,15) intersects
    EXPECT_EQ(last, 4u); // [30,35) starts before 33
    std::tie(first, last) = t.visibleRange(0, 15, 20);
    EXPECT_EQ(first, last); // the gap between two events
    std::tie(first, last) = t.visibleRange(0, -100, 10000);
    EXPECT_EQ(first, 0u);
    EXPECT_EQ(last, 100u);
}

TEST(Track, UnfinishedFlagAndCategory)
{
    TrackBuilder b;
    b.add(0, 100, name(1), Category::DataLoading, ArgsId(7), true);
    auto r = b.finish();
    EXPECT_TRUE(r.track.isUnfinished(0));
    EXPECT_EQ(r.track.category(0), Category::DataLoading);
    EXPECT_EQ(r.track.args(0), ArgsId(7));
    EXPECT_EQ(r.track.extent(), std::make_pair(std::int64_t {0}, std::int64_t {100}));
}
