// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Categories of Ascend device tasks, shared by the timelines in Chrome trace form: torch_npu's
// and MindSpore's trace_view.json (docs/formats.md §2.5) and CANN's PROF timelines (§3).

#include "model/category.h"

#include <string_view>

namespace stepscope::import::ascend {

/// A device task by its `Task Type` arg: AI Core, AI CPU, vector and mixed tasks compute;
/// memcpy; the notify, event, SDMA, reduce, write-value and PCIe DMA tasks that move data
/// between cards communication (both the older names and the 2025 `_SQE` ones); else Other.
model::Category taskTypeCategory(std::string_view taskType);

/// The process that holds a timeline's collectives: `HCCL`, or `Communication` as msprof
/// names it since 2025 (its layer "Communication", docs/formats.md §3).
bool isCommunicationProcess(std::string_view processName);

/// An event without `cat` or `Task Type`, by its process: communication (HCCL), CANN
/// runtime, Overlap Analysis annotation, else Other.
model::Category processCategory(std::string_view processName);

} // namespace stepscope::import::ascend
