// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Loss-curve comparison on the real before/after pairs of docs/formats.md §10.12; every figure was
// computed with python3 from the sample files.
#include "analysis/logdeltas.h"
#include "analysis/losscompare.h"
#include "import/losslog/losslog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace stepscope;
using namespace stepscope::analysis;
using model::LogSeriesKind;

namespace {

const std::string Data = std::string(STEPSCOPE_TEST_DATA) + "/loss_logs/";

model::TrainingLog read(const std::string &rel)
{
    model::LoadReport report;
    return import::losslog::readTrainingLog(Data + rel, report);
}

/// The row of the series `name` (both sides print it) on `rank`.
const TrainingDelta *findRow(
    const std::vector<TrainingDelta> &rows, const std::string &name, std::int32_t rank = -1)
{
    const std::string label = rank >= 0 ? name + " (rank " + std::to_string(rank) + ")" : name;
    for (const TrainingDelta &r : rows)
        if (r.label == label && r.rank == rank)
            return &r;
    return nullptr;
}

std::string statisticName(CrossCheckStatistic s)
{
    return std::string(crossCheckStatisticName(s));
}

} // namespace

TEST(LossCompare, QwenSftDeterministicVsNot)
{
    model::TrainingLog det = read("mindspeed-megatron-det-vs-nondet/test_qwen_sft/pta_det.txt");
    model::TrainingLog non = read("mindspeed-megatron-det-vs-nondet/test_qwen_sft/pta_non_det.txt");
    LossComparison c = compareLoss(*det.primaryLoss(), *non.primaryLoss());
    ASSERT_EQ(c.points.size(), 10u);
    EXPECT_EQ(c.onlyBeforeCount, 0u);
    EXPECT_EQ(c.onlyAfterCount, 0u);
    ASSERT_TRUE(c.maxAbsDelta);
    EXPECT_NEAR(*c.maxAbsDelta, 1.4495849609375e-4, 1e-12); // §10.12: 1.4e-4
    EXPECT_EQ(c.maxAbsDeltaStep, 5);
    EXPECT_NEAR(*c.maxRelative, 1.532315726856502e-05, 1e-12);
    EXPECT_EQ(c.finalStep, 10);
    EXPECT_NEAR(*c.finalRelative, 7.643330806676127e-06, 1e-12);
    EXPECT_LT(c.points[4].delta, 0); // step 5: non-det lower by 1.45e-4
    EXPECT_TRUE(c.nonFiniteBefore.empty());

    std::vector<TrainingDelta> rows = trainingDeltas(det, 0, non, 0);
    const TrainingDelta *time = findRow(rows, "elapsed time per iteration (ms)");
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->statistic, statisticName(CrossCheckStatistic::Median));
    EXPECT_EQ(time->countBefore, 9u); // iteration 1 (warm-up) left out
    EXPECT_DOUBLE_EQ(*time->before, 9006.6);
    EXPECT_DOUBLE_EQ(*time->after, 4511.3);
    EXPECT_EQ(time->unit, "ms");
    EXPECT_EQ(time->verdict, Verdict::Improved);
    const TrainingDelta *tflops = findRow(rows, "throughput per GPU (TFLOP/s/GPU)");
    ASSERT_NE(tflops, nullptr);
    EXPECT_DOUBLE_EQ(*tflops->before, 760.9); // as printed, implausible or not
    EXPECT_DOUBLE_EQ(*tflops->after, 1519.1);
    EXPECT_EQ(tflops->verdict, Verdict::Improved);
    const TrainingDelta *mem = findRow(rows, "max allocated", 4);
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(mem->statistic, statisticName(CrossCheckStatistic::Peak));
    EXPECT_EQ(mem->unit, "MB");
    const TrainingDelta *skipped = findRow(rows, "number of skipped iterations");
    ASSERT_NE(skipped, nullptr);
    EXPECT_EQ(skipped->statistic, statisticName(CrossCheckStatistic::Total));
    EXPECT_DOUBLE_EQ(*skipped->before, 0);
    EXPECT_EQ(skipped->verdict, Verdict::Unchanged);
    // No loss or lr rows: only the cross-check kinds.
    EXPECT_EQ(findRow(rows, "lm loss"), nullptr);
}

