// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "steplist.h"

#include "util/saturate.h"

#include <cstdio>
#include <map>
#include <sstream>
#include <utility>

namespace stepscope::analysis {

namespace {

/// A step's start, or what stands for one no timeline measured (StepBreakdown::startMeasured).
struct Start
{
    bool measured = true;
    std::int64_t ns = 0;
};

std::string line(std::int64_t step, Start startNs, std::int64_t durationNs, const char *how)
{
    char start[48] = "start unknown (no timeline)";
    if (startNs.measured)
        std::snprintf(start, sizeof start, "start %lld ns", static_cast<long long>(startNs.ns));
    char text[200];
    std::snprintf(text, sizeof text, "  step %lld: %s, duration %.3f us (%s)\n",
        static_cast<long long>(step), start, static_cast<double>(durationNs) / 1000.0, how);
    return text;
}

const char *basisText(const StepBreakdown &b)
{
    if (b.warmUp) // warmup.h: kept here as measured, left out of the KPIs
        return b.basis == BreakdownBasis::ProfilerTable
            ? "profiler's table; warm-up, left out of the KPIs"
            : "timeline; warm-up, left out of the KPIs";
    return b.basis == BreakdownBasis::ProfilerTable ? "profiler's table" : "timeline";
}

} // namespace

std::string stepListText(const model::Session &session, const SessionAnalysis &analysis)
{
    // Breakdowns come by rank, then step.
    std::map<std::int32_t, std::map<std::int64_t, const StepBreakdown *>> byRank;
    for (const StepBreakdown &b : analysis.breakdowns)
        byRank[b.rank].emplace(b.step, &b);
    std::ostringstream out;
    for (const auto &t : session.traces) {
        std::map<std::int64_t, const StepBreakdown *> unlisted = byRank[t->rank];
        std::ostringstream lines;
        std::size_t count = 0;
        for (const model::Step &s : t->steps) {
            const std::int64_t start = util::satAdd(t->originNs, s.startNs);
            const auto it = unlisted.find(s.number);
            ++count;
            if (it == unlisted.end()) {
                lines << line(s.number, Start {true, start}, util::satSub(s.endNs, s.startNs),
                    "timeline marker; left out of the analysis");
                continue;
            }
            const StepBreakdown &b = *it->second;
            lines << line(s.number, Start {b.startMeasured, start}, b.durationNs(), basisText(b));
            unlisted.erase(it);
        }
        for (const auto &[step, b] : unlisted) {
            ++count;
            const Start start {b->startMeasured, util::satAdd(t->originNs, b->startNs)};
            lines << line(step, start, b->durationNs(), basisText(*b));
        }
        if (count != 0)
            out << "rank " << t->rank << " steps (" << count << "):\n" << lines.str();
    }
    return out.str();
}

} // namespace stepscope::analysis
