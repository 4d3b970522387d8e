// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "tracedsteps.h"

#include "model/loadreport.h"
#include "model/trace.h"
#include "units.h"
#include "util/countof.h"

#include <algorithm>
#include <set>
#include <string>

namespace stepscope::analysis::detail {

void markPartlyTraced(
    std::vector<StepBreakdown> &steps, std::vector<LaneSegment> &segments, const DeviceSpan &span)
{
    const std::int64_t first = span.first;
    const std::int64_t last = span.second;
    bool before = false; // a step lies wholly before the timeline
    bool after = false; // a step lies wholly past it
    for (const StepBreakdown &b : steps) {
        before = before || (b.untraced && b.endNs <= first);
        after = after || (b.untraced && b.startNs >= last);
    }
    std::set<std::int64_t> cut;
    for (StepBreakdown &b : steps) {
        if (b.untraced || b.basis != BreakdownBasis::Timeline)
            continue;
        const bool endsInside = after && b.startNs < last && b.endNs > last;
        const bool beginsInside = before && b.startNs < first && b.endNs > first;
        if (endsInside || beginsInside) {
            b.partlyTraced = true;
            cut.insert(b.step);
        }
    }
    if (cut.empty())
        return;
    segments.erase(std::remove_if(segments.begin(), segments.end(),
                       [&](LaneSegment &s) {
                           if (cut.count(s.step) == 0)
                               return false;
                           s.startNs = std::max(s.startNs, first);
                           s.endNs = std::min(s.endNs, last);
                           return s.endNs <= s.startNs;
                       }),
        segments.end());
}

void noteUntracedSteps(const model::Trace &trace, const std::vector<StepBreakdown> &steps,
    const DeviceSpan &span, model::LoadReport &notes)
{
    std::vector<std::int64_t> untraced;
    std::vector<std::string> partly; // "15 is partly outside it (…)"
    for (const StepBreakdown &b : steps) {
        if (b.untraced)
            untraced.push_back(b.step);
        if (!b.partlyTraced)
            continue;
        const std::int64_t outsideNs = std::max<std::int64_t>(b.endNs - span.second, 0)
            + std::max<std::int64_t>(span.first - b.startNs, 0);
        partly.push_back(std::to_string(b.step) + " is partly outside it ("
            + formatDuration(outsideNs) + " of " + formatDuration(b.durationNs())
            + "; the capture stopped or started inside it)");
    }
    if (untraced.empty()) // a step is partly traced only beside untraced ones
        return;
    std::string message = util::countOf(static_cast<std::int64_t>(untraced.size()), "step", "steps")
        + " of " + std::to_string(steps.size()) + " (" + std::to_string(untraced.front())
        + (untraced.size() > 1 ? " … " + std::to_string(untraced.back()) : "")
        + ") lie outside the device timeline, which the profile records from "
        + formatDuration(span.first) + " to " + formatDuration(span.second)
        + ": with no device task recorded there, the table counts their time as preparing; the "
          "chart marks them, the step lane leaves them empty, and the shares and the findings "
          "leave them out";
    for (const std::string &p : partly)
        message += ". Step " + p
            + ": its figures count the time past the timeline as idle, which nothing measured; "
              "the step lane stops with the timeline, and the shares and the findings leave "
              "the step out";
    notes.add(model::Severity::Warning, "rank " + std::to_string(trace.rank), message);
}

} // namespace stepscope::analysis::detail
