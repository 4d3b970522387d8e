// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Training-health rules (docs/metrics.md "Training health"): each rule on a made-up series
// that must fire and one that must not, and the real samples SOURCES.md describes. Figures
// of the real files: tests/tools/check_training_logs.py.
#include "analysis/skippedsteps.h"
#include "analysis/traininghealth.h"
#include "analysis/trainingsummary.h"
#include "import/loader.h"
#include "import/losslog/losslog.h"
#include "reorderedcsv.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <unistd.h>

using namespace stepscope;
using namespace stepscope::analysis;
using model::LogSeriesKind;

namespace {

const std::string Data = std::string(STEPSCOPE_TEST_DATA) + "/loss_logs/";
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

model::TrainingLog read(const std::string &rel)
{
    model::LoadReport report;
    return import::losslog::readTrainingLog(Data + rel, report);
}

/// A one-run log with one series holding `values` at steps 1, 2, …; line = step + 100.
model::TrainingLog logOf(LogSeriesKind kind, const std::vector<double> &values,
    const std::string &name = "loss", const std::string &unit = "")
{
    model::TrainingLog log;
    log.runs.push_back({1, 1000, "run 1"});
    model::LogSeries s;
    s.name = name;
    s.kind = kind;
    s.unit = unit;
    for (std::size_t i = 0; i < values.size(); ++i)
        s.add(static_cast<std::int64_t>(i + 1), values[i], static_cast<std::int64_t>(i + 101));
    log.series.push_back(s);
    return log;
}

std::vector<HealthFinding> ofKind(const std::vector<HealthFinding> &all, HealthKind kind)
{
    std::vector<HealthFinding> out;
    for (const HealthFinding &f : all) {
        if (f.kind == kind)
            out.push_back(f);
    }
    return out;
}

std::vector<double> decaying(std::size_t n, double from = 3.0)
{
    std::vector<double> v;
    for (std::size_t i = 0; i < n; ++i)
        v.push_back(from * std::exp(-0.01 * static_cast<double>(i)) + 0.01 * std::sin(double(i)));
    return v;
}

} // namespace

TEST(TrainingHealth, NonFiniteLossAfterFiniteValues)
{
    std::vector<double> v = decaying(30);
    v[20] = NaN;
    v[25] = std::numeric_limits<double>::infinity();
    const auto f = ofKind(trainingHealth(logOf(LogSeriesKind::Loss, v)), HealthKind::NonFiniteLoss);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].step, 21);
    EXPECT_EQ(f[0].line, 121);
    EXPECT_EQ(f[0].count, 2u);
    EXPECT_EQ(f[0].severity, HealthSeverity::Error);
    EXPECT_NE(f[0].evidence.find("loss is nan at step 21 (line 121)"), std::string::npos);
    // Leading NaN (a resumed run's steps it did not run) are not a finding.
    std::vector<double> lead = decaying(30);
    lead[0] = lead[1] = NaN;
    EXPECT_TRUE(ofKind(trainingHealth(logOf(LogSeriesKind::Loss, lead)), HealthKind::NonFiniteLoss)
                    .empty());
}

TEST(TrainingHealth, SpikeAgainstTheRollingMedian)
{
    std::vector<double> v = decaying(60);
    v[40] = v[39] * 2;
    const auto f = ofKind(trainingHealth(logOf(LogSeriesKind::Loss, v)), HealthKind::LossSpike);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].step, 41);
    EXPECT_EQ(f[0].threshold, 6);
    EXPECT_NE(f[0].evidence.find("robust z"), std::string::npos);
    EXPECT_TRUE(
        ofKind(trainingHealth(logOf(LogSeriesKind::Loss, decaying(60))), HealthKind::LossSpike)
            .empty());
}

