// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// MindSpore legacy files other than step_trace_raw: hccl_raw, ascend_cluster_analyse,
// flops_summary, minddata_pipeline_raw, output_timeline_data, and one rank's assembly.
#include "import/importcontext.h"
#include "import/mindspore/hcclraw.h"
#include "import/mindspore/legacyfolder.h"
#include "import/mindspore/legacysummaries.h"
#include "import/mindspore/outputtimeline.h"
#include "model/metadatakeys.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace stepscope::import::mindspore {
namespace {

namespace fs = std::filesystem;

const fs::path Legacy = fs::path(STEPSCOPE_TEST_DATA) / "mindspore_legacy";
const fs::path Cluster = Legacy / "mindinsight-cluster-pp-4rank";

class MindSporeLegacyTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path()
            / ("stepscope_mslegacy_"
                + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::create_directories(m_dir);
        m_ctx.root = Legacy;
        m_ctx.report = &m_report;
    }
    void TearDown() override { fs::remove_all(m_dir); }
    fs::path write(const std::string &name, const std::string &text)
    {
        m_ctx.root = m_dir;
        const fs::path p = m_dir / name;
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }
    bool hasLine(std::int64_t line, const std::string &text) const
    {
        for (const auto &d : m_report.diagnostics()) {
            if (d.line == line && d.message.find(text) != std::string::npos)
                return true;
        }
        return false;
    }

    fs::path m_dir;
    model::LoadReport m_report;
    ImportContext m_ctx;
};

TEST_F(MindSporeLegacyTest, HcclRawStepsAndOperators)
{
    model::Trace t;
    EXPECT_EQ(readHcclRaw(Cluster / "hccl_raw_0.csv", m_ctx, 0, t), 6u);
    // 6 steps (the "-" average row skipped), 500 operator entries of which 42 Send/Receive
    // (python3: json.loads of communication_operator_cost per row).
    ASSERT_EQ(t.referenceSteps.size(), 6u);
    EXPECT_EQ(t.referenceSteps[0].step, 1);
    EXPECT_DOUBLE_EQ(*t.referenceSteps[0].find("communication_cost"), 2600.18);
    EXPECT_NEAR(*t.referenceSteps[0].find("wait_cost"), 270250.56, 1e-6);
    ASSERT_EQ(t.collectives.size(), 500u);
    std::size_t p2p = 0;
    for (const auto &c : t.collectives)
        p2p += c.p2p ? 1 : 0;
    EXPECT_EQ(p2p, 42u);
    const model::CollectiveStat &first = t.collectives.front();
    EXPECT_EQ(first.step, "step1");
    EXPECT_EQ(first.name, "stream_41_0_AllReduce-op4582");
    EXPECT_DOUBLE_EQ(first.elapseMs, 0.00322);
    EXPECT_DOUBLE_EQ(first.transitMs, 0.00322); // the tasks but Notify_Wait: the transfer
    EXPECT_DOUBLE_EQ(first.waitMs, 0.01035);
    ASSERT_EQ(first.links.size(), 2u);
    EXPECT_EQ(first.links[0].transport, "SDMA");
    EXPECT_TRUE(m_report.empty()) << m_report.toText();

    model::Trace t2;
    EXPECT_EQ(readHcclRaw(Cluster / "hccl_raw_2.csv", m_ctx, 2, t2), 2u);
    EXPECT_EQ(t2.collectives.size(), 500u);
    // Link sizes are KB (tests/tools/check_hccl_raw.py): op17796's 1-0 SDMA link moves
    // 93 279.232 KB in 4.34695 ms, 21.5 GB/s as the file's KB/s column says, not 21 TB/s.
    const auto op = std::find_if(t2.collectives.begin(), t2.collectives.end(),
        [](const model::CollectiveStat &c) { return c.name == "stream_13_4_AllReduce-op17796"; });
    ASSERT_NE(op, t2.collectives.end());
    ASSERT_EQ(op->links.size(), 2u);
    EXPECT_DOUBLE_EQ(op->links[0].timeMs, 4.34695);
    EXPECT_DOUBLE_EQ(op->links[0].sizeMb, 93.279232);
    EXPECT_NEAR(op->links[0].sizeMb / op->links[0].timeMs, 21.4585, 1e-4);
    EXPECT_DOUBLE_EQ(op->links[1].sizeMb, 46.639616);
}

