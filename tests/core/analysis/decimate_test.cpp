// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Min/max decimation: peaks survive, point count bounded, ends kept, timestamps monotone.

#include "analysis/decimate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

using namespace stepscope;
using analysis::DecimateOptions;

namespace {

// A saw-tooth memory curve with one spike: n points, 1 µs apart, spike at `spikeAt`.
void sawTooth(std::size_t n, std::size_t spikeAt, std::vector<std::int64_t> &ts,
    std::vector<std::int64_t> &values)
{
    ts.resize(n);
    values.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        ts[i] = static_cast<std::int64_t>(i) * 1000;
        values[i] = static_cast<std::int64_t>((i * 7919) % 1000) * 1024;
    }
    values[spikeAt] = std::int64_t {6} << 30;
}

void expectMonotone(const analysis::DecimatedSeries &s)
{
    ASSERT_EQ(s.timestampsNs.size(), s.values.size());
    ASSERT_EQ(s.timestampsNs.size(), s.sourceIndex.size());
    EXPECT_TRUE(std::is_sorted(s.timestampsNs.begin(), s.timestampsNs.end()));
    EXPECT_TRUE(std::adjacent_find(s.sourceIndex.begin(), s.sourceIndex.end(),
                    [](std::size_t a, std::size_t b) { return a >= b; })
        == s.sourceIndex.end());
}

} // namespace

TEST(Decimate, KeepsPeakFirstLastAndBoundsPointCount)
{
    std::vector<std::int64_t> ts;
    std::vector<std::int64_t> values;
    sawTooth(100000, 54321, ts, values);
    DecimateOptions options;
    options.buckets = 800;
    const auto s = analysis::decimate(ts, values, options);
    expectMonotone(s);
    EXPECT_LE(s.values.size(), 2u * 800u + 4u);
    EXPECT_GE(s.values.size(), 800u); // every bucket holds points
    EXPECT_EQ(s.sourceIndex.front(), 0u);
    EXPECT_EQ(s.sourceIndex.back(), 99999u);
    EXPECT_NE(std::find(s.sourceIndex.begin(), s.sourceIndex.end(), 54321u), s.sourceIndex.end());
    EXPECT_EQ(*std::max_element(s.values.begin(), s.values.end()), static_cast<double>(6LL << 30));
    // The trough of each bucket survives too: the series' minimum (0) is kept.
    EXPECT_EQ(*std::min_element(s.values.begin(), s.values.end()), 0.0);
}

TEST(Decimate, ShortSeriesIsKeptWhole)
{
    const std::vector<std::int64_t> ts = {10, 20, 30, 40};
    const std::vector<double> values = {1.0, 5.0, 2.0, 3.0};
    DecimateOptions options;
    options.buckets = 100;
    const auto s = analysis::decimate(ts, values, options);
    expectMonotone(s);
    EXPECT_EQ(s.sourceIndex, (std::vector<std::size_t> {0, 1, 2, 3}));
    EXPECT_EQ(s.values, values);
}

TEST(Decimate, WindowKeepsOneNeighbourOnEachSide)
{
    std::vector<std::int64_t> ts;
    std::vector<std::int64_t> values;
    sawTooth(10000, 5000, ts, values);
    DecimateOptions options;
    options.buckets = 50;
    options.startNs = 4000 * 1000 + 500; // between points 4000 and 4001
    options.endNs = 6000 * 1000 + 500; // between points 6000 and 6001
    const auto idx = analysis::decimateIndices(ts, values, options);
    ASSERT_FALSE(idx.empty());
    EXPECT_EQ(idx.front(), 4000u);
    EXPECT_EQ(idx.back(), 6001u);
    EXPECT_LE(idx.size(), 2u * 50u + 4u);
    EXPECT_NE(std::find(idx.begin(), idx.end(), 5000u), idx.end());
}

