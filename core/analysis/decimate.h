// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/memory.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace stepscope::analysis {

/// How to reduce a time series for drawing (STYLE.md §2 "Charts").
struct DecimateOptions
{
    /// Number of buckets, normally the plot width in pixels. At most two points are kept per
    /// bucket (its minimum and maximum), plus the first and last point of the window.
    int buckets = 1000;
    /// Window [startNs, endNs] to reduce; the defaults mean "the whole series". One point on
    /// each side of the window is kept too, so a line reaches the plot's edges.
    std::int64_t startNs = std::numeric_limits<std::int64_t>::min();
    std::int64_t endNs = std::numeric_limits<std::int64_t>::max();
    /// Treat negative values as "not recorded" (model::MemoryCurve writes -1) and skip them.
    bool skipNegative = false;
};

/// A decimated series: kept points in time order.
/// Invariant: all three vectors have the same length; timestampsNs is non-decreasing;
/// sourceIndex is strictly increasing and indexes the input series.
struct DecimatedSeries
{
    std::vector<std::int64_t> timestampsNs;
    std::vector<double> values;
    std::vector<std::size_t> sourceIndex;
};

/// Min/max decimation. The window is split into `buckets` equal time buckets; every bucket
/// that holds points keeps the index of its minimum and of its maximum (in time order, once
/// when they coincide), so peaks and troughs survive at any zoom. The first and last point of
/// the window are always kept. One pass over the points in the window (found by binary
/// search on the sorted timestamps): O(n) time, O(buckets) extra memory.
///
/// Precondition: timestamps sorted ascending and values.size() == timestampsNs.size()
/// (asserted). Returns indices into the input, strictly increasing.
std::vector<std::size_t> decimateIndices(const std::vector<std::int64_t> &timestampsNs,
    const std::vector<std::int64_t> &values, const DecimateOptions &options);
std::vector<std::size_t> decimateIndices(const std::vector<std::int64_t> &timestampsNs,
    const std::vector<double> &values, const DecimateOptions &options);

/// decimateIndices() and the kept points themselves.
DecimatedSeries decimate(const std::vector<std::int64_t> &timestampsNs,
    const std::vector<std::int64_t> &values, const DecimateOptions &options);
DecimatedSeries decimate(const std::vector<std::int64_t> &timestampsNs,
    const std::vector<double> &values, const DecimateOptions &options);

/// Stacked series reduced for drawing as stacked areas: tops[k][i] = sum of rows 0..k at
/// kept point i, so the last row is the total and rows never cross (values being >= 0).
/// Invariant: every tops[k] and sourceIndex have the timestamps' length.
struct StackedSeries
{
    std::vector<std::int64_t> timestampsNs;
    std::vector<std::vector<std::int64_t>> tops;
    std::vector<std::size_t> sourceIndex;
};

/// Stacks `rows` (bottom to top; each of the timestamps' length, asserted) and decimates all
/// of them on ONE set of indices, the min/max of the stacked total per bucket, so the stack
/// stays consistent and the total's peak survives.
StackedSeries stackSeries(const std::vector<std::int64_t> &timestampsNs,
    const std::vector<const std::vector<std::int64_t> *> &rows, const DecimateOptions &options);

/// The categories of `timeline` that are ever non-zero, in the fixed bottom-to-top order of
/// DESIGN.md and ui/palette (parameters, gradients, optimizer state, activations, input,
/// autograd detail, temporary, communication buffers, unknown).
std::vector<model::MemoryCategory> presentCategories(const model::CategoryTimeline &timeline);

/// stackSeries() over the categories `order` of a category timeline.
StackedSeries stackCategories(const model::CategoryTimeline &timeline,
    const std::vector<model::MemoryCategory> &order, const DecimateOptions &options);

/// The index of the largest total over all categories, or SIZE_MAX when the timeline is
/// empty. On ties the earliest point wins.
std::size_t categoryPeakIndex(const model::CategoryTimeline &timeline);

} // namespace stepscope::analysis
