// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ascend_fixture.h"
#include "import/ascend/communication.h"
#include "import/ascend/jsonfile.h"
#include "import/ascend/profilerinfo.h"

#include <algorithm>

using namespace stepscope;
using namespace stepscope::import::ascend;
using testsupport::ascendData;

namespace {

class AscendCommunication : public testsupport::AscendFixture
{
};

TEST_F(AscendCommunication, Level2CollectivesAndTop1Matrix)
{
    const auto stats = readCommunication(
        ascendData(
            "msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json"),
        m_ctx, 0);
    ASSERT_EQ(stats.size(), 4u); // 4 allReduce ops; "Total Op Info" is not an op
    const auto first = std::find_if(stats.begin(), stats.end(),
        [](const model::CollectiveStat &s) { return s.name == "hcom_allReduce__271_0_1"; });
    ASSERT_NE(first, stats.end());
    EXPECT_EQ(first->step, "step50");
    EXPECT_EQ(first->group, "11022204950826225271");
    EXPECT_FALSE(first->p2p);
    EXPECT_DOUBLE_EQ(first->startUs, 1736412474757059.8);
    EXPECT_DOUBLE_EQ(first->elapseMs, 86.4709076875);
    EXPECT_DOUBLE_EQ(first->waitMs, 2.5635312187499997);
    EXPECT_DOUBLE_EQ(first->idleMs, 83.6689516875);
    ASSERT_EQ(first->links.size(), 5u); // RDMA HCCS PCIE SDMA SIO
    const auto hccs = std::find_if(first->links.begin(), first->links.end(),
        [](const model::LinkTraffic &l) { return l.transport == "HCCS"; });
    ASSERT_NE(hccs, first->links.end());
    EXPECT_DOUBLE_EQ(hccs->sizeMb, 28.647232000000002);
    EXPECT_DOUBLE_EQ(hccs->bandwidthGbps, 15.7675);

    const auto matrix =
        readCommunicationMatrix(ascendData("msinsight-cnn-level2-2rank/rank0_ascend_pt/"
                                           "ASCEND_PROFILER_OUTPUT/communication_matrix.json"),
            m_ctx);
    ASSERT_EQ(matrix.size(), 48u); // 6 classes (top1..total) x 8 links
    const auto top1 =
        std::find_if(matrix.begin(), matrix.end(), [](const model::CommMatrixEntry &e) {
            return e.op == "allreduce-top1" && e.srcRank == 0 && e.dstRank == 1;
        });
    ASSERT_NE(top1, matrix.end());
    EXPECT_EQ(top1->step, "step50");
    EXPECT_EQ(top1->traffic.transport, "HCCS");
    EXPECT_DOUBLE_EQ(top1->traffic.sizeMb, 37.781504);
    EXPECT_DOUBLE_EQ(top1->traffic.timeMs, 2.24104478125);
    EXPECT_DOUBLE_EQ(top1->traffic.bandwidthGbps, 16.8589);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendCommunication, Gpt3OpKeyedWithP2p)
{
    const auto stats = readCommunication(ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_0/"
                                                    "ASCEND_PROFILER_OUTPUT/communication.json"),
        m_ctx, 0);
    ASSERT_EQ(stats.size(), 28u);
    ASSERT_EQ(std::count_if(
                  stats.begin(), stats.end(), [](const model::CollectiveStat &s) { return s.p2p; }),
        1);
    std::size_t links = 0;
    for (const auto &s : stats)
        links += s.links.size();
    EXPECT_EQ(links, 112u); // RDMA HCCS PCIE SDMA, no SIO in 2023
    const auto send = std::find_if(
        stats.begin(), stats.end(), [](const model::CollectiveStat &s) { return s.p2p; });
    EXPECT_EQ(send->name, "hcom_send__822_0");
    EXPECT_DOUBLE_EQ(send->transitMs, 0.86381540625);
    const auto rdma = std::find_if(send->links.begin(), send->links.end(),
        [](const model::LinkTraffic &l) { return l.transport == "RDMA"; });
    ASSERT_NE(rdma, send->links.end());
    EXPECT_DOUBLE_EQ(rdma->sizeMb, 20.97152);