TEST(LossCompare, GoldenValuesSequenceParallel)
{
    model::TrainingLog base =
        read("megatron-golden-values/t5/t5_mcore_te_tp2_pp1_vp1/golden_values_dev_dgx_h100.json");
    model::TrainingLog sp =
        read("megatron-golden-values/t5/t5_mcore_te_tp2_pp1_vp1_sequence_parallel/"
             "golden_values_dev_dgx_h100.json");
    LossComparison c = compareLoss(*base.primaryLoss(), *sp.primaryLoss());
    EXPECT_EQ(c.points.size(), 100u);
    EXPECT_NEAR(*c.maxAbsDelta, 0.00888, 1e-9); // §10.12: ≤ 0.0089
    EXPECT_NEAR(*c.maxRelative, 0.0011605145820547617, 1e-12);
    EXPECT_NEAR(*c.finalRelative, 0.0007035841403857441, 1e-12);
    std::vector<TrainingDelta> rows = trainingDeltas(base, 0, sp, 0);
    const TrainingDelta *time = findRow(rows, "iteration-time");
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->unit, "s");
    EXPECT_NEAR(*time->before, 0.33313, 1e-12);
    EXPECT_NEAR(*time->after, 0.37695, 1e-12);
    EXPECT_EQ(time->verdict, Verdict::Regressed); // sequence parallel is slower here
    const TrainingDelta *peak = findRow(rows, "mem-max-allocated-bytes");
    ASSERT_NE(peak, nullptr);
    EXPECT_DOUBLE_EQ(*peak->before, 3377290752.0);
    EXPECT_DOUBLE_EQ(*peak->after, 3234076160.0);
    EXPECT_EQ(peak->verdict, Verdict::Improved);
}

TEST(LossCompare, ResumedRunOverlapsOnSteps51To100)
{
    model::TrainingLog first =
        read("megatron-golden-values/gpt/gpt3_mcore_te_tp2_pp2_resume_torch_dist/"
             "golden_values_dev_dgx_h100.json");
    model::TrainingLog resumed =
        read("megatron-golden-values/gpt/gpt3_mcore_te_tp2_pp2_resume_torch_dist/"
             "golden_values_dev_dgx_h100_2nd.json");
    LossComparison c = compareLoss(*first.primaryLoss(), *resumed.primaryLoss());
    // The resumed file's steps 1-50 are "nan": they ran before the resume, and are not
    // points of it. The two runs share steps 51-100, all finite.
    EXPECT_EQ(c.points.size(), 50u);
    EXPECT_TRUE(c.nonFiniteAfter.empty());
    EXPECT_EQ(c.points.front().step, 51);
    ASSERT_TRUE(c.maxAbsDelta);
    EXPECT_LE(*c.maxAbsDelta, 1e-4 + 1e-12);
    EXPECT_NEAR(*c.maxAbsDelta, 9.999999999976694e-05, 1e-12);
    EXPECT_EQ(c.finalStep, 100);
    EXPECT_EQ(c.finiteCount(), 50u);
    EXPECT_EQ(commonStepsText(c.points.size(), c.finiteCount()), "50 common steps");
    EXPECT_EQ(commonStepsText(100, 50), "100 common steps, 50 finite in both");
    EXPECT_EQ(commonStepsText(1, 1), "1 common step");
}

TEST(LossCompare, DeepSpeedRandomLtdKernelVsPython)
{
    model::TrainingLog python =
        read("deepspeed-random-ltd-kernel-vs-python/output1/check/train_my_implementation.log");
    model::TrainingLog kernel =
        read("deepspeed-random-ltd-kernel-vs-python/output1/check/train_with_kernel.log");
    LossComparison c = compareLoss(*python.primaryLoss(), *kernel.primaryLoss());
    // 524 micro-steps, two per optimizer step: steps 0 … 262 (check_deepspeed_perplexity.py).
    EXPECT_EQ(c.points.size(), 263u);
    EXPECT_EQ(c.finalStep, 262);
    EXPECT_DOUBLE_EQ(c.points.back().before, 47.6621811180508); // §10.12: final 47.66 vs 48.70
    EXPECT_DOUBLE_EQ(c.points.back().after, 48.69661806473314);
    std::vector<TrainingDelta> rows = trainingDeltas(python, 0, kernel, 0);
    const TrainingDelta *curr = findRow(rows, "CurrSamplesPerSec");
    ASSERT_NE(curr, nullptr);
    EXPECT_NEAR(*curr->before, 42.29052096762472, 1e-9);
    EXPECT_NEAR(*curr->after, 46.2107872902601, 1e-9);
    EXPECT_EQ(curr->verdict, Verdict::Improved);
    const TrainingDelta *skipped = findRow(rows, "skipped steps", 0);
    ASSERT_NE(skipped, nullptr);
    EXPECT_EQ(skipped->statistic, statisticName(CrossCheckStatistic::Last));

    model::TrainingLog fp16 = read(
        "deepspeed-random-ltd-kernel-vs-python/output1/check/train_my_implementation_fp16.log");
    std::vector<TrainingDelta> rows16 = trainingDeltas(python, 0, fp16, 0);
    const TrainingDelta *maxMem = findRow(rows16, "MaxMemAllocated");
    ASSERT_NE(maxMem, nullptr);
    EXPECT_DOUBLE_EQ(*maxMem->before, 10.77); // §10.12: 10.77 -> 6.33 GB
    EXPECT_DOUBLE_EQ(*maxMem->after, 6.33);
    // fp16 skipped 4 steps, which its log writes twice (an overflow line each time and the
    // running total): one account per side, the gate's (skippedSources), so one row, the
    // fp32 run's running total against fp16's overflow lines.
    ASSERT_EQ(rows16.back().key, "log.skipped");
    const TrainingDelta *skipped16 = &rows16.back();
    EXPECT_EQ(skipped16->label, "skipped steps / overflow (skipped step) (rank 0)");
    EXPECT_EQ(skipped16->statistic, "last / total"); // a running total, flags summed
    EXPECT_DOUBLE_EQ(*skipped16->before, 0);
    EXPECT_DOUBLE_EQ(*skipped16->after, 4);
    EXPECT_EQ(skipped16->verdict, Verdict::Regressed);
    EXPECT_FALSE(skipped16->failed); // no rule of the gate
    EXPECT_EQ(std::count_if(rows16.begin(), rows16.end(),
                  [](const TrainingDelta &r) { return r.kind == LogSeriesKind::Skipped; }),
        1);
}

