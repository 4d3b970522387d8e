// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "trace.h"

#include <algorithm>
#include <limits>

namespace stepscope::model {

const double *ReferenceStep::find(const std::string &key) const
{
    for (const auto &[k, v] : valuesUs) {
        if (k == key)
            return &v;
    }
    return nullptr;
}

std::uint64_t Trace::eventCount() const
{
    std::uint64_t n = 0;
    for (const Track &t : tracks)
        n += t.size();
    return n;
}

std::size_t Trace::memoryBytes() const
{
    std::size_t bytes = args.memoryBytes();
    // Interned strings: the text plus about 64 bytes of string object and index entry each.
    for (std::size_t i = 0; i < strings.size(); ++i)
        bytes += strings.view(StringId(static_cast<std::uint32_t>(i))).size() + 64;
    for (const Track &t : tracks)
        bytes += t.memoryBytes();
    bytes += flows.capacity() * sizeof(Flow) + eventIds.memoryBytes()
        + memory.allocatorEvents.capacity() * sizeof(AllocatorEvent);
    for (const CounterSeries &c : counters)
        bytes +=
            c.timestampsNs.capacity() * sizeof(std::int64_t) + c.values.capacity() * sizeof(double);
    for (const MemoryCurve &c : memory.curves)
        bytes += (c.timestampsNs.capacity() + c.allocatedBytes.capacity()
                     + c.reservedBytes.capacity() + c.activeBytes.capacity())
            * sizeof(std::int64_t);
    return bytes;
}

std::pair<std::int64_t, std::int64_t> Trace::extent() const
{
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (const Track &t : tracks) {
        if (t.empty())
            continue;
        const auto [a, b] = t.extent();
        lo = std::min(lo, a);
        hi = std::max(hi, b);
    }
    if (lo > hi)
        return {0, 0};
    return {lo, hi};
}

std::optional<EventIds> Trace::idsOf(EventRef event) const
{
    return eventIds.find(event);
}

std::string Trace::checkInvariants() const
{
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        std::string problem = tracks[i].checkInvariants();
        if (!problem.empty())
            return "track " + std::to_string(i) + ": " + problem;
    }
    const auto valid = [&](EventRef r) {
        return r.track.isValid() && r.track.value() < tracks.size()
            && r.index < tracks[r.track.value()].size();
    };
    for (std::size_t i = 0; i < flows.size(); ++i) {
        if (!valid(flows[i].from) || !valid(flows[i].to))
            return "flow " + std::to_string(i) + " points at a missing event";
    }
    std::string idsProblem;
    std::size_t idsSeen = 0;
    eventIds.forEach([&](const EventIds &e) {
        if (idsProblem.empty() && !valid(e.event))
            idsProblem = "event ids " + std::to_string(idsSeen) + " point at a missing event";
        ++idsSeen;
    });
    if (!idsProblem.empty())
        return idsProblem;
    for (std::size_t i = 0; i < memory.allocatorEvents.size(); ++i) {
        if (!valid(memory.allocatorEvents[i].event))
            return "allocator event " + std::to_string(i) + " points at a missing event";
    }
    for (std::size_t i = 1; i < steps.size(); ++i) {
        if (steps[i - 1].startNs > steps[i].startNs)
            return "steps are not sorted by start";
    }
    return {};
}

} // namespace stepscope::model
