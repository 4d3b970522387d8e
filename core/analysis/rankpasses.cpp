// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "rankpasses.h"

#include "steps.h"
#include "util/parallel.h"

namespace stepscope::analysis {

namespace {

/// A rank's passes read the trace only, each on its own: a rank's passes may run at once
/// (a single large rank), as do those of many ranks.
enum Pass : std::uint8_t { StepsAndBreakdown, Memory, Kernels, PassCount };

/// One piece of work: some of a rank's passes, run in pass order.
struct Task
{
    std::size_t rank = 0;
    std::uint8_t first = 0;
    std::uint8_t end = 0; ///< one past the last pass
};

void runPass(Pass pass, const model::Trace &trace, const RunConfig &config, RankPasses &r,
    model::LoadReport &notes)
{
    switch (pass) {
    case StepsAndBreakdown: {
        detectSteps(trace, &notes);
        BreakdownPass breakdown = computeBreakdownPass(trace, &notes);
        r.breakdowns = std::move(breakdown.steps);
        r.lanes = std::move(breakdown.segments);
        break;
    }
    case Memory:
        if (!trace.memory.empty())
            r.memory = summarizeMemory(trace, config, &notes);
        break;
    case Kernels:
        if (KernelSummary k = summarizeKernels(trace); k.count > 0 || !k.opTypes.empty())
            r.kernels = std::move(k);
        break;
    case PassCount:
        break;
    }
}

} // namespace

std::vector<RankPasses> runRankPasses(const model::Session &session, const RunConfig &config,
    const util::CancelToken *cancel, unsigned threads, std::uint64_t passesAtOnceUpToEvents)
{
    std::vector<RankPasses> out(session.traces.size());
    std::vector<Task> tasks;
    for (std::size_t rank = 0; rank < out.size(); ++rank) {
        if (session.traces[rank]->eventCount() > passesAtOnceUpToEvents) {
            tasks.push_back({rank, 0, PassCount});
            continue;
        }
        for (std::uint8_t pass = 0; pass < PassCount; ++pass)
            tasks.push_back({rank, pass, static_cast<std::uint8_t>(pass + 1)});
    }
    // Each task notes into its own report; a rank's reports are merged in task order, as if
    // one thread had run the rank's passes one after the other.
    std::vector<model::LoadReport> notes(tasks.size());
    util::parallelFor(tasks.size(), threads, [&](std::size_t k) {
        if (cancel != nullptr && cancel->isCancelled())
            throw util::Cancelled {};
        const Task &task = tasks[k];
        for (std::uint8_t pass = task.first; pass < task.end; ++pass)
            runPass(static_cast<Pass>(pass), *session.traces[task.rank], config, out[task.rank],
                notes[k]);
    });
    for (std::size_t k = 0; k < tasks.size(); ++k)
        out[tasks[k].rank].notes.merge(notes[k]);
    return out;
}

} // namespace stepscope::analysis
