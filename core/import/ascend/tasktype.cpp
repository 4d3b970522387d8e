// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "tasktype.h"

#include "util/text.h"

namespace stepscope::import::ascend {

using model::Category;
using util::startsWith;

Category taskTypeCategory(std::string_view t)
{
    // DSA_SQE: the data-streaming accelerator's kernels (dropout masks), rows of
    // kernel_details.csv as the AI core's are. `Other`: torch_npu of early 2024 typed every AI
    // core task so (docs/formats.md §2.5); both are Ascend's `Computing`.
    if (startsWith(t, "AI_CORE") || startsWith(t, "AI_CPU") || startsWith(t, "AI_VECTOR")
        || startsWith(t, "MIX_") || t == "AIV" || t == "AIC" || t == "DSA_SQE" || t == "Other")
        return Category::Compute;
    // trace_view.json names a MEMCPY_ASYNC task by its queue entry: PCIE_DMA_SQE or SDMA_SQE
    // (docs/formats.md §2.5; the DB export's TASK says MEMCPY_ASYNC). HCCL's own copies are
    // `SDMA` tasks, on its stream.
    if (startsWith(t, "MEMCPY") || startsWith(t, "PCIE_DMA") || t == "SDMA_SQE")
        return Category::Memcpy;
    if (startsWith(t, "Notify") || startsWith(t, "NOTIFY") || t == "Write Value"
        || startsWith(t, "SDMA") || startsWith(t, "EVENT_") || startsWith(t, "REDUCE"))
        return Category::Communication;
    return Category::Other;
}

bool isCommunicationProcess(std::string_view processName)
{
    return processName == "HCCL" || processName == "Communication";
}

Category processCategory(std::string_view processName)
{
    if (isCommunicationProcess(processName))
        return Category::Communication;
    if (processName == "CANN")
        return Category::Runtime;
    if (processName == "Overlap Analysis")
        return Category::Annotation;
    return Category::Other;
}

} // namespace stepscope::import::ascend
