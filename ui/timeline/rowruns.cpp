// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "rowruns.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace stepscope::ui::timeline {

namespace {

std::uint8_t codeOf(const model::Track &track, std::uint32_t i)
{
    return static_cast<std::uint8_t>(static_cast<unsigned>(track.category(i)) + 1);
}

/// First index in [lo, hi) whose end is after t (ends are sorted within a row).
std::uint32_t firstEndAfter(
    const model::Track &track, std::uint32_t lo, std::uint32_t hi, std::int64_t t)
{
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (track.end(mid) <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/// firstEndAfter(track, lo, hi, t) found by galloping from lo: O(log distance), which keeps a
/// left-to-right sweep cheap and cache-friendly.
std::uint32_t gallopEndAfter(
    const model::Track &track, std::uint32_t lo, std::uint32_t hi, std::int64_t t)
{
    std::uint32_t step = 1;
    std::uint32_t probe = lo;
    while (probe < hi && track.end(probe) <= t) {
        lo = probe + 1;
        probe = (hi - probe > step) ? probe + step : hi;
        step *= 2;
    }
    return firstEndAfter(track, lo, std::min(hi, probe), t);
}

void collectFromSummary(const model::Track &track, std::uint32_t row, const RowSummary &summary,
    int level, std::int64_t offsetNs, const TimeAxis &axis, std::vector<RowRun> &out)
{
    const std::int64_t bw = summary.bucketNs(level);
    const auto count = static_cast<std::int64_t>(summary.bucketCount(level));
    const std::int64_t base = summary.originNs() + offsetNs; // session time of bucket 0
    const int width = axis.widthPx();
    const int pStart = std::max(0, static_cast<int>(std::floor(axis.toPx(base))));
    const int pEnd = std::min(width, static_cast<int>(std::ceil(axis.toPx(base + count * bw))) + 1);
    const std::size_t firstRun = out.size();
    bool open = false;
    RowRun run;
    for (int p = pStart; p < pEnd; ++p) {
        const std::int64_t rel0 = axis.toNs(p) - base;
        const std::int64_t rel1 = axis.toNs(p + 1) - base;
        std::uint8_t code = 0;
        if (rel1 > 0 && rel0 < count * bw) {
            const std::int64_t b0 = std::max<std::int64_t>(0, rel0 / bw);
            const std::int64_t b1 = std::min(count - 1, std::max<std::int64_t>(0, (rel1 - 1) / bw));
            int bestCoverage = 0;
            for (std::int64_t b = b0; b <= b1; ++b) {
                const auto ub = static_cast<std::size_t>(b);
                const int c = summary.coverage(level, ub);
                if (c > bestCoverage) {
                    bestCoverage = c;
                    code = summary.categoryCode(level, ub);
                }
            }
        }
        if (open && (code == 0 || code != run.categoryCode)) {
            out.push_back(run);
            open = false;
        }
        if (code != 0) {
            if (!open) {
                run = RowRun {};
                run.x0 = p;
                run.categoryCode = code;
                run.merged = true;
                open = true;
            }
            run.x1 = p + 1;
        }
    }
    if (open)
        out.push_back(run);
    // Give wide runs the identity of the event under their middle when it covers most of it.
    // Runs are in time order: each search gallops on from the previous one. A run wider than
    // the row's longest event allows is skipped without a search: at 100 M events those
    // searches were random reads into 25 M-event rows for every run of every frame.
    std::uint32_t from = track.rowBegin(row);
    const std::uint32_t rowEnd = track.rowEnd(row);
    const double longestPx = static_cast<double>(summary.longestNs()) / axis.nsPerPixel();
    for (std::size_t k = firstRun; k < out.size(); ++k) {
        RowRun &r = out[k];
        if (r.x1 - r.x0 < 2.0 || longestPx < 0.8 * (r.x1 - r.x0) * 0.999)
            continue;
        const std::int64_t mid = axis.toNs((r.x0 + r.x1) / 2) - offsetNs;
        from = gallopEndAfter(track, from, rowEnd, mid);
        if (from >= rowEnd || track.start(from) > mid)
            continue;
        const std::uint32_t e = from;
        const double ex0 = axis.toPx(track.start(e) + offsetNs);
        const double ex1 = axis.toPx(track.end(e) + offsetNs);
        if (std::min(ex1, r.x1) - std::max(ex0, r.x0) >= 0.8 * (r.x1 - r.x0)) {
            r.hasEvent = true;
            r.merged = false;
            r.event = e;
        }
    }
}

} // namespace

void collectRowRuns(const model::Track &track, std::uint32_t row, const RowSummary &summary,
    std::int64_t offsetNs, const TimeAxis &axis, std::vector<RowRun> &out)
{
    if (row >= track.rowCount())
        return;
    const int level = summary.levelFor(axis.nsPerPixel());
    if (level >= 0) {
        collectFromSummary(track, row, summary, level, offsetNs, axis, out);
        return;
    }
    const double width = axis.widthPx();
    const auto [first, last] =
        track.visibleRange(row, axis.startNs() - offsetNs, axis.endNs() - offsetNs);
    CategoryShares shares; // of one run
    std::uint32_t i = first;
    while (i < last) {
        const double x0 = axis.toPx(track.start(i) + offsetNs);
        const double x1 = axis.toPx(track.end(i) + offsetNs);
        if (x1 - x0 >= MinEventPx) {
            RowRun r;
            r.x0 = std::max(x0, -1.0);
            r.x1 = std::min(x1, width + 1);
            r.categoryCode = codeOf(track, i);
            r.hasEvent = true;
            r.event = i;
            out.push_back(r);
            ++i;
            continue;
        }
        RowRun run;
        run.x0 = std::floor(x0);
        run.x1 = std::max(run.x0 + 1, std::floor(x1) + 1);
        run.hasEvent = true;
        run.event = i;
        std::int64_t widest = track.duration(i);
        // The run's colour is the category its members cover most of (not its widest
        // member's: one copy among hundreds of kernels). A row without a summary is short
        // enough to visit every member; a summarised one, zoomed in this far, has a few
        // events per pixel, and those ending inside the run's pixels are skipped unseen.
        shares.clear();
        shares.add(codeOf(track, i), std::max<std::int64_t>(1, track.duration(i)));
        int members = 1;
        ++i;
        while (i < last) {
            if (!summary.isEmpty())
                i = gallopEndAfter(track, i, last, axis.toNs(run.x1) - offsetNs);
            if (i >= last)
                break;
            const double nx0 = axis.toPx(track.start(i) + offsetNs);
            const double nx1 = axis.toPx(track.end(i) + offsetNs);
            if (nx0 >= run.x1 + 1 || nx1 - nx0 >= MinEventPx)
                break; // a gap of a whole pixel, or a wide event: the run ends
            run.x1 = std::max(run.x1, std::floor(nx1) + 1);
            ++members;
            shares.add(codeOf(track, i), std::max<std::int64_t>(1, track.duration(i)));
            if (track.duration(i) > widest) {
                widest = track.duration(i);
                run.event = i;
            }
            ++i;
        }
        run.categoryCode = shares.dominant().first;
        run.merged = members > 1;
        run.hasEvent = !run.merged;
        out.push_back(run);
    }
}

bool eventAtTime(const model::Track &track, std::uint32_t row, std::int64_t t,
    std::int64_t toleranceNs, std::uint32_t &event)
{
    if (row >= track.rowCount())
        return false;
    const std::uint32_t lo = track.rowBegin(row);
    const std::uint32_t hi = track.rowEnd(row);
    // First event whose end is after t; it contains t when it starts at or before t.
    const std::uint32_t i = firstEndAfter(track, lo, hi, t);
    if (i < hi && track.start(i) <= t) {
        event = i;
        return true;
    }
    std::int64_t bestDistance = toleranceNs + 1;
    bool found = false;
    if (i < hi && track.start(i) - t < bestDistance) {
        bestDistance = track.start(i) - t;
        event = i;
        found = true;
    }
    if (i > lo && t - track.end(i - 1) < bestDistance) {
        event = i - 1;
        found = true;
    }
    return found;
}

} // namespace stepscope::ui::timeline
