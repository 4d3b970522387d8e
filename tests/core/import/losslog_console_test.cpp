// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Console training logs on the real samples (docs/formats.md §10.2–10.5, 10.7). Every number
// below was counted with python3 on the sample files.
#include "import/losslog/losslog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

using namespace stepscope;
using model::LogSeriesKind;

namespace {

const std::string Data = std::string(STEPSCOPE_TEST_DATA) + "/loss_logs/";

model::TrainingLog read(const std::string &rel, model::LoadReport *reportOut = nullptr)
{
    model::LoadReport report;
    model::TrainingLog log = import::losslog::readTrainingLog(Data + rel, report);
    if (reportOut)
        *reportOut = report;
    return log;
}

} // namespace

TEST(LossLogMindFormers, Run0HasAllTwoLineRecords)
{
    model::TrainingLog log = read("mindformers-llama3-8b-lora-2runs/run-0/worker_0.log");
    EXPECT_EQ(log.producer, "MindFormers training log");
    ASSERT_EQ(log.runs.size(), 1u);
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->name, "loss");
    ASSERT_EQ(loss->size(), 1337u);
    // First record (line 837, after the CR spinner): epoch 1 step 2/535, loss 2.248.
    EXPECT_EQ(loss->steps.front(), 2);
    EXPECT_DOUBLE_EQ(loss->values.front(), 2.248);
    EXPECT_EQ(loss->lines.front(), 837);
    // Last: epoch 5 step 534 -> 4*535+534 = 2674, loss 1.489.
    EXPECT_EQ(loss->steps.back(), 2674);
    EXPECT_DOUBLE_EQ(loss->values.back(), 1.489);
    const model::LogSeries *stepTime = log.findKind(LogSeriesKind::StepTime);
    ASSERT_NE(stepTime, nullptr);
    EXPECT_EQ(stepTime->unit, "ms");
    EXPECT_DOUBLE_EQ(stepTime->values.front(), 364368); // includes compilation
    const model::LogSeries *throughput = log.find("throughput");
    ASSERT_NE(throughput, nullptr);
    EXPECT_EQ(throughput->unit, "samples/s/p");
    EXPECT_EQ(throughput->size(), 1337u);
    EXPECT_DOUBLE_EQ(throughput->values.front(), 0.02196);
    // Record of epoch 1 step 100 (line 935) and its progress line: 5.67087 samples/s/p.
    auto it = std::find(throughput->steps.begin(), throughput->steps.end(), 100);
    ASSERT_NE(it, throughput->steps.end());
    EXPECT_DOUBLE_EQ(
        throughput->values[static_cast<std::size_t>(it - throughput->steps.begin())], 5.67087);
    const model::LogSeries *overflow = log.find("overflow cond");
    ASSERT_NE(overflow, nullptr);
    EXPECT_EQ(std::count(overflow->values.begin(), overflow->values.end(), 1.0), 0);
    EXPECT_GE(log.controlLineCount, 1u);
    EXPECT_EQ(log.badLineCount, 0u);
    // The printed config: batch_size 32 (run-1 uses 64).
    bool batch = false;
    for (const auto &[key, value] : log.config)
        batch = batch || (key == "batch_size" && value == "32");
    EXPECT_TRUE(batch);
}

TEST(LossLogMindFormers, Run1)
{
    model::TrainingLog log = read("mindformers-llama3-8b-lora-2runs/run-1/worker_0.log");
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->size(), 585u);
    EXPECT_EQ(loss->steps.back(), 1170); // epoch 5 step 234 of 234
    EXPECT_DOUBLE_EQ(loss->values.back(), 1.086);
}

