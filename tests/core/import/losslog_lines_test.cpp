// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Line cleaning and the line readers that have no sample file (torchtitan, nanoGPT: lines
// verbatim from docs/formats.md §10.11), plus bad-line accounting.
#include "import/losslog/linecleaner.h"
#include "import/losslog/linereader.h"
#include "import/losslog/logbuilder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace stepscope;
using namespace stepscope::import::losslog;
using model::LogSeriesKind;

namespace {

model::TrainingLog feedAll(
    std::unique_ptr<LineReader> reader, const std::vector<std::string> &lines)
{
    LogBuilder b;
    LineCleaner cleaner;
    std::int64_t n = 0;
    for (const std::string &raw : lines) {
        CleanLine line = cleaner.clean(raw);
        reader->feed(line.text, line.rank, ++n, b);
    }
    reader->finish(b);
    return b.finish();
}

} // namespace

TEST(LossLogLineCleaner, SpinnerAnsiNulAndPrefixes)
{
    LineCleaner cleaner;
    CleanLine a = cleaner.clean("-\r\\\r|\r/\r2024-07-05 17:38:28,040 - x");
    EXPECT_EQ(a.text, "2024-07-05 17:38:28,040 - x");
    EXPECT_TRUE(a.hadControl);
    CleanLine b = cleaner.clean("\x1b[36m(main_task pid=241472)\x1b[0m INFO:root:[x] iteration: 1");
    EXPECT_EQ(b.text, "INFO:root:[x] iteration: 1");
    CleanLine c = cleaner.clean(std::string("\0\0\0epoch: 5 step: 1", 19));
    EXPECT_EQ(c.text, "epoch: 5 step: 1");
    CleanLine d = cleaner.clean("[default3]: [2026-09-11 12:06:52.987995] iteration 3/ 7 |");
    EXPECT_EQ(d.rank, 3);
    EXPECT_EQ(d.text, "[2026-09-11 12:06:52.987995] iteration 3/ 7 |");
    CleanLine e = cleaner.clean("[rank0]:[titan] step: 1\r");
    EXPECT_EQ(e.rank, 0);
    EXPECT_EQ(e.text, "[titan] step: 1");
    EXPECT_FALSE(cleaner.clean("plain line").hadControl);
}

TEST(LossLogTorchtitan, DocumentedLines)
{
    model::TrainingLog log = feedAll(makeTorchtitanReader(),
        {
            "[rank0]:[titan] 2025-10-30 14:32:58,897 - root - INFO - step:  1  loss:  8.1661  "
            "grad_norm:  3.6855  memory:  2.47GiB(3.12%)  tps: 3,502  tflops: 1.90  mfu: 0.19%",
            "[rank0]:[titan] 2025-10-30 14:32:58,990 - root - INFO - step:  2  loss:  6.1098  "
            "grad_norm:  4.6416  memory:  2.49GiB(3.14%)  tps: 177,138  tflops: 96.17  mfu: 9.72%",
            "[rank0]:[titan] 2025-10-30 14:32:59,077 - root - INFO - step:  3  loss:  4.7947  "
            "grad_norm:  2.4418  memory:  2.49GiB(3.14%)  tps: 189,694  tflops: 102.99  mfu: "
            "10.41%",
        });
    EXPECT_EQ(log.producer, "torchtitan console");
    const model::LogSeries *loss = log.find("loss", 0, 0);
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->steps, (std::vector<std::int64_t> {1, 2, 3}));
    EXPECT_DOUBLE_EQ(loss->values[1], 6.1098);
    const model::LogSeries *tps = log.find("tps", 0, 0);
    ASSERT_NE(tps, nullptr);
    EXPECT_DOUBLE_EQ(tps->values[1], 177138); // thousands separator
    EXPECT_EQ(tps->kind, LogSeriesKind::Throughput);
    const model::LogSeries *mem = log.find("memory", 0, 0);
    ASSERT_NE(mem, nullptr);
    EXPECT_EQ(mem->unit, "GiB");
    EXPECT_DOUBLE_EQ(mem->values[0], 2.47);
    EXPECT_DOUBLE_EQ(log.find("memory share", 0, 0)->values[0], 3.12);
    const model::LogSeries *mfu = log.findKind(LogSeriesKind::Mfu);
    ASSERT_NE(mfu, nullptr);
    EXPECT_EQ(mfu->unit, "%");
    EXPECT_DOUBLE_EQ(mfu->values[2], 10.41);
    EXPECT_EQ(log.badLineCount, 0u);
}

