// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Golden counts per sample folder, loaded through loadPath as a user opens it. Every number
// was counted with python3 on the files themselves (json/csv modules): events per phase and
// per process (process_name / process_labels metadata -> track kind), ProfilerStep#N and
// Iteration names, counter args, memory rows, CSV rows. The event total per sample equals the
// number of events in its files: nothing dropped, overlapping events kept.
#include "import/loader.h"
#include "import/summary.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>

namespace stepscope::import {
namespace {

namespace fs = std::filesystem;

const fs::path Data = fs::path(STEPSCOPE_TEST_DATA);

struct RankGolden
{
    std::int32_t rank = 0;
    // Events per track kind.
    std::uint64_t host = 0;
    std::uint64_t device = 0;
    std::uint64_t communication = 0;
    std::uint64_t synthetic = 0;
    std::vector<std::int64_t> steps;
    std::uint64_t counters = 0; ///< counter series
    std::uint64_t counterPoints = 0; ///< C events x args keys
    std::uint64_t memoryPoints = 0;
    std::int64_t flows = -1; ///< -1: not pinned (python3 counts in FlowsLinkWhateverTheFileOrder)
};

struct SampleGolden
{
    const char *folder;
    const char *format;
    std::uint64_t fileEvents; ///< events in the sample's files (python3)
    std::vector<RankGolden> ranks;
};

std::vector<std::int64_t> range(std::int64_t first, std::int64_t last)
{
    std::vector<std::int64_t> v(static_cast<std::size_t>(last - first + 1));
    std::iota(v.begin(), v.end(), first);
    return v;
}

/// A trace-less rank: its step-table rows only, no events, no memory.
RankGolden rankOnly(std::int32_t rank)
{
    RankGolden g;
    g.rank = rank;
    g.flows = 0;
    return g;
}

std::vector<SampleGolden> goldens()
{
    std::vector<std::int64_t> resnetSteps = range(5, 10);
    for (std::int64_t s : range(16, 21))
        resnetSteps.push_back(s);
    return {
        // trace_view.json: X per process (Python -> host, Ascend Hardware -> device, HCCL ->
        // communication, Overlap Analysis -> synthetic); C: 30 (pid, name, key) series; flows:
        // 606 s / 611 f, 396 bind to a slice on both ends (215 lie on no slice). Memory:
        // memory_record.csv rows (1003). Step: ProfilerStep#50.
        {"ascend_pt/msinsight-cnn-level0-2rank", "ascend", 3379 + 3379,
            {{0, 2460, 533, 4, 382, {50}, 30, 5952, 1003, 396},
                {1, 2460, 533, 4, 382, {50}, 30, 5971, 1003, 396}}},
        // Level2 adds the CANN process (host): 1134 / 1139 events; HCCL 300.
        {"ascend_pt/msinsight-cnn-level2-2rank", "ascend", 4811 + 4816,
            {{0, 3594, 535, 300, 382, {50}, 30, 7120, 1003, 611},
                {1, 3599, 535, 300, 382, {50}, 30, 7508, 1004, 611}}},
        // No trace_view.json: kernel_details.csv rows are the device lanes (rank 0: 21 rows,
        // one cut short and skipped, 4 hcom_*; rank 1: 22 rows, 2 hcom_*). Rank 0
        // memory_record.csv: 11 rows; rank 1's is spreadsheet-mangled (E+ times, dropped).
        {"ascend_pt/msinsight-gpt3-pp2-16rank-trimmed", "ascend", 20 + 22,
            {{0, 0, 16, 4, 0, {}, 0, 0, 11, 0}, {1, 0, 20, 2, 0, {}, 0, 0, 0, 0},
                // Ranks 2-15: only their cluster_step_trace_time.csv rows, no timeline.
                rankOnly(2), rankOnly(3), rankOnly(4), rankOnly(5), rankOnly(6), rankOnly(7),
                rankOnly(8), rankOnly(9), rankOnly(10), rankOnly(11), rankOnly(12), rankOnly(13),
                rankOnly(14), rankOnly(15)}},
        // Loose trace_view.json: Python 1007 + CANN 382 host, Overlap Analysis 547.
        {"ascend_pt/mstt-advisor-fragments", "ascend-fragments", 2212,
            {{0, 1389, 276, 0, 547, {1}, 0, 0, 0, 713},
                // Ranks 1-7 of its cluster_step_trace_time.csv (rank 0 is the loose trace).
                rankOnly(1), rankOnly(2), rankOnly(3), rankOnly(4), rankOnly(5), rankOnly(6),
                rankOnly(7)}},
        // X 123379 + 2 i + 28010 [memory] instants (also memory points); GPU 1 -> device.
        {"kineto/hta-ddp-2rank-rank1-memory", "kineto", 123379 + 2 + 28010,
            {{1, 129098, 22290, 0, 3, range(2, 6), 0, 0, 28010, 22290}}},
        {"kineto/hta-ddp-a100-world2-nccl", "kineto", 26933 + 2,
            {{0, 23128, 3804, 0, 3, {4, 5, 6}, 0, 0, 0, 4317}}},
        {"kineto/hta-mi250-minitoy-rocm", "kineto", 113 + 2,
            {{0, 94, 18, 0, 3, {1, 2}, 0, 0, 0, 20}}},
        // distributedInfo ranks 0 and 1; no flows in the sampled files.
        {"kineto/hta-sampled-2of128-ranks", "kineto", 4811 + 4676,
            {{0, 3606, 1204, 0, 1, {551, 552}, 0, 0, 0, 0},
                {1, 3521, 1154, 0, 1, {551, 552}, 0, 0, 0, 0}}},
        // Two runs (workers 0 and 4) of worker0, two captures each (steps 5-10 and 16-21): the
        // two captures of a run merge into one rank. X + 2 i + [memory] per file:
        // 2 x (44666 + 2 + 12838) and 2 x (41906 + 2 + 10980).
        {"kineto/kineto-resnet50-dataloader-workers0-vs-4", "kineto",
            2 * (44666 + 2 + 12838) + 2 * (41906 + 2 + 10980),
            {{0, 96814, 18192, 0, 6, resnetSteps, 0, 0, 2 * 12838, 2 * 9096},
                {1, 87254, 18516, 0, 6, resnetSteps, 0, 0, 2 * 10980, 2 * 9258}}},
        {"kineto/tracelens-mi300-resnet-actckpt-rank0of8", "kineto", 49208 + 2,
            {{0, 45533, 3674, 0, 3, {15, 16, 17}, 0, 0, 0, 2817}}},
        // timeline_display_1.json: 2817 pid-1 ops (device) + 3542 pid-10000 reduce lanes
        // (synthetic) + step_trace_raw_1: 322 steps + 965 non-zero phases (synthetic).
        {"mindspore_legacy/mindinsight-widedeep-run1", "mindspore-legacy", 6359 + 322 + 965,
            {{1, 0, 2817, 0, 3542 + 322 + 965, range(1, 322), 0, 0, 0, 0}}},
        // No timeline: step_trace_raw lanes only (5 steps + 14 phases; reduce entries 485,
        // 485, 1745, 1745).
        {"mindspore_legacy/mindinsight-cluster-pp-4rank", "mindspore-legacy",
            4 * 19 + 485 + 485 + 1745 + 1745,
            {{0, 0, 0, 485, 19, range(1, 5), 0, 0, 0, 0},
                {1, 0, 0, 485, 19, range(1, 5), 0, 0, 0, 0},
                {2, 0, 0, 1745, 19, range(1, 5), 0, 0, 0, 0},
                {3, 0, 0, 1745, 19, range(1, 5), 0, 0, 0, 0}}},
        // PROF device_0 msprof_*: CANN 14 host, Ascend Hardware 4900 device + 40 Step Trace
        // (synthetic), Overlap Analysis 2504, HCCL 3380; plus ascend_timeline_display_0 (3)
        // and gpu_timeline_display_0 (2) device ops, plus step_trace_raw_0 (20 steps + 59
        // phases; its reduce lanes come from the timeline JSON). Device_1: CANN 9, Overlap
        // 2512. Rank 10: step_trace_raw_10 only (40 steps + 119 phases, 80 non-zero reduce
        // entries). Steps of ranks 0/1: the PROF Iteration IDs 1..10.
        {"mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev", "mindspore-legacy",
            (14 + 4940 + 2504 + 3380 + 3 + 2 + 20 + 59) + (9 + 4940 + 2512 + 3380)
                + (40 + 119 + 80),
            {{0, 14, 4905, 3380, 40 + 2504 + 20 + 59, range(1, 10), 0, 0, 0, -1},
                {1, 9, 4900, 3380, 40 + 2512, range(1, 10), 0, 0, 0, -1},
                {10, 0, 0, 80, 159, range(1, 40), 0, 0, 0, 0}}},
        // 16 845 rows of memory_timeline.raw.gz, no events.
        {"torch_memory/hta-memory-timeline-raw", "torch-memory", 0,
            {{0, 0, 0, 0, 0, {}, 0, 0, 16845, 0}}},
    };
}

std::uint64_t eventsOfKind(const model::Trace &t, model::TrackKind kind)
{
    std::uint64_t n = 0;
    for (const model::Track &track : t.tracks)
        n += track.info().kind == kind ? track.size() : 0;
    return n;
}

TEST(SamplesGoldenTest, EverySampleMatchesItsFiles)
{
    for (const SampleGolden &g : goldens()) {
        SCOPED_TRACE(g.folder);
        util::Progress progress;
        const LoadResult r = loadPath(Data / g.folder, progress);
        ASSERT_TRUE(r.session);
        const model::Session &s = *r.session;
        EXPECT_EQ(s.format, g.format);
        EXPECT_EQ(s.eventCount(), g.fileEvents) << importSummaryText(s);
        ASSERT_EQ(s.traces.size(), g.ranks.size()) << importSummaryText(s);
        for (std::size_t i = 0; i < g.ranks.size(); ++i) {
            const RankGolden &e = g.ranks[i];
            const model::Trace &t = *s.traces[i];
            SCOPED_TRACE("rank " + std::to_string(e.rank));
            EXPECT_EQ(t.rank, e.rank);
            EXPECT_EQ(eventsOfKind(t, model::TrackKind::HostThread), e.host);
            EXPECT_EQ(eventsOfKind(t, model::TrackKind::DeviceStream), e.device);
            EXPECT_EQ(eventsOfKind(t, model::TrackKind::CommunicationGroup), e.communication);
            EXPECT_EQ(eventsOfKind(t, model::TrackKind::Synthetic), e.synthetic);
            EXPECT_EQ(eventsOfKind(t, model::TrackKind::Counter), 0u);
            std::vector<std::int64_t> steps;
            for (const model::Step &step : t.steps)
                steps.push_back(step.number);
            EXPECT_EQ(steps, e.steps);
            EXPECT_EQ(t.counters.size(), e.counters);
            std::uint64_t points = 0;
            for (const model::CounterSeries &c : t.counters)
                points += c.timestampsNs.size();
            EXPECT_EQ(points, e.counterPoints);
            EXPECT_EQ(t.memory.pointCount(), e.memoryPoints);
            if (e.flows >= 0) {
                EXPECT_EQ(t.flows.size(), static_cast<std::uint64_t>(e.flows));
            }
            EXPECT_EQ(t.checkInvariants(), "");
        }
    }
}

TEST(SamplesGoldenTest, JaxXplaneHasNothingButTheDiagnostic)
{
    util::Progress progress;
    const LoadResult r = loadPath(Data / "jax_xplane/tracelens-jax08-conv-mi300", progress);
    ASSERT_TRUE(r.session);
    EXPECT_TRUE(r.session->traces.empty());
    EXPECT_EQ(r.session->eventCount(), 0u);
    ASSERT_EQ(r.session->report.diagnostics().size(), 1u);
    EXPECT_EQ(r.session->report.diagnostics()[0].severity, model::Severity::Error);
}

TEST(SamplesGoldenTest, ReferenceStepsAndCollectivesOfTheLegacyCluster)
{
    util::Progress progress;
    const LoadResult r = loadPath(Data / "mindspore_legacy/mindinsight-cluster-pp-4rank", progress);
    ASSERT_TRUE(r.session);
    // Per rank: 5 step_trace_raw rows + hccl_raw steps (6, 6, 2, 2) + 6 cluster_analyse rows;
    // 500 hccl operator entries each.
    const std::uint64_t hcclSteps[4] = {6, 6, 2, 2};
    for (const auto &t : r.session->traces) {
        EXPECT_EQ(t->referenceSteps.size(), 5u + hcclSteps[t->rank] + 6u) << t->rank;
        EXPECT_EQ(t->collectives.size(), 500u);
    }
}

// Flows are paired on (cat, id) once the whole file is read, whatever the file order (in
// hta-ddp-2rank-rank1-memory all 22 290 `f` precede their `s`) or the time order (Ascend
// HostToDevice `f` stamped before their `s`: 29 / 46 in level2, 220 in fragments). The numbers
// are s->f pairs whose both ends bind to a slice (python3, §8a binding rules).
TEST(SamplesGoldenTest, FlowsLinkWhateverTheFileOrder)
{
    const std::vector<std::pair<const char *, std::vector<std::uint64_t>>> flows = {
        {"kineto/hta-mi250-minitoy-rocm", {20}},
        {"kineto/tracelens-mi300-resnet-actckpt-rank0of8", {2817}},
        {"kineto/hta-ddp-a100-world2-nccl", {4317}},
        {"kineto/hta-ddp-2rank-rank1-memory", {22290}},
        {"kineto/kineto-resnet50-dataloader-workers0-vs-4", {2 * 9096, 2 * 9258}},
        {"ascend_pt/msinsight-cnn-level2-2rank", {611, 611}},
        {"ascend_pt/mstt-advisor-fragments", {713, 0, 0, 0, 0, 0, 0, 0}},
    };
    for (const auto &[folder, expected] : flows) {
        SCOPED_TRACE(folder);
        util::Progress progress;
        const LoadResult r = loadPath(Data / folder, progress);
        ASSERT_TRUE(r.session);
        ASSERT_EQ(r.session->traces.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
            EXPECT_EQ(r.session->traces[i]->flows.size(), expected[i]);
    }
}

} // namespace
} // namespace stepscope::import
