// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "warmup.h"

#include "model/loadreport.h"
#include "units.h"
#include "util/joinfirst.h"

#include <algorithm>
#include <map>
#include <string>

namespace stepscope::analysis {

void markWarmUpSteps(std::vector<StepBreakdown> &breakdowns, model::LoadReport &notes)
{
    std::map<std::int32_t, std::vector<StepBreakdown *>> byRank;
    for (StepBreakdown &b : breakdowns)
        if (!b.outsideShares() && b.durationNs() > 0)
            byRank[b.rank].push_back(&b);
    // Per step id, the ranks whose first step it is and how long it and their median were.
    std::map<std::int64_t, std::vector<std::string>> found;
    for (auto &[rank, steps] : byRank) {
        if (steps.size() < WarmUpMinOthers + 1)
            continue;
        const auto first = std::min_element(steps.begin(), steps.end(),
            [](const StepBreakdown *a, const StepBreakdown *b) { return a->step < b->step; });
        std::vector<std::int64_t> others;
        for (const StepBreakdown *s : steps)
            if (s != *first)
                others.push_back(s->durationNs());
        const auto mid = others.begin() + static_cast<std::ptrdiff_t>(others.size() / 2);
        std::nth_element(others.begin(), mid, others.end());
        const std::int64_t medianNs = *mid; // the upper median of an even count
        if (static_cast<double>((*first)->durationNs())
            <= WarmUpFactor * static_cast<double>(medianNs))
            continue;
        (*first)->warmUp = true;
        found[(*first)->step].push_back("rank " + std::to_string(rank) + " ("
            + formatDuration((*first)->durationNs()) + ", median " + formatDuration(medianNs)
            + ")");
    }
    for (const auto &[step, ranks] : found) {
        const std::string stepName =
            step >= 0 ? "Step " + std::to_string(step) : std::string("The first step");
        notes.add(model::Severity::Info, "steps",
            stepName + " lasts over " + std::to_string(static_cast<int>(WarmUpFactor))
                + " times the median of the rank's other steps on " + util::joinFirst(ranks, 4)
                + (ranks.size() > 4 ? " (" + std::to_string(ranks.size()) + " ranks)" : "")
                + ": a warm-up step (graph compilation, first allocations, communicator "
                  "set-up). The KPIs and the bottlenecks leave it out; the Steps table, "
                  "summary --json (\"warm_up\": true) and compare keep it");
    }
}

} // namespace stepscope::analysis
