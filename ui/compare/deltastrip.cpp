// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "deltastrip.h"

#include <algorithm>
#include <utility>

namespace stepscope::ui::compare {

namespace {

using Interval = std::pair<std::int64_t, std::int64_t>;

/// Intervals of `kind` (all kinds when empty) inside [start, end), shifted by -start, merged.
std::vector<Interval> clipped(const std::vector<timeline::StepLaneSegment> &segments,
    std::optional<analysis::SegmentKind> kind, std::int64_t start, std::int64_t end)
{
    std::vector<Interval> out;
    if (!kind) {
        if (end > start)
            out.emplace_back(0, end - start);
        return out;
    }
    // Segments are sorted and disjoint: skip to the first one ending after start.
    auto it = std::lower_bound(segments.begin(), segments.end(), start,
        [](const timeline::StepLaneSegment &s, std::int64_t t) { return s.endNs <= t; });
    for (; it != segments.end() && it->startNs < end; ++it) {
        if (it->kind != *kind)
            continue;
        const std::int64_t s = std::max(it->startNs, start) - start;
        const std::int64_t e = std::min(it->endNs, end) - start;
        if (e <= s)
            continue;
        if (!out.empty() && out.back().second >= s)
            out.back().second = std::max(out.back().second, e);
        else
            out.emplace_back(s, e);
    }
    return out;
}

std::int64_t total(const std::vector<Interval> &v)
{
    std::int64_t n = 0;
    for (const auto &i : v)
        n += i.second - i.first;
    return n;
}

/// Symmetric difference of two sorted disjoint interval lists, signed by side.
std::vector<DeltaPiece> difference(
    const std::vector<Interval> &before, const std::vector<Interval> &after)
{
    std::vector<std::pair<std::int64_t, int>> edges; // (time, +-1 before: 1, after: 2)
    edges.reserve(2 * (before.size() + after.size()));
    for (const auto &i : before) {
        edges.emplace_back(i.first, 1);
        edges.emplace_back(i.second, -1);
    }
    for (const auto &i : after) {
        edges.emplace_back(i.first, 2);
        edges.emplace_back(i.second, -2);
    }
    std::sort(edges.begin(), edges.end());
    std::vector<DeltaPiece> out;
    bool inBefore = false;
    bool inAfter = false;
    std::int64_t last = 0;
    for (const auto &[t, e] : edges) {
        if (t > last && inBefore != inAfter) {
            const int sign = inAfter ? 1 : -1;
            if (!out.empty() && out.back().endNs == last && out.back().sign == sign)
                out.back().endNs = t;
            else
                out.push_back({last, t, sign});
        }
        last = t;
        if (e == 1 || e == -1)
            inBefore = e > 0;
        else
            inAfter = e > 0;
    }
    return out;
}

} // namespace

std::int64_t DeltaStrip::moreNs() const
{
    std::int64_t n = 0;
    for (const auto &p : pieces)
        n += p.sign > 0 ? p.endNs - p.startNs : 0;
    return n;
}

std::int64_t DeltaStrip::lessNs() const
{
    std::int64_t n = 0;
    for (const auto &p : pieces)
        n += p.sign < 0 ? p.endNs - p.startNs : 0;
    return n;
}

std::vector<DeltaStrip> computeDeltaStrips(
    const std::vector<timeline::StepLaneSegment> &beforeSegments, std::int64_t beforeStartNs,
    std::int64_t beforeEndNs, const std::vector<timeline::StepLaneSegment> &afterSegments,
    std::int64_t afterStartNs, std::int64_t afterEndNs)
{
    std::vector<DeltaStrip> out;
    auto addStrip = [&](std::optional<analysis::SegmentKind> kind) {
        const auto b = clipped(beforeSegments, kind, beforeStartNs, beforeEndNs);
        const auto a = clipped(afterSegments, kind, afterStartNs, afterEndNs);
        if (kind && b.empty() && a.empty())
            return;
        DeltaStrip strip;
        strip.kind = kind;
        strip.label = kind ? segmentName(*kind) : QStringLiteral("Step time");
        strip.beforeNs = total(b);
        strip.afterNs = total(a);
        strip.pieces = difference(b, a);
        out.push_back(std::move(strip));
    };
    addStrip(std::nullopt);
    for (const analysis::SegmentKind kind : segmentKinds())
        addStrip(kind);
    return out;
}

} // namespace stepscope::ui::compare