TEST_F(MindSporeLegacyTest, HcclRawMalformedCells)
{
    const fs::path f = write("hccl_raw_0.csv",
        "step_num,communication_cost,wait_cost,link_info,communication_operator_cost\n"
        "1,1.5,2.5,{},\"{\"\"op_a\"\": [\"\"1\"\", 0.1, 0.2, {}]}\"\n" // line 2 ok
        "2,x,2.5,{},{}\n" // line 3 bad number
        "3,1.0,1.0,{},\"{not json\"\n" // line 4 bad JSON
        "4,1.0,1.0,{},\"{\"\"op_b\"\": \"\"oops\"\"}\"\n" // line 5 bad entry
        "-,1,1,{},{}\n");
    model::Trace t;
    EXPECT_EQ(readHcclRaw(f, m_ctx, 0, t), 3u);
    EXPECT_EQ(t.collectives.size(), 1u);
    EXPECT_TRUE(hasLine(3, "not a number")) << m_report.toText();
    EXPECT_TRUE(hasLine(4, "not valid JSON")) << m_report.toText();
    EXPECT_TRUE(hasLine(5, "operator entry")) << m_report.toText();
}

TEST_F(MindSporeLegacyTest, ClusterAnalyseRowsInMicroseconds)
{
    model::Trace t;
    EXPECT_EQ(readClusterAnalyse(
                  Cluster / "ascend_cluster_analyse_pipeline-parallel_2_4_0.csv", m_ctx, 0, t),
        6u);
    ASSERT_EQ(t.referenceSteps.size(), 6u);
    const model::ReferenceStep &r = t.referenceSteps[0];
    EXPECT_EQ(r.step, -1);
    ASSERT_EQ(r.valuesUs.size(), 5u);
    EXPECT_EQ(r.valuesUs[0].first, "computation_time");
    EXPECT_DOUBLE_EQ(r.valuesUs[0].second, 13820.2);
    EXPECT_EQ(r.valuesUs[4].first, "collective_communication_alone_time");
    EXPECT_DOUBLE_EQ(*t.referenceSteps[5].find("stage_time"), 122496.1);
}

TEST_F(MindSporeLegacyTest, PipelineStageFromTheClusterAnalyseName)
{
    // MindInsight's ParallelAnalyser: stage = rank // (ranks / stages) + 1; 2 stages of 4 ranks.
    for (const auto &[rank, stage] : {std::pair {0, "1"}, {1, "1"}, {2, "2"}, {3, "2"}}) {
        model::Trace t;
        const std::string name =
            "ascend_cluster_analyse_pipeline-parallel_2_4_" + std::to_string(rank) + ".csv";
        EXPECT_GT(readClusterAnalyse(Cluster / name, m_ctx, rank, t), 0u);
        EXPECT_EQ(t.metadata.extra.at(std::string(model::PipelineStageKey)), stage) << rank;
    }
    // The data-parallel variant names no stage; counts that do not hold the rank are said.
    model::Trace dp;
    const fs::path f = write("ascend_cluster_analyse_data-parallel_1_8_3.csv", "tail\n1\n");
    readClusterAnalyse(f, m_ctx, 3, dp);
    EXPECT_EQ(dp.metadata.extra.count(std::string(model::PipelineStageKey)), 0u);
    model::Trace bad;
    const fs::path g =
        write("ascend_cluster_analyse_pipeline-parallel_4_2_3.csv", "computation_time\n1\n");
    readClusterAnalyse(g, m_ctx, 3, bad);
    EXPECT_EQ(bad.metadata.extra.count(std::string(model::PipelineStageKey)), 0u);
    EXPECT_NE(
        m_report.toText().find("does not give the pipeline stage of rank 3"), std::string::npos)
        << m_report.toText();
}

TEST_F(MindSporeLegacyTest, ClusterAnalyseDataParallelHeaderWithBlanks)
{
    const fs::path f = write("ascend_cluster_analyse_data-parallel_1_8_3.csv",
        "iteration_interval, fp_and_bp, tail\n1.5,2,3\nbad,1,1\n");
    model::Trace t;
    EXPECT_EQ(readClusterAnalyse(f, m_ctx, 3, t), 1u);
    ASSERT_EQ(t.referenceSteps.size(), 1u);
    ASSERT_NE(t.referenceSteps[0].find("fp_and_bp"), nullptr);
    EXPECT_DOUBLE_EQ(*t.referenceSteps[0].find("iteration_interval"), 1500.0);
    EXPECT_TRUE(hasLine(3, "not a number"));
}