/// A second loss series built like logOf's: `values` at steps 1, 2, …
model::LogSeries lossSeries(const std::string &name, const std::vector<double> &values,
    LogSeriesKind kind = LogSeriesKind::Loss)
{
    model::LogSeries s;
    s.name = name;
    s.kind = kind;
    for (std::size_t i = 0; i < values.size(); ++i)
        s.add(static_cast<std::int64_t>(i + 1), values[i], static_cast<std::int64_t>(i + 101));
    return s;
}

std::vector<std::string> described(const std::vector<HealthFinding> &all)
{
    std::vector<std::string> out;
    for (const HealthFinding &f : all)
        out.push_back(std::string(healthKindName(f.kind)) + " " + f.series + " @"
            + std::to_string(f.step) + " line " + std::to_string(f.line) + ": " + f.evidence);
    return out;
}

// Every loss series is checked, not only the primary one ("loss": the shorter name of two
// with as many points, and printed first).
TEST(TrainingHealth, SpikeInASecondLossSeriesIsFound)
{
    model::TrainingLog log = logOf(LogSeriesKind::Loss, decaying(60));
    std::vector<double> aux = decaying(60, 0.5);
    aux[40] = aux[39] * 2;
    log.series.push_back(lossSeries("aux_loss", aux));
    ASSERT_EQ(log.primaryLoss()->name, "loss");
    const auto f = ofKind(trainingHealth(log), HealthKind::LossSpike);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].series, "aux_loss");
    EXPECT_EQ(f[0].step, 41);
    EXPECT_EQ(f[0].line, 141);
    EXPECT_DOUBLE_EQ(f[0].value, aux[40]);
}

// At most maxPerKind findings of a kind per series name: twelve spikes of one loss leave
// the other's one spike listed.
TEST(TrainingHealth, ANoisyLossDoesNotHideAnothersSpike)
{
    std::vector<double> noisy(130, 1.0);
    for (std::size_t i = 10; i < 130; i += 10)
        noisy[i] = 3.0;
    std::vector<double> quiet = decaying(130);
    quiet[100] = quiet[99] * 2;
    model::TrainingLog log = logOf(LogSeriesKind::Loss, noisy, "a_loss");
    log.series.push_back(lossSeries("loss", quiet));
    const auto f = ofKind(trainingHealth(log), HealthKind::LossSpike);
    ASSERT_EQ(f.size(), 11u);
    std::size_t noisyKept = 0;
    for (const HealthFinding &x : f)
        noisyKept += x.series == "a_loss" ? 1 : 0;
    EXPECT_EQ(noisyKept, 10u);
    EXPECT_EQ(f.back().series, "loss");
    EXPECT_EQ(f.back().step, 101);
    EXPECT_NE(f[9].evidence.find("; 2 more not listed"), std::string::npos) << f[9].evidence;
}

// Two ranks printing the same loss tell one spike, the lowest rank's (its line), whichever
// printed first; a spike one rank alone has is its own finding.
TEST(TrainingHealth, RanksPrintingTheSameSpikeAreOneFinding)
{
    std::vector<double> v = decaying(60);
    v[40] = v[39] * 2;
    model::TrainingLog log;
    log.runs.push_back({1, 1000, "run 1"});
    for (std::int32_t rank : {1, 0}) {
        model::LogSeries s = lossSeries("lm loss", v);
        s.rank = rank;
        for (std::int64_t &line : s.lines)
            line = line * 10 + rank;
        if (rank == 1)
            s.values[50] = s.values[49] * 2;
        log.series.push_back(s);
    }
    const auto f = ofKind(trainingHealth(log), HealthKind::LossSpike);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[0].step, 41);
    EXPECT_EQ(f[0].line, 1410); // rank 0's
    EXPECT_EQ(f[1].step, 51);
    EXPECT_EQ(f[1].line, 1511); // rank 1 alone
}

