// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/trace.h"
#include "timeaxis.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace stepscope::ui::timeline {

/// [start, end) of time in which something is shown (events, steps, counter samples).
using Island = std::pair<std::int64_t, std::int64_t>;

/// The shortest empty stretch the timeline draws as a break: five median steps when the
/// session has steps (a gap between two profiling windows, never the idle between two
/// steps), else a quarter of the session's extent; at least 1 ms.
std::int64_t breakThresholdNs(std::vector<std::int64_t> stepDurationsNs, std::int64_t extentNs);

/// The islands of one trace in its own time: runs of events and of counter samples with no
/// empty stretch of `minGapNs` or more inside (the caller adds its steps). O(events), once
/// per load.
std::vector<Island> traceIslands(const model::Trace &trace, std::int64_t minGapNs);

/// The islands of one sorted series of times (a memory curve's points): runs with no empty
/// stretch of `minGapNs` or more inside.
std::vector<Island> pointIslands(const std::vector<std::int64_t> &sortedNs, std::int64_t minGapNs);

/// The breaks between islands (session-relative: each trace's islands moved by its offset):
/// every empty stretch of at least `minGapNs`, less a margin on each side so that the events
/// next to it stay clear of the break mark. The 32 longest, in time order.
std::vector<AxisBreak> findBreaks(std::vector<Island> islands, std::int64_t minGapNs);

/// The break the axis draws compressed under lane-area pixel x, nullptr when none.
const AxisBreak *breakAtPx(const TimeAxis &axis, double px);

} // namespace stepscope::ui::timeline
