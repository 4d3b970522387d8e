// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "model/track.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <stdexcept>

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

namespace {
/// Every event of two finished tracks, field by field.
void expectSameTrack(const TrackBuilder::Result &a, const TrackBuilder::Result &b)
{
    ASSERT_EQ(a.track.size(), b.track.size());
    EXPECT_EQ(a.finalIndex, b.finalIndex);
    EXPECT_EQ(a.partialOverlaps, b.partialOverlaps);
    EXPECT_EQ(b.track.checkInvariants(), "");
    for (std::uint32_t i = 0; i < a.track.size(); ++i) {
        ASSERT_EQ(a.track.start(i), b.track.start(i)) << i;
        ASSERT_EQ(a.track.duration(i), b.track.duration(i)) << i;
        ASSERT_EQ(a.track.name(i), b.track.name(i)) << i;
        ASSERT_EQ(a.track.category(i), b.track.category(i)) << i;
        ASSERT_EQ(a.track.isUnfinished(i), b.track.isUnfinished(i)) << i;
        ASSERT_EQ(a.track.args(i), b.track.args(i)) << i;
        ASSERT_EQ(a.track.row(i), b.track.row(i)) << i;
    }
}
} // namespace

// adopt() takes whole columns as add() takes events: the same track, whether the builder was
// empty (the columns are moved in) or held events already (they are appended), with the same
// hold on durations that end before their start or past int64.
TEST(Track, AdoptedColumnsGiveTheTrackAddGives)
{
    std::mt19937_64 rng(7);
    const std::int64_t big = std::numeric_limits<std::int64_t>::max() - 1000;
    for (const std::size_t already : {std::size_t {0}, std::size_t {300}}) {
        TrackBuilder byAdd;
        TrackBuilder byAdopt;
        for (std::size_t i = 0; i < already; ++i) {
            const auto s = static_cast<std::int64_t>(rng() % 100000);
            byAdd.add(s, 70, name(1), Category::HostOp);
            byAdopt.add(s, 70, name(1), Category::HostOp);
        }
        std::vector<std::int64_t> start;
        std::vector<std::int64_t> duration;
        std::vector<StringId> names;
        std::vector<std::uint8_t> flags;
        std::vector<ArgsId> args;
        for (std::uint32_t i = 0; i < 5000; ++i) {
            std::int64_t s = static_cast<std::int64_t>(rng() % 100000);
            std::int64_t d = static_cast<std::int64_t>(rng() % 3000) - 100; // some negative
            if (i % 997 == 0) {
                s = big;
                d = 5000; // ends past int64: held at INT64_MAX
            }
            const auto category = static_cast<Category>(rng() % 4);
            const bool unfinished = i % 13 == 0;
            const ArgsId a = i % 3 == 0 ? ArgsId() : ArgsId(i);
            EXPECT_EQ(byAdd.add(s, d, name(i % 50), category, a, unfinished), already + i);
            start.push_back(s);
            duration.push_back(d);
            names.push_back(name(i % 50));
            flags.push_back(static_cast<std::uint8_t>(static_cast<std::uint8_t>(category)
                | (unfinished ? TrackBuilder::UnfinishedFlag : 0)));
            args.push_back(a);
        }
        EXPECT_EQ(byAdopt.adopt(std::move(start), std::move(duration), std::move(names),
                      std::move(flags), std::move(args)),
            already);
        EXPECT_EQ(start.capacity(), 0u); // the caller's columns are given up
        EXPECT_EQ(args.capacity(), 0u);
        ASSERT_EQ(byAdopt.size(), byAdd.size());
        ASSERT_NO_FATAL_FAILURE(expectSameTrack(byAdd.finish(), byAdopt.finish()));
    }
}

TEST(Track, AdoptRefusesColumnsOfDifferentSizes)
{
    TrackBuilder b;
    EXPECT_THROW(
        b.adopt({1, 2}, {1, 2}, {name(1)}, {0, 0}, {ArgsId(), ArgsId()}), std::invalid_argument);
    EXPECT_EQ(b.size(), 0u);
}
