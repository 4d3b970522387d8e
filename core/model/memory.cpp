// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "memory.h"

namespace stepscope::model {

std::string_view memoryCategoryName(MemoryCategory c)
{
    switch (c) {
    case MemoryCategory::Parameter:
        return "parameter";
    case MemoryCategory::OptimizerState:
        return "optimizer_state";
    case MemoryCategory::Input:
        return "input";
    case MemoryCategory::Temporary:
        return "temporary";
    case MemoryCategory::Activation:
        return "activation";
    case MemoryCategory::Gradient:
        return "gradient";
    case MemoryCategory::AutogradDetail:
        return "autograd_detail";
    case MemoryCategory::Unknown:
        return "unknown";
    case MemoryCategory::CommunicationBuffer:
        return "communication_buffer";
    }
    return "unknown";
}

std::uint64_t MemoryData::pointCount() const
{
    std::uint64_t n = categories.timestampsNs.size();
    for (const MemoryCurve &c : curves)
        n += c.timestampsNs.size();
    return n;
}

} // namespace stepscope::model
