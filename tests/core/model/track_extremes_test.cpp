// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// TrackBuilder::add with the times a damaged file can hold: an end before its start and an
// end past INT64_MAX. Before the clamp the first failed the invariants (negative duration;
// an assert in a debug build) and the second overflowed start + duration (UBSan stopped the
// asan-core tests).
#include "model/track.h"
#include "util/saturate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

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

// Durations are kept in 32 bits with the few of 2^32 - 1 ns (4.29 s) or more beside them:
// each keeps its value, whatever its row and order, and a short event costs 4 bytes.
TEST(TrackExtremes, DurationsOfFourSecondsAndMoreKeepTheirValue)
{
    const std::int64_t limit = 0xffffffffLL;
    const std::vector<std::int64_t> durations = {0, 1, limit - 1, limit, limit + 1,
        std::int64_t {1} << 40, util::Int64Max - 7, 12, limit, 3};
    model::TrackBuilder b;
    std::vector<std::uint32_t> added;
    for (std::size_t k = 0; k < durations.size(); ++k) // later starts first: order changes
        added.push_back(b.add(static_cast<std::int64_t>(durations.size() - k), durations[k],
            StringId(static_cast<std::uint32_t>(k)), Category::Compute));
    auto r = b.finish();
    const model::Track &t = r.track;
    EXPECT_EQ(t.checkInvariants(), "");
    for (std::size_t k = 0; k < durations.size(); ++k) {
        const std::uint32_t i = r.finalIndex[added[k]];
        const std::int64_t start = static_cast<std::int64_t>(durations.size() - k);
        const std::int64_t expected = std::min(durations[k], util::Int64Max - start);
        EXPECT_EQ(t.duration(i), expected) << k;
        EXPECT_EQ(t.end(i), start + expected) << k;
    }

    model::TrackBuilder shortOnes;
    for (std::uint32_t k = 0; k < 1000; ++k)
        shortOnes.add(k * 10, 5, StringId(k), Category::Compute);
    const model::Track s = shortOnes.finish().track;
    model::TrackBuilder withLong;
    for (std::uint32_t k = 0; k < 1000; ++k)
        withLong.add(k * 10, k == 500 ? limit : 5, StringId(k), Category::Compute);
    const model::Track l = withLong.finish().track;
    // 4 (start) + 4 (duration) + 2 (kind) + 4 (args) bytes per event, and 8 per kind: here
    // every event has its own name.
    EXPECT_LE(s.memoryBytes(), 1000u * 14 + 1000u * 8 + 64);
    EXPECT_EQ(l.memoryBytes(), s.memoryBytes() + 16 + 4 * (l.rowCount() - s.rowCount()));
}

// Starts are packed (4-byte offsets from a base per block) and names with their category and
// flags are kept once per track (events hold a 2-byte kind): each event still reads its own
// start, name, category and flag, in a track of more than 65 536 kinds too, with starts that
// jump back at row boundaries and across more than 2^32 ns.
TEST(TrackExtremes, PackedStartsAndKindsReadBackEachEventsOwn)
{
    for (const std::uint32_t names : {3U, 70000U}) {
        model::TrackBuilder b;
        struct Added
        {
            std::uint32_t index;
            std::int64_t start;
            std::uint32_t name;
            Category category;
            bool unfinished;
        };
        std::vector<Added> added;
        const Category categories[] = {Category::Compute, Category::Communication, Category::Other};
        for (std::uint32_t k = 0; k < 90000; ++k) {
            // Far apart every 7th event (more than 4.29 s), nested every 5th.
            const std::int64_t start = (k % 7 == 0 ? std::int64_t {1} << 40 : 0) + k * 1000LL
                + (k % 5 == 0 ? 1 : 0) - 5'000'000'000LL;
            const std::uint32_t name = (k * 7919U) % names;
            const Category c = categories[k % 3];
            const bool unfinished = k % 11 == 0;
            added.push_back({b.add(start, k % 5 == 0 ? 500 : 2000, StringId(name), c,
                                 model::ArgsId(), unfinished),
                start, name, c, unfinished});
        }
        auto r = b.finish();
        const model::Track &t = r.track;
        ASSERT_EQ(t.checkInvariants(), "");
        ASSERT_GT(t.rowCount(), 1u);
        for (const Added &a : added) {
            const std::uint32_t i = r.finalIndex[a.index];
            ASSERT_EQ(t.start(i), a.start);
            ASSERT_EQ(t.name(i), StringId(a.name));
            ASSERT_EQ(t.category(i), a.category);
            ASSERT_EQ(t.isUnfinished(i), a.unfinished);
        }
        // start 4 + duration 4 + kind 2 (4 past 65 536 kinds) + args 4, and the long
        // durations, wide starts and kinds beside them.
        const std::size_t perEvent = names < 0x10000 ? 14 : 16;
        EXPECT_LE(t.memoryBytes(), 90000 * perEvent + 90000 / 7 * 16 + names * 3 * 8 + 4096)
            << names << " names";
    }
}