TEST_F(MindSporeLegacyTest, FlopsSummaryAndMinddata)
{
    model::Trace t;
    EXPECT_TRUE(readFlopsSummary(Cluster / "flops_summary_0.json", m_ctx, t));
    EXPECT_EQ(t.metadata.extra.at("flops.FLOPs"), "107146.763");
    EXPECT_EQ(t.metadata.extra.at("flops.FLOPS_Utilization"), "0.23");
    EXPECT_EQ(readMinddataPipeline(
                  Legacy / "mindinsight-widedeep-run1/minddata_pipeline_raw_1.csv", m_ctx, t),
        4u);
    EXPECT_EQ(t.metadata.extra.at("minddata.op1"), "Shuffle workers=1 parent=0 queue_usage=0.3125");
    EXPECT_EQ(t.metadata.extra.at("minddata.op0"), "Batch workers=4");

    const fs::path bad = write("flops_summary_1.json", "{\"FLOPs\": 1,");
    model::Trace t2;
    EXPECT_FALSE(readFlopsSummary(bad, m_ctx, t2));
    ASSERT_FALSE(m_report.empty());
    EXPECT_GE(m_report.diagnostics().back().offset, 0);
}

TEST_F(MindSporeLegacyTest, OutputTimelineDataExactTimes)
{
    model::TraceBuilder b;
    b.trace().originNs = 43806841592LL * 10; // min_cycle_counter_1.txt
    EXPECT_EQ(readOutputTimelineData(
                  Legacy / "mindinsight-widedeep-run1/output_timeline_data_1.txt", m_ctx, 1, b),
        2817u);
    const model::Trace t = b.finish().trace;
    // 2817 ops on 11 streams (python3: Counter of stream_id); stream 535 has 742.
    ASSERT_EQ(t.tracks.size(), 11u);
    EXPECT_EQ(t.eventCount(), 2817u);
    const model::Track *s535 = nullptr;
    const model::Track *s519 = nullptr;
    for (const model::Track &tr : t.tracks) {
        if (tr.info().threadId == "535")
            s535 = &tr;
        if (tr.info().threadId == "519")
            s519 = &tr;
    }
    ASSERT_NE(s535, nullptr);
    ASSERT_NE(s519, nullptr);
    EXPECT_EQ(s535->size(), 742u);
    // First row: Default/AssignAdd-op414, 438068.41592 ms = the min_cycle_counter tick.
    EXPECT_EQ(s519->start(0), 0);
    EXPECT_EQ(s519->duration(0), 2660);
    EXPECT_EQ(t.strings.view(s519->name(0)), "AssignAdd-op414");
    EXPECT_EQ(t.args.text(s519->args(0)), R"({"fullname":"Default/AssignAdd-op414"})");
    EXPECT_EQ(s519->info().kind, model::TrackKind::DeviceStream);
}

TEST_F(MindSporeLegacyTest, OutputTimelineMalformedRows)
{
    const fs::path f = write("output_timeline_data_0.txt",
        "op_name, stream_id, start_time(ms), duration(ms)\n"
        "A/Op-1,5,1.000001,0.5\n"
        "A/Op-2,5,abc,0.5\n"
        "A/Op-3,5,2.0,-1\n"
        "A/AllReduce-op9,6,3.0,0.25\n");
    model::TraceBuilder b;
    EXPECT_EQ(readOutputTimelineData(f, m_ctx, 0, b), 2u);
    const model::Trace t = b.finish().trace;
    EXPECT_EQ(t.eventCount(), 2u);
    // Both bad rows give one diagnostic: position of the first, count 2.
    ASSERT_EQ(m_report.diagnostics().size(), 1u) << m_report.toText();
    EXPECT_TRUE(hasLine(3, "skipped a row"));
    EXPECT_EQ(m_report.diagnostics().front().count, 2u);
    for (const model::Track &tr : t.tracks) {
        if (tr.info().threadId == "5") {
            EXPECT_EQ(tr.start(0), 1000001);
            EXPECT_EQ(tr.category(0), model::Category::Compute);
        } else {
            EXPECT_EQ(tr.category(0), model::Category::Communication);
        }
    }
}

