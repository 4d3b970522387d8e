// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Ascend trace_view.json: golden counts on every sample, checked by hand with python3
// (json): X events per process kind, counter points and series, flows, steps, categories.
#include "chrometrace_testutil.h"
#include "import/ascend/traceview.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace stepscope;
using model::TrackKind;

namespace {

struct Golden
{
    const char *file;
    std::uint64_t host, hostEvents, device, deviceEvents, synthetic, syntheticEvents, comm,
        commEvents;
    std::uint64_t counterPoints, series, flows;
    std::int64_t step;
};

testsupport::Loaded loadView(const std::string &rel, unsigned threads = 0)
{
    return testsupport::load(
        import::ascend::readTraceView, testsupport::dataPath("ascend_pt/" + rel), threads);
}

} // namespace

TEST(TraceView, GoldenCountsOnEverySample)
{
    // python3: lanes (pid, tid) of X events; kind by process_name (Ascend Hardware ->
    // device, HCCL -> communication group, Overlap Analysis -> synthetic, else host);
    // counter points = numeric args of C events; series = distinct (process, name, key);
    // flows = s/f bound per §8a, paired on (cat, id) whatever the order (level0: 210 CANN `s`
    // sit on a pid without events; level2: 606 s feed 611 f, 29 / 46 HostToDevice `f` are
    // stamped before their `s`; fragments: 713 pairs, 220 `f` stamped before their `s`).
    const std::vector<Golden> golden = {
        {"msinsight-cnn-level0-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", 3,
            2460, 3, 533, 4, 382, 1, 4, 5952, 30, 396, 50},
        {"msinsight-cnn-level0-2rank/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", 3,
            2460, 3, 533, 4, 382, 1, 4, 5971, 30, 396, 50},
        {"msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", 7,
            3594, 4, 535, 4, 382, 9, 300, 7120, 30, 611, 50},
        {"msinsight-cnn-level2-2rank/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json", 7,
            3599, 4, 535, 4, 382, 9, 300, 7508, 30, 611, 50},
        {"mstt-advisor-fragments/trace_view.json", 7, 1389, 1, 276, 2, 547, 0, 0, 0, 0, 713, 1},
    };
    for (const Golden &g : golden) {
        SCOPED_TRACE(g.file);
        auto r = loadView(g.file);
        ASSERT_TRUE(r.ok) << r.report.toText();
        EXPECT_EQ(r.trace.checkInvariants(), "");
        EXPECT_EQ(r.report.count(model::Severity::Error), 0u) << r.report.toText();
        EXPECT_EQ(r.report.count(model::Severity::Warning), 0u) << r.report.toText();
        const auto kinds = testsupport::byKind(r.trace);
        auto k = [&kinds](TrackKind kind) { return kinds[static_cast<int>(kind)]; };
        EXPECT_EQ(k(TrackKind::HostThread).tracks, g.host);
        EXPECT_EQ(k(TrackKind::HostThread).events, g.hostEvents);
        EXPECT_EQ(k(TrackKind::DeviceStream).tracks, g.device);
        EXPECT_EQ(k(TrackKind::DeviceStream).events, g.deviceEvents);
        EXPECT_EQ(k(TrackKind::Synthetic).tracks, g.synthetic);
        EXPECT_EQ(k(TrackKind::Synthetic).events, g.syntheticEvents);
        EXPECT_EQ(k(TrackKind::CommunicationGroup).tracks, g.comm);
        EXPECT_EQ(k(TrackKind::CommunicationGroup).events, g.commEvents);
        std::uint64_t points = 0;
        for (const auto &c : r.trace.counters)
            points += c.values.size();
        EXPECT_EQ(points, g.counterPoints);
        EXPECT_EQ(r.trace.counters.size(), g.series);
        EXPECT_EQ(r.trace.flows.size(), g.flows);
        ASSERT_EQ(r.trace.steps.size(), 1u);
        EXPECT_EQ(r.trace.steps[0].number, g.step);
        EXPECT_EQ(r.trace.metadata.format, "ascend");
    }
}