TEST(Decimate, SkipsNotRecordedValues)
{
    const std::vector<std::int64_t> ts = {0, 1, 2, 3, 4, 5};
    const std::vector<std::int64_t> values = {-1, 7, -1, 9, 8, -1};
    DecimateOptions options;
    options.buckets = 10;
    options.skipNegative = true;
    const auto s = analysis::decimate(ts, values, options);
    EXPECT_EQ(s.sourceIndex, (std::vector<std::size_t> {1, 3, 4}));
    options.skipNegative = false;
    EXPECT_EQ(analysis::decimate(ts, values, options).sourceIndex.size(), 6u);
}

TEST(Decimate, EmptyAndSinglePoint)
{
    DecimateOptions options;
    EXPECT_TRUE(analysis::decimateIndices({}, std::vector<double> {}, options).empty());
    EXPECT_EQ(analysis::decimateIndices({5}, std::vector<double> {2.0}, options),
        (std::vector<std::size_t> {0}));
    // All points at the same time: first and last kept, no division by zero.
    const auto idx = analysis::decimateIndices({5, 5, 5}, std::vector<double> {1, 9, 2}, options);
    EXPECT_EQ(idx, (std::vector<std::size_t> {0, 1, 2}));
}

TEST(Decimate, TenMillionPointsInOnePass)
{
    const std::size_t n = 10'000'000;
    std::vector<std::int64_t> ts;
    std::vector<std::int64_t> values;
    sawTooth(n, 7'654'321, ts, values);
    DecimateOptions options;
    options.buckets = 1920;
    const auto begin = std::chrono::steady_clock::now();
    const auto s = analysis::decimate(ts, values, options);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - begin)
                        .count();
    expectMonotone(s);
    EXPECT_LE(s.values.size(), 2u * 1920u + 4u);
    EXPECT_NE(
        std::find(s.sourceIndex.begin(), s.sourceIndex.end(), 7'654'321u), s.sourceIndex.end());
    // Timing is informational only (machines and sanitizer builds differ).
    std::printf(
        "decimate 10M points -> %zu in %lld ms\n", s.values.size(), static_cast<long long>(ms));
}

TEST(CategoryStack, TopsSumToTotalAndPeakSurvives)
{
    using model::MemoryCategory;
    model::CategoryTimeline tl;
    const std::size_t n = 5000;
    for (auto &b : tl.bytes)
        b.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        tl.timestampsNs.push_back(static_cast<std::int64_t>(i) * 10);
        tl.bytes[static_cast<std::size_t>(MemoryCategory::Parameter)][i] = 1000;
        tl.bytes[static_cast<std::size_t>(MemoryCategory::Activation)][i] =
            static_cast<std::int64_t>(i % 97) * 10;
        tl.bytes[static_cast<std::size_t>(MemoryCategory::Gradient)][i] =
            static_cast<std::int64_t>(i % 13);
    }
    tl.bytes[static_cast<std::size_t>(MemoryCategory::Activation)][3333] = 50000;

    const auto order = analysis::presentCategories(tl);
    EXPECT_EQ(order,
        (std::vector<MemoryCategory> {
            MemoryCategory::Parameter, MemoryCategory::Gradient, MemoryCategory::Activation}));
    DecimateOptions options;
    options.buckets = 100;
    const auto stack = analysis::stackCategories(tl, order, options);
    ASSERT_EQ(stack.tops.size(), 3u);
    EXPECT_LE(stack.timestampsNs.size(), 2u * 100u + 4u);
    for (std::size_t j = 0; j < stack.sourceIndex.size(); ++j) {
        const std::size_t i = stack.sourceIndex[j];
        std::int64_t total = 0;
        for (const auto &b : tl.bytes)
            total += b[i];
        EXPECT_EQ(stack.tops[2][j], total) << "point " << i;
        EXPECT_EQ(stack.tops[0][j], 1000);
        EXPECT_LE(stack.tops[0][j], stack.tops[1][j]);
        EXPECT_LE(stack.tops[1][j], stack.tops[2][j]);
    }
    EXPECT_EQ(analysis::categoryPeakIndex(tl), 3333u);
    EXPECT_NE(std::find(stack.sourceIndex.begin(), stack.sourceIndex.end(), 3333u),
        stack.sourceIndex.end());
}
