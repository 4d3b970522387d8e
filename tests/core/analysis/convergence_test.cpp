// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Convergence compare and log deltas on the before/after pairs of samples/SOURCES.md "Loss
// logs". Every figure is printed by tests/tools/check_training_logs.py, which re-reads the
// sample files with python3 alone (checked by hand against the log lines).
#include "analysis/convergence.h"
#include "import/loader.h"
#include "import/losslog/losslog.h"
#include "reorderedcsv.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <functional>
#include <set>

using namespace stepscope;
using namespace stepscope::analysis;
using model::LogSeriesKind;

namespace {

const std::string Data = std::string(STEPSCOPE_TEST_DATA) + "/loss_logs/";

std::shared_ptr<const model::Session> load(const std::string &rel)
{
    util::Progress progress;
    return import::loadPath(Data + rel, progress).session;
}

/// One run whose loss at steps 1..steps is value(step).
model::TrainingLog lossLog(std::int64_t steps, const std::function<double(std::int64_t)> &value)
{
    model::TrainingLog log;
    log.runs.push_back({1, 100, "run 1"});
    model::LogSeries loss;
    loss.name = "loss";
    loss.kind = LogSeriesKind::Loss;
    for (std::int64_t s = 1; s <= steps; ++s)
        loss.add(s, value(s), s);
    log.series.push_back(loss);
    return log;
}

TrainingComparison pair(
    const std::string &before, const std::string &after, const TrainingThresholds &t = {})
{
    const auto b = load(before);
    const auto a = load(after);
    EXPECT_TRUE(b && b->hasContent() && a && a->hasContent());
    return compareTraining(*b, *a, t);
}

TrainingComparison mindspeed(const std::string &test)
{
    const std::string dir = "mindspeed-megatron-det-vs-nondet/" + test + "/";
    return pair(dir + "pta_det.txt", dir + "pta_non_det.txt");
}

const TrainingDelta *row(const TrainingComparison &c, const std::string &key)
{
    for (const TrainingDelta &r : c.rows) {
        if (r.key == key || r.label == key)
            return &r;
    }
    return nullptr;
}

} // namespace

TEST(Convergence, QwenSftHoldsAndTheStepTimeHalves)
{
    const TrainingComparison c = mindspeed("test_qwen_sft");
    ASSERT_TRUE(c.hasLogs);
    const Convergence &v = c.convergence;
    EXPECT_EQ(v.metric, "lm loss");
    EXPECT_EQ(v.commonSteps, 10u);
    EXPECT_EQ(v.verdict, ConvergenceVerdict::Held) << v.reason;
    ASSERT_TRUE(v.maxRelDelta);
    EXPECT_NEAR(*v.maxRelDelta, 5.87e-6, 0.01e-6);
    EXPECT_EQ(v.maxRelDeltaStep, 8);
    EXPECT_FALSE(v.firstStepOutside);
    const TrainingDelta *st = row(c, "log.step_time");
    ASSERT_NE(st, nullptr);
    EXPECT_EQ(st->unit, "ms");
    EXPECT_DOUBLE_EQ(*st->before, 9006.6);
    EXPECT_DOUBLE_EQ(*st->after, 4511.3);
    EXPECT_NEAR(*st->percent, -49.91, 0.01);
    EXPECT_EQ(st->verdict, Verdict::Improved);
    const TrainingDelta *tp = row(c, "log.throughput");
    ASSERT_NE(tp, nullptr);
    EXPECT_DOUBLE_EQ(*tp->before, 760.9);
    EXPECT_DOUBLE_EQ(*tp->after, 1519.1);
    EXPECT_EQ(tp->verdict, Verdict::Improved);
    EXPECT_TRUE(c.regressions.empty());
}

TEST(Convergence, DeterministicVsNotHoldsOnThePretrainAndXiaoyiPairs)
{
    const TrainingComparison p = mindspeed("test_ds3_pretrain");
    EXPECT_EQ(p.convergence.verdict, ConvergenceVerdict::Held) << p.convergence.reason;
    EXPECT_NEAR(*p.convergence.maxRelDelta, 6.99e-5, 0.01e-5);
    EXPECT_NEAR(*row(p, "log.step_time")->percent, -14.57, 0.01);
    const TrainingComparison x = mindspeed("test_xiaoyi_sft");
    EXPECT_EQ(x.convergence.verdict, ConvergenceVerdict::Held) << x.convergence.reason;
    EXPECT_EQ(x.convergence.commonSteps, 11u);
    EXPECT_NEAR(*row(x, "log.step_time")->percent, -15.54, 0.01);
}

