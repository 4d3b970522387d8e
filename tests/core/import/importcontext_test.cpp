// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Where a diagnostic says it comes from: paths relative to the opened folder, and the opened
// folder itself by its name (it read "." before: "info: .: no profiler_info_<rank>.json").

#include "import/importcontext.h"

#include <gtest/gtest.h>

#include <filesystem>

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

TEST(ImportContext, ASymlinkedRankFolderKeepsItsName)
{
    // r0 -> a folder elsewhere: its files were named by their file name alone, so four
    // diagnostics of two ranks all read "trace_view.json".
    namespace fs = std::filesystem;
    const fs::path tmp = fs::temp_directory_path() / "stepscope_ctx_symlink";
    fs::remove_all(tmp);
    fs::create_directories(tmp / "elsewhere/rank0_ascend_pt");
    fs::create_directories(tmp / "job");
    fs::create_directory_symlink(tmp / "elsewhere/rank0_ascend_pt", tmp / "job/r0");
    import::ImportContext ctx;
    ctx.root = tmp / "job";
    EXPECT_EQ(ctx.relative(tmp / "job/r0/trace_view.json"), "r0/trace_view.json");
    EXPECT_EQ(ctx.relative(tmp / "job/r0"), "r0");
    EXPECT_EQ(ctx.relative(tmp / "job"), "job");
    fs::remove_all(tmp);
}