TEST(LossCompare, ASeriesOneLogAlonePrintsIsShownNotCompared)
{
    const auto series = [](std::string name, LogSeriesKind kind, std::string unit,
                            std::vector<double> values) {
        model::LogSeries s;
        s.name = std::move(name);
        s.kind = kind;
        s.unit = std::move(unit);
        for (std::size_t i = 0; i < values.size(); ++i)
            s.steps.push_back(static_cast<std::int64_t>(i + 1));
        s.values = std::move(values);
        return s;
    };
    model::TrainingLog before;
    before.series = {series("iteration time", LogSeriesKind::StepTime, "ms", {900, 100, 110, 120}),
        series("max allocated", LogSeriesKind::Memory, "MB", {10, 30, 20})};
    model::TrainingLog after;
    after.series = {series("iteration time", LogSeriesKind::StepTime, "s", {0.9, 0.2, 0.22, 0.24})};
    const std::vector<TrainingDelta> rows = trainingDeltas(before, 0, after, 0);
    ASSERT_EQ(rows.size(), 2u);
    // Different units: compared in seconds, medians after warm-up 0.110 s -> 0.220 s.
    EXPECT_EQ(rows[0].key, "log.step_time");
    EXPECT_EQ(rows[0].unit, "s");
    EXPECT_DOUBLE_EQ(*rows[0].before, 0.11);
    EXPECT_DOUBLE_EQ(*rows[0].after, 0.22);
    EXPECT_EQ(rows[0].countBefore, 3u);
    EXPECT_TRUE(rows[0].failed);
    EXPECT_EQ(deltaRowOf(rows[0]).verdict, Verdict::Regressed);
    EXPECT_EQ(deltaRowOf(rows[0]).label, "iteration time (median after warm-up)");
    // Memory only before: its peak, no delta, no verdict, never a gate failure.
    EXPECT_EQ(rows[1].key, "log.memory:max allocated");
    EXPECT_DOUBLE_EQ(*rows[1].before, 30);
    EXPECT_FALSE(rows[1].after.has_value());
    EXPECT_FALSE(rows[1].delta.has_value());
    EXPECT_FALSE(rows[1].failed);
    EXPECT_EQ(rows[1].verdict, Verdict::Unknown);
}

TEST(LossCompare, DuplicatesAreNotCountedTwice)
{
    model::TrainingLog grpo = read("mindspeed-megatron-det-vs-nondet/test_qwen_grpo/pta_det.txt");
    const model::LogSeries *pg = grpo.find("actor/pg_loss");
    ASSERT_NE(pg, nullptr);
    LossComparison c = compareLoss(*pg, *pg);
    EXPECT_EQ(c.duplicatesSkipped, 2u); // iteration 3 on each side
    EXPECT_EQ(c.points.size(), 2u);
    EXPECT_DOUBLE_EQ(*c.maxAbsDelta, 0.0);
    std::size_t n = 0;
    summarise(*grpo.find("timing/all"), CrossCheckStatistic::Median, &n);
    EXPECT_EQ(n, 1u); // 3 records, one duplicate, first is warm-up
}

TEST(LossCompare, AlignsOnStepsNotRowsAndMarksNonFinite)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    model::LogSeries before; // printed every 2 steps
    for (std::int64_t s : {2, 4, 6, 8})
        before.add(s, 10.0 - static_cast<double>(s) / 2);
    model::LogSeries after; // printed every step, NaN at 6
    for (std::int64_t s = 1; s <= 8; ++s)
        after.add(s, s == 6 ? nan : 10.0 - static_cast<double>(s) / 2 + (s == 8 ? 0.6 : 0.0));
    LossComparison c = compareLoss(before, after);
    ASSERT_EQ(c.points.size(), 4u);
    EXPECT_EQ(c.points[1].step, 4);
    EXPECT_DOUBLE_EQ(c.points[1].delta, 0.0);
    EXPECT_TRUE(std::isnan(c.points[2].delta));
    EXPECT_EQ(c.nonFiniteAfter, (std::vector<std::int64_t> {6}));
    EXPECT_EQ(c.onlyAfterCount, 4u);
    EXPECT_EQ(c.onlyBeforeCount, 0u);
    EXPECT_NEAR(*c.maxAbsDelta, 0.6, 1e-12);
    EXPECT_EQ(c.maxAbsDeltaStep, 8);
    EXPECT_NEAR(*c.finalRelative, 0.1, 1e-12); // 0.6 / 6
}
