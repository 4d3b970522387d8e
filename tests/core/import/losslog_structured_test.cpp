// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Structured training logs on the real samples: trainer_state.json (§10.8), Megatron golden
// values (§10.6), trainer_log.jsonl (§10.9), metrics CSV (§10.10). Numbers checked with
// python3 (json / csv modules) on the sample files.
#include "import/losslog/losslog.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace stepscope;
using import::losslog::LogFormat;
using model::LogSeriesKind;

namespace {

const std::string Data = std::string(STEPSCOPE_TEST_DATA) + "/loss_logs/";

model::TrainingLog read(const std::string &rel)
{
    model::LoadReport report;
    return import::losslog::readTrainingLog(Data + rel, report);
}

} // namespace

TEST(LossLogHfTrainerState, OnlyLossEntriesFormTheCurve)
{
    const std::string file = "hf-trainer-state-alpaca-llama7b/output/trainer_state.json";
    EXPECT_EQ(import::losslog::detectLogFormat(Data + file), LogFormat::HfTrainerState);
    model::TrainingLog log = read(file);
    EXPECT_EQ(log.lineCount, 1219u); // log_history entries
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->name, "loss");
    ASSERT_EQ(loss->size(), 1218u);
    EXPECT_EQ(loss->steps.front(), 1);
    EXPECT_DOUBLE_EQ(loss->values.front(), 1.5021);
    EXPECT_EQ(loss->steps.back(), 1218);
    EXPECT_DOUBLE_EQ(loss->values.back(), 0.4774);
    // The summary entry goes to run scalars, never into the curve.
    ASSERT_NE(log.scalar("train_runtime"), nullptr);
    EXPECT_DOUBLE_EQ(*log.scalar("train_runtime"), 16812.9961);
    ASSERT_NE(log.scalar("train_loss"), nullptr);
    EXPECT_DOUBLE_EQ(*log.scalar("train_loss"), 0.7484517011834287);
    EXPECT_EQ(log.find("train_loss"), nullptr);
    const model::LogSeries *lr = log.findKind(LogSeriesKind::LearningRate);
    ASSERT_NE(lr, nullptr);
    EXPECT_DOUBLE_EQ(lr->values[1], 1.0810810810810812e-06);
}

TEST(LossLogGolden, NewSchemaStringKeysAndNanStrings)
{
    const std::string file =
        "megatron-golden-values/bert/bert_release/golden_values_dev_dgx_h100.json";
    EXPECT_EQ(import::losslog::detectLogFormat(Data + file), LogFormat::MegatronGolden);
    model::TrainingLog log = read(file);
    const model::LogSeries *loss = log.find("lm loss");
    ASSERT_NE(loss, nullptr);
    ASSERT_EQ(loss->size(), 4001u);
    // Keys "1", "5", "10", ...: sorted by step, not as text.
    EXPECT_EQ(loss->steps[0], 1);
    EXPECT_EQ(loss->steps[1], 5);
    EXPECT_EQ(loss->steps[2], 10);
    EXPECT_EQ(loss->steps.back(), 20000);
    EXPECT_DOUBLE_EQ(loss->values[0], 10.52779);
    EXPECT_DOUBLE_EQ(loss->values[1], 10.54448);
    const model::LogSeries *time = log.find("iteration-time");
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->kind, LogSeriesKind::StepTime);
    EXPECT_EQ(time->unit, "s");
    // 3 801 of the 4 001 iteration times are "nan": only every 100th step is timed. They
    // are steps not recorded (formats.md §10.6), left out, not NaN points to alarm on.
    EXPECT_EQ(time->size(), 200u);
    EXPECT_EQ(time->nonFiniteCount(), 0u);
    EXPECT_EQ(time->steps.front(), 100);
    EXPECT_EQ(log.find("num-zeros")->size(), 4001u - 12u);
    EXPECT_EQ(log.find("num-zeros")->nonFiniteCount(), 0u);
    EXPECT_EQ(log.find("mem-allocated-bytes")->unit, "bytes");
}

