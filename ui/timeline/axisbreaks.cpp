// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "axisbreaks.h"

#include <algorithm>

namespace stepscope::ui::timeline {

namespace {

constexpr std::int64_t MinThresholdNs = 1'000'000; // 1 ms
constexpr std::size_t MaxBreaks = 32;
constexpr std::int64_t MinMarginNs = 1'000; // 1 us beside a run of one instant

/// Appends the islands of sorted points / intervals given by start(i) and end(i).
template <typename Start, typename End>
void appendRuns(
    std::size_t n, Start start, End end, std::int64_t minGapNs, std::vector<Island> &out)
{
    if (n == 0)
        return;
    Island run {start(0), end(0)};
    for (std::size_t i = 1; i < n; ++i) {
        const std::int64_t s = start(i);
        if (s - run.second >= minGapNs) {
            out.push_back(run);
            run = {s, end(i)};
        } else {
            run.second = std::max(run.second, end(i));
        }
    }
    out.push_back(run);
}

} // namespace

std::int64_t breakThresholdNs(std::vector<std::int64_t> stepDurationsNs, std::int64_t extentNs)
{
    if (stepDurationsNs.empty())
        return std::max(MinThresholdNs, extentNs / 4);
    const auto mid =
        stepDurationsNs.begin() + static_cast<std::ptrdiff_t>(stepDurationsNs.size() / 2);
    std::nth_element(stepDurationsNs.begin(), mid, stepDurationsNs.end());
    return std::max(MinThresholdNs, 5 * *mid);
}

std::vector<Island> traceIslands(const model::Trace &trace, std::int64_t minGapNs)
{
    std::vector<Island> out;
    for (const model::Track &track : trace.tracks) {
        // Starts are sorted; a running maximum of ends covers nested and overlapping events.
        appendRuns(
            track.size(), [&](std::size_t i) { return track.start(static_cast<std::uint32_t>(i)); },
            [&](std::size_t i) { return track.end(static_cast<std::uint32_t>(i)); }, minGapNs, out);
    }
    for (const model::CounterSeries &c : trace.counters) {
        const std::vector<Island> runs = pointIslands(c.timestampsNs, minGapNs);
        out.insert(out.end(), runs.begin(), runs.end());
    }
    return out;
}

std::vector<Island> pointIslands(const std::vector<std::int64_t> &sortedNs, std::int64_t minGapNs)
{
    std::vector<Island> out;
    appendRuns(
        sortedNs.size(), [&](std::size_t i) { return sortedNs[i]; },
        [&](std::size_t i) { return sortedNs[i]; }, minGapNs, out);
    return out;
}

std::vector<AxisBreak> findBreaks(std::vector<Island> islands, std::int64_t minGapNs)
{
    std::vector<AxisBreak> breaks;
    if (islands.size() < 2)
        return breaks;
    std::sort(islands.begin(), islands.end());
    // The runs of events with no gap of minGapNs inside; a break lies between two runs.
    std::vector<Island> runs {islands.front()};
    for (std::size_t i = 1; i < islands.size(); ++i) {
        const auto [s, e] = islands[i];
        if (s - runs.back().second >= minGapNs)
            runs.push_back(islands[i]);
        else
            runs.back().second = std::max(runs.back().second, e);
    }
    // The margins keep the events next to a break clear of its mark: a fiftieth of the gap,
    // at most a fifth of the threshold, and at most a tenth of the run on that side, so that
    // a 14 ms trace beside 1.7 s table steps is not framed by 1.7 s of nothing (the
    // threshold comes from the median step).
    const auto margin = [minGapNs](std::int64_t gap, const Island &run) {
        return std::min({gap / 50, minGapNs / 5,
            std::max<std::int64_t>((run.second - run.first) / 10, MinMarginNs)});
    };
    for (std::size_t k = 1; k < runs.size(); ++k) {
        const std::int64_t gap = runs[k].first - runs[k - 1].second;
        breaks.push_back(
            {runs[k - 1].second + margin(gap, runs[k - 1]), runs[k].first - margin(gap, runs[k])});
    }
    if (breaks.size() > MaxBreaks) {
        std::nth_element(breaks.begin(),
            breaks.begin() + static_cast<std::ptrdiff_t>(MaxBreaks) - 1, breaks.end(),
            [](const AxisBreak &a, const AxisBreak &b) { return a.lengthNs() > b.lengthNs(); });
        breaks.resize(MaxBreaks);
        std::sort(breaks.begin(), breaks.end(),
            [](const AxisBreak &a, const AxisBreak &b) { return a.startNs < b.startNs; });
    }
    return breaks;
}

const AxisBreak *breakAtPx(const TimeAxis &axis, double px)
{
    for (const AxisBreak &b : axis.breaks()) {
        if (axis.compresses(b) && px >= axis.toPx(b.startNs) && px < axis.toPx(b.endNs))
            return &b;
    }
    return nullptr;
}

} // namespace stepscope::ui::timeline
