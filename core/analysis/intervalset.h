// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace stepscope::analysis {

/// A set of time points as sorted, disjoint, non-touching half-open intervals [start, end).
/// The interval algebra of the breakdowns (union, intersection, difference, clipping).
///
/// Invariant: for every i, start(i) < end(i) and end(i) < start(i+1) (touching intervals are
/// merged, empty ones dropped). Value type; not thread-safe while being built.
class IntervalSet
{
public:
    using Interval = std::pair<std::int64_t, std::int64_t>;

    IntervalSet() = default;
    /// From intervals in any order, overlapping or not; empty ones are ignored.
    static IntervalSet fromUnsorted(std::vector<Interval> intervals);
    static IntervalSet single(std::int64_t start, std::int64_t end);

    const std::vector<Interval> &intervals() const { return m_intervals; }
    bool empty() const { return m_intervals.empty(); }
    std::size_t size() const { return m_intervals.size(); }
    /// Total covered length.
    std::int64_t length() const;
    /// Covered length inside [t0, t1). O(log n + k).
    std::int64_t lengthIn(std::int64_t t0, std::int64_t t1) const;
    /// The part inside [t0, t1). O(log n + k).
    IntervalSet clipped(std::int64_t t0, std::int64_t t1) const;

    IntervalSet unite(const IntervalSet &other) const;
    IntervalSet intersect(const IntervalSet &other) const;
    IntervalSet subtract(const IntervalSet &other) const;

private:
    std::vector<Interval> m_intervals;
};

} // namespace stepscope::analysis
