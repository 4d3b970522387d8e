// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "steptracephases.h"

#include "breakdowntable.h"
#include "util/saturate.h"

#include <algorithm>
#include <map>

namespace stepscope::analysis::detail {

namespace {

bool hasDeviceTasks(const model::Trace &trace)
{
    return std::any_of(trace.tracks.begin(), trace.tracks.end(), [](const model::Track &t) {
        return t.info().kind == model::TrackKind::DeviceStream && t.size() > 0;
    });
}

} // namespace

std::optional<StepTracePhases> stepTracePhases(
    const model::Trace &trace, const std::vector<model::Step> &steps)
{
    if (hasDeviceTasks(trace))
        return std::nullopt;
    std::map<std::int64_t, const model::ReferenceStep *> rows;
    for (const model::ReferenceStep &r : trace.referenceSteps) {
        if (r.kind.empty() && r.step >= 0 && r.find("fp_and_bp") && r.find("iteration_interval"))
            rows.emplace(r.step, &r);
    }
    if (rows.empty())
        return std::nullopt;
    StepTracePhases phases;
    for (const model::Step &step : steps) {
        const auto it = rows.find(step.number);
        if (it == rows.end())
            continue;
        const std::int64_t interval = columnNs(*it->second, "iteration_interval");
        const std::int64_t fpbp = columnNs(*it->second, "fp_and_bp");
        const std::int64_t fpStart = std::min(util::satAdd(step.startNs, interval), step.endNs);
        const std::int64_t fpEnd = std::min(util::satAdd(fpStart, fpbp), step.endNs);
        if (fpStart > step.startNs)
            phases.dataLoading.emplace_back(step.startNs, fpStart);
        if (fpEnd > fpStart)
            phases.compute.emplace_back(fpStart, fpEnd);
    }
    return phases;
}

} // namespace stepscope::analysis::detail
