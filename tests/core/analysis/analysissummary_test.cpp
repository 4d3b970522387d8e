// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/analysissummary.h"
#include "analysis/breakdown.h"
#include "import/loader.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace stepscope;

namespace {

model::Session oneRank()
{
    model::TraceBuilder b;
    model::TrackInfo h;
    const auto host = b.addTrack(h);
    model::TrackInfo d;
    d.kind = model::TrackKind::DeviceStream;
    const auto stream = b.addTrack(d);
    b.track(host).add(0, 1'000'000, b.intern("ProfilerStep#7"), model::Category::Annotation);
    b.track(host).add(0, 400'000,
        b.intern("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"),
        model::Category::DataLoading);
    b.track(stream).add(400'000, 600'000, b.intern("gemm"), model::Category::Compute);
    b.trace().metadata.format = "kineto";
    model::Session s;
    s.traces.push_back(std::make_shared<model::Trace>(b.finish().trace));
    return s;
}

} // namespace

TEST(AnalysisSummary, JsonCarriesTheIssueFields)
{
    nlohmann::json summary = {{"format", "kineto"},
        {"steps", nlohmann::json::array({{{"rank", 0}, {"step", 7}, {"name", "x"}}})}};
    analysis::addAnalysisToSummary(summary, oneRank(), analysis::RunConfig {});
    ASSERT_EQ(summary["steps"].size(), 1u); // merged into the importer's step object
    const auto &s = summary["steps"][0];
    EXPECT_EQ(s["name"], "x");
    for (const char *key :
        {"compute_us", "comm_exposed_us", "comm_overlapped_us", "free_us", "host_wait_us",
            "data_loading_us", "launch_gap_us", "other_idle_us", "bubble_us", "preparing_us"})
        EXPECT_TRUE(s.contains(key)) << key;
    EXPECT_DOUBLE_EQ(s["compute_us"].get<double>(), 600);
    EXPECT_DOUBLE_EQ(s["data_loading_us"].get<double>(), 400);
    ASSERT_TRUE(s.contains("tb_breakdown_us"));
    for (const char *key : {"kernel", "memcpy", "memset", "communication", "runtime", "dataloader",
             "cpu_exec", "other"})
        EXPECT_TRUE(s["tb_breakdown_us"].contains(key)) << key;
    EXPECT_DOUBLE_EQ(s["tb_breakdown_us"]["dataloader"].get<double>(), 400);
    for (const char *key : {"step_time_mean_us", "step_time_median_us", "step_time_p90_us",
             "samples_per_s", "tokens_per_s", "mfu", "comm_share", "data_wait_share",
             "memory_peak_allocated_bytes", "memory_peak_reserved_bytes"})
        EXPECT_TRUE(summary["kpis"].contains(key)) << key;
    EXPECT_TRUE(summary["kpis"]["mfu"].is_null());
    EXPECT_EQ(summary["kpis"]["missing"]["samples_per_s"],
        "global_batch_size is not set in the run config");
    ASSERT_EQ(summary["bottlenecks"].size(), 1u);
    EXPECT_EQ(summary["bottlenecks"][0]["kind"], "data_loading");
    EXPECT_DOUBLE_EQ(summary["bottlenecks"][0]["share"].get<double>(), 0.4);
    ASSERT_TRUE(summary["memory"].is_object());
    EXPECT_TRUE(summary["memory"]["per_rank"].is_array());
    EXPECT_EQ(summary["ranks"]["per_rank"].size(), 1u);

    const std::string text = analysis::analysisSummaryText(oneRank(), analysis::RunConfig {});
    EXPECT_NE(text.find("Data loading 40.0 %"), std::string::npos) << text;
    EXPECT_NE(text.find("TensorBoard plugin step breakdown"), std::string::npos);
}

