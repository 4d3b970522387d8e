// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Loss-curve comparison on the real before/after pairs of docs/formats.md §10.12; every figure was
// computed with python3 from the sample files.
#include "analysis/losscompare.h"
#include "import/losslog/losslog.h"

#include <gtest/gtest.h>

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

const CrossCheckRow *findRow(
    const std::vector<CrossCheckRow> &rows, const std::string &name, std::int32_t rank = -1)
{
    for (const CrossCheckRow &r : rows)
        if (r.name == name && r.rank == rank)
            return &r;
    return nullptr;
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

    std::vector<CrossCheckRow> rows = crossCheck(det, 0, non, 0);
    const CrossCheckRow *time = findRow(rows, "elapsed time per iteration (ms)");
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->statistic, CrossCheckStatistic::Median);
    EXPECT_EQ(time->countBefore, 9u); // iteration 1 (warm-up) left out
    EXPECT_DOUBLE_EQ(*time->row.before, 9006.6);
    EXPECT_DOUBLE_EQ(*time->row.after, 4511.3);
    EXPECT_EQ(time->row.unit, "ms");
    EXPECT_EQ(time->row.verdict, Verdict::Improved);
    const CrossCheckRow *tflops = findRow(rows, "throughput per GPU (TFLOP/s/GPU)");
    ASSERT_NE(tflops, nullptr);
    EXPECT_DOUBLE_EQ(*tflops->row.before, 760.9); // as printed, implausible or not
    EXPECT_DOUBLE_EQ(*tflops->row.after, 1519.1);
    EXPECT_EQ(tflops->row.verdict, Verdict::Improved);
    const CrossCheckRow *mem = findRow(rows, "max allocated", 4);
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(mem->statistic, CrossCheckStatistic::Peak);
    EXPECT_EQ(mem->row.unit, "MB");
    const CrossCheckRow *skipped = findRow(rows, "number of skipped iterations");
    ASSERT_NE(skipped, nullptr);
    EXPECT_EQ(skipped->statistic, CrossCheckStatistic::Total);
    EXPECT_DOUBLE_EQ(*skipped->row.before, 0);
    EXPECT_EQ(skipped->row.verdict, Verdict::Unchanged);
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
    std::vector<CrossCheckRow> rows = crossCheck(base, 0, sp, 0);
    const CrossCheckRow *time = findRow(rows, "iteration-time");
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->row.unit, "s");
    EXPECT_NEAR(*time->row.before, 0.33313, 1e-12);
    EXPECT_NEAR(*time->row.after, 0.37695, 1e-12);
    EXPECT_EQ(time->row.verdict, Verdict::Regressed); // sequence parallel is slower here
    const CrossCheckRow *peak = findRow(rows, "mem-max-allocated-bytes");
    ASSERT_NE(peak, nullptr);
    EXPECT_DOUBLE_EQ(*peak->row.before, 3377290752.0);
    EXPECT_DOUBLE_EQ(*peak->row.after, 3234076160.0);
    EXPECT_EQ(peak->row.verdict, Verdict::Improved);
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
    EXPECT_EQ(c.points.size(), 100u);
    EXPECT_EQ(c.nonFiniteAfter.size(), 50u); // "nan" strings: steps 1-50 not run
    EXPECT_EQ(c.nonFiniteAfter.front(), 1);
    EXPECT_EQ(c.nonFiniteAfter.back(), 50);
    EXPECT_TRUE(std::isnan(c.points.front().delta));
    ASSERT_TRUE(c.maxAbsDelta);
    EXPECT_LE(*c.maxAbsDelta, 1e-4 + 1e-12);
    EXPECT_NEAR(*c.maxAbsDelta, 9.999999999976694e-05, 1e-12);
    EXPECT_EQ(c.finalStep, 100);
    // The texts said "100 common steps" with 50 of them "nan" on the resumed side.
    EXPECT_EQ(c.finiteCount(), 50u);
    EXPECT_EQ(
        commonStepsText(c.points.size(), c.finiteCount()), "100 common steps, 50 finite in both");
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
    std::vector<CrossCheckRow> rows = crossCheck(python, 0, kernel, 0);
    const CrossCheckRow *curr = findRow(rows, "CurrSamplesPerSec");
    ASSERT_NE(curr, nullptr);
    EXPECT_NEAR(*curr->row.before, 42.29052096762472, 1e-9);
    EXPECT_NEAR(*curr->row.after, 46.2107872902601, 1e-9);
    EXPECT_EQ(curr->row.verdict, Verdict::Improved);
    const CrossCheckRow *skipped = findRow(rows, "skipped steps", 0);
    ASSERT_NE(skipped, nullptr);
    EXPECT_EQ(skipped->statistic, CrossCheckStatistic::Last);

    model::TrainingLog fp16 = read(
        "deepspeed-random-ltd-kernel-vs-python/output1/check/train_my_implementation_fp16.log");
    std::vector<CrossCheckRow> rows16 = crossCheck(python, 0, fp16, 0);
    const CrossCheckRow *maxMem = findRow(rows16, "MaxMemAllocated");
    ASSERT_NE(maxMem, nullptr);
    EXPECT_DOUBLE_EQ(*maxMem->row.before, 10.77); // §10.12: 10.77 -> 6.33 GB
    EXPECT_DOUBLE_EQ(*maxMem->row.after, 6.33);
    // fp16 skipped 4 steps; the fp32 run has no overflow series: a one-sided row.
    const CrossCheckRow *overflow = findRow(rows16, "overflow (skipped step)");
    ASSERT_NE(overflow, nullptr);
    EXPECT_FALSE(overflow->row.before.has_value());
    EXPECT_DOUBLE_EQ(*overflow->row.after, 4);
    EXPECT_DOUBLE_EQ(*findRow(rows16, "skipped steps", 0)->row.after, 4);
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
