// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "tasktype.h"

#include "util/text.h"

namespace stepscope::import::ascend {

using model::Category;
using util::startsWith;

Category taskTypeCategory(std::string_view t)
{
    if (startsWith(t, "AI_CORE") || startsWith(t, "AI_CPU") || startsWith(t, "AI_VECTOR")
        || startsWith(t, "MIX_") || t == "AIV" || t == "AIC")
        return Category::Compute;
    if (startsWith(t, "MEMCPY"))
        return Category::Memcpy;
    if (startsWith(t, "Notify") || startsWith(t, "NOTIFY") || t == "Write Value"
        || startsWith(t, "SDMA") || startsWith(t, "EVENT_") || startsWith(t, "REDUCE")
        || startsWith(t, "PCIE_DMA"))
        return Category::Communication;
    return Category::Other;
}

Category processCategory(std::string_view processName)
{
    if (processName == "HCCL")
        return Category::Communication;
    if (processName == "CANN")
        return Category::Runtime;
    if (processName == "Overlap Analysis")
        return Category::Annotation;
    return Category::Other;
}

} // namespace stepscope::import::ascend
