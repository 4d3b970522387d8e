// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/trace.h"

#include <vector>

namespace stepscope::import {

/// One piece of a rank's profile read by one importer (a Kineto capture, a PROF device
/// timeline, MindSpore legacy files, a memory export).
struct TracePart
{
    model::Trace trace;
    /// False when the part's clock cannot be related to the first part's (MindSpore's device
    /// tick counter next to a CANN wall-clock timeline): it is then shifted so that its
    /// earliest event starts with the first part's earliest event.
    bool sameClock = true;
};

/// Merges the parts of one rank into one trace.
///
/// The result's origin is the earliest origin of the parts on the first part's clock; every
/// other same-clock part is shifted by the difference of origins, so absolute times are
/// kept. Tracks with the same identity (kind, process id and name, thread id and name) are
/// merged into one track; strings and args are re-interned, flows remapped, steps, counters
/// and memory times shifted. Metadata: the first non-empty value wins, source files and
/// extra facts are united. A single same-clock part is returned unchanged (no copy).
/// `rank` becomes the result's rank.
model::Trace mergeTraces(std::vector<TracePart> parts, std::int32_t rank);

} // namespace stepscope::import
