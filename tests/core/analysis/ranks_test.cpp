// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/ranks.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <limits>

using namespace stepscope;

namespace {

/// A rank whose clock runs `skewNs` ahead: the same two all-reduces end `skewNs` later on it.
std::shared_ptr<model::Trace> rank(std::int32_t r, std::int64_t skewNs, std::int64_t stepNs)
{
    model::TraceBuilder b;
    model::TrackInfo s;
    s.kind = model::TrackKind::DeviceStream;
    const auto stream = b.addTrack(s);
    // Start times differ per rank (ranks enter at different moments), ends agree.
    b.track(stream).add(1000 + skewNs - r * 100, 500 + r * 100, b.intern("ncclKernel_AllReduce"),
        model::Category::Communication);
    b.track(stream).add(5000 + skewNs - r * 50, 1000 + r * 50, b.intern("ncclKernel_AllReduce"),
        model::Category::Communication);
    b.trace().steps.push_back(model::Step {1, 0, stepNs});
    b.trace().steps.push_back(model::Step {2, stepNs, 2 * stepNs});
    b.trace().rank = r;
    return std::make_shared<model::Trace>(b.finish().trace);
}

} // namespace

TEST(Ranks, ClockOffsetFromCollectiveEndsAndSlowestRank)
{
    model::Session s;
    s.traces = {rank(0, 0, 100'000'000), rank(1, 700, 100'000'000), rank(2, -300, 130'000'000)};
    const auto offsets = analysis::estimateClockOffsets(s);
    ASSERT_EQ(offsets.size(), 3u);
    EXPECT_EQ(offsets[0].offsetNs, 0);
    EXPECT_EQ(offsets[1].offsetNs, -700);
    EXPECT_EQ(offsets[1].matched, 2);
    EXPECT_EQ(offsets[2].offsetNs, 300);
    EXPECT_TRUE(offsets[2].known);

    std::vector<analysis::StepBreakdown> all;
    for (const auto &t : s.traces) {
        auto b = analysis::computeBreakdowns(*t);
        all.insert(all.end(), b.begin(), b.end());
    }
    const auto table = analysis::computeRankTable(s, all);
    ASSERT_EQ(table.ranks.size(), 3u);
    EXPECT_EQ(table.ranks[1].clockOffsetNs, -700);
    EXPECT_EQ(table.ranks[2].stepMeanNs, 130'000'000);
    ASSERT_TRUE(table.slowestRank.has_value());
    EXPECT_EQ(*table.slowestRank, 2);
    EXPECT_EQ(table.slowestMarginNs, 30'000'000);
    EXPECT_DOUBLE_EQ(table.slowestMarginFraction, 0.3);
}

TEST(Ranks, NoCommonCollectiveLeavesTheOffsetUnknown)
{
    model::Session s;
    model::TraceBuilder b;
    b.trace().rank = 1;
    s.traces = {rank(0, 0, 10), std::make_shared<model::Trace>(b.finish().trace)};
    const auto offsets = analysis::estimateClockOffsets(s);
    EXPECT_FALSE(offsets[1].known);
    EXPECT_EQ(offsets[1].matched, 0);
}

TEST(Ranks, ScatteredMatchesLeaveTheOffsetUnknown)
{
    // Two sampled ranks of a 128-rank job whose SendRecv kernels match by name only: the end
    // differences scatter from -134 ms to +68 ms (hta-sampled-2of128-ranks), so no offset.
    model::TraceBuilder ba, bb;
    model::TrackInfo s;
    s.kind = model::TrackKind::DeviceStream;
    const auto ta = ba.addTrack(s);
    const auto tb = bb.addTrack(s);
    const std::int64_t ends[3][2] = {
        {10'000'000, 40'000'000}, {20'000'000, 21'000'000}, {30'000'000, 5'000'000}};
    for (const auto &e : ends) {
        ba.track(ta).add(
            e[0] - 100, 100, ba.intern("ncclKernel_SendRecv"), model::Category::Communication);
        bb.track(tb).add(
            e[1] - 100, 100, bb.intern("ncclKernel_SendRecv"), model::Category::Communication);
    }
    bb.trace().rank = 1;
    model::Session session;
    session.traces = {std::make_shared<model::Trace>(ba.finish().trace),
        std::make_shared<model::Trace>(bb.finish().trace)};
    const auto offsets = analysis::estimateClockOffsets(session);
    ASSERT_EQ(offsets.size(), 2u);
    EXPECT_EQ(offsets[1].matched, 3);
    EXPECT_FALSE(offsets[1].known);
    EXPECT_GT(offsets[1].spreadNs, 1'000'000);
    EXPECT_EQ(offsets[1].offsetNs, 0);
}

// Two steps of 6e18 ns used to overflow the rank's step sum (UBSan: signed overflow); the
// sum is held at the limit, so the mean is at most INT64_MAX / 2.
TEST(Ranks, StepSumsBeyondInt64AreHeldAtTheLimit)
{
    model::Session s;
    std::vector<analysis::StepBreakdown> all(2);
    for (std::size_t i = 0; i < all.size(); ++i) {
        all[i].rank = 0;
        all[i].step = static_cast<std::int64_t>(i) + 1;
        all[i].endNs = 6'000'000'000'000'000'000;
        all[i].computeNs = 6'000'000'000'000'000'000;
    }
    const auto table = analysis::computeRankTable(s, all);
    ASSERT_EQ(table.ranks.size(), 1u);
    EXPECT_EQ(table.ranks[0].stepMeanNs, std::numeric_limits<std::int64_t>::max() / 2);
}