TEST(AnalysisSummary, NotesSayWhenStepsWereInferred)
{
    model::TraceBuilder b;
    model::TrackInfo h;
    const auto host = b.addTrack(h);
    b.track(host).add(0, 1000, b.intern("aten::mm"), model::Category::HostOp);
    model::Session s;
    s.traces.push_back(std::make_shared<model::Trace>(b.finish().trace));
    nlohmann::json summary = nlohmann::json::object();
    analysis::addAnalysisToSummary(summary, s, analysis::RunConfig {});
    ASSERT_EQ(summary["analysis_notes"].size(), 2u);
    EXPECT_EQ(summary["analysis_notes"][0]["where"], "rank 0");
    EXPECT_NE(summary["analysis_notes"][0]["message"].get<std::string>().find("one step"),
        std::string::npos);
    // Host ops only: the step's time is all preparing, and the note says why.
    EXPECT_NE(summary["analysis_notes"][1]["message"].get<std::string>().find(
                  "no device activity recorded"),
        std::string::npos);
    ASSERT_EQ(summary["steps"].size(), 1u);
    EXPECT_EQ(summary["steps"][0]["step"], 0);
    EXPECT_NE(
        analysis::analysisSummaryText(s, analysis::RunConfig {}).find("Notes"), std::string::npos);
}

TEST(AnalysisSummary, OneKernelIsDeviceActivityEnoughForNoNote)
{
    model::TraceBuilder b;
    model::TrackInfo h;
    const auto host = b.addTrack(h);
    b.track(host).add(0, 1000, b.intern("ProfilerStep#1"), model::Category::Annotation);
    b.trace().steps.push_back({1, 0, 1000});
    model::TrackInfo d;
    d.kind = model::TrackKind::DeviceStream;
    d.threadId = "7";
    const auto stream = b.addTrack(d);
    b.track(stream).add(100, 200, b.intern("gemm"), model::Category::Compute);
    model::Session s;
    s.traces.push_back(std::make_shared<model::Trace>(b.finish().trace));
    nlohmann::json summary = nlohmann::json::object();
    analysis::addAnalysisToSummary(summary, s, analysis::RunConfig {});
    for (const auto &n : summary["analysis_notes"])
        EXPECT_EQ(n["message"].get<std::string>().find("no device activity"), std::string::npos)
            << n.dump();
    ASSERT_EQ(summary["steps"].size(), 1u);
    EXPECT_DOUBLE_EQ(summary["steps"][0]["compute_us"].get<double>(), 0.2);
}

