// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Ascend DB export samples (tests/data/ascend_db/) through import::loadPath: per rank,
// events per lane equal the table rows (nothing dropped), flows, steps, memory points,
// counters, and analysis.db's StepTraceTime / CommAnalyzer* rows. Every pinned number is
// printed by tests/tools/check_sqlite_samples.py (plain SQL over the same files).

#include "import/loader.h"
#include "sqlitedb_fixture.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>

using namespace stepscope;

namespace {

std::shared_ptr<const model::Session> load(const std::string &rel)
{
    util::Progress progress;
    return import::loadPath(testsupport::sqliteData("ascend_db/" + rel), progress).session;
}

/// Events per "process/lane" ("Ascend Hardware/Stream 2", "HCCL/Plane 3", "Python/*").
std::map<std::string, std::uint64_t> lanes(const model::Trace &t)
{
    std::map<std::string, std::uint64_t> out;
    for (const model::Track &track : t.tracks) {
        const auto &info = track.info();
        const bool host = info.kind == model::TrackKind::HostThread;
        out[info.processName + "/" + (host ? std::string("*") : info.threadName)] += track.size();
    }
    return out;
}

std::map<std::string, std::uint64_t> flowsByCategory(const model::Trace &t)
{
    std::map<std::string, std::uint64_t> out;
    for (const model::Flow &f : t.flows)
        ++out[std::string(t.strings.view(f.category))];
    return out;
}

std::uint64_t counterPoints(const model::Trace &t, const std::string &process)
{
    std::uint64_t n = 0;
    for (const model::CounterSeries &c : t.counters)
        if (c.process == process)
            n += c.timestampsNs.size();
    return n;
}

std::map<std::string, std::size_t> curvePoints(const model::Trace &t)
{
    std::map<std::string, std::size_t> out;
    for (const model::MemoryCurve &c : t.memory.curves)
        out[c.component] = c.timestampsNs.size();
    return out;
}

TEST(AscendDbSamples, Level2Rank0EveryRowBecomesAnEvent)
{
    const auto session = load("msinsight-cnn-db-level2-2rank");
    ASSERT_TRUE(session);
    ASSERT_EQ(session->traces.size(), 2u) << session->report.toText();
    EXPECT_EQ(session->report.count(model::Severity::Error), 0u) << session->report.toText();
    EXPECT_EQ(session->report.count(model::Severity::Warning), 0u) << session->report.toText();
    const model::Trace &t = *session->traces[0];
    EXPECT_EQ(t.rank, 0);
    EXPECT_EQ(t.checkInvariants(), "");
    EXPECT_EQ(t.metadata.format, "ascend");
    EXPECT_EQ(t.metadata.device, "Ascend910B");
    EXPECT_EQ(t.metadata.profilerLevel, "Level2");
    EXPECT_EQ(t.originNs, 1736414119518476000); // AICORE_FREQ's first sample

    const std::map<std::string, std::uint64_t> expected = {
        {"Ascend Hardware/Stream 0", 2}, {"Ascend Hardware/Stream 2", 232},
        {"Ascend Hardware/Stream 3", 6}, {"Ascend Hardware/Stream 4", 16}, {"HCCL/Plane 0", 16},
        {"HCCL/Plane 1", 40}, {"HCCL/Plane 2", 40}, {"HCCL/Plane 3", 40}, {"HCCL/Plane 4", 40},
        {"HCCL/Plane 5", 40}, {"HCCL/Plane 6", 40}, {"HCCL/Plane 7", 40},
        {"HCCL/Group 0 Communication", 4}, // COMMUNICATION_OP
        {"Python/*", 2460}, // PYTORCH_API
        {"CANN/*", 1133}, // CANN_API
    };
    EXPECT_EQ(lanes(t), expected);
    // TASK: 552 rows = 256 on streams + 296 on planes.
    std::uint64_t tasks = 0;
    for (const auto &[lane, n] : expected)
        if (lane.rfind("Ascend Hardware/", 0) == 0 || lane.rfind("HCCL/Plane", 0) == 0)
            tasks += n;
    EXPECT_EQ(tasks, 552u);

    const std::map<std::string, std::uint64_t> flows = {
        {"HostToDevice", 241}, {"async_npu", 191}, {"async_task_queue", 159}, {"fwdbwd", 27}};
    EXPECT_EQ(flowsByCategory(t), flows);

    ASSERT_EQ(t.steps.size(), 1u);
    EXPECT_EQ(t.steps[0].number, 50);
    EXPECT_EQ(t.steps[0].startNs, 1736414119633143240 - t.originNs);
    EXPECT_EQ(t.steps[0].endNs, 1736414119776885110 - t.originNs);

    const std::map<std::string, std::size_t> curves = {
        {"APP", 13}, {"GE", 114}, {"PTA", 381}, {"PTA+GE", 495}};
    EXPECT_EQ(curvePoints(t), curves);
    ASSERT_EQ(t.memory.allocations.size(), 184u);
    EXPECT_EQ(std::count_if(t.memory.allocations.begin(), t.memory.allocations.end(),
                  [](const model::Allocation &a) { return a.releasedNs == -1; }),
        24);
    EXPECT_EQ(t.memory.modules.size(), 77u);
    std::size_t modulePoints = 0;
    for (const auto &m : t.memory.modules)
        modulePoints += m.timestampsNs.size();
    EXPECT_EQ(modulePoints, 1078u);

    EXPECT_EQ(counterPoints(t, "AI Core Freq"), 3u);
    EXPECT_EQ(counterPoints(t, "HBM"), 104u);
    EXPECT_EQ(counterPoints(t, "LLC"), 52u);
    EXPECT_EQ(counterPoints(t, "Acc PMU"), 2752u);
    EXPECT_EQ(counterPoints(t, "Stars Soc Info"), 32u);
    EXPECT_EQ(counterPoints(t, "NPU MEM"), 81u);
}

TEST(AscendDbSamples, Level2AnalysisDbGivesTheTextExportsSummaries)
{
    const auto session = load("msinsight-cnn-db-level2-2rank");
    ASSERT_EQ(session->traces.size(), 2u);
    const model::Trace &t = *session->traces[0];
    ASSERT_EQ(t.referenceSteps.size(), 1u);
    const model::ReferenceStep &r = t.referenceSteps[0];
    EXPECT_EQ(r.step, 50);
    EXPECT_EQ(r.rank, 0);
    EXPECT_EQ(r.kind, "");
    EXPECT_EQ(r.source, "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db");
    // StepTraceTime, in step_trace_time.csv's column names and order.
    const std::vector<std::pair<std::string, double>> values = {{"Computing", 8900.456},
        {"Communication(Not Overlapped)", 90080.699}, {"Overlapped", 4026.822},
        {"Communication", 94107.521}, {"Free", 25238.587}, {"Stage", 124219.742}, {"Bubble", 0},
        {"Communication(Not Overlapped and Exclude Receive)", 90080.699}, {"Preparing", 17894.588}};
    EXPECT_EQ(r.valuesUs, values);

    ASSERT_EQ(t.collectives.size(), 4u); // CommAnalyzerTime
    const model::CollectiveStat &c = t.collectives[0];
    EXPECT_EQ(c.name, "hcom_allReduce__865_0_1");
    EXPECT_EQ(c.group, "11978775601474615865");
    EXPECT_EQ(c.step, "step50");
    EXPECT_FALSE(c.p2p);
    EXPECT_DOUBLE_EQ(c.elapseMs, 80.45024740625);
    EXPECT_DOUBLE_EQ(c.transitMs, 0.23684471875);
    ASSERT_EQ(c.links.size(), 2u); // HCCS and SDMA (CommAnalyzerBandwidth)
    EXPECT_EQ(c.links[0].transport, "HCCS");
    EXPECT_DOUBLE_EQ(c.links[0].sizeMb, 28.647232);
    EXPECT_DOUBLE_EQ(c.links[0].bandwidthGbps, 15.8334);
    EXPECT_EQ(t.commMatrix.size(), 48u); // CommAnalyzerMatrix
    EXPECT_EQ(t.commMatrix[1].op, "allreduce-top1");
    EXPECT_EQ(t.commMatrix[1].srcRank, 0);
    EXPECT_EQ(t.commMatrix[1].dstRank, 1);
    EXPECT_EQ(t.commMatrix[1].traffic.transport, "HCCS");

    const model::Trace &t1 = *session->traces[1];
    EXPECT_EQ(t1.rank, 1);
    ASSERT_EQ(t1.referenceSteps.size(), 1u);
    EXPECT_EQ(t1.referenceSteps[0].rank, 1);
    EXPECT_EQ(lanes(t1).at("Python/*"), 2492u);
    EXPECT_EQ(lanes(t1).at("CANN/*"), 1187u);
    EXPECT_EQ(flowsByCategory(t1).at("async_task_queue"), 175u);
}

TEST(AscendDbSamples, Level0HasNoPlanesSoHcclTasksStayOnTheirStream)
{
    const auto session = load("msinsight-cnn-db-level0-2rank");
    ASSERT_EQ(session->traces.size(), 2u) << session->report.toText();
    EXPECT_EQ(session->report.count(model::Severity::Error), 0u) << session->report.toText();
    for (std::size_t r = 0; r < 2; ++r) {
        const model::Trace &t = *session->traces[r];
        EXPECT_EQ(t.rank, static_cast<std::int32_t>(r));
        EXPECT_EQ(t.checkInvariants(), "");
        const auto l = lanes(t);
        EXPECT_EQ(l.at("Ascend Hardware/Stream 2"), 232u);
        EXPECT_EQ(l.at("Ascend Hardware/Stream 3"), 6u);
        EXPECT_EQ(l.at("Ascend Hardware/Stream 4"), 312u); // 296 HCCL tasks + 16 others
        EXPECT_EQ(l.count("HCCL/Plane 0"), 0u);
        EXPECT_EQ(l.at("HCCL/Group 0 Communication"), 4u);
        EXPECT_EQ(l.at("Python/*"), 2460u);
        EXPECT_EQ(l.at("CANN/*"), r == 0 ? 713u : 712u);
        ASSERT_EQ(t.steps.size(), 1u);
        EXPECT_EQ(t.steps[0].number, 50);
        ASSERT_EQ(t.referenceSteps.size(), 1u);
        EXPECT_TRUE(t.collectives.empty()); // Level0 analysis.db: StepTraceTime only
        EXPECT_EQ(t.memory.allocations.size(), 184u);
        EXPECT_EQ(counterPoints(t, "HBM"), r == 0 ? 96u : 104u);
    }
    const model::Trace &t0 = *session->traces[0];
    EXPECT_EQ(t0.steps[0].startNs, 1736407067933660740 - t0.originNs);
    EXPECT_EQ(t0.originNs, 1736407067828901000);
    EXPECT_DOUBLE_EQ(*t0.referenceSteps[0].find("Computing"), 8843.91);
    EXPECT_DOUBLE_EQ(*t0.referenceSteps[0].find("Preparing"), 16681.808);
}

TEST(AscendDbSamples, ContainerTasksAreNotCompute)
{
    const auto session = load("msinsight-cnn-db-level2-2rank");
    const model::Trace &t = *session->traces[0];
    std::uint64_t compute = 0;
    std::uint64_t annotation = 0;
    for (const model::Track &track : t.tracks) {
        if (track.info().kind != model::TrackKind::DeviceStream)
            continue;
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            compute += track.category(i) == model::Category::Compute ? 1 : 0;
            annotation += track.category(i) == model::Category::Annotation ? 1 : 0;
        }
    }
    EXPECT_EQ(compute, 187u); // TASK ⋈ COMPUTE_TASK_INFO
    EXPECT_EQ(annotation, 17u + 2u); // 17 containers + PROFILING_ENABLE/DISABLE
}

} // namespace