TEST(Convergence, Ds3SftRunsThatRiseAlikeAreSaidButHold)
{
    // Both runs' loss rises 4.018 -> 7.40 over steps 4-6; the curves differ by 0.009 %: the
    // after run did not diverge from the before run, so the gate does not fail on it.
    const TrainingComparison c = mindspeed("test_ds3_sft");
    EXPECT_EQ(c.convergence.verdict, ConvergenceVerdict::Held) << c.convergence.reason;
    EXPECT_EQ(c.convergence.reason.rfind("both runs diverge alike (before: lm loss median", 0), 0u)
        << c.convergence.reason;
    EXPECT_NE(c.convergence.reason.find("rises"), std::string::npos) << c.convergence.reason;
    EXPECT_NEAR(*row(c, "log.step_time")->percent, -30.36, 0.01);
    EXPECT_TRUE(c.regressions.empty());
}

/// Diverged is the after run's: a run compared with itself holds, and a before run that
/// diverged where the after run does not (a fix) is said, not called the after's divergence.
TEST(Convergence, DivergedOnlyWhenTheAfterRunDoesAndTheBeforeRunDidNot)
{
    const std::string ds3 = "mindspeed-megatron-det-vs-nondet/test_ds3_sft/pta_det.txt";
    const TrainingComparison self = pair(ds3, ds3);
    EXPECT_EQ(self.convergence.verdict, ConvergenceVerdict::Held) << self.convergence.reason;
    EXPECT_TRUE(self.regressions.empty());

    const model::TrainingLog rising = lossLog(
        30, [](std::int64_t s) { return s <= 10 ? 3.0 : 3.0 + 0.5 * static_cast<double>(s - 10); });
    const model::TrainingLog falling =
        lossLog(30, [](std::int64_t s) { return 3.0 - 0.05 * static_cast<double>(s - 1); });
    const Convergence fixed = compareConvergence(rising, 0, falling, 0);
    EXPECT_NE(fixed.verdict, ConvergenceVerdict::Diverged) << fixed.reason;
    EXPECT_EQ(fixed.reason.rfind("the before run diverges (", 0), 0u) << fixed.reason;
    const Convergence broken = compareConvergence(falling, 0, rising, 0);
    EXPECT_EQ(broken.verdict, ConvergenceVerdict::Diverged) << broken.reason;
    EXPECT_EQ(broken.reason.rfind("after: ", 0), 0u) << broken.reason;
}

TEST(Convergence, GoldenValuesPairsHoldWithTheirStepTimeAndMemoryDeltas)
{
    const std::string t5 = "megatron-golden-values/t5/t5_mcore_te_tp2_pp1_vp1";
    const TrainingComparison c = pair(t5 + "/golden_values_dev_dgx_h100.json",
        t5 + "_sequence_parallel/golden_values_dev_dgx_h100.json");
    EXPECT_EQ(c.convergence.verdict, ConvergenceVerdict::Held) << c.convergence.reason;
    EXPECT_EQ(c.convergence.commonSteps, 100u);
    EXPECT_NEAR(*c.convergence.maxRelDelta, 7.25e-4, 0.01e-4);
    EXPECT_EQ(c.convergence.maxRelDeltaStep, 61);
    const TrainingDelta *st = row(c, "iteration-time");
    ASSERT_NE(st, nullptr);
    EXPECT_NEAR(*st->percent, 13.15, 0.01);
    EXPECT_EQ(st->verdict, Verdict::Regressed);
    EXPECT_TRUE(st->failed); // slower by more than 5 %
    const TrainingDelta *mem = row(c, "mem-max-allocated-bytes");
    ASSERT_NE(mem, nullptr);
    EXPECT_DOUBLE_EQ(*mem->before, 3377290752);
    EXPECT_DOUBLE_EQ(*mem->after, 3234076160);
    EXPECT_EQ(mem->verdict, Verdict::Improved); // -4.24 %, as the report's table says
    EXPECT_FALSE(mem->failed);
    ASSERT_EQ(c.regressions.size(), 1u);

    const std::string moe =
        "megatron-golden-values/moe/gpt3_moe_mcore_te_ep8_resume_torch_dist_dist_muon";
    const TrainingComparison m = pair(moe + "/golden_values_dev_dgx_h100.json",
        moe + "_param_layout/golden_values_dev_dgx_h100.json");
    EXPECT_EQ(m.convergence.verdict, ConvergenceVerdict::Held) << m.convergence.reason;
    EXPECT_NEAR(*m.convergence.maxRelDelta, 4.75e-5, 0.01e-5);
    EXPECT_NEAR(*row(m, "iteration-time")->percent, -2.42, 0.01);
    EXPECT_NEAR(*row(m, "mem-max-allocated-bytes")->percent, -7.03, 0.01);
    EXPECT_EQ(row(m, "mem-max-allocated-bytes")->verdict, Verdict::Improved);
    EXPECT_TRUE(m.regressions.empty());
}