// The same series printed in another order give the same findings, in the same order: the
// spike of the second loss, the lr step of the second learning rate, the ETA of the step
// time with as many points as another.
TEST(TrainingHealth, SeriesOrderDoesNotDecideTheFindings)
{
    std::vector<double> spiky = decaying(40);
    spiky[30] = spiky[29] * 2;
    std::vector<double> stepped(40, 2.0);
    for (std::size_t i = 20; i < 40; ++i)
        stepped[i] = 1.6;
    std::vector<double> flatLr(40, 1e-3);
    std::vector<double> stepLr(40, 1e-3);
    for (std::size_t i = 20; i < 40; ++i)
        stepLr[i] = 1e-4;
    const std::vector<model::LogSeries> series = {lossSeries("loss", stepped),
        lossSeries("loss_b", spiky), lossSeries("lr-pg1", flatLr, LogSeriesKind::LearningRate),
        lossSeries("lr-pg2", stepLr, LogSeriesKind::LearningRate),
        lossSeries("step time a", std::vector<double>(40, 100.0), LogSeriesKind::StepTime),
        lossSeries("step time b", std::vector<double>(40, 300.0), LogSeriesKind::StepTime)};
    model::TrainingLog forward;
    forward.runs.push_back({1, 1000, "run 1"});
    forward.scalars.emplace_back("total_steps", 100.0);
    model::TrainingLog backward = forward;
    for (model::LogSeries s : series) {
        if (s.kind == LogSeriesKind::StepTime)
            s.unit = "ms";
        forward.series.push_back(s);
        backward.series.insert(backward.series.begin(), s);
    }
    const auto f = trainingHealth(forward);
    EXPECT_EQ(described(f), described(trainingHealth(backward)));
    const auto spike = ofKind(f, HealthKind::LossSpike);
    ASSERT_EQ(spike.size(), 1u);
    EXPECT_EQ(spike[0].series, "loss_b");
    EXPECT_EQ(spike[0].step, 31);
    const auto lr = ofKind(f, HealthKind::LrStepLossStep);
    ASSERT_EQ(lr.size(), 1u);
    EXPECT_EQ(lr[0].series, "lr-pg2");
    EXPECT_EQ(lr[0].step, 21);
    const auto eta = ofKind(f, HealthKind::Eta);
    ASSERT_EQ(eta.size(), 1u);
    EXPECT_EQ(eta[0].series, "step time a"); // of two with 40 points, the first by name
    EXPECT_DOUBLE_EQ(eta[0].value, 60 * 0.1);
}

TEST(TrainingHealth, RisingAndFlatLoss)
{
    std::vector<double> rising = decaying(40);
    for (std::size_t i = 20; i < 40; ++i)
        rising[i] = i < 30 ? 2.0 : 3.0;
    const auto r =
        ofKind(trainingHealth(logOf(LogSeriesKind::Loss, rising)), HealthKind::LossRising);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].step, 31); // windows of 10: steps 21-30 -> 31-40 rise by > 10 %
    const std::vector<double> flat(60, 1.5);
    const auto fl = trainingHealth(logOf(LogSeriesKind::Loss, flat));
    EXPECT_EQ(ofKind(fl, HealthKind::LossFlat).size(), 1u);
    EXPECT_TRUE(ofKind(fl, HealthKind::LossRising).empty());
    EXPECT_TRUE(
        ofKind(trainingHealth(logOf(LogSeriesKind::Loss, decaying(60))), HealthKind::LossFlat)
            .empty());
}

TEST(TrainingHealth, GradNormExplosionAndVanishing)
{
    std::vector<double> g(30, 1.0);
    g[7] = 2e5;
    for (std::size_t i = 15; i < 27; ++i)
        g[i] = 1e-4;
    const auto all = trainingHealth(logOf(LogSeriesKind::GradNorm, g, "grad norm"));
    const auto e = ofKind(all, HealthKind::GradNormExplosion);
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0].step, 8);
    const auto v = ofKind(all, HealthKind::GradNormVanishing);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].step, 16);
    EXPECT_EQ(v[0].count, 12u);
    std::vector<double> shortDip(30, 1.0);
    for (std::size_t i = 5; i < 14; ++i) // 9 points: not sustained
        shortDip[i] = 1e-4;
    EXPECT_TRUE(ofKind(trainingHealth(logOf(LogSeriesKind::GradNorm, shortDip, "grad norm")),
        HealthKind::GradNormVanishing)
                    .empty());
}

