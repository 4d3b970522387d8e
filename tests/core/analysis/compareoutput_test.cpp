// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// One analysis per load, one comparison: the breakdown-pass counter, withRunConfig, and the
// JSON / Markdown outputs of compareRuns (every value there is a RunComparison row).
#include "analysis/analysissummary.h"
#include "analysis/compare.h"
#include "analysis/compareoutput.h"
#include "analysis/convergence.h"
#include "analysis/units.h"
#include "import/loader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace stepscope;
using namespace stepscope::analysis;

namespace {

std::shared_ptr<const model::Session> loadSample(const std::string &relative)
{
    util::Progress progress;
    auto r = import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/" + relative, progress);
    EXPECT_TRUE(r.session && r.session->hasContent()) << relative;
    return r.session;
}

const std::string DemoDir = "kineto/kineto-resnet50-dataloader-workers0-vs-4/";

const nlohmann::json *jsonRow(const nlohmann::json &rows, const std::string &key)
{
    for (const auto &r : rows)
        if (r.at("key") == key)
            return &r;
    return nullptr;
}

void expectSameRows(const nlohmann::json &json, const std::vector<DeltaRow> &rows)
{
    ASSERT_EQ(json.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const nlohmann::json &j = json[i];
        EXPECT_EQ(j.at("key"), rows[i].key);
        EXPECT_EQ(j.at("verdict"), std::string(verdictName(rows[i].verdict)));
        if (rows[i].before) {
            EXPECT_DOUBLE_EQ(j.at("before").get<double>(), *rows[i].before) << rows[i].key;
        } else {
            EXPECT_TRUE(j.at("before").is_null()) << rows[i].key;
        }
        if (rows[i].after) {
            EXPECT_DOUBLE_EQ(j.at("after").get<double>(), *rows[i].after) << rows[i].key;
        } else {
            EXPECT_TRUE(j.at("after").is_null()) << rows[i].key;
        }
    }
}

} // namespace

TEST(SessionAnalysis, OneBreakdownPassPerTraceAndNoneForANewConfig)
{
    const auto session = loadSample(DemoDir + "resnet50_num_workers_0");
    ASSERT_TRUE(session);
    ASSERT_GE(session->traces.size(), 1u);
    const std::uint64_t before = breakdownPassCount();
    const SessionAnalysis a = analyzeSession(*session, {});
    EXPECT_EQ(breakdownPassCount() - before, session->traces.size());
    ASSERT_EQ(a.lanes.size(), session->traces.size());
    // The lanes are the breakdown pass' segments: per step, each kind adds up to segmentNs.
    for (std::size_t t = 0; t < session->traces.size(); ++t) {
        const auto steps = breakdownsOfRank(a, session->traces[t]->rank);
        ASSERT_FALSE(steps.empty());
        std::int64_t laneNs = 0;
        for (const LaneSegment &s : a.lanes[t])
            if (s.step == steps.front().step && s.kind == SegmentKind::DataLoading)
                laneNs += s.endNs - s.startNs;
        EXPECT_EQ(laneNs, steps.front().segmentNs(SegmentKind::DataLoading));
    }

    RunConfig config;
    config.globalBatchSize = 32;
    const std::uint64_t beforeConfig = breakdownPassCount();
    const SessionAnalysis b = withRunConfig(a, *session, config);
    EXPECT_EQ(breakdownPassCount(), beforeConfig); // no new pass
    EXPECT_EQ(b.breakdowns.size(), a.breakdowns.size());
    EXPECT_EQ(b.config.globalBatchSize, 32.0);
    const Kpi *samples = b.kpis.find("samples_per_s");
    ASSERT_NE(samples, nullptr);
    ASSERT_TRUE(samples->value.has_value()); // needs the batch size: only the new config has it
    EXPECT_FALSE(a.kpis.find("samples_per_s")->value.has_value());
    // Same as analysing from scratch with that config.
    const SessionAnalysis fresh = analyzeSession(*session, config);
    EXPECT_DOUBLE_EQ(*samples->value, *fresh.kpis.find("samples_per_s")->value);
    ASSERT_EQ(b.bottlenecks.size(), fresh.bottlenecks.size());
    for (std::size_t i = 0; i < b.bottlenecks.size(); ++i)
        EXPECT_DOUBLE_EQ(b.bottlenecks[i].share, fresh.bottlenecks[i].share);
}

