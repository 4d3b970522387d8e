// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Kineto event categories that decide what the step breakdown counts as device work.
#include "analysis/breakdown.h"
#include "import/importcontext.h"
#include "import/kineto/kinetotrace.h"
#include "model/loadreport.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace stepscope;

TEST(KinetoCategories, CudaSyncOnAStreamIsNotCompute)
{
    // PyTorch 2.x writes "cuda_sync" events ("Stream Sync") on the GPU stream while it waits;
    // they were Other, which the breakdown counts as compute on device streams.
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "stepscope_kineto_cudasync";
    fs::create_directories(dir);
    const fs::path f = dir / "rank0.pt.trace.json";
    std::ofstream(f, std::ios::binary)
        << R"({"schemaVersion":1,"deviceProperties":[],"traceEvents":[)"
           R"({"ph":"X","cat":"cpu_op","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},)"
           R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":"stream 7","ts":100,"dur":200},)"
           R"({"ph":"X","cat":"cuda_sync","name":"Stream Sync","pid":0,"tid":"stream 7","ts":300,"dur":500},)"
           R"({"ph":"M","name":"process_name","pid":0,"args":{"name":"GPU 0"}},)"
           R"({"ph":"M","name":"process_labels","pid":0,"args":{"labels":"GPU 0"}}]})";
    model::LoadReport report;
    import::ImportContext ctx;
    ctx.root = dir;
    ctx.report = &report;
    model::TraceBuilder b;
    ASSERT_TRUE(import::kineto::readTrace(f, ctx, b)) << report.toText();
    const model::Trace t = b.finish().trace;
    fs::remove_all(dir);
    bool sawSync = false;
    for (const model::Track &track : t.tracks) {
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            if (t.strings.view(track.name(i)) == "Stream Sync") {
                sawSync = true;
                EXPECT_EQ(track.category(i), model::Category::Annotation);
                EXPECT_EQ(track.info().kind, model::TrackKind::DeviceStream);
            }
        }
    }
    EXPECT_TRUE(sawSync);
    ASSERT_EQ(t.steps.size(), 1u);
    const auto steps = analysis::computeBreakdowns(t);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].computeNs, 200'000); // the kernel only, not the 500 us sync
}
