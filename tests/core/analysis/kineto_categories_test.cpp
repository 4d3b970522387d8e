// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Kineto event categories that decide what the step breakdown counts as device work.
#include "analysis/breakdown.h"
#include "import/importcontext.h"
#include "import/kineto/kinetotrace.h"
#include "import/loader.h"
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

TEST(KinetoCategories, PyTorchEventsAsABareArrayGetTheSameAnalysis)
{
    // The same PyTorch events as the profiler's object form and as a bare array under another
    // name (how tools re-export them): the array is recognised as a generic Chrome trace, and
    // its Kineto device categories make it "kineto" again, with the TensorBoard breakdown.
    // torch_npu's trace_view.json shares cpu_op but has none of them; its async_npu events
    // make it Ascend's trace view, whatever its name.
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "stepscope_kineto_bare_array";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string events =
        R"({"ph":"X","cat":"cpu_op","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},)"
        R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":300,)"
        R"("args":{"External id":5}},)"
        R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":50,)"
        R"("dur":20,"args":{"correlation":9,"External id":5}},)"
        R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":"stream 7","ts":100,"dur":1200,)"
        R"("args":{"correlation":9,"External id":5}},)"
        R"({"ph":"M","name":"process_labels","pid":0,"args":{"labels":"GPU 0"}})";
    const fs::path object = dir / "rank0.pt.trace.json";
    const fs::path array = dir / "events_dump.json";
    const fs::path npu = dir / "npu_events.json";
    std::ofstream(object, std::ios::binary) << R"({"traceEvents":[)" << events << "]}";
    std::ofstream(array, std::ios::binary) << "[" << events << "]";
    std::ofstream(npu, std::ios::binary)
        << R"([{"ph":"X","cat":"cpu_op","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":1000},)"
           R"({"ph":"X","cat":"async_npu","name":"aclnnMm","pid":1,"tid":1,"ts":10,"dur":300}])";
    const auto load = [](const fs::path &p) {
        util::Progress progress;
        return import::loadPath(p, progress).session;
    };
    const auto fromObject = load(object);
    const auto fromArray = load(array);
    const auto fromNpu = load(npu);
    fs::remove_all(dir);
    ASSERT_TRUE(fromObject && fromArray && fromNpu);
    ASSERT_EQ(fromObject->traces.size(), 1u);
    ASSERT_EQ(fromArray->traces.size(), 1u) << fromArray->report.toText();
    ASSERT_EQ(fromNpu->traces.size(), 1u) << fromNpu->report.toText();
    EXPECT_EQ(fromArray->format, "kineto");
    EXPECT_EQ(fromArray->traces[0]->metadata.format, "kineto");
    EXPECT_EQ(fromNpu->format, "ascend-fragments");
    EXPECT_EQ(fromNpu->traces[0]->metadata.format, "ascend");

    const auto a = analysis::computeBreakdowns(*fromObject->traces[0]);
    const auto b = analysis::computeBreakdowns(*fromArray->traces[0]);
    ASSERT_EQ(a.size(), 1u);
    ASSERT_EQ(b.size(), 1u);
    ASSERT_TRUE(a[0].tbBreakdown.has_value());
    ASSERT_TRUE(b[0].tbBreakdown.has_value());
    const analysis::TbBreakdown &ta = *a[0].tbBreakdown;
    const analysis::TbBreakdown &tb = *b[0].tbBreakdown;
    EXPECT_EQ(tb.kernelNs, 1'200'000); // gemm, 100-1300 us: the step reaches its kernel
    EXPECT_EQ(tb.runtimeNs, 20'000);
    EXPECT_EQ(tb.endNs - tb.startNs, ta.endNs - ta.startNs);
    EXPECT_EQ(tb.kernelNs, ta.kernelNs);
    EXPECT_EQ(tb.runtimeNs, ta.runtimeNs);
    EXPECT_EQ(tb.cpuExecNs, ta.cpuExecNs);
    EXPECT_EQ(tb.otherNs, ta.otherNs);
    EXPECT_EQ(tb.totalNs(), tb.endNs - tb.startNs);
    EXPECT_EQ(b[0].computeNs, a[0].computeNs);
    EXPECT_FALSE(analysis::computeBreakdowns(*fromNpu->traces[0]).at(0).tbBreakdown.has_value());
}