TEST(CompareOutput, JsonAndMarkdownAreTheComparisonRows)
{
    const auto w0 = loadSample(DemoDir + "resnet50_num_workers_0");
    const auto w4 = loadSample(DemoDir + "resnet50_num_workers_4");
    ASSERT_TRUE(w0 && w4);
    const SessionAnalysis a0 = analyzeSession(*w0, {});
    const SessionAnalysis a4 = analyzeSession(*w4, {});
    const std::uint64_t passes = breakdownPassCount();
    const RunComparison c = compareRuns({w0.get(), &a0, nullptr}, {w4.get(), &a4, nullptr});
    EXPECT_EQ(breakdownPassCount(), passes); // compareRuns reads the analyses
    ASSERT_FALSE(c.pairing.pairs.empty());

    const CompareRunInfo b {"workers0", "w0", w0->format};
    const CompareRunInfo a {"workers4", "w4", w4->format};
    const nlohmann::json j = compareJson(c, b, a);
    EXPECT_EQ(j.at("pairing"), std::string(pairingModeName(c.pairing.mode)));
    expectSameRows(j.at("kpis"), c.kpiRows);
    expectSameRows(j.at("mean_step"), c.meanStepRows);
    expectSameRows(j.at("memory"), c.memoryRows);
    expectSameRows(j.at("bottlenecks"), c.bottleneckRows);
    ASSERT_EQ(j.at("steps").size(), c.pairRows.size());
    for (std::size_t i = 0; i < c.pairRows.size(); ++i) {
        EXPECT_EQ(j.at("steps")[i].at("before_step"), c.pairing.pairs[i].beforeStep);
        expectSameRows(j.at("steps")[i].at("rows"), c.pairRows[i]);
    }
    ASSERT_EQ(j.at("kernels").at("top").size(), c.kernels.top.size());
    EXPECT_EQ(j.at("kernels").at("top")[0].at("name"), c.kernels.top[0].name);
    for (std::size_t i = 0; i < c.kernels.top.size(); ++i) {
        const nlohmann::json &k = j.at("kernels").at("top")[i];
        const NameDelta &d = c.kernels.top[i];
        for (const auto &[side, stats] :
            {std::make_pair("before", &d.before), std::make_pair("after", &d.after)}) {
            const nlohmann::json &js = k.at(side);
            if (stats->count == 0) { // the kernel ran on the other side only
                EXPECT_TRUE(js.at("median_ns").is_null()) << i << side;
                EXPECT_TRUE(js.at("min_ns").is_null()) << i << side;
                continue;
            }
            EXPECT_EQ(js.at("median_ns").get<double>(), stats->medianNs) << i << side;
            EXPECT_EQ(js.at("min_ns"), stats->minNs) << i << side;
            EXPECT_EQ(js.at("max_ns"), stats->maxNs) << i << side;
            EXPECT_EQ(js.at("stddev_ns").get<double>(), stats->stddevNs) << i << side;
        }
    }
    EXPECT_TRUE(j.at("loss").is_null()); // no logs given
    // The data wait collapses with 4 workers: the first bottleneck before is data loading.
    ASSERT_FALSE(j.at("bottlenecks_before").empty());
    EXPECT_EQ(j.at("bottlenecks_before")[0].at("kind"), "data_loading");
    const nlohmann::json *dl = jsonRow(j.at("mean_step"), "segment.data_loading");
    ASSERT_NE(dl, nullptr);
    EXPECT_EQ(dl->at("verdict"), "improved");

    // The Markdown shows the same rows, formatted as the compare view formats them.
    const std::string md = compareMarkdown(c, b, a);
    EXPECT_NE(md.find("| median before | median after |"), std::string::npos);
    EXPECT_NE(md.find(" | " + formatDuration(std::llround(c.kernels.top[0].before.medianNs)) + " | "
                  + formatDuration(std::llround(c.kernels.top[0].after.medianNs)) + " |\n"),
        std::string::npos);
    const DeltaRow *mean = nullptr;
    for (const DeltaRow &r : c.meanStepRows)
        if (r.key == "segment.data_loading")
            mean = &r;
    ASSERT_NE(mean, nullptr);
    const std::string line = "| " + rowTitle(*mean) + " | " + formatRowValue("us", *mean->before)
        + " | " + formatRowValue("us", *mean->after) + " | "
        + formatRowValue("us", *mean->delta, true) + " | " + formatRowPercent(*mean->percent)
        + " | improved |";
    EXPECT_NE(md.find(line), std::string::npos) << line << "\n" << md;
    EXPECT_NE(md.find("## KPIs"), std::string::npos);
    EXPECT_NE(md.find("## Kernel deltas"), std::string::npos);
}