/// Series of one name are paired rank by rank, each rank both sides print, ranks ascending
/// whichever rank's line came first: rank 1's memory line first, rank 0's memory grown by 20 %.
/// A rank other than the lowest fails the gate as well (a 30 % rise on rank 4 passed).
TEST(Convergence, DeltasPairEveryRankBothSidesPrint)
{
    const auto log = [](double rank0Mb, double rank1Mb = 10000) {
        model::TrainingLog l;
        l.runs.push_back({1, 100, "run 1"});
        for (std::int32_t rank : {1, 0}) {
            model::LogSeries s;
            s.name = "allocated";
            s.kind = LogSeriesKind::Memory;
            s.unit = "MB";
            s.rank = rank;
            s.add(1, rank == 0 ? rank0Mb : rank1Mb, 1);
            l.series.push_back(s);
        }
        return l;
    };
    const std::vector<TrainingDelta> rows = trainingDeltas(log(10000), 0, log(12000), 0);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].label, "allocated (rank 0)");
    EXPECT_EQ(rows[0].key, "log.memory");
    EXPECT_NEAR(*rows[0].percent, 20, 1e-9);
    EXPECT_EQ(rows[0].verdict, Verdict::Regressed);
    EXPECT_TRUE(rows[0].failed);
    EXPECT_EQ(rows[1].label, "allocated (rank 1)");
    EXPECT_EQ(rows[1].key, "log.memory:allocated@rank1");
    EXPECT_EQ(rows[1].verdict, Verdict::Unchanged);
    EXPECT_FALSE(rows[1].failed);

    const std::vector<TrainingDelta> rank0Only = trainingDeltas(log(12000), 0, log(10000), 0);
    ASSERT_EQ(rank0Only.size(), 2u);
    EXPECT_FALSE(rank0Only[0].failed); // rank 0 shrank
    // Rank 1 grows by 30 % while rank 0 holds: its own row fails the gate.
    // The Markdown comment writes the values as the report does: "13000", not "1.3e+04".
    TrainingComparison md;
    md.hasLogs = true;
    md.rows = trainingDeltas(log(10000), 0, log(10000, 13000), 0);
    EXPECT_NE(trainingMarkdown(md).find("| 10000 | 13000 |"), std::string::npos)
        << trainingMarkdown(md);
    EXPECT_EQ(trainingMarkdown(md).find("e+04"), std::string::npos);
    const std::vector<TrainingDelta> other = trainingDeltas(log(10000), 0, log(10000, 13000), 0);
    ASSERT_EQ(other.size(), 2u);
    EXPECT_FALSE(other[0].failed);
    EXPECT_EQ(other[1].label, "allocated (rank 1)");
    EXPECT_TRUE(other[1].failed);
}

TEST(Convergence, ToleranceDecidesHeldOrDrifted)
{
    const std::string t5 = "megatron-golden-values/t5/t5_mcore_te_tp2_pp1_vp1";
    TrainingThresholds tight;
    tight.tolerance = 1e-4;
    const TrainingComparison c = pair(t5 + "/golden_values_dev_dgx_h100.json",
        t5 + "_sequence_parallel/golden_values_dev_dgx_h100.json", tight);
    EXPECT_EQ(c.convergence.verdict, ConvergenceVerdict::Drifted);
    ASSERT_TRUE(c.convergence.firstStepOutside);
    EXPECT_GE(*c.convergence.firstStepOutside, 1);
    EXPECT_LE(*c.convergence.firstStepOutside, c.convergence.maxRelDeltaStep);
}

