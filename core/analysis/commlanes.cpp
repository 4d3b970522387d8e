// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "commlanes.h"

#include <algorithm>

namespace stepscope::analysis {

bool hasCommunicationLanes(const model::Trace &trace)
{
    return std::any_of(trace.tracks.begin(), trace.tracks.end(), [](const model::Track &t) {
        return t.info().kind == model::TrackKind::CommunicationGroup && !t.empty();
    });
}

} // namespace stepscope::analysis
