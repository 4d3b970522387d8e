// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Where a diagnostic says it comes from: paths relative to the opened folder, and the opened
// folder itself by its name (it read "." before: "info: .: no profiler_info_<rank>.json").

#include "import/importcontext.h"

#include <gtest/gtest.h>

using namespace stepscope;

TEST(ImportContext, NamesFilesBelowTheRootAndTheRootByItsName)
{
    import::ImportContext ctx;
    ctx.root = "/data/runs/just_output";
    EXPECT_EQ(ctx.relative("/data/runs/just_output/ASCEND_PROFILER_OUTPUT/kernel_details.csv"),
        "ASCEND_PROFILER_OUTPUT/kernel_details.csv");
    EXPECT_EQ(ctx.relative("/data/runs/just_output"), "just_output");
    EXPECT_EQ(ctx.relative("/data/runs/just_output/"), "just_output");
    EXPECT_EQ(ctx.relative("/elsewhere/trace.json"), "trace.json");
    ctx.root = "/data/runs/just_output/";
    EXPECT_EQ(ctx.relative("/data/runs/just_output"), "just_output");
}