TEST(AnalysisSummary, MemoryObjectCarriesTheHighestRankAndTheEstimate)
{
    model::Session s;
    for (std::int32_t rank = 0; rank < 2; ++rank) {
        auto t = std::make_shared<model::Trace>();
        t->rank = rank;
        model::MemoryCurve c;
        c.timestampsNs = {0};
        c.allocatedBytes = {rank == 1 ? 5'000'000'000 : 3'000'000'000};
        c.reservedBytes = {6'000'000'000};
        t->memory.curves.push_back(c);
        s.traces.push_back(t);
    }
    analysis::RunConfig config;
    config.parameters = 1e8;
    nlohmann::json summary = nlohmann::json::object();
    analysis::addAnalysisToSummary(summary, s, config);
    const auto &m = summary["memory"];
    EXPECT_EQ(m["rank"], 1);
    EXPECT_EQ(m["peak_allocated_bytes"], 5'000'000'000);
    EXPECT_EQ(m["estimate"]["total"], 1'600'000'000); // 16 B per parameter
    EXPECT_EQ(m["non_model_state_bytes"], 3'400'000'000);
    EXPECT_EQ(m["per_rank"].size(), 2u);
}

TEST(AnalysisSummary, EstimateWithoutMemoryData)
{
    analysis::RunConfig config;
    config.parameters = 7e9;
    nlohmann::json summary = nlohmann::json::object();
    analysis::addAnalysisToSummary(summary, oneRank(), config);
    EXPECT_EQ(summary["memory"]["estimate"]["total"], 112'000'000'000);
    EXPECT_TRUE(summary["memory"]["per_rank"].empty());
}

TEST(AnalysisSummary, ACancelledTokenStopsTheAnalysisAnUnsetOneChangesNothing)
{
    const model::Session s = oneRank();
    util::CancelToken token;
    nlohmann::json plain = nlohmann::json::object();
    analysis::addAnalysisToSummary(plain, analysis::analyzeSession(s, {}));
    nlohmann::json withToken = nlohmann::json::object();
    analysis::addAnalysisToSummary(withToken, analysis::analyzeSession(s, {}, &token));
    EXPECT_EQ(plain, withToken);
    EXPECT_EQ(plain["steps"].size(), 1u) << plain.dump(); // step 7, analysed
    token.cancel();
    EXPECT_THROW(analysis::analyzeSession(s, {}, &token), util::Cancelled);
    // No trace at all: the passes over the session check too.
    EXPECT_THROW(analysis::analyzeSession(model::Session {}, {}, &token), util::Cancelled);
}

// The summary's rank-to-rank lines read as the Communication panel's matrix: the 1 -> 0 entry
// of the trimmed cluster's cluster_communication_matrix.json (4e-05 MB in 0.00162 ms, 0.0247
// GB/s) read "4e-05 MB in 0.00162 ms, 0.0247 GB/s".
TEST(AnalysisSummary, RankToRankTrafficInThePanelsUnits)
{
    model::Session s = oneRank();
    model::CommMatrixEntry e;
    e.step = "step2";
    e.op = "hcom_broadcast__483_0";
    e.srcRank = 1;
    e.dstRank = 0;
    e.traffic = model::LinkTraffic {"HCCS", 4e-05, 0.00162, 0.0247};
    s.clusterMatrix.push_back(e);
    const std::string text = analysis::analysisSummaryText(s, analysis::RunConfig {});
    EXPECT_NE(text.find("  1 -> 0 HCCS: 40 B in 1.62 µs, 24.7 MB/s\n"), std::string::npos) << text;
}

// `stepscope summary` of training logs alone printed an empty Steps table and ten KPIs each
// "— (the profile has no steps with a duration)" above the logs' sections: only those now.
TEST(AnalysisSummary, TrainingLogsAlonePrintOnlyTheirSections)
{
    util::Progress progress;
    const auto r = import::loadPath(
        std::string(STEPSCOPE_TEST_DATA) + "/loss_logs/deepspeed-chat-step1-opt1.3b", progress);
    ASSERT_TRUE(r.session && !r.session->trainingLogs.empty());
    ASSERT_TRUE(r.session->traces.empty());
    const std::string text = analysis::analysisSummaryText(*r.session, analysis::RunConfig {});
    EXPECT_EQ(text.find("Steps ("), std::string::npos) << text;
    EXPECT_EQ(text.find("KPIs"), std::string::npos) << text;
    EXPECT_NE(text.find("Training log\n"), std::string::npos) << text;
    EXPECT_NE(text.find("Training health\n"), std::string::npos) << text;
    // A profile keeps its tables.
    const std::string profile = analysis::analysisSummaryText(oneRank(), analysis::RunConfig {});
    EXPECT_NE(profile.find("Steps ("), std::string::npos) << profile;
    EXPECT_NE(profile.find("KPIs"), std::string::npos) << profile;
}

// The straggler column of the Ranks table and `ranks.per_rank[].straggler` are the cluster's
// verdict. They pooled every rank's mean step and called the GPT-3 sample's whole second
// pipeline stage (ranks 8-15, ~90 ms longer steps, half bubble) slow, where the cluster's
// per-stage rule finds one step: rank 11's step 2.
TEST(AnalysisSummary, RankStragglersAreTheClustersPerStageVerdict)
{
    util::Progress progress;
    const auto r = import::loadPath(
        std::string(STEPSCOPE_TEST_DATA) + "/ascend_pt/msinsight-gpt3-pp2-16rank-trimmed",
        progress);
    ASSERT_TRUE(r.session);
    const analysis::SessionAnalysis a = analysis::analyzeSession(*r.session, {});
    ASSERT_EQ(a.cluster.stragglers.size(), 1u);
    EXPECT_EQ(a.cluster.stragglers[0].rank, 11);
    nlohmann::json j = nlohmann::json::object();
    analysis::addAnalysisToSummary(j, a);
    ASSERT_EQ(j["ranks"]["per_rank"].size(), 16u);
    for (const nlohmann::json &row : j["ranks"]["per_rank"]) {
        const bool eleven = row["rank"] == 11;
        EXPECT_EQ(row["straggler"], eleven) << row.dump();
        EXPECT_EQ(row["straggler_steps"], eleven ? 1 : 0) << row.dump();
    }
    const std::string text = analysis::analysisSummaryText(*r.session, a);
    EXPECT_NE(text.find("  straggler steps\n"), std::string::npos) << text;
    EXPECT_NE(
        text.find("   11      1    394 ms    394 ms    394 ms           —  1\n"), std::string::npos)
        << text;
}

// A profiler row without a step id (the fragments' cluster_step_trace_time.csv leaves Step
// empty) reads "–" in the text Steps table, as in the Steps panel; it read "-1".
TEST(AnalysisSummary, AStepWithoutAnIdIsADash)
{
    util::Progress progress;
    const auto r = import::loadPath(
        std::string(STEPSCOPE_TEST_DATA) + "/ascend_pt/mstt-advisor-fragments", progress);
    ASSERT_TRUE(r.session);
    const std::string text = analysis::analysisSummaryText(*r.session, analysis::RunConfig {});
    EXPECT_NE(text.find("\n    1      –    1.70 s"), std::string::npos) << text;
    EXPECT_EQ(text.find("     -1 "), std::string::npos) << text;
}

namespace {

/// A Kineto trace of `steps` 1 ms ProfilerStep#N ranges from `firstStepNs` on a host thread,
/// and one kernel [kernelNs, kernelNs + kernelDurNs) on a device stream.
std::shared_ptr<model::Trace> oneKernelTrace(
    std::int64_t firstStepNs, int steps, std::int64_t kernelNs, std::int64_t kernelDurNs)
{
    model::TraceBuilder b;
    const auto host = b.addTrack(model::TrackInfo {});
    model::TrackInfo d;
    d.kind = model::TrackKind::DeviceStream;
    const auto stream = b.addTrack(d);
    for (int step = 1; step <= steps; ++step)
        b.track(host).add(firstStepNs + (step - 1) * 1'000'000, 1'000'000,
            b.intern("ProfilerStep#" + std::to_string(step)), model::Category::Annotation);
    b.track(stream).add(kernelNs, kernelDurNs, b.intern("gemm"), model::Category::Compute);
    b.trace().metadata.format = "kineto";
    return std::make_shared<model::Trace>(b.finish().trace);
}

} // namespace

/// MindInsight writes the timeline of a run's first steps only: later steps have no device
/// task, so they read as all preparing. The notes say which steps, in summary --json.
TEST(AnalysisSummary, StepsBeyondTheDeviceTimelineAreNamed)
{
    model::Session s;
    s.traces.push_back(oneKernelTrace(0, 4, 100'000, 1'500'000));
    nlohmann::json summary = nlohmann::json::object();
    analysis::addAnalysisToSummary(summary, s, analysis::RunConfig {});
    std::string said;
    for (const auto &n : summary["analysis_notes"])
        said += n["message"].get<std::string>() + "\n";
    // Steps 1 and 2 hold device work; 3 and 4 start after the last device task ends (1.6 ms).
    EXPECT_NE(said.find("2 steps of 4 (3 … 4) lie outside the device timeline, which the "
                        "profile records from 100 µs to 1.60 ms"),
        std::string::npos)
        << said;
    ASSERT_EQ(summary["steps"].size(), 4u);
    EXPECT_EQ(summary["steps"][3]["preparing_us"], 1000.0);
    // They are untraced: the JSON says so, and the findings and shares leave them out. Over
    // all four steps, preparing (100 us + 2 ms of 4 ms) read as 52.5 % host bound.
    EXPECT_FALSE(summary["steps"][0].contains("untraced"));
    EXPECT_EQ(summary["steps"][2]["untraced"], true);
    EXPECT_EQ(summary["steps"][3]["untraced"], true);
    // Step 2 holds the timeline's end (1.6 ms) with untraced steps after it: the capture of
    // the device stopped inside it, so its 400 us after the kernel are no measured idle.
    EXPECT_EQ(summary["steps"][1]["partly_traced"], true);
    EXPECT_FALSE(summary["steps"][0].contains("partly_traced"));
    EXPECT_NE(said.find(". Step 2 is partly outside it (400 µs of 1.00 ms; the capture stopped "
                        "or started inside it)"),
        std::string::npos)
        << said;
    // Traced: step 1 alone, preparing 100 us of 1 ms before the kernel (10 %), no idle.
    ASSERT_EQ(summary["bottlenecks"].size(), 1u) << summary["bottlenecks"].dump();
    EXPECT_EQ(summary["bottlenecks"][0]["kind"], "host_bound");
    EXPECT_DOUBLE_EQ(summary["bottlenecks"][0]["share"].get<double>(), 0.1);
    EXPECT_EQ(summary["kpis"]["data_wait_share"], 0.0);
    EXPECT_DOUBLE_EQ(summary["kpis"]["step_time_mean_us"].get<double>(), 1000.0);
    // Nor does the step lane draw them: it stays empty there instead of Preparing's yellow.
    const auto segments = analysis::stepLaneSegments(*s.traces[0]);
    ASSERT_FALSE(segments.empty());
    for (const analysis::LaneSegment &seg : segments) {
        EXPECT_LE(seg.step, 2) << seg.startNs;
        EXPECT_LE(seg.endNs, 1'600'000) << seg.step; // step 2's lane stops with the timeline
    }
}

// The timeline ending inside the last step is no sign that the capture stopped: the device
// may idle at the end of a run. That step's idle stays a finding.
TEST(AnalysisSummary, ATimelineEndingInTheLastStepLeavesItTraced)
{
    model::Session s;
    s.traces.push_back(oneKernelTrace(0, 2, 100'000, 1'500'000));
    nlohmann::json summary = nlohmann::json::object();
    analysis::addAnalysisToSummary(summary, s, analysis::RunConfig {});
    ASSERT_EQ(summary["steps"].size(), 2u);
    EXPECT_FALSE(summary["steps"][1].contains("partly_traced"));
    EXPECT_TRUE(summary["analysis_notes"].empty()) << summary["analysis_notes"].dump();
    ASSERT_FALSE(summary["bottlenecks"].empty());
    EXPECT_EQ(summary["bottlenecks"][0]["kind"], "device_idle");
    EXPECT_DOUBLE_EQ(summary["bottlenecks"][0]["share"].get<double>(), 0.4 / 2.0);
}

// Every step untraced (a device task only before the first step): no finding, and the
// shares say why they are missing.
TEST(AnalysisSummary, WithEveryStepUntracedNothingIsConcluded)
{
    model::Session s;
    s.traces.push_back(oneKernelTrace(1'000'000, 2, 0, 100'000));
    nlohmann::json summary = nlohmann::json::object();
    analysis::addAnalysisToSummary(summary, s, analysis::RunConfig {});
    EXPECT_TRUE(summary["bottlenecks"].empty()) << summary["bottlenecks"].dump();
    EXPECT_TRUE(summary["kpis"]["comm_share"].is_null());
    EXPECT_EQ(summary["kpis"]["missing"]["comm_share"], "no step lies on the device timeline");
}
