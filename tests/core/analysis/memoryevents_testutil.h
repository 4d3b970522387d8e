// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Shared by the memory analysis and Memory panel tests: a trace whose allocator events are
// given as (time, address, bytes, the allocator's total after it), as the Kineto importer
// stages `[memory]` instants.

#include "model/trace.h"
#include "model/tracebuilder.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stepscope::testsupport {

struct MemoryEvent
{
    std::int64_t ts = 0;
    std::int64_t addr = 0;
    std::int64_t bytes = 0; ///< > 0 allocated, < 0 freed
    std::int64_t total = 0; ///< Total Allocated after the event
};

/// A host range on the events' thread (for the ops an allocation is named after).
struct HostRange
{
    std::int64_t start = 0;
    std::int64_t dur = 0;
    std::string name;
};

/// One host thread holding `ranges` and a `[memory]` instant per event (device memory), and
/// the allocator curve of the events' totals (PyTorch, cuda:0).
inline model::Trace memoryEventTrace(
    const std::vector<MemoryEvent> &events, const std::vector<HostRange> &ranges = {})
{
    model::TraceBuilder tb;
    const model::TrackId host = tb.addTrack(model::TrackInfo {});
    for (const HostRange &r : ranges)
        tb.track(host).add(r.start, r.dur, tb.intern(r.name), model::Category::HostOp);
    model::MemoryCurve curve;
    curve.component = "PyTorch";
    curve.device = "cuda:0";
    for (const MemoryEvent &e : events) {
        const std::uint32_t index = tb.track(host).add(
            e.ts, 0, tb.intern("[memory]"), model::Category::Other, model::ArgsId(), false);
        tb.addAllocatorEvent(model::AllocatorEvent {{host, index}, e.addr, e.bytes});
        curve.timestampsNs.push_back(e.ts);
        curve.allocatedBytes.push_back(e.total);
    }
    tb.trace().memory.curves.push_back(std::move(curve));
    return std::move(tb.finish().trace);
}

} // namespace stepscope::testsupport