TEST(TrainingHealth, LossScaleCollapseButNotConstantBf16Scale)
{
    std::vector<double> scale = {65536, 32768, 65536, 1024, 64, 32};
    const auto f = ofKind(trainingHealth(logOf(LogSeriesKind::LossScale, scale, "loss scale")),
        HealthKind::LossScaleCollapse);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].step, 5); // 64 <= 65536 / 1024
    EXPECT_TRUE(ofKind(
        trainingHealth(logOf(LogSeriesKind::LossScale, std::vector<double>(20, 1.0), "loss scale")),
        HealthKind::LossScaleCollapse)
                    .empty());
}

TEST(TrainingHealth, StepTimeRegressionStallAndEta)
{
    std::vector<double> t(40, 100.0);
    for (std::size_t i = 30; i < 40; ++i)
        t[i] = 150;
    t[12] = 900;
    model::TrainingLog log = logOf(LogSeriesKind::StepTime, t, "step time", "ms");
    log.scalars.emplace_back("total_steps", 100.0);
    const auto all = trainingHealth(log);
    EXPECT_EQ(ofKind(all, HealthKind::StepTimeRegression).size(), 1u);
    const auto stall = ofKind(all, HealthKind::StepStall);
    ASSERT_EQ(stall.size(), 1u);
    EXPECT_EQ(stall[0].step, 13);
    const auto eta = ofKind(all, HealthKind::Eta);
    ASSERT_EQ(eta.size(), 1u);
    // 60 steps left x 125 ms, the median of the last 20 step times (10 x 100, 10 x 150 ms).
    EXPECT_DOUBLE_EQ(eta[0].value, 60 * 0.125);
}

TEST(TrainingHealth, LrStepWithALossStep)
{
    model::TrainingLog log = logOf(LogSeriesKind::Loss, [] {
        std::vector<double> v(40, 2.0);
        for (std::size_t i = 20; i < 40; ++i)
            v[i] = 1.6;
        return v;
    }());
    model::LogSeries lr;
    lr.name = "lr";
    lr.kind = LogSeriesKind::LearningRate;
    for (std::int64_t s = 1; s <= 40; ++s)
        lr.add(s, s <= 20 ? 1e-3 : 1e-4, s + 100);
    log.series.push_back(lr);
    const auto f = ofKind(trainingHealth(log), HealthKind::LrStepLossStep);
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].step, 21);
    EXPECT_EQ(f[0].series, "lr");
}

TEST(TrainingHealth, Fp16DeepSpeedRunsHaveTheirFourOverflowSkippedSteps)
{
    // The steps DeepSpeed 0.7 names ("Grad overflow on iteration: N" is step N + 1), from
    // tests/tools/check_training_logs.py.
    for (const auto &[file, steps] :
        {std::pair("train_my_implementation_fp16.log", "printed at steps 1, 2, 4, 21"),
            std::pair("train_with_kernel_fp16.log", "printed at steps 1, 2, 3, 39")}) {
        SCOPED_TRACE(file);
        const auto all = trainingHealth(
            read(std::string("deepspeed-random-ltd-kernel-vs-python/output1/check/") + file));
        // The OVERFLOW lines and the running total `skipped=` tell the same four steps: one
        // finding, from the OVERFLOW lines.
        const auto skipped = ofKind(all, HealthKind::OverflowSkipped);
        ASSERT_EQ(skipped.size(), 1u);
        EXPECT_EQ(skipped[0].count, 4u); // grep -c "Skipping step"
        EXPECT_EQ(skipped[0].evidence.find("running total"), std::string::npos)
            << skipped[0].evidence;
        EXPECT_NE(skipped[0].evidence.find(steps), std::string::npos) << skipped[0].evidence;
        EXPECT_EQ(skipped[0].step, 1);
    }
    // opt-1.3b: 139 OVERFLOW lines, the last `skipped=139` (tests/tools/check_training_logs.py).
    const auto chat = ofKind(trainingHealth(read("deepspeed-chat-step1-opt1.3b/"
                                                 "opt-1.3b-globalBatchSize128.log")),
        HealthKind::OverflowSkipped);
    ASSERT_EQ(chat.size(), 1u);
    EXPECT_EQ(chat[0].count, 139u);
    // The steps in runs: six skipped while the loss scale settled before the first `step=`,
    // then two after each of several printed steps (the script's "at steps" line).
    EXPECT_NE(chat[0].evidence.find("printed at steps 0 ×6, 500 ×2, 610 ×2, 710 ×2, 810 ×2, 910 "
                                    "×2, 1010 ×2, 1120 ×2, …"),
        std::string::npos)
        << chat[0].evidence;
    const auto fp32 = trainingHealth(
        read("deepspeed-random-ltd-kernel-vs-python/output1/check/train_with_kernel.log"));
    EXPECT_TRUE(ofKind(fp32, HealthKind::OverflowSkipped).empty());
}

