// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ascend_fixture.h"
#include "import/ascend/rankfolder.h"

#include <algorithm>
#include <map>

using namespace stepscope;
using namespace stepscope::import::ascend;
using testsupport::ascendData;

namespace {

class AscendRankFolder : public testsupport::AscendFixture
{
};

RankFolderOptions kernelDetailsOnly()
{
    RankFolderOptions o;
    o.kernelSource = KernelSource::KernelDetails;
    return o;
}

std::map<model::TrackKind, std::uint32_t> eventsByKind(const model::Trace &t)
{
    std::map<model::TrackKind, std::uint32_t> m;
    for (const model::Track &tr : t.tracks)
        m[tr.info().kind] += tr.size();
    return m;
}

TEST_F(AscendRankFolder, Level2RankFromKernelDetails)
{
    model::TraceBuilder b;
    ASSERT_TRUE(readAscendRankFolder(
        ascendData("msinsight-cnn-level2-2rank/rank1_ascend_pt"), m_ctx, b, kernelDetailsOnly()));
    model::Trace t = b.finish().trace;
    EXPECT_EQ(t.rank, 1);
    EXPECT_EQ(t.metadata.rank, 1);
    EXPECT_EQ(t.metadata.format, "ascend");
    EXPECT_EQ(t.metadata.profilerLevel, "Level2");
    EXPECT_EQ(t.checkInvariants(), "");
    EXPECT_EQ(t.eventCount(), 191u);
    auto kinds = eventsByKind(t);
    EXPECT_EQ(kinds[model::TrackKind::DeviceStream], 187u);
    EXPECT_EQ(kinds[model::TrackKind::CommunicationGroup], 4u);
    EXPECT_EQ(t.extent().first, 0); // origin = first device task
    ASSERT_EQ(t.referenceSteps.size(), 1u);
    EXPECT_EQ(t.referenceSteps[0].rank, 1);
    EXPECT_EQ(t.referenceSteps[0].step, 50);
    EXPECT_EQ(t.opStatistics.size(), 33u);
    EXPECT_EQ(t.collectives.size(), 4u);
    for (const auto &c : t.collectives)
        EXPECT_EQ(c.rank, 1);
    EXPECT_EQ(t.commMatrix.size(), 48u);
    EXPECT_EQ(t.memory.curves.size(), 4u);
    EXPECT_EQ(t.memory.allocations.size(), 184u);
    EXPECT_FALSE(t.memory.modules.empty());
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendRankFolder, Level2Rank0TimesRelativeToFirstKernel)
{
    model::TraceBuilder b;
    ASSERT_TRUE(readAscendRankFolder(
        ascendData("msinsight-cnn-level2-2rank/rank0_ascend_pt"), m_ctx, b, kernelDetailsOnly()));
    model::Trace t = b.finish().trace;
    EXPECT_EQ(t.rank, 0);
    EXPECT_EQ(t.originNs, 1736412474730135222);
    // Device span = 129 862.874 us; step_trace_time's Stage (from trace_view) is 129 862.75.
    EXPECT_EQ(t.extent().second - t.extent().first, 129862874);
    const double *stage = t.referenceSteps.at(0).find("Stage");
    ASSERT_NE(stage, nullptr);
    EXPECT_NEAR(static_cast<double>(t.extent().second) / 1000.0, *stage, 0.2);
    // Memory shares the origin: PTA's first point at ...720601.300 us, before the first kernel.
    const auto pta = std::find_if(t.memory.curves.begin(), t.memory.curves.end(),
        [](const model::MemoryCurve &c) { return c.component == "PTA"; });
    ASSERT_NE(pta, t.memory.curves.end());
    EXPECT_EQ(pta->timestampsNs.front(), 1736412474720601300 - 1736412474730135222);
    EXPECT_EQ(t.memory.allocations[0].allocatedNs, 1736412474720984920 - 1736412474730135222);
    EXPECT_EQ(std::count_if(t.memory.allocations.begin(), t.memory.allocations.end(),
                  [](const model::Allocation &a) { return a.releasedNs == -1; }),
        24);
    EXPECT_EQ(t.commMatrix.size(), 48u);
    EXPECT_EQ(t.opStatistics.size(), 33u);
    // every file read is listed, relative to the opened folder
    EXPECT_EQ(t.metadata.sourceFiles.size(), 10u);
    EXPECT_NE(std::find(t.metadata.sourceFiles.begin(), t.metadata.sourceFiles.end(),
                  "msinsight-cnn-level2-2rank/rank0_ascend_pt/profiler_info_0.json"),
        t.metadata.sourceFiles.end());
}

TEST_F(AscendRankFolder, AutoPrefersTraceViewAndSharesItsOrigin)
{
    model::TraceBuilder b;
    ASSERT_TRUE(
        readAscendRankFolder(ascendData("msinsight-cnn-level2-2rank/rank0_ascend_pt"), m_ctx, b));
    model::Trace t = b.finish().trace;
    EXPECT_EQ(t.rank, 0);
    EXPECT_EQ(t.checkInvariants(), "");
    // trace_view.json fed the lanes: no track came from kernel_details.csv ("NPU" process).
    for (const model::Track &tr : t.tracks)
        EXPECT_NE(tr.info().processId, "NPU");
    EXPECT_GT(t.eventCount(), 191u);
    EXPECT_NE(
        std::find(t.metadata.sourceFiles.begin(), t.metadata.sourceFiles.end(),
            "msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"),
        t.metadata.sourceFiles.end());
    // The host timeline starts before the first kernel; memory uses the same origin.
    EXPECT_LT(t.originNs, 1736412474730135222);
    const auto pta = std::find_if(t.memory.curves.begin(), t.memory.curves.end(),
        [](const model::MemoryCurve &c) { return c.component == "PTA"; });
    ASSERT_NE(pta, t.memory.curves.end());
    EXPECT_EQ(pta->timestampsNs.front(), 1736412474720601300 - t.originNs);
    EXPECT_EQ(t.referenceSteps.size(), 1u);
    EXPECT_EQ(t.collectives.size(), 4u);
    EXPECT_EQ(t.memory.allocations.size(), 184u);
}

TEST_F(AscendRankFolder, Gpt3Rank1MangledMemoryAndStaticOps)
{
    model::TraceBuilder b;
    ASSERT_TRUE(readAscendRankFolder(
        ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_1"), m_ctx, b));
    model::Trace t = b.finish().trace;
    EXPECT_EQ(t.rank, 1);
    EXPECT_EQ(t.metadata.profilerLevel, "Level1");
    EXPECT_EQ(t.eventCount(), 22u); // no trace_view.json here: kernel_details feeds the lanes
    EXPECT_EQ(eventsByKind(t)[model::TrackKind::CommunicationGroup], 2u);
    EXPECT_EQ(t.extent().second, 16420200);
    EXPECT_TRUE(t.memory.curves.empty()); // spreadsheet-mangled memory_record.csv
    EXPECT_EQ(t.memory.staticAllocations.size(), 56u);
    EXPECT_EQ(t.memory.allocations.size(), 21u);
    EXPECT_EQ(t.referenceSteps.at(0).step, 2);
    ASSERT_EQ(m_report.diagnostics().size(), 2u) << m_report.toText();
    EXPECT_EQ(m_report.diagnostics()[0].file,
        "msinsight-gpt3-pp2-16rank-trimmed/test_rank_1/ASCEND_PROFILER_OUTPUT/memory_record.csv");
    // Said, so that a trace view left behind (or renamed) is not a silent loss of the host side.
    EXPECT_EQ(m_report.diagnostics()[1].message,
        "no trace_view.json (or .json.gz) in this folder: the timeline holds the device tasks "
        "of this file only (no host side, no flows)");
}

TEST_F(AscendRankFolder, LooseFragmentsWithoutProfilerInfo)
{
    model::TraceBuilder b;
    b.trace().rank = 5; // the loader's guess stays when no profiler_info names the rank
    ASSERT_TRUE(
        readAscendRankFolder(ascendData("mstt-advisor-fragments"), m_ctx, b, kernelDetailsOnly()));
    model::Trace t = b.finish().trace;
    EXPECT_EQ(t.rank, 5);
    EXPECT_EQ(t.eventCount(), 591u);
    for (const model::Track &tr : t.tracks)
        EXPECT_EQ(tr.info().rank, 5);
    // Said as information: the folder loads, only its rank id is a guess; and without
    // trace_view.json its one step (Step Id 1 on all 591 rows) spans the device tasks.
    ASSERT_EQ(m_report.diagnostics().size(), 2u) << m_report.toText();
    EXPECT_EQ(m_report.count(model::Severity::Info), 2u) << m_report.toText();
    EXPECT_NE(m_report.toText().find("rank id is not known; shown as rank 5"), std::string::npos)
        << m_report.toText();
    ASSERT_EQ(t.steps.size(), 1u);
    EXPECT_EQ(t.steps[0].number, 1);
    EXPECT_EQ(t.steps[0].startNs, 0); // the origin is the first device task
    EXPECT_EQ(t.steps[0].endNs, t.extent().second);
}

// A rank folder trimmed to kernel_details.csv: its `Step Id`s are the profiler's steps, each
// from its first device task to its last. They were one step "0" over the whole capture.
// Kernels of two ids that interleave in time give no steps (the ids then say nothing of time).
TEST_F(AscendRankFolder, StepIdsOfKernelDetailsAloneAreTheSteps)
{
    const std::string header = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us)\n";
    const auto dir = writeTemp("trimmed/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
        header
            + "50,MatMul,MatMul,AI_CORE,1000.000,10.5\n50,Add,Add,AI_VECTOR_CORE,1020.000,2\n"
              "51,MatMul,MatMul,AI_CORE,1100.250,10.5\n51,Add,Add,AI_VECTOR_CORE,1130.000,4.125\n")
                         .parent_path()
                         .parent_path();
    model::TraceBuilder b;
    ASSERT_TRUE(readAscendRankFolder(dir, m_ctx, b));
    const model::Trace t = b.finish().trace;
    ASSERT_EQ(t.steps.size(), 2u);
    EXPECT_EQ(t.steps[0].number, 50);
    EXPECT_EQ(t.steps[0].startNs, 0);
    EXPECT_EQ(t.steps[0].endNs, 22'000); // 1020 + 2 us after 1000 us
    EXPECT_EQ(t.steps[1].number, 51);
    EXPECT_EQ(t.steps[1].startNs, 100'250);
    EXPECT_EQ(t.steps[1].endNs, 134'125);
    EXPECT_NE(m_report.toText().find("2 steps from the `Step Id` column"), std::string::npos)
        << m_report.toText();

    const auto mixed = writeTemp("mixed/ASCEND_PROFILER_OUTPUT/kernel_details.csv",
        header
            + "50,MatMul,MatMul,AI_CORE,1000,10\n51,Add,Add,AI_CORE,1005,2\n"
              "50,Add,Add,AI_CORE,1020,2\n")
                           .parent_path()
                           .parent_path();
    model::TraceBuilder m;
    ASSERT_TRUE(readAscendRankFolder(mixed, m_ctx, m));
    EXPECT_TRUE(m.finish().trace.steps.empty());
}

TEST_F(AscendRankFolder, BadFilesAreDroppedTheRestLoads)
{
    const std::filesystem::path src = ascendData("msinsight-cnn-level0-2rank/rank0_ascend_pt");
    const std::filesystem::path dst = m_tmp / "rank0_ascend_pt";
    std::filesystem::create_directories(dst / "ASCEND_PROFILER_OUTPUT");
    std::filesystem::copy_file(src / "profiler_info_0.json", dst / "profiler_info_0.json");
    for (const char *f : {"kernel_details.csv", "step_trace_time.csv"})
        std::filesystem::copy_file(
            src / "ASCEND_PROFILER_OUTPUT" / f, dst / "ASCEND_PROFILER_OUTPUT" / f);
    writeTemp("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json", "{\"step50\": [1, 2");
    writeTemp("rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv", "");
    writeTemp(
        "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv", "garbage\x01\x02\n\xff\xfe");
    model::TraceBuilder b;
    ASSERT_TRUE(readAscendRankFolder(dst, m_ctx, b, kernelDetailsOnly()));
    model::Trace t = b.finish().trace;
    EXPECT_EQ(t.eventCount(), 191u);
    EXPECT_EQ(t.referenceSteps.size(), 1u);
    EXPECT_TRUE(t.collectives.empty());
    EXPECT_TRUE(t.memory.empty());
    std::map<std::string, model::Severity> byFile;
    for (const auto &d : m_report.diagnostics())
        byFile[d.file] = d.severity;
    EXPECT_EQ(byFile.size(), 3u) << m_report.toText();
    EXPECT_EQ(byFile["rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json"],
        model::Severity::Error);
    EXPECT_EQ(
        byFile["rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv"], model::Severity::Error);
    EXPECT_EQ(byFile["rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/operator_memory.csv"],
        model::Severity::Error);
}

/// A trace_view.json cut short still loads what it holds, and kernel_details.csv says how many
/// of its kernels the timeline lacks: the Kernels panel counts the timeline's.
TEST_F(AscendRankFolder, ACutTraceViewIsMeasuredAgainstKernelDetails)
{
    const std::filesystem::path src = ascendData("msinsight-cnn-level2-2rank/rank0_ascend_pt");
    const std::filesystem::path dst = m_tmp / "rank0_ascend_pt";
    std::filesystem::copy(src, dst, std::filesystem::copy_options::recursive);
    const std::filesystem::path view = dst / "ASCEND_PROFILER_OUTPUT" / "trace_view.json";
    std::filesystem::permissions(
        view, std::filesystem::perms::owner_write, std::filesystem::perm_options::add);
    std::filesystem::resize_file(view, std::filesystem::file_size(view) * 3 / 4);
    m_ctx.root = m_tmp;
    model::TraceBuilder b;
    ASSERT_TRUE(readAscendRankFolder(dst, m_ctx, b));
    const model::Trace t = b.finish().trace;
    std::uint32_t drawn = 0;
    for (const model::Track &track : t.tracks)
        for (std::uint32_t i = 0; i < track.size(); ++i)
            drawn += track.info().kind == model::TrackKind::DeviceStream
                && track.category(i) == model::Category::Compute;
    ASSERT_GT(drawn, 0u);
    ASSERT_LT(drawn, 187u);
    bool said = false;
    for (const auto &d : m_report.diagnostics())
        said = said
            || (d.file == "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
                && d.severity == model::Severity::Warning
                && d.message.find("lists 187 kernels, and the timeline of trace_view.json "
                                  "holds "
                       + std::to_string(drawn) + " ")
                    != std::string::npos);
    EXPECT_TRUE(said) << m_report.toText();
}

TEST_F(AscendRankFolder, ProgressCoversTheWholeFolder)
{
    // The loader's total is every file below the folder; read or not, each is counted once.
    const std::filesystem::path dir = ascendData("msinsight-cnn-level2-2rank/rank0_ascend_pt");
    std::uint64_t total = 0;
    for (const auto &e : std::filesystem::recursive_directory_iterator(dir))
        if (e.is_regular_file())
            total += e.file_size();
    model::TraceBuilder b;
    ASSERT_TRUE(readAscendRankFolder(dir, m_ctx, b, kernelDetailsOnly()));
    EXPECT_EQ(m_progress.done(), total);

    // A file whose header is unusable still counts in full.
    util::Progress progress;
    m_ctx.progress = &progress;
    const auto bad = writeTemp("r/kernel_details.csv", "Foo,Bar\n1,2\n3,4\n");
    model::TraceBuilder b2;
    EXPECT_FALSE(readAscendRankFolder(bad.parent_path(), m_ctx, b2));
    EXPECT_EQ(progress.done(), std::filesystem::file_size(bad));
}

TEST_F(AscendRankFolder, EmptyFolderIsNotUsable)
{
    model::TraceBuilder b;
    EXPECT_FALSE(readAscendRankFolder(m_tmp, m_ctx, b));
    ASSERT_EQ(m_report.diagnostics().size(), 1u);
    EXPECT_EQ(m_report.diagnostics()[0].severity, model::Severity::Error);
}

TEST_F(AscendRankFolder, ClusterFolders)
{
    model::Session s;
    ASSERT_TRUE(readAscendClusterFolder(
        ascendData("msinsight-gpt3-pp2-16rank-trimmed/cluster_analysis_output"), m_ctx, s));
    EXPECT_EQ(s.clusterSteps.size(), 18u);
    EXPECT_EQ(std::count_if(s.clusterSteps.begin(), s.clusterSteps.end(),
                  [](const model::ReferenceStep &r) { return r.kind == "stage"; }),
        2);
    EXPECT_EQ(s.clusterCollectives.size(), 6u);
    EXPECT_EQ(s.clusterMatrix.size(), 10u);
    EXPECT_EQ(s.communicationGroups.size(), 29u);

    model::Session f;
    ASSERT_TRUE(readAscendClusterFolder(
        ascendData("mstt-advisor-fragments/cluster_analysis_output"), m_ctx, f));
    EXPECT_EQ(f.clusterSteps.size(), 9u);
    EXPECT_EQ(f.clusterCollectives.size(), 4u);
    EXPECT_TRUE(f.clusterMatrix.empty());
    EXPECT_TRUE(m_report.empty()) << m_report.toText();

    model::Session none;
    EXPECT_FALSE(readAscendClusterFolder(m_tmp, m_ctx, none));
}

} // namespace