TEST(Convergence, NonFiniteLossIsDivergedNotZeroPercent)
{
    const model::TrainingLog before =
        lossLog(20, [](std::int64_t s) { return 3.0 - 0.05 * static_cast<double>(s); });
    model::TrainingLog after = before;
    for (std::size_t i = 10; i < 20; ++i)
        after.series[0].values[i] = std::nan("");
    const Convergence c = compareConvergence(before, 0, after, 0);
    EXPECT_EQ(c.verdict, ConvergenceVerdict::Diverged);
    EXPECT_NE(c.reason.find("after: loss is nan at step 11"), std::string::npos) << c.reason;
    EXPECT_NE(convergenceText(c).find("diverged"), std::string::npos);
    const nlohmann::json j = convergenceJson(c);
    EXPECT_EQ(j["verdict"], "diverged");
    EXPECT_EQ(j["common_steps"], 20);
}

TEST(Convergence, CompareJsonAndMarkdownCarryTheVerdictAndRows)
{
    const TrainingComparison c = mindspeed("test_qwen_sft");
    nlohmann::json out = nlohmann::json::object();
    addTrainingToCompareJson(out, c);
    ASSERT_TRUE(out.contains("convergence"));
    for (const char *key :
        {"metric", "common_steps", "max_rel_delta", "first_step_outside", "verdict"})
        EXPECT_TRUE(out["convergence"].contains(key)) << key;
    EXPECT_EQ(out["convergence"]["verdict"], "held");
    ASSERT_TRUE(out["training"].is_array());
    ASSERT_FALSE(out["training"].empty());
    for (const char *key : {"key", "before", "after", "delta", "percent", "verdict"})
        EXPECT_TRUE(out["training"][0].contains(key)) << key;
    const std::string md = trainingMarkdown(c);
    EXPECT_NE(md.find("**Convergence: held**"), std::string::npos);
    EXPECT_NE(md.find("| elapsed time per iteration (ms) | median after warm-up | 9007 | "
                      "4511 | -49.9 | improved |"),
        std::string::npos)
        << md;
}

TEST(Convergence, AcrossProducersAlignsByStep)
{
    // HF trainer_state.json (every step, 1218 steps) against the LLaMA-Factory log
    // (steps 1-202): different producers and runs, compared over their common steps.
    const TrainingComparison c = pair("hf-trainer-state-alpaca-llama7b/output/trainer_state.json",
        "llamafactory-trainer-log-jsonl/trainer_log.jsonl");
    ASSERT_TRUE(c.hasLogs);
    EXPECT_EQ(c.convergence.commonSteps, 202u);
    EXPECT_EQ(c.convergence.verdict, ConvergenceVerdict::Drifted);
    EXPECT_EQ(c.convergence.metric, "loss");
}

// A DeepSpeed log tells its skipped steps twice (OVERFLOW lines, and `skipped=N` every few
// steps): the training deltas compare one account of them, one row, not two rows of the same
// four steps. An fp32 run has only the running total, at 0: compared with the fp16 run's
// OVERFLOW lines, each side summed by its own kind (tests/tools/check_training_logs.py: 4).
TEST(Convergence, SkippedStepsAreOneRowOfEachSidesOneAccount)
{
    const std::string dir = "deepspeed-random-ltd-kernel-vs-python/output1/check/";
    const auto skippedRows = [](const TrainingComparison &c) {
        std::vector<const TrainingDelta *> out;
        for (const TrainingDelta &r : c.rows)
            if (r.key.rfind("log.skipped", 0) == 0)
                out.push_back(&r);
        return out;
    };
    const TrainingComparison same =
        pair(dir + "train_my_implementation_fp16.log", dir + "train_with_kernel_fp16.log");
    auto rows = skippedRows(same);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0]->before, 4.0);
    EXPECT_EQ(rows[0]->after, 4.0);
    EXPECT_EQ(rows[0]->verdict, Verdict::Unchanged);

    const TrainingComparison fixed =
        pair(dir + "train_with_kernel_fp16.log", dir + "train_with_kernel.log");
    rows = skippedRows(fixed);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0]->before, 4.0);
    EXPECT_EQ(rows[0]->after, 0.0);
    EXPECT_EQ(rows[0]->verdict, Verdict::Improved);
}