TEST(LossLogMindSpore, FrappleHasFourAppendedRuns)
{
    model::TrainingLog log = read("mindspore-lossmonitor-xidian/Frapple_EDCN/loss.log");
    EXPECT_EQ(log.producer, "MindSpore LossMonitor/TimeMonitor");
    ASSERT_EQ(log.runs.size(), 4u);
    const std::size_t sizes[] = {1, 10, 831, 600};
    const std::int64_t firstLine[] = {1, 2, 12, 843};
    const std::int64_t lastStep[] = {41322, 413220, 831, 600};
    for (std::uint32_t r = 0; r < 4; ++r) {
        const model::LogSeries *loss = log.primaryLoss(r);
        ASSERT_NE(loss, nullptr) << r;
        EXPECT_EQ(loss->size(), sizes[r]) << r;
        EXPECT_EQ(log.runs[r].firstLine, firstLine[r]) << r;
        EXPECT_EQ(loss->steps.back(), lastStep[r]) << r;
    }
    // Run 4: epochs 1-3 x 200 steps, last line 1442 "epoch: 3 step: 200, loss is
    // 0.5352669954299927".
    EXPECT_DOUBLE_EQ(log.primaryLoss(3)->values.back(), 0.5352669954299927);
    EXPECT_EQ(log.primaryLoss(3)->lines.back(), 1442);
    const model::LogSeries *wall = log.findKind(LogSeriesKind::WallTime, 2);
    ASSERT_NE(wall, nullptr);
    // 2024-11-14 07:51:57 (naive) = 1731570717 s.
    EXPECT_DOUBLE_EQ(wall->values.front(), 1731570717.0);
}

TEST(LossLogMindSpore, NulBytesThenRestartAtEpoch5)
{
    model::TrainingLog log =
        read("mindspore-lossmonitor-xidian/LPCNet_LJSpeech/scripts/train_timers3.log");
    ASSERT_EQ(log.runs.size(), 1u);
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    ASSERT_EQ(loss->size(), 4u);
    EXPECT_EQ(loss->lines.front(), 34); // the line that starts with 3 869 NUL bytes
    EXPECT_EQ(loss->steps.front(), 4 * 5208 + 5208); // epoch 5, 5208 steps per epoch
    EXPECT_DOUBLE_EQ(loss->values.front(), 3.6623008251190186);
    const model::LogSeries *perStep = log.find("per step time");
    ASSERT_NE(perStep, nullptr);
    EXPECT_EQ(perStep->size(), 4u);
    EXPECT_DOUBLE_EQ(perStep->values.front(), 404.931);
    EXPECT_GE(log.controlLineCount, 1u);
}

TEST(LossLogMindSpore, OneLinePerEpochWithTimeMonitor)
{
    model::TrainingLog log = read("mindspore-lossmonitor-xidian/MMOE_adult/loss_adult.txt");
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->size(), 100u);
    EXPECT_EQ(loss->steps.front(), 1017);
    EXPECT_EQ(loss->steps.back(), 101700);
    EXPECT_DOUBLE_EQ(loss->values.front(), 1.063);
    const model::LogSeries *perStep = log.findKind(LogSeriesKind::StepTime);
    ASSERT_NE(perStep, nullptr);
    EXPECT_EQ(perStep->size(), 100u);
    EXPECT_DOUBLE_EQ(perStep->values[0], 26.107); // first epoch includes compilation
    EXPECT_DOUBLE_EQ(perStep->values[1], 0.646);
}

TEST(LossLogMindSpore, NamedLossesBecomeSeries)
{
    model::TrainingLog log =
        read("mindspore-lossmonitor-xidian/Wide_and_Deep_movie/log/criteo/loss.log");
    const model::LogSeries *wide = log.find("wide_loss");
    const model::LogSeries *deep = log.find("deep_loss");
    ASSERT_NE(wide, nullptr);
    ASSERT_NE(deep, nullptr);
    EXPECT_EQ(wide->size(), 15u);
    EXPECT_DOUBLE_EQ(deep->values.front(), 0.45492005);
    EXPECT_EQ(wide->steps.back(), 15 * 2582);
}