    const auto matrix =
        readCommunicationMatrix(ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_0/"
                                           "ASCEND_PROFILER_OUTPUT/communication_matrix.json"),
            m_ctx);
    EXPECT_EQ(matrix.size(), 122u); // op-keyed, Total Op Info included as written
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendCommunication, ClusterFiles)
{
    const std::string dir = "msinsight-gpt3-pp2-16rank-trimmed/cluster_analysis_output/";
    const auto stats =
        readClusterCommunication(ascendData(dir + "cluster_communication.json"), m_ctx);
    ASSERT_EQ(stats.size(), 6u); // 3 ops x ranks 0 and 1; 2 of them under "p2p"
    EXPECT_EQ(std::count_if(
                  stats.begin(), stats.end(), [](const model::CollectiveStat &s) { return s.p2p; }),
        2);
    const auto b = std::find_if(stats.begin(), stats.end(), [](const model::CollectiveStat &s) {
        return s.name == "hcom_broadcast__483_0" && s.rank == 1;
    });
    ASSERT_NE(b, stats.end());
    EXPECT_EQ(b->group, "(0, 1, 2, 3, 4, 5, 6, 7)");
    EXPECT_EQ(b->step, "step2");
    EXPECT_DOUBLE_EQ(b->startUs, 1695115378711707.0);
    EXPECT_DOUBLE_EQ(b->elapseMs, 8.66528);

    const auto matrix = readClusterCommunicationMatrix(
        ascendData(dir + "cluster_communication_matrix.json"), m_ctx);
    ASSERT_EQ(matrix.size(), 10u);
    const auto recv =
        std::find_if(matrix.begin(), matrix.end(), [](const model::CommMatrixEntry &e) {
            return e.op == "hcom_receive__822_0" && e.srcRank == 9;
        });
    ASSERT_NE(recv, matrix.end());
    EXPECT_EQ(recv->dstRank, 9);
    EXPECT_EQ(recv->traffic.transport, "LOCAL");
    EXPECT_DOUBLE_EQ(recv->traffic.bandwidthGbps, 709.9221);

    const auto groups =
        readCommunicationGroups(ascendData(dir + "communication_group.json"), m_ctx);
    ASSERT_EQ(groups.size(), 29u); // 27 collective + 2 p2p
    EXPECT_EQ(groups[0].name, "collective[0]");
    EXPECT_EQ(groups[0].ranks, (std::vector<std::int32_t> {0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(groups[8].ranks, (std::vector<std::int32_t> {11, 3})); // members kept as written
    EXPECT_EQ(groups[28].name, "p2p[1]");
    EXPECT_EQ(groups[28].ranks.size(), 8u);

    const auto frag = readClusterCommunication(
        ascendData("mstt-advisor-fragments/cluster_analysis_output/cluster_communication.json"),
        m_ctx);
    ASSERT_EQ(frag.size(), 4u);
    EXPECT_EQ(frag[0].step, "step"); // no step number
    EXPECT_EQ(frag[0].group, "(0, 1)");
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendCommunication, MalformedJson)
{
    // Truncated: the file is dropped with the byte offset.
    const auto cut = writeTemp("communication.json", "{\"step1\": {\"collective\": {\"a@1\": {");
    EXPECT_TRUE(readCommunication(cut, m_ctx, 0).empty());
    ASSERT_EQ(m_report.diagnostics().size(), 1u);
    EXPECT_EQ(m_report.diagnostics()[0].severity, model::Severity::Error);
    EXPECT_GT(m_report.diagnostics()[0].offset, 0);

    // Wrong types: the bad op is skipped, the good one loads.
    const auto wrong = writeTemp("communication.json",
        R"j({"step1": {"collective": {"bad@1": 5, "good@2": {"Communication Time Info": )j"
        R"j({"Elapse Time(ms)": "1.5"}, "Communication Bandwidth Info": {"HCCS": {"Transit Size(MB)": 2}}}},)j"
        R"j( "weird": []}, "step2": "x"})j");
    const auto stats = readCommunication(wrong, m_ctx, 3);
    ASSERT_EQ(stats.size(), 1u);
    EXPECT_EQ(stats[0].name, "good");
    EXPECT_EQ(stats[0].rank, 3);
    EXPECT_DOUBLE_EQ(stats[0].elapseMs, 1.5); // number as string accepted
    EXPECT_DOUBLE_EQ(stats[0].links.at(0).bandwidthGbps, -1);
    EXPECT_EQ(m_report.diagnostics().size(), 4u) << m_report.toText();

    const auto groups =
        writeTemp("communication_group.json", R"j({"collective": [[0, 1], ["x"], 3], "p2p": 4})j");
    const auto g = readCommunicationGroups(groups, m_ctx);
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].ranks, (std::vector<std::int32_t> {0, 1}));
}

TEST_F(AscendCommunication, StreamingHandsEachValueAtItsDepthInFileOrder)
{
    const auto file = writeTemp("doc.json",
        R"j({"b": {"x": 1, "y": [1, {"z": 2}]}, "a": 5,)j"
        R"j( "c": [{"q": 3}], "d": {"e": {"f": 6}}})j");
    std::vector<std::pair<std::vector<std::string>, std::string>> seen;
    EXPECT_TRUE(streamJsonFile(
        file, m_ctx, 2, [&](const std::vector<std::string> &keys, const nlohmann::json &value) {
            seen.emplace_back(keys, value.dump());
        }));
    const std::vector<std::pair<std::vector<std::string>, std::string>> expected {
        {{"b", "x"}, "1"},
        {{"b", "y"}, R"j([1,{"z":2}])j"},
        {{"a"}, "null"}, // not an object above the depth: named, not read
        {{"c"}, "null"},
        {{"d", "e"}, R"j({"f":6})j"},
    };
    EXPECT_EQ(seen, expected);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();

    seen.clear();
    const auto array = writeTemp("doc.json", R"j([{"a": {"b": 1}}])j");
    EXPECT_TRUE(streamJsonFile(
        array, m_ctx, 2, [&](const std::vector<std::string> &keys, const nlohmann::json &value) {
            seen.emplace_back(keys, value.dump());
        }));
    ASSERT_EQ(seen.size(), 1u); // the top level, not an object
    EXPECT_TRUE(seen[0].first.empty());
}

TEST_F(AscendCommunication, ACutClusterFileKeepsTheRanksBeforeTheCut)
{
    const std::string rank0 =
        R"j("0": {"Communication Time Info": {"Elapse Time(ms)": 2.5, "Wait Time(ms)": 1}})j";
    const std::string text = R"j({"(0, 1)": {"step1": {"hcom_allReduce_1@9": {)j" + rank0
        + R"j(, "1": {"Communication Time Info": {"Elapse Time(ms)": 3)j";
    const auto cut = writeTemp("cluster_communication.json", text);
    const auto stats = readClusterCommunication(cut, m_ctx);
    ASSERT_EQ(stats.size(), 1u);
    EXPECT_EQ(stats[0].rank, 0);
    EXPECT_EQ(stats[0].group, "(0, 1)");
    EXPECT_EQ(stats[0].step, "step1");
    EXPECT_EQ(stats[0].name, "hcom_allReduce_1");
    EXPECT_DOUBLE_EQ(stats[0].elapseMs, 2.5);
    ASSERT_EQ(m_report.diagnostics().size(), 1u) << m_report.toText();
    const auto &d = m_report.diagnostics()[0];
    EXPECT_EQ(d.severity, model::Severity::Error);
    EXPECT_EQ(d.offset, static_cast<std::int64_t>(text.size()) + 1); // nlohmann: past the end
    EXPECT_NE(d.message.find("what came before it was kept"), std::string::npos) << d.message;
}

TEST_F(AscendCommunication, ProfilerInfoVariants)
{
    model::RunMetadata meta;
    const auto rank = readProfilerInfo(
        ascendData("msinsight-cnn-level2-2rank/rank1_ascend_pt/profiler_info_1.json"), m_ctx, meta);
    ASSERT_TRUE(rank.has_value());
    EXPECT_EQ(*rank, 1);
    EXPECT_EQ(meta.rank, 1);
    EXPECT_EQ(meta.format, "ascend");
    EXPECT_EQ(meta.profilerLevel, "Level2");
    EXPECT_EQ(meta.extra["profiler.export_type"], "text");
    EXPECT_EQ(meta.extra["profiler.aic_metrics"], "ACL_AICORE_PIPE_UTILIZATION");
    EXPECT_EQ(meta.extra["start_info.freq"], "100");
    EXPECT_EQ(meta.extra.count("profiler.gc_detect_threshold"), 0u); // null values dropped

    model::RunMetadata old;
    EXPECT_EQ(readProfilerInfo(
                  ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_1/profiler_info_1.json"),
                  m_ctx, old)
                  .value_or(-1),
        1);
    EXPECT_EQ(old.profilerLevel, "Level1");
    EXPECT_EQ(old.extra.count("start_info.freq"), 0u); // 2023: no start_info
    EXPECT_EQ(old.extra["end_info.collectionTimeEnd"], "1695115379274664320");
    EXPECT_TRUE(m_report.empty()) << m_report.toText();

    // [other output] _export_type as a list; rank from the file name when rank_id is absent.
    model::RunMetadata listed;
    const auto p = writeTemp("profiler_info_5.json",
        R"j({"config": {"experimental_config": {"_export_type": ["text", "db"], "_mstx": false}}})j");
    EXPECT_EQ(readProfilerInfo(p, m_ctx, listed).value_or(-1), 5);
    EXPECT_EQ(listed.extra["profiler.export_type"], "text, db");
    EXPECT_EQ(listed.extra["profiler.mstx"], "false");
}

TEST_F(AscendCommunication, ProfilerMetadataParallelGroups)
{
    model::RunMetadata meta;
    std::vector<model::ParallelGroup> groups;
    ASSERT_TRUE(readProfilerMetadata(
        ascendData("msinsight-cnn-level2-2rank/rank0_ascend_pt/profiler_metadata.json"), m_ctx,
        meta, groups));
    EXPECT_TRUE(groups.empty()); // only ENV_VARIABLES, all empty
    EXPECT_EQ(meta.worldSize, 0);

    // [other output] Megatron/MindSpeed adds distributed_args and parallel_group_info.
    const auto p = writeTemp("profiler_metadata.json", R"j({
        "distributed_args": {"tensor_model_parallel_size": 2, "pipeline_model_parallel_size": 2,
                             "data_parallel_size": 2, "sequence_parallel": true, "rank": 3, "world_size": 8},
        "parallel_group_info": {
            "group_name_1": {"group_name": "dp", "group_rank": 1, "global_ranks": [1, 5]},
            "group_name_2": {"group_name": "tp", "group_rank": 1, "global_ranks": [2, 3]},
            "group_name_3": {"group_name": "pp", "group_rank": 0, "global_ranks": "bad"}}})j");
    ASSERT_TRUE(readProfilerMetadata(p, m_ctx, meta, groups));
    EXPECT_EQ(meta.worldSize, 8);
    EXPECT_EQ(meta.extra["distributed.tensor_model_parallel_size"], "2");
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].kind, "dp");
    EXPECT_EQ(groups[0].name, "group_name_1");
    EXPECT_EQ(groups[0].ranks, (std::vector<std::int32_t> {1, 5}));
    EXPECT_EQ(groups[1].kind, "tp");
    ASSERT_EQ(m_report.diagnostics().size(), 1u);
    EXPECT_NE(m_report.diagnostics()[0].message.find("group_name_3"), std::string::npos);
}

} // namespace