/// Megatron's training_log() looks for a nan loss only in an iteration it skipped, so its nan
/// iterations are among its skipped ones; and every rank that prints records prints the same
/// counts. Two skipped steps, one of them nan, printed by two ranks, are two skipped steps.
TEST(TrainingHealth, MegatronNanIterationsAreAmongTheSkippedOnesAndRanksTellTheSame)
{
    const int skippedAt[] = {0, 1, 1, 0};
    const int nanAt[] = {0, 1, 0, 0};
    const std::filesystem::path file = std::filesystem::temp_directory_path()
        / ("stepscope_megatron_nan_" + std::to_string(::getpid()) + ".log");
    {
        std::ofstream out(file);
        for (int it = 1; it <= 4; ++it)
            for (int rank = 0; rank < 2; ++rank)
                out << "[default" << rank << "]: iteration " << it
                    << "/ 4 | lm loss: 9.5 | number of skipped iterations:   " << skippedAt[it - 1]
                    << " | number of nan iterations:   " << nanAt[it - 1] << " |\n";
    }
    model::LoadReport report;
    const model::TrainingLog log = import::losslog::readTrainingLog(file.string(), report);
    std::filesystem::remove(file);
    ASSERT_EQ(log.runs.size(), 1u);
    const SkippedSteps skipped = skippedSteps(log, 0);
    EXPECT_EQ(skipped.count, 2);
    EXPECT_EQ(skipped.steps, (std::vector<std::int64_t> {2, 3}));
    EXPECT_EQ(skipped.lines, (std::vector<std::int64_t> {3, 5})); // rank 0's lines
    const auto overflow = ofKind(trainingHealth(log), HealthKind::OverflowSkipped);
    ASSERT_EQ(overflow.size(), 1u);
    EXPECT_EQ(overflow[0].count, 2u);
}

TEST(TrainingHealth, DivergingDs3SftIsFlaggedAndQwenSftIsNot)
{
    for (const char *file : {"pta_det.txt", "pta_non_det.txt"}) {
        SCOPED_TRACE(file);
        const auto rising =
            ofKind(trainingHealth(
                       read(std::string("mindspeed-megatron-det-vs-nondet/test_ds3_sft/") + file)),
                HealthKind::LossRising);
        ASSERT_EQ(rising.size(), 1u);
        EXPECT_EQ(rising[0].step, 4); // median 4.018 (steps 1-3) -> 7.40 (steps 4-6)
        const auto qwen = trainingHealth(
            read(std::string("mindspeed-megatron-det-vs-nondet/test_qwen_sft/") + file));
        for (const HealthFinding &f : qwen)
            EXPECT_NE(f.severity, HealthSeverity::Error) << f.evidence;
    }
}