TEST(LossLogNanoGpt, StepPipeLines)
{
    model::TrainingLog log = feedAll(makeTorchtitanReader(),
        {
            "step 0 | loss: 10.938573 | lr: 6.0000e-05 | norm: 27.0159 | time: 17830.71ms | "
            "tokens/sec: 29403.65",
            "step 1 | loss: nan | lr: 6.0000e-05 | norm: 27.0159 | time: 300.5ms | tokens/sec: "
            "29403.65",
        });
    EXPECT_EQ(log.producer, "nanoGPT-style console");
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->steps, (std::vector<std::int64_t> {0, 1}));
    EXPECT_TRUE(std::isnan(loss->values[1])); // kept as a marker
    const model::LogSeries *time = log.findKind(LogSeriesKind::StepTime);
    ASSERT_NE(time, nullptr);
    EXPECT_EQ(time->unit, "ms");
    EXPECT_DOUBLE_EQ(time->values[0], 17830.71);
    EXPECT_EQ(log.findKind(LogSeriesKind::GradNorm)->values[0], 27.0159);
}

TEST(LossLogMegatron, UpstreamAndDeepSpeedVariants)
{
    model::TrainingLog log = feedAll(makeMegatronReader(),
        {
            " iteration        1/  317892 | consumed samples:           96 | consumed tokens:      "
            " 393216 | elapsed time per iteration (ms): 25849.1 | learning rate: 3.000E-04 | "
            "global batch size:    96 | lm loss: 1.117136E+01 | loss scale: 1.0 | actual seqlen:  "
            "4096 | number of skipped iterations:   0 | number of nan iterations:   0 | samples "
            "per second: 3.714 | tokens per gpu per second(tgs): 633.832 | TFLOPs: 38.61 |",
            "[default0]: [2026-09-11 12:06:52.987995] iteration        3/ 7629408 | consumed "
            "samples:           96 | elapsed time per iteration (ms): 24379.9 | throughput per GPU "
            "(TFLOP/s/GPU): 26.8 | learning rate: 1.406250E-04 | global batch size:    32 | lm "
            "loss: 1.107468E+01 | loss scale: 1.0 | grad norm: 30.066 | num zeros: 1299.0 | params "
            "norm: 496.206 | number of skipped iterations:   0 | number of nan iterations:   0 |",
            "[default0]: iteration        2/      10 | lm loss: garbage |",
        });
    const model::LogSeries *loss = log.find("lm loss");
    ASSERT_NE(loss, nullptr);
    EXPECT_DOUBLE_EQ(loss->values[0], 11.17136);
    const model::LogSeries *loss0 = log.find("lm loss", 0, 0);
    ASSERT_NE(loss0, nullptr);
    EXPECT_DOUBLE_EQ(loss0->values[0], 11.07468);
    EXPECT_EQ(log.find("tokens per gpu per second(tgs)")->unit, "tokens/s/GPU");
    // Rank 0's counter went 3 -> 2: a new run; the bad field is counted with its line number.
    EXPECT_EQ(log.runs.size(), 2u);
    EXPECT_EQ(log.badLineCount, 1u);
    ASSERT_EQ(log.issues.size(), 1u);
    EXPECT_EQ(log.issues[0].line, 3);
}

/// Ranks' lines interleaved (each rank prints its own records): one run, a series per rank;
/// a rank's counter going back opens the next run for every rank.
TEST(LossLogMegatron, InterleavedRanksStayOneRun)
{
    std::vector<std::string> lines;
    for (int run = 0; run < 2; ++run)
        for (int it = 1; it <= 3; ++it)
            for (int rank = 0; rank < 2; ++rank)
                lines.push_back("[default" + std::to_string(rank) + "]: iteration "
                    + std::to_string(it) + "/ 3 | lm loss: " + std::to_string(10 - it) + ".5 |");
    model::TrainingLog log = feedAll(makeMegatronReader(), lines);
    ASSERT_EQ(log.runs.size(), 2u);
    for (std::uint32_t run = 0; run < 2; ++run) {
        for (std::int32_t rank = 0; rank < 2; ++rank) {
            const model::LogSeries *loss = log.find("lm loss", run, rank);
            ASSERT_NE(loss, nullptr) << run << " " << rank;
            EXPECT_EQ(loss->steps, (std::vector<std::int64_t> {1, 2, 3}));
            EXPECT_EQ(loss->values, (std::vector<double> {9.5, 8.5, 7.5}));
        }
    }
    EXPECT_EQ(log.runs[1].firstLine, 7);
}

/// A log read while training writes it ends inside a record: the fields before the cut are
/// read, the cut one ("9.4" of "9.4827") is not, and the line says so.
TEST(LossLogMegatron, ARecordCutInItsLastFieldKeepsTheFieldsBefore)
{
    model::TrainingLog log = feedAll(makeMegatronReader(),
        {
            " iteration        1/      10 | learning rate: 1.0E-04 | lm loss: 9.9000 |",
            " iteration        2/      10 | learning rate: 2.0E-04 | lm loss: 9.4",
        });
    const model::LogSeries *loss = log.find("lm loss");
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->steps, (std::vector<std::int64_t> {1}));
    const model::LogSeries *lr = log.find("learning rate");
    ASSERT_NE(lr, nullptr);
    EXPECT_EQ(lr->steps, (std::vector<std::int64_t> {1, 2}));
    ASSERT_EQ(log.issues.size(), 1u);
    EXPECT_EQ(log.issues[0].line, 2);
    EXPECT_EQ(log.issues[0].message,
        "iteration record cut short: its last field `lm loss: 9.4` has no closing `|` and was "
        "not read");
}

