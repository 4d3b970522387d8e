// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "rankpasses.h"

#include "steps.h"
#include "util/parallel.h"

namespace stepscope::analysis {

namespace {

RankPasses runPasses(const model::Trace &trace, const RunConfig &config)
{
    RankPasses r;
    detectSteps(trace, &r.notes);
    BreakdownPass pass = computeBreakdownPass(trace, &r.notes);
    r.breakdowns = std::move(pass.steps);
    r.lanes = std::move(pass.segments);
    if (!trace.memory.empty())
        r.memory = summarizeMemory(trace, config, &r.notes);
    if (KernelSummary k = summarizeKernels(trace); k.count > 0 || !k.opTypes.empty())
        r.kernels = std::move(k);
    return r;
}

} // namespace

std::vector<RankPasses> runRankPasses(const model::Session &session, const RunConfig &config,
    const util::CancelToken *cancel, unsigned threads)
{
    std::vector<RankPasses> out(session.traces.size());
    util::parallelFor(out.size(), threads, [&](std::size_t i) {
        if (cancel != nullptr && cancel->isCancelled())
            throw util::Cancelled {};
        out[i] = runPasses(*session.traces[i], config);
    });
    return out;
}

} // namespace stepscope::analysis