TEST_F(MindSporeLegacyTest, ClusterRankAssemblesEveryFile)
{
    m_ctx.root = Cluster;
    std::vector<TracePart> parts = readLegacyRank(Cluster, 2, m_ctx);
    ASSERT_EQ(parts.size(), 1u);
    const model::Trace &t = parts.front().trace;
    // No min_cycle_counter: origin = step 1's start_point ticks x 10.
    EXPECT_EQ(t.steps.size(), 5u);
    EXPECT_EQ(t.steps.front().startNs, 0);
    // 5 step_trace_raw + 2 hccl_raw + 6 ascend_cluster_analyse reference rows.
    EXPECT_EQ(t.referenceSteps.size(), 5u + 2u + 6u);
    EXPECT_EQ(t.collectives.size(), 500u);
    EXPECT_EQ(t.metadata.extra.count("flops.FLOPs"), 1u);
    EXPECT_EQ(t.metadata.format, "mindspore-legacy");
    EXPECT_EQ(t.metadata.sourceFiles.size(), 4u);
    // The cluster-analysis file has 6 rows for the step trace's 5 steps, and in step 1 its
    // computation + communication exceed the step's total by 112.0 us (4 tick columns):
    // both said, nothing else.
    ASSERT_EQ(m_report.diagnostics().size(), 2u) << m_report.toText();
    EXPECT_TRUE(hasLine(0, "6 rows for 5 steps of the step trace"));
    EXPECT_TRUE(hasLine(0, "row 6 has no step and is not used"));
    EXPECT_TRUE(hasLine(0, "first in step 1, by 112.0 us"));
}

TEST_F(MindSporeLegacyTest, ClusterAnalyseRowsTakeTheStepTraceSteps)
{
    // Row i of ascend_cluster_analyse_pipeline-parallel_2_4_2.csv is step i of
    // step_trace_raw_2 (tests/tools/check_mindspore_cluster_analyse.py prints these).
    m_ctx.root = Cluster;
    const std::vector<TracePart> parts = readLegacyRank(Cluster, 2, m_ctx);
    ASSERT_EQ(parts.size(), 1u);
    const model::Trace &t = parts.front().trace;
    std::vector<const model::ReferenceStep *> rows;
    for (const model::ReferenceStep &r : t.referenceSteps) {
        if (r.source == "ascend_cluster_analyse_pipeline-parallel_2_4_2.csv")
            rows.push_back(&r);
    }
    ASSERT_EQ(rows.size(), 6u);
    for (std::size_t i = 0; i < 5; ++i)
        EXPECT_EQ(rows[i]->step, static_cast<std::int64_t>(i + 1));
    EXPECT_EQ(rows[5]->step, -1);
    EXPECT_EQ(rows[5]->find("Computing"), nullptr); // not used: no step-table columns
    const auto value = [](const model::ReferenceStep &r, const char *key) {
        const double *v = r.find(key);
        return v ? *v : -1.0;
    };
    // Step 1: computation_time 122.7529 ms, communication_alone_time 2041.2075,
    // receive_alone_time 1989.431, stage_time 174.5294; the step trace's total 2163848.36 us.
    EXPECT_NEAR(value(*rows[0], "Computing"), 122752.9, 1e-6);
    EXPECT_NEAR(value(*rows[0], "Communication(Not Overlapped)"), 2041207.5, 1e-6);
    EXPECT_NEAR(value(*rows[0], "Bubble"), 1989431.0, 1e-6);
    EXPECT_NEAR(value(*rows[0], "Stage"), 174529.4, 1e-6);
    EXPECT_EQ(value(*rows[0], "Free"), 0.0); // the parts exceed the total by 112.0 us
    // Step 2: 180938.72 - 123271.4 - 56018.9 us.
    EXPECT_NEAR(value(*rows[1], "Free"), 1648.42, 1e-6);
    // The profiler's own columns stay as written.
    EXPECT_NEAR(value(*rows[1], "computation_time"), 123271.4, 1e-6);
}

} // namespace
} // namespace stepscope::import::mindspore
