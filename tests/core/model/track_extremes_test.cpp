// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// TrackBuilder::add with the times a damaged file can hold: an end before its start and an
// end past INT64_MAX. Before the clamp the first failed the invariants (negative duration;
// an assert in a debug build) and the second overflowed start + duration (UBSan stopped the
// asan-core tests).
#include "model/track.h"
#include "util/saturate.h"

#include <gtest/gtest.h>

using namespace stepscope;
using model::Category;
using model::StringId;

TEST(TrackExtremes, AnEndBeforeItsStartBecomesAZeroLengthEvent)
{
    model::TrackBuilder b;
    const auto i = b.add(100, -50, StringId(1), Category::Compute);
    auto r = b.finish();
    EXPECT_EQ(r.track.checkInvariants(), "");
    EXPECT_EQ(r.track.start(r.finalIndex[i]), 100);
    EXPECT_EQ(r.track.duration(r.finalIndex[i]), 0);
}

TEST(TrackExtremes, AnEndPastInt64IsHeldAtTheLimit)
{
    model::TrackBuilder b;
    const std::int64_t start = util::Int64Max - 10;
    const auto huge = b.add(start, util::Int64Max, StringId(1), Category::Compute);
    const auto child = b.add(start + 2, 5, StringId(2), Category::Compute);
    const auto early = b.add(util::Int64Min, util::Int64Max, StringId(3), Category::Compute);
    auto r = b.finish();
    const model::Track &t = r.track;
    EXPECT_EQ(t.checkInvariants(), "");
    EXPECT_EQ(t.duration(r.finalIndex[huge]), 10);
    EXPECT_EQ(t.end(r.finalIndex[huge]), util::Int64Max);
    EXPECT_EQ(t.row(r.finalIndex[child]), t.row(r.finalIndex[huge]) + 1); // still nests
    EXPECT_EQ(t.end(r.finalIndex[early]), -1); // INT64_MIN + INT64_MAX, no clamp needed
    EXPECT_EQ(t.extent(), std::make_pair(util::Int64Min, util::Int64Max));
}
