// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/analysissummary.h"
#include "analysis/kpis.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace stepscope;

namespace {

/// One rank with steps of 100, 200 and 300 ms (compute for the first half of each) and an
/// allocator curve peaking at 6 GiB allocated / 8 GiB reserved.
std::shared_ptr<model::Trace> rankTrace(
    std::int32_t rank, const std::string &device, std::int32_t world)
{
    model::TraceBuilder b;
    model::TrackInfo s;
    s.kind = model::TrackKind::DeviceStream;
    const auto stream = b.addTrack(s);
    std::int64_t t = 0;
    for (int i = 1; i <= 3; ++i) {
        const std::int64_t d = i * 100'000'000;
        b.trace().steps.push_back(model::Step {i, t, t + d});
        b.track(stream).add(t, d / 2, b.intern("gemm"), model::Category::Compute);
        t += d;
    }
    b.trace().rank = rank;
    b.trace().metadata.device = device;
    b.trace().metadata.worldSize = world;
    model::MemoryCurve c;
    c.component = "PTA";
    c.timestampsNs = {0, 10, 20};
    c.allocatedBytes = {1LL << 30, 6LL << 30, 2LL << 30};
    c.reservedBytes = {8LL << 30, 8LL << 30, 8LL << 30};
    b.trace().memory.curves.push_back(c);
    return std::make_shared<model::Trace>(b.finish().trace);
}

model::Session session(const std::string &device = "NVIDIA A100-SXM4-80GB", std::int32_t world = 0)
{
    model::Session s;
    s.traces.push_back(rankTrace(0, device, world));
    return s;
}

const analysis::Kpi &kpi(const analysis::Kpis &k, const std::string &key)
{
    const auto *p = k.find(key);
    EXPECT_NE(p, nullptr) << key;
    static analysis::Kpi none;
    return p ? *p : none;
}

} // namespace

