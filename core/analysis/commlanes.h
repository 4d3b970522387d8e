// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/trace.h"

namespace stepscope::analysis {

/// Whether the trace's communication operators have lanes of their own (Ascend's HCCL groups,
/// a non-empty CommunicationGroup track). Then they, not the communication tasks on device
/// streams, are the communication: those tasks are the operators' pieces (docs/metrics.md).
bool hasCommunicationLanes(const model::Trace &trace);

} // namespace stepscope::analysis
