// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "decimate.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace stepscope::analysis {

namespace {

/*
 * Min/max decimation in one pass.
 *
 * The points of the window [first, last) are visited in time order. Bucket b covers
 * [startNs + b*w, startNs + (b+1)*w) with w = window / buckets; because timestamps are sorted
 * the bucket index never decreases, so one "current bucket" with its running min and max is
 * enough. When the bucket changes, its min and max indices are emitted in index order. The
 * first and last points of the window are emitted too. The bucket index is computed in double
 * because (t - start) * buckets overflows int64 for long captures; rounding can only move a
 * point to a neighbouring bucket, which keeps the bound of two points per bucket.
 *
 * `value(i)` returns the value of point i; `skip(i)` says the point is not recorded.
 */
template <typename ValueFn, typename SkipFn>
std::vector<std::size_t> decimateImpl(
    const std::vector<std::int64_t> &ts, const DecimateOptions &options, ValueFn value, SkipFn skip)
{
    std::vector<std::size_t> out;
    if (ts.empty())
        return out;
    // Window plus one point on each side so the line reaches the edges.
    auto lo = std::lower_bound(ts.begin(), ts.end(), options.startNs);
    auto hi = std::upper_bound(lo, ts.end(), options.endNs);
    std::size_t first = static_cast<std::size_t>(lo - ts.begin());
    std::size_t last = static_cast<std::size_t>(hi - ts.begin());
    if (first > 0)
        --first;
    if (last < ts.size())
        ++last;
    while (first < last && skip(first))
        ++first;
    while (last > first && skip(last - 1))
        --last;
    if (first >= last)
        return out;

    const std::int64_t t0 = std::max(options.startNs, ts[first]);
    const std::int64_t t1 = std::min(options.endNs, ts[last - 1]);
    const int buckets = std::max(1, options.buckets);
    const double span = t1 > t0 ? static_cast<double>(t1) - static_cast<double>(t0) : 1.0;
    const double scale = static_cast<double>(buckets) / span;
    auto bucketOf = [&](std::int64_t t) -> long {
        if (t <= t0)
            return -1; // the point before the window (or its first point) has its own bucket
        if (t > t1)
            return buckets; // the point after the window
        const double b = (static_cast<double>(t) - static_cast<double>(t0)) * scale;
        return std::min(static_cast<long>(b), static_cast<long>(buckets - 1));
    };

    out.reserve(static_cast<std::size_t>(buckets) * 2 + 4);
    auto emit = [&out](std::size_t i) {
        if (out.empty() || out.back() < i)
            out.push_back(i);
    };
    emit(first);
    long current = bucketOf(ts[first]);
    std::size_t minI = first;
    std::size_t maxI = first;
    for (std::size_t i = first + 1; i < last; ++i) {
        if (skip(i))
            continue;
        const long b = bucketOf(ts[i]);
        if (b != current) {
            emit(std::min(minI, maxI));
            emit(std::max(minI, maxI));
            current = b;
            minI = maxI = i;
            continue;
        }
        const auto v = value(i);
        if (v < value(minI))
            minI = i;
        if (v > value(maxI))
            maxI = i;
    }
    emit(std::min(minI, maxI));
    emit(std::max(minI, maxI));
    std::size_t lastKept = last - 1; // not skipped, see the trimming above
    emit(lastKept);
    return out;
}

template <typename T>
std::vector<std::size_t> decimateVector(const std::vector<std::int64_t> &ts,
    const std::vector<T> &values, const DecimateOptions &options)
{
    assert(ts.size() == values.size());
    assert(std::is_sorted(ts.begin(), ts.end()));
    const bool skipNegative = options.skipNegative;
    return decimateImpl(
        ts, options, [&values](std::size_t i) { return values[i]; },
        [&values, skipNegative](std::size_t i) { return skipNegative && values[i] < 0; });
}

template <typename T>
DecimatedSeries materialize(const std::vector<std::int64_t> &ts, const std::vector<T> &values,
    std::vector<std::size_t> indices)
{
    DecimatedSeries s;
    s.timestampsNs.reserve(indices.size());
    s.values.reserve(indices.size());
    for (std::size_t i : indices) {
        s.timestampsNs.push_back(ts[i]);
        s.values.push_back(static_cast<double>(values[i]));
    }
    s.sourceIndex = std::move(indices);
    return s;
}

} // namespace