TEST(LossLogGolden, OldSchemaListWithInterval)
{
    model::TrainingLog log =
        read("megatron-golden-values/gpt/gpt3_mcore_tp1_pp2_fp16/golden_values_dev_dgx_a100.json");
    const model::LogSeries *loss = log.find("lm loss");
    ASSERT_NE(loss, nullptr);
    ASSERT_EQ(loss->size(), 10u);
    EXPECT_EQ(loss->steps[1], 5);
    EXPECT_EQ(loss->steps.back(), 45);
    EXPECT_DOUBLE_EQ(loss->values.back(), 10.24593);
    EXPECT_EQ(log.find("num-zeros")->size(), 7u);
    ASSERT_NE(log.scalar("iteration_timing_avg"), nullptr);
    EXPECT_DOUBLE_EQ(*log.scalar("iteration_timing_avg"), 0.11905411764705882);
}

TEST(LossLogGolden, ResumedRunBeginsAtItsFirstRecordedStep)
{
    model::LoadReport report;
    model::TrainingLog log = import::losslog::readTrainingLog(Data
            + "megatron-golden-values/gpt/gpt3_mcore_te_tp2_pp2_resume_torch_dist/"
              "golden_values_dev_dgx_h100_2nd.json",
        report);
    const model::LogSeries *loss = log.find("lm loss");
    ASSERT_NE(loss, nullptr);
    // Steps 1-50 ran before the resume: "nan" in this file, not points of this run.
    EXPECT_EQ(loss->size(), 50u);
    EXPECT_EQ(loss->nonFiniteCount(), 0u);
    EXPECT_EQ(loss->steps.front(), 51);
    EXPECT_DOUBLE_EQ(loss->values.front(), 10.19745);
    EXPECT_EQ(loss->steps.back(), 100);
    // The load says what it left out, per series, as information.
    bool said = false;
    for (const model::Diagnostic &d : report.diagnostics())
        said = said
            || (d.severity == model::Severity::Info
                && d.message.find("`lm loss`: 50 of 100 values between steps 1 and 50 are "
                                  "\"nan\"")
                    != std::string::npos);
    EXPECT_TRUE(said);
    EXPECT_EQ(log.badLineCount, 0u);
}

TEST(LossLogTrainerJsonl, LinesWithTimedelta)
{
    const std::string file = "llamafactory-trainer-log-jsonl/trainer_log.jsonl";
    EXPECT_EQ(import::losslog::detectLogFormat(Data + file), LogFormat::TrainerLogJsonl);
    model::TrainingLog log = read(file);
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    ASSERT_EQ(loss->size(), 202u);
    EXPECT_DOUBLE_EQ(loss->values.front(), 0.6491);
    EXPECT_EQ(loss->steps.back(), 202);
    EXPECT_DOUBLE_EQ(loss->values.back(), 0.4962);
    const model::LogSeries *elapsed = log.find("elapsed_time");
    ASSERT_NE(elapsed, nullptr);
    EXPECT_DOUBLE_EQ(elapsed->values.front(), 63); // "0:01:03"
    EXPECT_DOUBLE_EQ(elapsed->values.back(), 2 * 3600 + 30 * 60 + 48); // "2:30:48"
    const model::LogSeries *remaining = log.find("remaining_time");
    ASSERT_NE(remaining, nullptr);
    EXPECT_DOUBLE_EQ(remaining->values.front(), 3 * 86400 + 17 * 3600 + 51 * 60 + 32);
    // Step time = Δelapsed / Δstep: 201 values, 45 s from step 1 to 2, 45 s at step 202.
    const model::LogSeries *stepTime = log.findKind(LogSeriesKind::StepTime);
    ASSERT_NE(stepTime, nullptr);
    EXPECT_EQ(stepTime->unit, "s");
    ASSERT_EQ(stepTime->size(), 201u);
    EXPECT_EQ(stepTime->steps.front(), 2);
    EXPECT_DOUBLE_EQ(stepTime->values.front(), 45.0);
    EXPECT_DOUBLE_EQ(stepTime->values[1], 44.0);
    EXPECT_DOUBLE_EQ(stepTime->values.back(), 45.0);
}