TEST(TrainingHealth, SummaryJsonOfEveryLossLogFolder)
{
    for (const char *folder : {"deepspeed-chat-step1-opt1.3b",
             "deepspeed-random-ltd-kernel-vs-python", "hf-trainer-state-alpaca-llama7b",
             "lightning-csvlogger-2runs", "llamafactory-trainer-log-jsonl",
             "megatron-golden-values", "mindformers-llama3-8b-lora-2runs",
             "mindspeed-megatron-det-vs-nondet", "mindspore-lossmonitor-xidian"}) {
        SCOPED_TRACE(folder);
        util::Progress progress;
        const auto s = import::loadPath(Data + folder, progress).session;
        ASSERT_TRUE(s && s->hasContent());
        nlohmann::json summary = nlohmann::json::object();
        addTrainingLogToSummary(summary, *s);
        ASSERT_TRUE(summary.contains("training_log"));
        const nlohmann::json &t = summary["training_log"];
        EXPECT_FALSE(t["producer"].get<std::string>().empty());
        ASSERT_GE(t["runs"].size(), s->trainingLogs.size());
        ASSERT_FALSE(t["series"].empty());
        for (const nlohmann::json &series : t["series"]) {
            EXPECT_TRUE(
                series.contains("name") && series.contains("kind") && series.contains("unit"));
            EXPECT_LT(series["run"].get<std::size_t>(), t["runs"].size());
            ASSERT_TRUE(series["points"].is_array());
            if (!series["points"].empty()) {
                EXPECT_EQ(series["points"][0].size(), 2u);
            }
        }
        for (const nlohmann::json &h : t["health"]) {
            for (const char *key :
                {"kind", "run", "step", "line", "evidence", "rule", "threshold"}) {
                EXPECT_TRUE(h.contains(key)) << key;
            }
        }
        // Valid JSON text whatever the values (NaN as strings).
        const nlohmann::json reparsed = nlohmann::json::parse(summary.dump(), nullptr, false);
        EXPECT_FALSE(reparsed.is_discarded());
        EXPECT_FALSE(trainingLogText(*s).empty());
    }
}

TEST(TrainingHealth, LlamaFactoryEtaFromTotalSteps)
{
    // trainer_log.jsonl: 202 of 5100 steps; total_steps 5100 on every line.
    const model::TrainingLog log = read("llamafactory-trainer-log-jsonl/trainer_log.jsonl");
    const double *total = log.scalar("total_steps");
    ASSERT_NE(total, nullptr);
    EXPECT_EQ(*total, 5100);
}

// A folder of experiments holds a pta_det.txt in each of five folders: every run's label
// names the log's folder too, as far as it takes to tell the logs apart, and no further.
TEST(TrainingHealth, RunLabelsTellLogsOfOneNameApart)
{
    util::Progress progress;
    const auto s = import::loadPath(Data + "mindspeed-megatron-det-vs-nondet", progress).session;
    ASSERT_TRUE(s);
    const std::vector<TrainingRun> runs = trainingRuns(*s);
    ASSERT_EQ(runs.size(), 9u);
    std::set<std::string> labels;
    for (const TrainingRun &r : runs)
        labels.insert(r.label);
    EXPECT_EQ(labels.size(), runs.size());
    EXPECT_EQ(runs[0].label, "test_ds3_pretrain/pta_det.txt");
    EXPECT_EQ(runs[8].label, "test_xiaoyi_sft/pta_non_det.txt");
    const auto single =
        import::loadPath(Data + "mindspeed-megatron-det-vs-nondet/test_ds3_sft", progress).session;
    ASSERT_TRUE(single);
    EXPECT_EQ(trainingRuns(*single).front().label, "pta_det.txt");
}