std::vector<std::size_t> decimateIndices(const std::vector<std::int64_t> &timestampsNs,
    const std::vector<std::int64_t> &values, const DecimateOptions &options)
{
    return decimateVector(timestampsNs, values, options);
}

std::vector<std::size_t> decimateIndices(const std::vector<std::int64_t> &timestampsNs,
    const std::vector<double> &values, const DecimateOptions &options)
{
    return decimateVector(timestampsNs, values, options);
}

DecimatedSeries decimate(const std::vector<std::int64_t> &timestampsNs,
    const std::vector<std::int64_t> &values, const DecimateOptions &options)
{
    return materialize(timestampsNs, values, decimateVector(timestampsNs, values, options));
}

DecimatedSeries decimate(const std::vector<std::int64_t> &timestampsNs,
    const std::vector<double> &values, const DecimateOptions &options)
{
    return materialize(timestampsNs, values, decimateVector(timestampsNs, values, options));
}

std::vector<model::MemoryCategory> presentCategories(const model::CategoryTimeline &timeline)
{
    using model::MemoryCategory;
    static constexpr std::array<MemoryCategory, model::MemoryCategoryCount> DisplayOrder = {
        MemoryCategory::Parameter,
        MemoryCategory::Gradient,
        MemoryCategory::OptimizerState,
        MemoryCategory::Activation,
        MemoryCategory::Input,
        MemoryCategory::AutogradDetail,
        MemoryCategory::Temporary,
        MemoryCategory::CommunicationBuffer,
        MemoryCategory::Unknown,
    };
    std::vector<MemoryCategory> present;
    for (MemoryCategory c : DisplayOrder) {
        const auto &bytes = timeline.bytes[static_cast<std::size_t>(c)];
        if (std::any_of(bytes.begin(), bytes.end(), [](std::int64_t b) { return b != 0; }))
            present.push_back(c);
    }
    return present;
}

namespace {

std::int64_t totalAt(const model::CategoryTimeline &timeline, std::size_t i)
{
    std::int64_t sum = 0;
    for (const auto &bytes : timeline.bytes)
        if (i < bytes.size())
            sum += bytes[i];
    return sum;
}

} // namespace

StackedSeries stackSeries(const std::vector<std::int64_t> &timestampsNs,
    const std::vector<const std::vector<std::int64_t> *> &rows, const DecimateOptions &options)
{
    for ([[maybe_unused]] const auto *row : rows)
        assert(row && row->size() == timestampsNs.size());
    StackedSeries stack;
    const auto &ts = timestampsNs;
    auto stackedTotal = [&rows](std::size_t i) {
        std::int64_t sum = 0;
        for (const auto *row : rows)
            sum += (*row)[i];
        return sum;
    };
    stack.sourceIndex = decimateImpl(ts, options, stackedTotal, [](std::size_t) { return false; });
    stack.timestampsNs.reserve(stack.sourceIndex.size());
    for (std::size_t i : stack.sourceIndex)
        stack.timestampsNs.push_back(ts[i]);
    stack.tops.assign(rows.size(), {});
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const auto &values = *rows[k];
        auto &top = stack.tops[k];
        top.reserve(stack.sourceIndex.size());
        for (std::size_t j = 0; j < stack.sourceIndex.size(); ++j) {
            const std::int64_t below = k == 0 ? 0 : stack.tops[k - 1][j];
            top.push_back(below + values[stack.sourceIndex[j]]);
        }
    }
    return stack;
}

StackedSeries stackCategories(const model::CategoryTimeline &timeline,
    const std::vector<model::MemoryCategory> &order, const DecimateOptions &options)
{
    std::vector<const std::vector<std::int64_t> *> rows;
    rows.reserve(order.size());
    for (model::MemoryCategory c : order)
        rows.push_back(&timeline.bytes[static_cast<std::size_t>(c)]);
    return stackSeries(timeline.timestampsNs, rows, options);
}

std::size_t categoryPeakIndex(const model::CategoryTimeline &timeline)
{
    std::size_t best = static_cast<std::size_t>(-1);
    std::int64_t bestValue = 0;
    for (std::size_t i = 0; i < timeline.timestampsNs.size(); ++i) {
        const std::int64_t v = totalAt(timeline, i);
        if (best == static_cast<std::size_t>(-1) || v > bestValue) {
            best = i;
            bestValue = v;
        }
    }
    return best;
}

} // namespace stepscope::analysis