// The gate's profile rules read compare --json's row keys. The memory rule named a key no row
// has ("memory.peak_allocated"), so a peak up 6.1 % passed a 5 % limit. The peak is a row of
// both tables and fails once; rows the tables call regressed that pass are named.
TEST(Convergence, TheGateFailsOnThePeakAndNamesWhatItLetPass)
{
    const auto row = [](const char *key, double percent) {
        return nlohmann::json {{"key", key}, {"percent", percent}};
    };
    nlohmann::json compare;
    compare["kpis"] = {row("step_time_median_us", 4.0), row("comm_share", 12.3),
        row("memory_peak_allocated_bytes", 6.1389)};
    compare["memory"] = {row("memory_peak_allocated_bytes", 6.1389)};
    std::vector<std::string> out;
    std::set<std::string> failed;
    profileRegressions(compare, TrainingThresholds {}, out, &failed);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0], "profile memory_peak_allocated_bytes +6.1 % (limit 5 %)");
    EXPECT_EQ(failed, std::set<std::string> {"memory_peak_allocated_bytes"});

    std::vector<DeltaRow> rows;
    rows.push_back(makeDeltaRow(
        "step_time_median_us", "Step time (median)", "us", 100.0, 104.0, Better::Lower));
    rows.push_back(
        makeDeltaRow("comm_share", "Communication share", "fraction", 0.5, 0.56, Better::Lower));
    rows.push_back(makeDeltaRow(
        "memory_peak_allocated_bytes", "Peak allocated", "bytes", 100.0, 106.1, Better::Lower));
    const auto passed = regressedNotFailed(rows, {}, failed);
    ASSERT_EQ(passed.size(), 2u);
    EXPECT_EQ(passed[0].first, "step_time_median_us");
    EXPECT_EQ(passed[1].first, "comm_share");
}

// Of the Lightning sample's two loss columns with 180 points each, the one compared is the
// primary loss by its rule (the shorter name, train_loss_W), whatever the column order, and
// the reason says so. train_loss_W: 180 common steps, drifted from step 49, largest
// difference 25.5 % at step 899 (tests/tools/check_training_logs.py).
TEST(Convergence, LightningColumnOrderDoesNotChooseTheComparedLoss)
{
    const std::string dir = Data + "lightning-csvlogger-2runs/lightning_logs/";
    const auto readLog = [](const std::string &path) {
        model::LoadReport report;
        return import::losslog::readTrainingLog(path, report);
    };
    const model::TrainingLog b = readLog(dir + "version_1/metrics.csv");
    const model::TrainingLog a = readLog(dir + "version_3/metrics.csv");
    const model::TrainingLog rb =
        readLog(testcsv::reorderedCsv(dir + "version_1/metrics.csv", "version_1").string());
    const model::TrainingLog ra =
        readLog(testcsv::reorderedCsv(dir + "version_3/metrics.csv", "version_3").string());
    std::filesystem::remove_all(testcsv::reorderedCsvRoot());
    ASSERT_NE(rb.series[1].name, b.series[1].name); // the order did change
    const Convergence c = compareConvergence(b, 0, a, 0);
    EXPECT_EQ(c.metric, "train_loss_W");
    EXPECT_EQ(c.verdict, ConvergenceVerdict::Drifted) << c.reason;
    EXPECT_EQ(c.commonSteps, 180u);
    ASSERT_TRUE(c.firstStepOutside);
    EXPECT_EQ(*c.firstStepOutside, 49);
    ASSERT_TRUE(c.maxRelDelta);
    EXPECT_NEAR(*c.maxRelDelta, 0.2552, 1e-4);
    EXPECT_EQ(c.maxRelDeltaStep, 899);
    EXPECT_NE(c.reason.find("; compared before: train_loss_W of 2 loss series, after: "
                            "train_loss_W of 2 loss series (the primary loss: the most points, "
                            "then the shortest name, then name order)"),
        std::string::npos)
        << c.reason;
    for (const auto &[before, after] : {std::pair(&rb, &ra), std::pair(&b, &ra)}) {
        const Convergence r = compareConvergence(*before, 0, *after, 0);
        EXPECT_EQ(r.metric, c.metric);
        EXPECT_EQ(r.verdict, c.verdict);
        EXPECT_EQ(r.reason, c.reason);
    }
}
