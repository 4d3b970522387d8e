// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// The `Task Type` values docs/formats.md lists for trace_view.json (§2.5) and CANN PROF
// timelines (§3), one category for both readers.
#include "import/ascend/tasktype.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

using namespace stepscope;
using import::ascend::processCategory;
using import::ascend::taskTypeCategory;
using model::Category;

TEST(AscendTaskType, EveryListedTaskTypeHasItsCategory)
{
    const std::vector<std::pair<std::string, Category>> expected = {
        // §2.5, torch_npu 2025 and the 2024-01 mstt fragments
        {"AI_CORE", Category::Compute},
        {"MIX_AIV", Category::Compute},
        {"SDMA", Category::Communication},
        {"Write Value", Category::Communication},
        {"Notify Wait", Category::Communication},
        {"EVENT_RECORD_SQE", Category::Communication},
        {"EVENT_WAIT_SQE", Category::Communication},
        // MEMCPY_ASYNC tasks by their queue entry (the DB export names them MEMCPY_ASYNC)
        {"SDMA_SQE", Category::Memcpy},
        {"PCIE_DMA_SQE", Category::Memcpy},
        {"PLACE_HOLDER_SQE", Category::Other},
        {"DSA_SQE", Category::Compute},
        {"Other", Category::Compute},
        {"AI_CPU", Category::Compute},
        // §3, CANN PROF (upper case)
        {"NOTIFY_WAIT", Category::Communication},
        {"NOTIFY_RECORD", Category::Communication},
        {"REDUCE_ASYNC_V2", Category::Communication},
        {"MEMCPY_ASYNC", Category::Memcpy},
        {"EVENT_RECORD", Category::Communication},
        {"EVENT_WAIT", Category::Communication},
        {"EVENT_RESET", Category::Communication},
        // Accelerator cores named as task types
        {"AI_VECTOR_CORE", Category::Compute},
        {"MIX_AIC", Category::Compute},
        {"AIV", Category::Compute},
        {"AIC", Category::Compute},
    };
    for (const auto &[type, category] : expected)
        EXPECT_EQ(taskTypeCategory(type), category) << type;
}

TEST(AscendTaskType, UntypedEventsTakeTheirProcesssCategory)
{
    EXPECT_EQ(processCategory("HCCL"), Category::Communication);
    EXPECT_EQ(processCategory("CANN"), Category::Runtime);
    EXPECT_EQ(processCategory("Overlap Analysis"), Category::Annotation);
    EXPECT_EQ(processCategory("Ascend Hardware"), Category::Other);
}
