// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "skippedsteps.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepscope::analysis {

using model::LogSeries;
using model::LogSeriesKind;

namespace {

void addSkipped(const LogSeries &s, SkippedSteps &out)
{
    double previous = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const double v = s.values[i];
        if (s.duplicate[i] != 0 || !std::isfinite(v))
            continue;
        const double added = s.cumulative ? v - previous : v;
        previous = s.cumulative ? v : previous;
        if (added <= 0)
            continue;
        out.steps.push_back(s.steps[i]);
        out.lines.push_back(s.lines[i]);
        out.values.push_back(v);
        // At least one per mark; a running total from a file is bounded before it is summed.
        out.count += std::max<std::int64_t>(1, std::llround(std::min(added, 1e15)));
    }
}

} // namespace

SkippedSteps skippedSteps(const LogSeries &series)
{
    SkippedSteps out;
    addSkipped(series, out);
    return out;
}

std::vector<const LogSeries *> skippedSources(const model::TrainingLog &log, std::uint32_t run)
{
    // One rank's account: ranks that each print the run's skipped steps print the same ones.
    std::int32_t rank = std::numeric_limits<std::int32_t>::max();
    for (const LogSeries &s : log.series) {
        if (s.run == run && s.kind == LogSeriesKind::Skipped)
            rank = std::min(rank, s.rank);
    }
    std::vector<const LogSeries *> events;
    std::vector<const LogSeries *> totals;
    for (const LogSeries &s : log.series) {
        if (s.run != run || s.kind != LogSeriesKind::Skipped || s.rank != rank)
            continue;
        if (!s.countedIn.empty() && log.find(s.countedIn, run, s.rank))
            continue;
        (s.cumulative ? totals : events).push_back(&s);
    }
    return events.empty() ? totals : events;
}

SkippedSteps skippedSteps(const model::TrainingLog &log, std::uint32_t run)
{
    SkippedSteps out;
    for (const LogSeries *s : skippedSources(log, run))
        addSkipped(*s, out);
    return out;
}

} // namespace stepscope::analysis