TEST(LossLogMetricsCsv, LightningCsvLogger)
{
    const std::string file = "lightning-csvlogger-2runs/lightning_logs/version_1/metrics.csv";
    EXPECT_EQ(import::losslog::detectLogFormat(Data + file), LogFormat::MetricsCsv);
    model::TrainingLog log = read(file);
    const model::LogSeries *w = log.find("train_loss_W");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->kind, LogSeriesKind::Loss);
    ASSERT_EQ(w->size(), 180u);
    EXPECT_EQ(w->steps.front(), 49); // 0-based step at which log() ran
    EXPECT_DOUBLE_EQ(w->values.front(), 1317.396728515625);
    EXPECT_EQ(w->steps.back(), 8999);
    EXPECT_DOUBLE_EQ(w->values.back(), 2.9495086669921875); // partial last batch
    EXPECT_DOUBLE_EQ(w->values[178], 85.21099853515625);
    EXPECT_EQ(log.findKind(LogSeriesKind::Epoch)->values.back(), 99);
    EXPECT_EQ(log.badLineCount, 0u);
}

// Malformed variants, fed through the readers directly (no fixture file needed).
#include "import/losslog/jsonlogs.h"

using import::losslog::JsonLogKind;
using import::losslog::LogBuilder;

TEST(LossLogMalformed, TruncatedOrForeignJsonIsNotALog)
{
    LogBuilder b;
    // Truncated inside the first entry: recognised (issue 14: say so), nothing to keep.
    EXPECT_EQ(import::losslog::readJsonDocument(R"({"log_history": [{"loss": 1.0, "st)", b),
        JsonLogKind::HfTrainerState);
    ASSERT_EQ(b.log().issues.size(), 1u);
    EXPECT_NE(b.log().issues[0].message.find("breaks off at byte 17; the 0 complete entries"),
        std::string::npos)
        << b.log().issues[0].message;
    EXPECT_EQ(import::losslog::readJsonDocument(R"({"traceEvents": []})", b), JsonLogKind::None);
    EXPECT_EQ(import::losslog::readJsonDocument("[1, 2]", b), JsonLogKind::None);
    EXPECT_EQ(import::losslog::readJsonDocument("\xff\xfe garbage", b), JsonLogKind::None);
    EXPECT_TRUE(b.log().series.empty());
}

TEST(LossLogMalformed, TrainerStateEntriesWithoutStepAreCounted)
{
    LogBuilder b;
    EXPECT_EQ(import::losslog::readJsonDocument(
                  R"({"global_step": 3, "log_history": [{"loss": 1.5, "step": 1},
                      {"loss": 1.2}, 7, {"loss": "nan", "step": 3},
                      {"eval_loss": 2.0, "epoch": 1.0, "step": 3}]})",
                  b),
        JsonLogKind::HfTrainerState);
    model::TrainingLog log = b.finish();
    EXPECT_EQ(log.badLineCount, 2u); // entry 2 (no step) and entry 3 (not an object)
    EXPECT_EQ(log.issues[0].line, 2);
    const model::LogSeries *loss = log.find("loss");
    ASSERT_NE(loss, nullptr);
    ASSERT_EQ(loss->size(), 2u);
    EXPECT_TRUE(std::isnan(loss->values[1])); // the string "nan" is a marker
    const model::LogSeries *eval = log.find("eval_loss");
    ASSERT_NE(eval, nullptr);
    EXPECT_EQ(eval->kind, LogSeriesKind::EvalLoss);
    EXPECT_EQ(log.find("epoch"), nullptr); // epochs follow training entries only
}

TEST(LossLogGolden, NanAfterTheLastNumberStaysAMarker)
{
    // A loss that diverged is written as "nan" to the end: those points are kept, for the
    // health check. The "nan" before the last number is a step not recorded.
    LogBuilder b;
    EXPECT_EQ(import::losslog::readJsonDocument(
                  R"({"lm loss": {"start_step": 1, "end_step": 5, "step_interval": 1,
                      "values": {"1": "nan", "2": 10.5, "3": "nan", "4": 9.8, "5": "nan",
                                 "6": NaN}}})",
                  b),
        JsonLogKind::MegatronGolden);
    ASSERT_EQ(b.notes().size(), 1u);
    EXPECT_EQ(b.notes()[0],
        "`lm loss`: 2 of 6 values between steps 1 and 3 are \"nan\", the golden values' mark "
        "of a step not recorded: left out");
    model::TrainingLog log = b.finish();
    const model::LogSeries *loss = log.find("lm loss");
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->steps, (std::vector<std::int64_t> {2, 4, 5, 6}));
    EXPECT_EQ(loss->nonFiniteCount(), 2u);
    EXPECT_EQ(log.recordCount, 4u);
}

