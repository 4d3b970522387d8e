// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// PackedInt64 keeps int64 columns (event starts, args record offsets) in 32-bit offsets from
// a base per block: every value must read back exact, wherever it falls against its block's
// base, and a slowly rising column must cost about 4 bytes per value.
#include "model/packedcolumn.h"
#include "util/saturate.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

using namespace stepscope;
using model::PackedInt64;

namespace {

/// Values around every edge of the encoding: the offset limit 2^32 - 1 (kept whole) and
/// 2^32 - 2 (the largest offset), below the base, the int64 limits, and a run that rises
/// slowly across block boundaries.
std::vector<std::int64_t> edgeValues()
{
    const std::int64_t limit = 0xffffffffLL;
    std::vector<std::int64_t> v = {0, limit - 1, limit, limit + 1, -1, util::Int64Min,
        util::Int64Max, util::Int64Max - 1, util::Int64Min + limit, 5, 5, 4};
    for (std::int64_t k = 0; k < 1000; ++k)
        v.push_back(1'000'000'000'000LL + k * 977);
    v.push_back(0); // back below the block's base
    for (std::int64_t k = 0; k < 600; ++k)
        v.push_back(util::Int64Max - 600 + k);
    std::mt19937_64 random(7);
    for (int k = 0; k < 3000; ++k)
        v.push_back(static_cast<std::int64_t>(random()));
    return v;
}

TEST(PackedInt64, EveryValueReadsBackExactByEitherWayOfBuilding)
{
    const std::vector<std::int64_t> values = edgeValues();
    PackedInt64 pushed;
    for (const std::int64_t x : values)
        pushed.push_back(x);
    const PackedInt64 built = PackedInt64::from(values);
    ASSERT_EQ(pushed.size(), values.size());
    ASSERT_EQ(built.size(), values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        ASSERT_EQ(pushed[i], values[i]) << "push_back, value " << i;
        ASSERT_EQ(built[i], values[i]) << "from, value " << i;
    }
    EXPECT_GT(pushed.wideCount(), 3000u); // the random values do not fit
    EXPECT_GT(built.wideCount(), 3000u);
}

TEST(PackedInt64, TheLargestOffsetFitsAndTheNextIsKeptWhole)
{
    // Offsets 2^32 - 1 and 2^32 - 2 stand for "kept whole" and the null value (INT64_MIN).
    const std::int64_t base = -1234;
    PackedInt64 p;
    p.push_back(base);
    p.push_back(base + 0xfffffffdLL);
    p.push_back(util::Int64Min);
    EXPECT_EQ(p.wideCount(), 0u);
    p.push_back(base + 0xfffffffeLL);
    p.push_back(base - 1);
    EXPECT_EQ(p.wideCount(), 2u);
    EXPECT_EQ(p[1], base + 0xfffffffdLL);
    EXPECT_EQ(p[2], util::Int64Min);
    EXPECT_EQ(p[3], base + 0xfffffffeLL);
    EXPECT_EQ(p[4], base - 1);
}

// A track's args ids: 2-byte offsets, the invalid id (an event without args) a code of its
// own wherever it falls, a block that begins with it based at its first real id.
TEST(PackedColumn, ArgsIdsInTwoBytesWithTheInvalidIdAnywhere)
{
    using Column = model::PackedColumn<std::uint32_t, std::uint16_t, 0xffffffffU>;
    std::vector<std::uint32_t> ids;
    for (std::uint32_t k = 0; k < 5000; ++k)
        ids.push_back(k % 13 == 0 || (k >= 512 && k < 600) ? 0xffffffffU : 1000000 + k * 5);
    ids.resize(20 * 256, 0xffffffffU); // the last block: the offsets' edges
    ids.insert(ids.end(), {7, 7 + 0xfffdU, 7 + 0xfffeU, 6, 0, 0xfffffffeU, 0xffffffffU});
    Column pushed;
    for (const std::uint32_t v : ids)
        pushed.push_back(v);
    const Column built = Column::from(ids);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        ASSERT_EQ(pushed[i], ids[i]) << "push_back, value " << i;
        ASSERT_EQ(built[i], ids[i]) << "from, value " << i;
    }
    // Kept whole in the last block: based at 7 (push_back), 7 + 0xfffe, 6, 0 and 0xfffffffe;
    // based at 0 (from()), 7 + 0xfffd, 7 + 0xfffe and 0xfffffffe. No other block has any.
    EXPECT_EQ(pushed.wideCount(), 4u);
    EXPECT_EQ(built.wideCount(), 3u);
    EXPECT_LE(built.memoryBytes(), ids.size() * 2 + (ids.size() / 256 + 1) * 4 + 3 * 16);
}

TEST(PackedInt64, BlocksThatJumpBackFitWhenBuiltFromAllValues)
{
    // Rows of starts: each rises, the next begins earlier again (a row boundary in a block).
    std::vector<std::int64_t> starts;
    for (int row = 0; row < 50; ++row) {
        for (std::int64_t k = 0; k < 1000; ++k)
            starts.push_back(1'700'000'000'000'000'000LL + row * 10 + k * 1000);
    }
    const PackedInt64 p = PackedInt64::from(starts);
    EXPECT_EQ(p.wideCount(), 0u);
    for (std::size_t i = 0; i < starts.size(); ++i)
        ASSERT_EQ(p[i], starts[i]);
}

TEST(PackedInt64, ASlowlyRisingColumnCostsFourBytesAValue)
{
    constexpr std::size_t N = 100000;
    PackedInt64 p;
    p.reserve(N);
    for (std::size_t k = 0; k < N; ++k)
        p.push_back(static_cast<std::int64_t>(k) * 150 + (1LL << 62));
    EXPECT_EQ(p.wideCount(), 0u);
    EXPECT_LE(p.memoryBytes(), N * 4 + N / 256 * 8 + 64);
    EXPECT_EQ(p[N - 1], static_cast<std::int64_t>(N - 1) * 150 + (1LL << 62));
}

} // namespace

// Events seconds apart: no offset from a block's base fits, so from() keeps those blocks
// whole (8 bytes per start and the unused offsets) rather than listing each start (16 bytes).
TEST(PackedInt64, BlocksOfFarApartValuesAreKeptWhole)
{
    constexpr std::size_t N = 10000;
    std::vector<std::int64_t> starts;
    for (std::size_t k = 0; k < N; ++k)
        starts.push_back(static_cast<std::int64_t>(k) * 10'000'000'000LL - (1LL << 50));
    starts.push_back(0); // in the last block, above its far-apart starts
    const PackedInt64 p = PackedInt64::from(starts);
    for (std::size_t i = 0; i < starts.size(); ++i)
        ASSERT_EQ(p[i], starts[i]) << i;
    // 39 full blocks whole; the last block's 16 far-apart values of 17 are listed.
    EXPECT_EQ(p.wideCount(), 39u * 256 + 16);
    EXPECT_LE(p.memoryBytes(), (N + 1) * 12 + (N / 256 + 1) * 16 + 16 * 16);
}