TEST(LossLogMegatron, QwenSftDet)
{
    model::LoadReport report;
    model::TrainingLog log =
        read("mindspeed-megatron-det-vs-nondet/test_qwen_sft/pta_det.txt", &report);
    EXPECT_EQ(log.producer, "Megatron/MindSpeed iteration log");
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->name, "lm loss");
    ASSERT_EQ(loss->size(), 10u);
    EXPECT_EQ(loss->steps.front(), 1);
    EXPECT_EQ(loss->lines.front(), 14);
    EXPECT_DOUBLE_EQ(loss->values.front(), 9.7951211929321289);
    const model::LogSeries *time = log.find("elapsed time per iteration (ms)");
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->kind, LogSeriesKind::StepTime);
    EXPECT_EQ(time->unit, "ms");
    EXPECT_DOUBLE_EQ(time->values[1], 9344.6);
    const model::LogSeries *tflops = log.find("throughput per GPU (TFLOP/s/GPU)");
    ASSERT_NE(tflops, nullptr);
    EXPECT_EQ(tflops->unit, "TFLOP/s/GPU");
    EXPECT_DOUBLE_EQ(tflops->values[1], 733.4);
    const model::LogSeries *lr = log.findKind(LogSeriesKind::LearningRate);
    ASSERT_NE(lr, nullptr);
    EXPECT_DOUBLE_EQ(lr->values[1], 1.166872E-06);
    // 8 per-rank memory lines, ranks out of order; rank 4 first: allocated 12480.07421875 MB.
    const model::LogSeries *mem4 = log.find("allocated", 0, 4);
    ASSERT_NE(mem4, nullptr);
    EXPECT_EQ(mem4->unit, "MB");
    EXPECT_DOUBLE_EQ(mem4->values.front(), 12480.07421875);
    int ranks = 0;
    for (const model::LogSeries &s : log.series)
        ranks += s.name == "max reserved" ? 1 : 0;
    EXPECT_EQ(ranks, 8);
    EXPECT_EQ(log.badLineCount, 0u);
}

TEST(LossLogMegatron, RecordGluedToAnotherMessage)
{
    model::TrainingLog log = read("mindspeed-megatron-det-vs-nondet/test_xiaoyi_sft/pta_det.txt");
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    ASSERT_EQ(loss->size(), 11u);
    EXPECT_EQ(
        loss->lines.front(), 1); // "Number of parameters … 25.78 [2025-04-28 …] iteration 1/ 11 |"
    EXPECT_DOUBLE_EQ(loss->values.front(), 12.0754003524780273);
    const model::LogSeries *wall = log.findKind(LogSeriesKind::WallTime);
    ASSERT_NE(wall, nullptr);
    EXPECT_EQ(wall->steps.front(), 1);
}

TEST(LossLogGrpo, AnsiRayPrefixAndDuplicateRecords)
{
    model::TrainingLog log = read("mindspeed-megatron-det-vs-nondet/test_qwen_grpo/pta_det.txt");
    EXPECT_EQ(log.producer, "GRPO iteration record");
    const model::LogSeries *pg = log.find("actor/pg_loss");
    ASSERT_NE(pg, nullptr);
    EXPECT_EQ(pg->kind, LogSeriesKind::Loss);
    ASSERT_EQ(pg->size(), 3u);
    EXPECT_EQ(pg->steps, (std::vector<std::int64_t> {1, 2, 3}));
    EXPECT_EQ(pg->lines, (std::vector<std::int64_t> {35, 49, 52}));
    EXPECT_DOUBLE_EQ(pg->values.front(), 0.0000062115568215);
    // Iterations 2 and 3 carry identical values and timestamp: 3 is a duplicate.
    EXPECT_EQ(pg->duplicate, (std::vector<std::uint8_t> {0, 0, 1}));
    const model::LogSeries *all = log.find("timing/all");
    ASSERT_NE(all, nullptr);
    EXPECT_EQ(all->kind, LogSeriesKind::StepTime);
    EXPECT_EQ(all->unit, "s");
    EXPECT_DOUBLE_EQ(all->values.front(), 36.5719238361343741);
    EXPECT_GE(log.controlLineCount, 3u);
}