TEST(Kpis, WithoutRunConfigOnlyWhatTheProfileSays)
{
    const auto k = analysis::computeKpis(session(), analysis::RunConfig {});
    ASSERT_EQ(k.items.size(), 10u);
    EXPECT_DOUBLE_EQ(*kpi(k, "step_time_mean_us").value, 200'000);
    EXPECT_DOUBLE_EQ(*kpi(k, "step_time_median_us").value, 200'000);
    EXPECT_DOUBLE_EQ(*kpi(k, "step_time_p90_us").value, 280'000); // 200 + 0.8 × 100 ms
    EXPECT_EQ(
        kpi(k, "samples_per_s").missingReason, "global_batch_size is not set in the run config");
    EXPECT_EQ(
        kpi(k, "tokens_per_s").missingReason, "global_batch_size is not set in the run config");
    EXPECT_EQ(kpi(k, "mfu").missingReason,
        "flops_per_sample (or parameters with model_type \"transformer_lm\") is not set in the "
        "run config");
    EXPECT_DOUBLE_EQ(*kpi(k, "comm_share").value, 0.0);
    EXPECT_DOUBLE_EQ(*kpi(k, "data_wait_share").value, 0.0);
    EXPECT_DOUBLE_EQ(*kpi(k, "memory_peak_allocated_bytes").value, static_cast<double>(6LL << 30));
    EXPECT_DOUBLE_EQ(*kpi(k, "memory_peak_reserved_bytes").value, static_cast<double>(8LL << 30));
    EXPECT_EQ(k.peakSource, "NVIDIA A100 datasheet: 312 TFLOPS BF16 tensor");
}

TEST(Kpis, WithRunConfigThroughputAndMfu)
{
    analysis::RunConfig c;
    c.parameters = 1e9;
    c.modelType = "transformer_lm";
    c.globalBatchSize = 64;
    c.sequenceLength = 1000;
    c.deviceCount = 8;
    const auto k = analysis::computeKpis(session(), c);
    // 64 samples per 0.2 s; 64 000 tokens per step.
    EXPECT_DOUBLE_EQ(*kpi(k, "samples_per_s").value, 320);
    EXPECT_DOUBLE_EQ(*kpi(k, "tokens_per_s").value, 320'000);
    // 6 × 1e9 × 64 000 FLOP / (0.2 s × 312e12 × 8)
    EXPECT_NEAR(*kpi(k, "mfu").value, 6e9 * 64000 / (0.2 * 312e12 * 8), 1e-12);
    ASSERT_TRUE(k.peakFlopsPerDevice.has_value());
    EXPECT_DOUBLE_EQ(*k.peakFlopsPerDevice, 312e12);
}

TEST(Kpis, EachMissingInputHasItsReason)
{
    analysis::RunConfig c;
    c.parameters = 1e9;
    c.modelType = "transformer_lm";
    c.globalBatchSize = 64;
    auto k = analysis::computeKpis(session(), c);
    EXPECT_EQ(kpi(k, "tokens_per_s").missingReason, "sequence_length is not set in the run config");
    EXPECT_EQ(kpi(k, "mfu").missingReason, "sequence_length is not set in the run config");

    c.sequenceLength = 1000;
    k = analysis::computeKpis(session(), c);
    EXPECT_EQ(kpi(k, "mfu").missingReason,
        "device_count is not set in the run config and the profile does not give the world size");
    // The world size of the profile is enough.
    k = analysis::computeKpis(session("NVIDIA A100-SXM4-80GB", 2), c);
    EXPECT_TRUE(kpi(k, "mfu").value.has_value());
    EXPECT_EQ(*k.deviceCount, 2);

    c.deviceCount = 1;
    k = analysis::computeKpis(session("Mystery Accelerator 9000"), c);
    EXPECT_EQ(kpi(k, "mfu").missingReason,
        "no built-in peak for device \"Mystery Accelerator 9000\"; set peak_flops in the run "
        "config");
    k = analysis::computeKpis(session(""), c);
    EXPECT_EQ(kpi(k, "mfu").missingReason,
        "the profile does not name the device; set peak_flops or device in the run config");
    c.peakFlops = 100e12;
    k = analysis::computeKpis(session(""), c);
    EXPECT_NEAR(*kpi(k, "mfu").value, 6e9 * 64000 / (0.2 * 100e12), 1e-12);
    EXPECT_EQ(k.peakSource, "run config");

    model::Session empty;
    k = analysis::computeKpis(empty, c);
    EXPECT_EQ(
        kpi(k, "step_time_mean_us").missingReason, "the profile has no steps with a duration");
    EXPECT_EQ(kpi(k, "memory_peak_allocated_bytes").missingReason,
        "the profile has no memory data (profile_memory off)");
}

TEST(Kpis, SlowestRankSetsTheStepTime)
{
    model::Session s = session();
    auto slow = rankTrace(1, "NVIDIA A100-SXM4-80GB", 2);
    slow->steps[1].endNs += 100'000'000; // step 2 lasts 300 ms on rank 1
    s.traces.push_back(slow);
    const auto k = analysis::computeKpis(s, analysis::RunConfig {});
    EXPECT_NEAR(*kpi(k, "step_time_mean_us").value, (100'000.0 + 300'000 + 300'000) / 3, 1e-6);
}

TEST(PeakFlops, DevicesAsTracesNameThem)
{
    EXPECT_DOUBLE_EQ(analysis::lookupPeakFlops("Tesla V100-DGXS-32GB", "")->flops, 125e12);
    EXPECT_DOUBLE_EQ(analysis::lookupPeakFlops("Tesla V100-PCIE-16GB", "fp16")->flops, 112e12);
    EXPECT_DOUBLE_EQ(analysis::lookupPeakFlops("NVIDIA H100 80GB HBM3", "bf16")->flops, 989.5e12);
    EXPECT_DOUBLE_EQ(analysis::lookupPeakFlops("NVIDIA H100 PCIe", "bf16")->flops, 756e12);
    EXPECT_DOUBLE_EQ(analysis::lookupPeakFlops("NVIDIA H200", "fp8")->flops, 1979e12);
    EXPECT_DOUBLE_EQ(
        analysis::lookupPeakFlops("AMD Instinct MI300X", "bfloat16")->flops, 1307.4e12);
    EXPECT_DOUBLE_EQ(
        analysis::lookupPeakFlops("AMD Instinct MI250X / MI250", "fp16")->flops, 383e12);
    EXPECT_DOUBLE_EQ(analysis::lookupPeakFlops("Ascend910B2", "")->flops, 376e12);
    EXPECT_DOUBLE_EQ(analysis::lookupPeakFlops("Ascend910A", "fp16")->flops, 256e12);
    EXPECT_EQ(analysis::lookupPeakFlops("Tesla V100-SXM2-32GB", "bf16"), nullptr); // no bf16 units
    EXPECT_EQ(analysis::lookupPeakFlops("", "bf16"), nullptr);
    for (const auto &e : analysis::peakFlopsTable()) {
        EXPECT_GT(e.flops, 1e12) << e.device;
        EXPECT_FALSE(e.source.empty()) << e.device;
    }
}

TEST(RunConfig, ParsesTheDocumentedSchemaAndReportsBadValues)
{
    model::LoadReport report;
    const auto c = analysis::parseRunConfig(
        R"({"parameters": 7e9, "global_batch_size": 1024, "sequence_length": "4096",
            "device_count": 16, "precision": "BF16", "optimizer": "AdamW",
            "peak_flops": -1, "training": "yes", "colour": "blue"})",
        "stepscope.json", &report);
    EXPECT_DOUBLE_EQ(*c.parameters, 7e9);
    EXPECT_DOUBLE_EQ(*c.globalBatchSize, 1024);
    EXPECT_DOUBLE_EQ(*c.sequenceLength, 4096);
    EXPECT_EQ(*c.deviceCount, 16);
    EXPECT_EQ(c.precision, "bf16");
    EXPECT_EQ(c.optimizer, "adamw");
    EXPECT_FALSE(c.peakFlops.has_value());
    EXPECT_TRUE(c.training);
    EXPECT_EQ(c.source, "stepscope.json");
    ASSERT_EQ(report.diagnostics().size(), 3u);
    EXPECT_EQ(report.diagnostics()[0].file, "stepscope.json");
    std::string all;
    for (const auto &d : report.diagnostics())
        all += d.message + "\n";
    EXPECT_NE(all.find("`peak_flops` must be a positive number"), std::string::npos) << all;
    EXPECT_NE(all.find("`training` must be true or false"), std::string::npos) << all;
    EXPECT_NE(all.find("unknown run-config key `colour`"), std::string::npos) << all;

    model::LoadReport bad;
    const auto d = analysis::parseRunConfig("{not json", "x.json", &bad);
    EXPECT_FALSE(d.parameters.has_value());
    ASSERT_EQ(bad.diagnostics().size(), 1u);
    EXPECT_NE(bad.diagnostics()[0].message.find("not valid JSON"), std::string::npos);
    EXPECT_EQ(bad.diagnostics()[0].severity, model::Severity::Error); // --config stops on it
}

TEST(Kpis, SixNTokensOnlyForTransformerLanguageModels)
{
    // A ResNet with a parameter count: the 6·N·tokens rule would give a number, and a wrong
    // one (issue 15: "MFU 0.0 %"), so MFU asks for FLOPs per sample instead.
    analysis::RunConfig c;
    c.parameters = 25.6e6;
    c.globalBatchSize = 64;
    c.sequenceLength = 1;
    c.deviceCount = 8;
    auto k = analysis::computeKpis(session(), c);
    EXPECT_FALSE(kpi(k, "mfu").value.has_value());
    EXPECT_EQ(kpi(k, "mfu").missingReason,
        "MFU from 6 × parameters × tokens holds only for transformer language models: set "
        "model_type to \"transformer_lm\" if it is one, else flops_per_sample in the run "
        "config");
    c.modelType = "cnn";
    k = analysis::computeKpis(session(), c);
    EXPECT_FALSE(kpi(k, "mfu").value.has_value());
    // FLOPs per sample work for any model: 3 × 4.1e9 (ResNet-50 forward and backward) × 64
    // samples per 0.2 s step over 8 × 312 TFLOP/s.
    c.flopsPerSample = 3 * 4.1e9;
    k = analysis::computeKpis(session(), c);
    ASSERT_TRUE(kpi(k, "mfu").value.has_value());
    EXPECT_NEAR(*kpi(k, "mfu").value, 3 * 4.1e9 * 64 / (0.2 * 312e12 * 8), 1e-15);
    c.globalBatchSize.reset();
    k = analysis::computeKpis(session(), c);
    EXPECT_EQ(kpi(k, "mfu").missingReason, "global_batch_size is not set in the run config");

    model::LoadReport report;
    const auto parsed =
        analysis::parseRunConfig(R"({"model_type": "Transformer_LM", "flops_per_sample": 1.2e10})",
            "stepscope.json", &report);
    EXPECT_TRUE(report.diagnostics().empty());
    EXPECT_EQ(parsed.modelType, "transformer_lm");
    EXPECT_TRUE(parsed.isTransformerLm());
    EXPECT_DOUBLE_EQ(*parsed.flopsPerSample, 1.2e10);
}

TEST(RunConfig, FoundBesideTheProfile)
{
    const auto dir = std::filesystem::temp_directory_path() / "stepscope_h4_runconfig";
    std::filesystem::create_directories(dir);
    std::filesystem::remove(dir / "stepscope.json");
    EXPECT_FALSE(analysis::findRunConfig(dir).has_value());
    {
        std::ofstream(dir / "stepscope.json") << R"({"global_batch_size": 32})";
    }
    ASSERT_TRUE(analysis::findRunConfig(dir).has_value());
    EXPECT_EQ(*analysis::findRunConfig(dir / "trace.json"), dir / "stepscope.json");
    const auto c = analysis::loadRunConfig(dir / "stepscope.json", nullptr);
    EXPECT_DOUBLE_EQ(*c.globalBatchSize, 32);
    model::LoadReport report;
    analysis::loadRunConfig(dir / "missing.json", &report);
    EXPECT_EQ(report.diagnostics().size(), 1u);
    std::filesystem::remove_all(dir);
}

TEST(Kpis, SessionOverloadIsTheAnalysisKpisWithoutAPassOfItsOwn)
{
    // computeKpis(session, config) is analyzeSession's KPIs: one breakdown pass per trace
    // (the analysis' own), and the same numbers as the analysis every panel reads.
    analysis::RunConfig c;
    c.globalBatchSize = 32;
    c.sequenceLength = 1024;
    c.parameters = 1e9;
    c.modelType = "transformer_lm";
    const model::Session s = session("NVIDIA A100-SXM4-80GB", 2);
    const std::uint64_t before = analysis::breakdownPassCount();
    const analysis::Kpis k = analysis::computeKpis(s, c);
    EXPECT_EQ(analysis::breakdownPassCount() - before, s.traces.size());
    const analysis::Kpis shared = analysis::analyzeSession(s, c).kpis;
    ASSERT_EQ(k.items.size(), shared.items.size());
    for (std::size_t i = 0; i < k.items.size(); ++i) {
        EXPECT_EQ(k.items[i].key, shared.items[i].key);
        EXPECT_EQ(k.items[i].value, shared.items[i].value) << k.items[i].key;
        EXPECT_EQ(k.items[i].missingReason, shared.items[i].missingReason) << k.items[i].key;
    }
    EXPECT_DOUBLE_EQ(kpi(k, "step_time_mean_us").value.value_or(0), 200'000.0);
    EXPECT_TRUE(kpi(k, "mfu").value.has_value());
}

// A device count of 1e300 used to be cast to int64 (UBSan: float-cast-overflow); it is
// ignored with a diagnostic.
TEST(RunConfig, DeviceCountBeyondInt64IsIgnored)
{
    model::LoadReport report;
    const auto c = analysis::parseRunConfig(R"({"device_count": 1e300})", "run.json", &report);
    EXPECT_FALSE(c.deviceCount.has_value());
    ASSERT_EQ(report.diagnostics().size(), 1u);
    EXPECT_NE(
        report.diagnostics()[0].message.find("`device_count` is beyond int64"), std::string::npos);
}

/// The throughput a one-line view heads with: tokens/s when the config gives a sequence
/// length, samples/s for a CNN (batch only), and in compare the one both sides have.
TEST(Kpis, HeadlineThroughputIsTokensElseSamples)
{
    analysis::RunConfig cnn;
    cnn.globalBatchSize = 64;
    analysis::RunConfig lm = cnn;
    lm.sequenceLength = 1000;
    const auto none = analysis::computeKpis(session(), analysis::RunConfig {});
    const auto samples = analysis::computeKpis(session(), cnn);
    const auto tokens = analysis::computeKpis(session(), lm);
    EXPECT_EQ(analysis::headlineThroughputKey(tokens), "tokens_per_s");
    EXPECT_EQ(analysis::headlineThroughputKey(samples), "samples_per_s");
    EXPECT_EQ(analysis::headlineThroughputKey(none), "tokens_per_s"); // "tok/s —", with why
    EXPECT_EQ(analysis::headlineThroughputKey(tokens, &tokens), "tokens_per_s");
    EXPECT_EQ(analysis::headlineThroughputKey(tokens, &samples), "samples_per_s");
    EXPECT_EQ(analysis::headlineThroughputKey(samples, &none), "tokens_per_s");
}