TEST(LossLogMindSpore, BadRecordLinesAreCountedWithLineNumbers)
{
    model::TrainingLog log = feedAll(makeMindSporeReader(),
        {
            "epoch: 1 step: 1, loss is 0.5",
            "epoch: 1 step: 2, loss is banana",
            "epoch: 1 step: 3, loss is inf",
            "epoch time: 12.5 ms, per step time: 4.1 ms",
            "epoch: 2 step: 1, loss is 0.4",
        });
    const model::LogSeries *loss = log.primaryLoss();
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->steps, (std::vector<std::int64_t> {1, 3, 4}));
    EXPECT_TRUE(std::isinf(loss->values[1]));
    EXPECT_EQ(log.badLineCount, 1u);
    EXPECT_EQ(log.issues.at(0).line, 2);
    const model::LogSeries *perStep = log.findKind(LogSeriesKind::StepTime);
    ASSERT_NE(perStep, nullptr);
    EXPECT_EQ(perStep->steps, (std::vector<std::int64_t> {3}));
}

TEST(LossLogCounters, ResetCounterAndRunTracker)
{
    ResetCounter c;
    EXPECT_EQ(c.observe(1), 1);
    EXPECT_EQ(c.observe(262), 262);
    EXPECT_EQ(c.observe(1), 263);
    EXPECT_EQ(c.observe(2), 264);
    LogBuilder b;
    RunTracker t;
    EXPECT_EQ(t.observe(b, 1, 1), 0u);
    EXPECT_EQ(t.observe(b, 5, 2), 0u);
    EXPECT_EQ(t.observe(b, 5, 3), 1u);
    EXPECT_EQ(t.observe(b, 2, 4), 2u);
}

TEST(LossLogTime, TimestampsAndTimedeltas)
{
    std::size_t n = 0;
    auto t = parseTimestamp("2024-07-05 17:40:47,132 - mindformers", &n);
    ASSERT_TRUE(t);
    EXPECT_EQ(n, 23u);
    EXPECT_NEAR(*t, 1720201247.132, 1e-6);
    EXPECT_FALSE(parseTimestamp("2024-13-05 17:40:47"));
    EXPECT_DOUBLE_EQ(*parseTimedelta("11 days, 6:32:37"), 11 * 86400 + 6 * 3600 + 32 * 60 + 37);
    EXPECT_DOUBLE_EQ(*parseTimedelta("1 day, 0:00:01"), 86401);
    EXPECT_FALSE(parseTimedelta("soon"));
}

// DeepSpeed 0.7 names the iteration of an overflow on the line before the OVERFLOW line
// (iteration N is step N + 1, the real logs' lines); newer versions name none, and the step
// last printed is taken. A `Grad overflow` line with no OVERFLOW line before the next step
// line names nothing.
TEST(LossLogDeepSpeed, OverflowStepsAreTheOnesDeepSpeedNames)
{
    const std::string at = "[2022-10-28 04:10:05,553] [INFO] ";
    model::TrainingLog log = feedAll(makeDeepSpeedReader(),
        {
            at + "[unfused_optimizer.py:300:_update_scale] Grad overflow on iteration: 1",
            at
                + "[unfused_optimizer.py:221:step] [deepspeed] fp16 dynamic loss scale overflow! "
                  "Skipping step. Attempted loss scale: 32768.0, reducing to 16384.0",
            at
                + "[logging.py:68:log_dist] [Rank 0] step=2, skipped=2, lr=[5e-05, 5e-05], "
                  "mom=[(0.9, 0.999), (0.9, 0.999)]",
            at + "[unfused_optimizer.py:300:_update_scale] Grad overflow on iteration: 5",
            at
                + "[logging.py:68:log_dist] [Rank 0] step=8, skipped=2, lr=[5e-05, 5e-05], "
                  "mom=[(0.9, 0.999), (0.9, 0.999)]",
            at
                + "[loss_scaler.py:181:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. "
                  "Attempted loss scale: 65536, reducing to 32768",
        });
    // The fp16 line names no rank (a series of its own), the OVERFLOW line rank 0.
    std::vector<std::int64_t> skipped;
    std::vector<std::int64_t> scales;
    for (const model::LogSeries &s : log.series) {
        if (s.name == "overflow (skipped step)")
            skipped.insert(skipped.end(), s.steps.begin(), s.steps.end());
        if (s.name == "overflow loss scale")
            scales.insert(scales.end(), s.steps.begin(), s.steps.end());
    }
    EXPECT_EQ(skipped, (std::vector<std::int64_t> {2, 8}));
    EXPECT_EQ(scales, (std::vector<std::int64_t> {2, 8}));
}