TEST(LossLogDeepSpeed, RandomLtdPerplexityResetsPerEpoch)
{
    model::TrainingLog log =
        read("deepspeed-random-ltd-kernel-vs-python/output1/check/train_with_kernel.log");
    EXPECT_EQ(log.producer, "DeepSpeed console");
    const model::LogSeries *ppl = log.primaryLoss();
    ASSERT_NE(ppl, nullptr);
    EXPECT_EQ(ppl->name, "perplexity");
    ASSERT_EQ(ppl->size(), 524u);
    // "Step at N" counts micro-steps; gradient_accumulation_steps 2 (the config dump) makes
    // N / 2 optimizer steps, the axis of lr, throughput and memory below.
    EXPECT_EQ(ppl->steps.front(), 0); // "Step at 1": before the first optimizer step
    EXPECT_EQ(ppl->steps.back(), 262); // "Step at 262" of epoch 2: micro-step 524
    EXPECT_DOUBLE_EQ(ppl->values.back(), 48.69661806473314);
    // The two micro-steps of one optimizer step print one figure: the second is a repeat
    // (tests/tools/check_deepspeed_perplexity.py: 261).
    EXPECT_EQ(std::count(ppl->duplicate.begin(), ppl->duplicate.end(), 1), 261);
    const model::LogSeries *lr = log.find("lr", 0, 0);
    ASSERT_NE(lr, nullptr);
    EXPECT_EQ(lr->size(), 132u);
    EXPECT_EQ(lr->steps.back(), 262);
    const model::LogSeries *curr = log.find("CurrSamplesPerSec");
    ASSERT_NE(curr, nullptr);
    EXPECT_EQ(curr->size(), 261u);
    // Old timer form "0/4" right after "step=2": 2 micro-steps per step.
    EXPECT_EQ(curr->steps.front(), 2);
    EXPECT_DOUBLE_EQ(curr->values.front(), 47.7064570798121);
    EXPECT_EQ(curr->steps.back(), 262); // "0/524"
    const model::LogSeries *maxMem = log.find("MaxMemAllocated");
    ASSERT_NE(maxMem, nullptr);
    EXPECT_EQ(maxMem->unit, "GB");
    EXPECT_DOUBLE_EQ(*std::max_element(maxMem->values.begin(), maxMem->values.end()), 10.77);
}

TEST(LossLogDeepSpeed, Fp16OverflowLinesAreSkippedSteps)
{
    model::TrainingLog log = read(
        "deepspeed-random-ltd-kernel-vs-python/output1/check/train_my_implementation_fp16.log");
    const model::LogSeries *overflow = log.find("overflow (skipped step)");
    ASSERT_NE(overflow, nullptr);
    EXPECT_EQ(overflow->kind, LogSeriesKind::Skipped);
    EXPECT_EQ(overflow->size(), 4u);
    EXPECT_DOUBLE_EQ(overflow->values.front(), 1.0);
    const model::LogSeries *scale = log.find("overflow loss scale");
    ASSERT_NE(scale, nullptr);
    EXPECT_EQ(scale->size(), 4u);
    const model::LogSeries *skipped = log.find("skipped steps", 0, 0);
    ASSERT_NE(skipped, nullptr);
    EXPECT_TRUE(skipped->cumulative);
    EXPECT_DOUBLE_EQ(skipped->values.back(), 4);
}

TEST(LossLogDeepSpeed, ChatOverflowsAndPerplexityPerEpoch)
{
    model::TrainingLog log = read("deepspeed-chat-step1-opt1.3b/opt-1.3b-globalBatchSize128.log");
    const model::LogSeries *overflow = log.find("overflow (skipped step)");
    ASSERT_NE(overflow, nullptr);
    EXPECT_EQ(overflow->size(), 139u);
    const model::LogSeries *ppl = log.primaryLoss();
    ASSERT_NE(ppl, nullptr);
    EXPECT_EQ(ppl->name, "ppl");
    ASSERT_EQ(ppl->size(), 17u);
    EXPECT_DOUBLE_EQ(ppl->values.front(), 4998.29638671875);
    EXPECT_DOUBLE_EQ(ppl->values.back(), 1.8085135221481323);
    const model::LogSeries *curr = log.find("CurrSamplesPerSec");
    ASSERT_NE(curr, nullptr);
    EXPECT_EQ(curr->size(), 736u);
    EXPECT_EQ(curr->steps.back(), 7360); // new form: global_step
    const model::LogSeries *skipped = log.find("skipped steps", 0, 0);
    ASSERT_NE(skipped, nullptr);
    EXPECT_DOUBLE_EQ(skipped->values.back(), 139);
}

TEST(LossLog, MissingFileIsAnErrorNotACrash)
{
    model::LoadReport report;
    model::TrainingLog log = read("does/not/exist.log", &report);
    EXPECT_TRUE(log.empty());
    EXPECT_EQ(report.count(model::Severity::Error), 1u);
}