TEST(CompareOutput, RowValuesUseTheUnitsOfTheTables)
{
    EXPECT_EQ(formatRowValue("us", 148000.0), "148 ms");
    EXPECT_EQ(formatRowValue("us", -2500.0, true), "\u22122.50 ms");
    EXPECT_EQ(formatRowValue("fraction", 0.21), "21.0 %");
    EXPECT_EQ(formatRowValue("fraction", -0.1, true), "\u221210.0 pp");
    EXPECT_EQ(formatRowValue("bytes", 1024.0 * 1024.0), "1.00 MiB");
    EXPECT_EQ(formatRowValue("us", std::nan("")), "\u2014");
    EXPECT_EQ(formatRowPercent(-20.0), "\u221220.0 %");
    EXPECT_EQ(formatRowPercent(3.26), "+3.3 %");
    DeltaRow kpi;
    kpi.key = kpi.label = "step_time_mean_us";
    EXPECT_EQ(rowTitle(kpi), "Step time (mean)");
    kpi.label = "own label";
    EXPECT_EQ(rowTitle(kpi), "own label");
}

/// A side with no step markers (the Nsight sample: CloverLeaf, not a training job) is one
/// whole-capture step of 840 ms: compared with ResNet's 162 ms steps, the gate exited 3 on
/// "+419 %" and no output said what the after side's step was. The outputs now say it, and
/// the gate leaves step time and throughput alone (memory is still judged).
TEST(CompareOutput, AWholeCaptureStepIsSaidAndNotGatedAsAStep)
{
    const auto w0 = loadSample(DemoDir + "resnet50_num_workers_0");
    const auto nsys = loadSample("nsys_sqlite/pipit-cloverleaf-cuda");
    ASSERT_TRUE(w0 && nsys);
    const SessionAnalysis a0 = analyzeSession(*w0, {});
    const SessionAnalysis an = analyzeSession(*nsys, {});
    const RunComparison c = compareRuns({w0.get(), &a0, nullptr}, {nsys.get(), &an, nullptr});
    ASSERT_EQ(c.afterSteps.size(), 1u);
    EXPECT_EQ(c.afterSteps[0].origin, StepOrigin::WholeTrace);
    EXPECT_FALSE(c.stepTimesComparable());
    ASSERT_EQ(c.stepNotes.size(), 1u);
    EXPECT_EQ(c.stepNotes[0].rfind("after: no step markers, so the whole capture (", 0), 0u)
        << c.stepNotes[0];
    EXPECT_EQ(c.pairing.mode, PairingMode::ByOrder);
    const nlohmann::json j = compareJson(c, {"w0", "w0", "kineto"}, {"nsys", "n", "nsys"});
    EXPECT_EQ(j.at("step_notes"), nlohmann::json(c.stepNotes));
    EXPECT_EQ(j.at("step_times_comparable"), false);
    EXPECT_NE(compareMarkdown(c, {"w0", "w0", "kineto"}, {"nsys", "n", "nsys"})
                  .find("> " + c.stepNotes[0]),
        std::string::npos);
    std::vector<std::string> regressions;
    profileRegressions(j, TrainingThresholds {}, regressions);
    for (const std::string &r : regressions)
        EXPECT_EQ(r.find("step_time"), std::string::npos) << r;
}

/// Two training logs (the resumed Megatron pair): summary.md said "Rank 0 of before against
/// rank 0 of after; 0 step pairs" above a KPI table of dashes. It says, as the report does,
/// that only the logs are compared.
TEST(CompareOutput, TwoLogsSayNoProfileInsteadOfARankLine)
{
    const std::string dir =
        "loss_logs/megatron-golden-values/gpt/gpt3_mcore_te_tp2_pp2_resume_torch_dist/";
    const auto b = loadSample(dir + "golden_values_dev_dgx_h100.json");
    const auto a = loadSample(dir + "golden_values_dev_dgx_h100_2nd.json");
    ASSERT_TRUE(b && a);
    ASSERT_EQ(b->trainingLogs.size(), 1u);
    ASSERT_EQ(a->trainingLogs.size(), 1u);
    const SessionAnalysis ab = analyzeSession(*b, {});
    const SessionAnalysis aa = analyzeSession(*a, {});
    const RunComparison c = compareRuns(
        {b.get(), &ab, b->trainingLogs[0].get()}, {a.get(), &aa, a->trainingLogs[0].get()});
    const std::string md =
        compareMarkdown(c, {"b", "b", "training-log"}, {"a", "a", "training-log"});
    EXPECT_NE(md.find("Training logs only, no profile"), std::string::npos) << md;
    EXPECT_EQ(md.find("Rank 0 of before"), std::string::npos) << md;
    EXPECT_EQ(md.find("## KPIs"), std::string::npos) << md;
    EXPECT_NE(md.find("50 common steps"), std::string::npos) << md;
}