TEST(LossLogMalformed, GoldenValuesWithBadEntries)
{
    LogBuilder b;
    EXPECT_EQ(import::losslog::readJsonDocument(
                  R"({"lm loss": {"start_step": 1, "end_step": 3, "step_interval": 1,
                      "values": {"1": 10.5, "2": "oops", "x": 3.0, "10": NaN}}})",
                  b),
        JsonLogKind::MegatronGolden); // NaN literal (Python json.dump) accepted
    EXPECT_TRUE(std::isnan(b.log().find("lm loss")->values.back())); // after the last number
    LogBuilder c;
    EXPECT_EQ(import::losslog::readJsonDocument(
                  R"({"lm loss": {"start_step": 1, "end_step": 3, "step_interval": 1,
                      "values": {"1": 10.5, "2": "oops", "x": 3.0, "10": "inf"}}})",
                  c),
        JsonLogKind::MegatronGolden);
    model::TrainingLog log = c.finish();
    const model::LogSeries *loss = log.find("lm loss");
    ASSERT_NE(loss, nullptr);
    // "oops" is no number: the step has no point, and the issue says so.
    EXPECT_EQ(loss->steps, (std::vector<std::int64_t> {1, 10}));
    EXPECT_TRUE(std::isinf(loss->values[1]));
    EXPECT_EQ(log.badLineCount, 2u); // "oops" and the key "x"
}

TEST(LossLogMalformed, JsonlAndCsvBadLinesCountedWithLineNumbers)
{
    LogBuilder b;
    import::losslog::readTrainerLogLine(
        R"({"current_steps": 1, "total_steps": 9, "loss": 0.5})", 1, b);
    import::losslog::readTrainerLogLine(R"({"current_steps": 2, "loss": 0.4)", 2, b);
    import::losslog::readTrainerLogLine(R"({"loss": 0.3})", 3, b);
    import::losslog::readTrainerLogLine("", 4, b);
    model::TrainingLog log = b.finish();
    EXPECT_EQ(log.find("loss")->size(), 1u);
    ASSERT_EQ(log.issues.size(), 2u);
    EXPECT_EQ(log.issues[0].line, 2);
    EXPECT_EQ(log.issues[1].line, 3);

    EXPECT_TRUE(import::losslog::isMetricsCsvHeader("epoch,step,train_loss"));
    EXPECT_TRUE(import::losslog::isMetricsCsvHeader("step,val_loss,lr-Adam"));
    EXPECT_FALSE(import::losslog::isMetricsCsvHeader("Step Id,Computing,Communication"));
    LogBuilder c;
    import::losslog::MetricsCsvReader csv("epoch,step,train_loss,val_loss");
    csv.feed("0,49,2.5,", 2, c); // val not logged: empty cell, no point
    csv.feed("0,49,,2.9", 3, c); // same step, validation row: no new run
    csv.feed("0,99,2.1", 4, c); // short row
    csv.feed("0,x,2.0,", 5, c); // bad step
    csv.feed("0,149,nan,", 6, c);
    model::TrainingLog m = c.finish();
    EXPECT_EQ(m.runs.size(), 1u);
    const model::LogSeries *train = m.find("train_loss");
    ASSERT_NE(train, nullptr);
    EXPECT_EQ(train->steps, (std::vector<std::int64_t> {49, 149}));
    EXPECT_TRUE(std::isnan(train->values[1]));
    const model::LogSeries *val = m.find("val_loss");
    ASSERT_NE(val, nullptr);
    EXPECT_EQ(val->kind, LogSeriesKind::EvalLoss);
    EXPECT_EQ(val->steps, (std::vector<std::int64_t> {49}));
    ASSERT_EQ(m.issues.size(), 2u);
    EXPECT_EQ(m.issues[0].line, 4);
    EXPECT_EQ(m.issues[1].line, 5);

    // A header saved with a byte-order mark names its first column without it.
    LogBuilder d;
    import::losslog::MetricsCsvReader bom("\xEF\xBB\xBFloss,step\r");
    bom.feed("2.5,10\r", 2, d);
    model::TrainingLog withBom = d.finish();
    ASSERT_NE(withBom.find("loss"), nullptr);
    EXPECT_EQ(withBom.find("loss")->kind, LogSeriesKind::Loss);
    EXPECT_EQ(withBom.find("loss")->steps, (std::vector<std::int64_t> {10}));
}