TEST(LossLogUserPattern, ValueAndStepKeys)
{
    import::losslog::LogReadOptions options;
    options.userPatterns.push_back({"user perplexity", "with Perplexity:", "Step at "});
    options.userPatterns.push_back({"loss scale seen", "loss_scale: ", ""});
    model::LoadReport report;
    import::ImportContext context;
    context.root = Data;
    context.report = &report;
    model::TrainingLog log = import::losslog::readTrainingLog(
        Data + "deepspeed-random-ltd-kernel-vs-python/output1/check/train_with_kernel.log", context,
        options);
    const model::LogSeries *user = log.find("user perplexity");
    ASSERT_NE(user, nullptr);
    EXPECT_EQ(user->kind, LogSeriesKind::Perplexity);
    const model::LogSeries *builtIn = log.find("perplexity");
    ASSERT_NE(builtIn, nullptr);
    // 524 points, the per-epoch counter continued; the user's pattern keeps the printed
    // micro-step counter, the built-in reader maps it to optimizer steps.
    ASSERT_EQ(user->size(), builtIn->size());
    EXPECT_EQ(user->steps.back(), 524);
    EXPECT_EQ(builtIn->steps.back(), 262);
    EXPECT_EQ(user->values, builtIn->values);
    // The two "Epoch at … with Perplexity:" lines have no "Step at ": reported with lines.
    EXPECT_EQ(log.badLineCount, 2u);
    ASSERT_EQ(log.issues.size(), 2u);
    EXPECT_EQ(log.issues[0].line, 1288);
    EXPECT_EQ(log.issues[1].line, 2273);
    EXPECT_EQ(log.find("loss scale seen"), nullptr); // not in this file
    EXPECT_EQ(report.count(model::Severity::Warning), 2u); // one message, counted twice
}

/// A log written twice line by line (`tee` and a redirect, or two ranks printing the same
/// lines): every step repeated read as a restart, and the 10 iterations of this sample came
/// out as 10 runs of one or two points. Repeats are now read once, said once.
TEST(LossLog, RecordLinesWrittenTwiceAreReadOnce)
{
    const std::string rel = "mindspeed-megatron-det-vs-nondet/test_ds3_sft/pta_det.txt";
    const model::TrainingLog original = read(rel);
    const std::filesystem::path copy =
        std::filesystem::temp_directory_path() / "stepscope_losslog_written_twice.txt";
    {
        // Each of the 12 lines of the records (10 iterations, 2 memory lines) twice in a
        // row, and iteration 5 a third time two lines later (two writers out of step).
        std::ifstream in(Data + rel);
        std::ofstream out(copy);
        std::string line;
        std::string fifth;
        for (int n = 1; std::getline(in, line); ++n) {
            out << line << '\n';
            if (line.find("iteration") != std::string::npos)
                out << line << '\n';
            if (n == 7)
                fifth = line;
            if (n == 8)
                out << fifth << '\n';
        }
    }
    model::LoadReport report;
    const model::TrainingLog log = import::losslog::readTrainingLog(copy, report);
    std::filesystem::remove(copy);
    ASSERT_EQ(log.runs.size(), 1u);
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    ASSERT_EQ(loss->size(), 10u);
    EXPECT_EQ(loss->values, original.primaryLoss()->values);
    EXPECT_EQ(loss->steps, original.primaryLoss()->steps);
    ASSERT_EQ(report.count(model::Severity::Info), 1u) << report.toText();
    EXPECT_NE(report.toText().find("13 record lines are repeats, byte for byte, of ones just "
                                   "before them (first at line 2)"),
        std::string::npos)
        << report.toText();
}

/// A user pattern without a step key counts its lines as steps: equal lines stay steps.
TEST(LossLogUserPattern, EqualLinesWithoutAStepKeyStaySteps)
{
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / "stepscope_losslog_user_equal_lines.txt";
    std::ofstream(file) << "my loss= 0.5\nmy loss= 0.5\nmy loss= 0.25\n";
    import::losslog::LogReadOptions options;
    options.userPatterns.push_back({"my loss", "my loss= ", ""});
    model::LoadReport report;
    import::ImportContext context;
    context.root = file.parent_path();
    context.report = &report;
    const model::TrainingLog log = import::losslog::readTrainingLog(file, context, options);
    std::filesystem::remove(file);
    const model::LogSeries *mine = log.find("my loss");
    ASSERT_NE(mine, nullptr);
    EXPECT_EQ(mine->values, (std::vector<double> {0.5, 0.5, 0.25}));
    EXPECT_EQ(report.count(model::Severity::Info), 0u) << report.toText();
}