TEST(TrainingHealth, RunLabelsTakeTheFewestFoldersThatTellThemApart)
{
    std::vector<std::shared_ptr<const model::TrainingLog>> logs;
    const auto add = [&](const std::string &source) {
        auto log = std::make_shared<model::TrainingLog>();
        log->source = source;
        log->runs.push_back({});
        logs.push_back(std::move(log));
    };
    add("/runs/a/x/log.txt"); // shares "x/log.txt" with the next: needs three parts
    add("/runs/b/x/log.txt");
    add("/runs/c/other.txt"); // alone
    add("/runs/d/dup.txt"); // the same file twice is not told apart from itself
    add("/runs/d/dup.txt");
    for (int rank = 0; rank < 1000; ++rank) // a log per rank
        add("/job/rank_" + std::to_string(rank) + "/train.log");
    add("train.log"); // as short as a path gets: its whole path
    const std::vector<TrainingRun> runs = trainingRuns(logs);
    ASSERT_EQ(runs.size(), logs.size());
    EXPECT_EQ(runs[0].label, "a/x/log.txt");
    EXPECT_EQ(runs[1].label, "b/x/log.txt");
    EXPECT_EQ(runs[2].label, "other.txt");
    EXPECT_EQ(runs[3].label, "dup.txt");
    EXPECT_EQ(runs[4].label, "dup.txt");
    EXPECT_EQ(runs[5].label, "rank_0/train.log");
    EXPECT_EQ(runs[1004].label, "rank_999/train.log");
    EXPECT_EQ(runs[1005].label, "train.log");
}

// The Lightning sample's two loss columns, as written and in reverse order (values
// untouched): the same findings. train_loss_Ph spikes at step 1249 (482.365 against a
// median of 313.4; tests/tools/check_training_logs.py), train_loss_W nowhere; a value of
// 99999999 at its step 1999 (603.02 in the file) is a spike of train_loss_W.
TEST(TrainingHealth, LightningLossColumnsInAnyOrderGiveTheSameFindings)
{
    const std::string file =
        Data + "lightning-csvlogger-2runs/lightning_logs/version_1/metrics.csv";
    const auto swapped = stepscope::testcsv::reorderedCsv(file, "version_1");
    model::LoadReport report;
    const model::TrainingLog reordered = import::losslog::readTrainingLog(swapped.string(), report);
    std::filesystem::remove_all(stepscope::testcsv::reorderedCsvRoot());
    const model::TrainingLog original = read("lightning-csvlogger-2runs/lightning_logs/version_1/"
                                             "metrics.csv");
    ASSERT_EQ(reordered.series.size(), original.series.size());
    ASSERT_NE(reordered.series[1].name, original.series[1].name); // the order did change
    const auto f = trainingHealth(original);
    EXPECT_EQ(described(trainingHealth(reordered)), described(f));
    const auto spikes = ofKind(f, HealthKind::LossSpike);
    ASSERT_EQ(spikes.size(), 1u);
    EXPECT_EQ(spikes[0].series, "train_loss_Ph");
    EXPECT_EQ(spikes[0].step, 1249);
    EXPECT_EQ(spikes[0].line, 26);
    EXPECT_DOUBLE_EQ(spikes[0].value, 482.365478515625);

    for (const model::TrainingLog *source : {&original, &reordered}) {
        model::TrainingLog log = *source;
        for (model::LogSeries &s : log.series) {
            if (s.name != "train_loss_W")
                continue;
            const auto at = std::find(s.steps.begin(), s.steps.end(), 1999) - s.steps.begin();
            ASSERT_LT(static_cast<std::size_t>(at), s.size());
            EXPECT_DOUBLE_EQ(s.values[static_cast<std::size_t>(at)], 603.0189819335938);
            s.values[static_cast<std::size_t>(at)] = 99999999;
        }
        const auto injected = ofKind(trainingHealth(log), HealthKind::LossSpike);
        ASSERT_EQ(injected.size(), 2u);
        EXPECT_EQ(injected[0].series, "train_loss_Ph");
        EXPECT_EQ(injected[1].series, "train_loss_W");
        EXPECT_EQ(injected[1].step, 1999);
        EXPECT_EQ(injected[1].line, 41);
    }
}
