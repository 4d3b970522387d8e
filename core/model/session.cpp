// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "session.h"

#include <algorithm>
#include <limits>

namespace stepscope::model {

std::int64_t Session::originNs() const
{
    if (traces.empty())
        return 0;
    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    for (const auto &t : traces)
        origin = std::min(origin, t->originNs);
    return origin;
}

std::uint64_t Session::eventCount() const
{
    std::uint64_t n = 0;
    for (const auto &t : traces)
        n += t->eventCount();
    return n;
}

const Trace *Session::traceForRank(std::int32_t rank) const
{
    for (const auto &t : traces) {
        if (t->rank == rank)
            return t.get();
    }
    return nullptr;
}

bool Session::hasContent() const
{
    for (const auto &t : traces) {
        if (t->eventCount() > 0 || !t->steps.empty() || !t->memory.empty()
            || !t->referenceSteps.empty() || !t->counters.empty() || !t->collectives.empty())
            return true;
    }
    return !clusterSteps.empty() || !clusterCollectives.empty() || !trainingLogs.empty();
}

bool Session::memoryOnly() const
{
    return eventCount() == 0 && std::any_of(traces.begin(), traces.end(), [](const auto &t) {
        return !t->memory.empty();
    });
}

} // namespace stepscope::model