TEST(TraceView, StepAndCategoriesOfLevel2Rank0)
{
    // ProfilerStep#50: ts "1736412474712651.500", dur 148786.1 us. Categories by python3:
    // Runtime 1452 (CANN 1134 + enqueue/dequeue 318), Python 1282, HostOp 858,
    // Communication 620 (HCCL 300 + Notify/Write Value/SDMA/EVENT_ tasks 320), Memcpy 24
    // (MEMCPY_ASYNC: Task Type PCIE_DMA_SQE 14, SDMA_SQE 10),
    // Annotation 383 (Overlap Analysis 382 + ProfilerStep), Compute 187 (AI_CORE 172 +
    // MIX_AIV 13 + DSA_SQE 2: kernel_details.csv's 187 kernels), DataLoading 1, Other 4
    // (PLACE_HOLDER_SQE).
    auto r = loadView(
        "msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json");
    ASSERT_EQ(r.trace.steps.size(), 1u);
    EXPECT_EQ(r.trace.originNs + r.trace.steps[0].startNs, 1736412474712651500);
    EXPECT_EQ(r.trace.steps[0].durationNs(), 148786100);
    using model::Category;
    EXPECT_EQ(testsupport::categoryCount(r.trace, Category::Runtime), 1452u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, Category::Python), 1282u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, Category::HostOp), 858u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, Category::Communication), 620u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, Category::Memcpy), 24u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, Category::Annotation), 383u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, Category::Compute), 187u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, Category::DataLoading), 1u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, Category::Other), 4u);
    // Zero-duration X events are kept (99 in this file per docs/formats.md §2.5).
    std::uint64_t zero = 0;
    for (const model::Track &t : r.trace.tracks) {
        for (std::uint32_t i = 0; i < t.size(); ++i)
            zero += t.duration(i) == 0 ? 1 : 0;
    }
    EXPECT_EQ(zero, 99u);
    // python3: 29 HostToDevice `f` (bp "e") are stamped before their `s` (host/device clock
    // skew); they are linked all the same and said so.
    EXPECT_NE(r.report.toText().find("29 flow ends stamped before their start"), std::string::npos)
        << r.report.toText();
    // Track names come from metadata.
    bool sawStream = false;
    for (const model::Track &t : r.trace.tracks)
        sawStream = sawStream
            || (t.info().processName == "Ascend Hardware"
                && t.info().threadName.rfind("Stream ", 0) == 0);
    EXPECT_TRUE(sawStream);
}

TEST(TraceView, ParallelEqualsSerial)
{
    const std::string f =
        "msinsight-cnn-level2-2rank/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json";
    EXPECT_EQ(testsupport::dumpEvents(loadView(f, 1).trace),
        testsupport::dumpEvents(loadView(f, 2).trace));
}

/// Since 2025 msprof names the process of the collectives `Communication` (its layer
/// COMPONENT_LAYER_HCCL, docs/formats.md §3): the same lanes and categories as `HCCL`.
class TraceViewRenamed : public testsupport::TempDirTest
{
};

TEST_F(TraceViewRenamed, ACommunicationProcessIsTheCollectives)
{
    const std::string rel =
        "msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json";
    std::ifstream in(testsupport::dataPath("ascend_pt/" + rel), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string from = R"("args": {"name": "HCCL"})";
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, from.size(), R"("args": {"name": "Communication"})");
    ASSERT_EQ(text.find(from), std::string::npos); // the one process_name
    const std::filesystem::path renamed = write("trace_view.json", text);

    const auto original = loadView(rel);
    const auto r = testsupport::load(import::ascend::readTraceView, renamed);
    ASSERT_TRUE(r.ok) << r.report.toText();
    const auto kinds = testsupport::byKind(r.trace);
    const auto &comm = kinds[static_cast<int>(TrackKind::CommunicationGroup)];
    EXPECT_EQ(comm.tracks, 9u);
    EXPECT_EQ(comm.events, 300u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Communication), 620u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Other), 4u);
    std::size_t renamedLanes = 0;
    for (const model::Track &t : r.trace.tracks)
        renamedLanes += t.info().processName == "Communication" ? 1 : 0;
    EXPECT_EQ(renamedLanes, 9u);
    EXPECT_EQ(testsupport::categoryCount(original.trace, model::Category::Communication), 620u);
}
