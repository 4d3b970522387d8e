// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ascend_fixture.h"
#include "import/ascend/kerneldetails.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

using namespace stepscope;
using import::ascend::KernelRow;
using import::ascend::readKernelDetails;
using testsupport::ascendData;

namespace {

class AscendKernel : public testsupport::AscendFixture
{
};

std::map<std::string, int> countByStream(const std::vector<KernelRow> &rows)
{
    std::map<std::string, int> m;
    for (const KernelRow &r : rows)
        ++m[r.stream];
    return m;
}

int communicationRows(const std::vector<KernelRow> &rows)
{
    return static_cast<int>(std::count_if(
        rows.begin(), rows.end(), [](const KernelRow &r) { return r.isCommunication(); }));
}

TEST_F(AscendKernel, Level2RowsStreamsAndExactTimes)
{
    const auto rows = readKernelDetails(
        ascendData(
            "msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"),
        m_ctx);
    ASSERT_EQ(rows.size(), 191u);
    // Stream ID: 185 on "2", 2 on "3", 4 HCCL rows with N/A.
    EXPECT_EQ(countByStream(rows), (std::map<std::string, int> {{"", 4}, {"2", 185}, {"3", 2}}));
    EXPECT_EQ(communicationRows(rows), 4);
    EXPECT_EQ(rows[0].name, "trans_TransData_0");
    EXPECT_EQ(rows[0].startNs, 1736412474730135222); // "1736412474730135.222\t"
    EXPECT_EQ(rows[0].durationNs, 55161);
    EXPECT_EQ(rows[0].step, 50);
    EXPECT_EQ(rows[0].line, 2);
    const auto hccl = std::find_if(
        rows.begin(), rows.end(), [](const KernelRow &r) { return r.acceleratorCore == "HCCL"; });
    ASSERT_NE(hccl, rows.end());
    EXPECT_EQ(hccl->name, "hcom_allReduce__271_0_1");
    EXPECT_EQ(hccl->startNs, 1736412474757059739);
    EXPECT_EQ(hccl->durationNs, 86470907);
    EXPECT_EQ(hccl->waitNs, 570791);
    EXPECT_EQ(hccl->category, model::Category::Communication);
    EXPECT_TRUE(hccl->taskId.empty());
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendKernel, Level0EightColumnsNoStream)
{
    const auto rows = readKernelDetails(
        ascendData(
            "msinsight-cnn-level0-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv"),
        m_ctx);
    ASSERT_EQ(rows.size(), 191u); // CRLF file
    EXPECT_EQ(countByStream(rows), (std::map<std::string, int> {{"", 191}}));
    EXPECT_EQ(communicationRows(rows), 4); // only Accelerator Core HCCL marks them
    EXPECT_EQ(rows[0].startNs, 1736405443881410320);
    EXPECT_EQ(rows[0].durationNs, 50621);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();

    model::TraceBuilder b;
    b.trace().originNs = rows[0].startNs;
    import::ascend::addKernelTracks(rows, b, 0);
    model::Trace t = b.finish().trace;
    ASSERT_EQ(t.tracks.size(), 2u);
    EXPECT_EQ(t.eventCount(), 191u);
    std::map<model::TrackKind, std::uint32_t> byKind;
    for (const model::Track &tr : t.tracks)
        byKind[tr.info().kind] += tr.size();
    EXPECT_EQ(byKind[model::TrackKind::DeviceStream], 187u);
    EXPECT_EQ(byKind[model::TrackKind::CommunicationGroup], 4u);
    EXPECT_EQ(t.checkInvariants(), "");

    // Args are valid compact JSON with the row's facts.
    for (const model::Track &tr : t.tracks) {
        if (tr.info().kind != model::TrackKind::CommunicationGroup)
            continue;
        EXPECT_EQ(tr.info().threadName, "HCCL");
        EXPECT_EQ(t.strings.view(tr.name(0)), "hcom_allReduce__868_0_1");
        EXPECT_EQ(tr.start(0), 1736405443909176934 - 1736405443881410320);
        EXPECT_EQ(tr.duration(0), 72994438);
        EXPECT_EQ(tr.category(0), model::Category::Communication);
        const nlohmann::json args = nlohmann::json::parse(t.args.text(tr.args(0)));
        EXPECT_EQ(args.at("Accelerator Core"), "HCCL");
        EXPECT_EQ(args.at("Type"), "N/A");
        EXPECT_EQ(args.at("Step Id"), 50);
    }
}

TEST_F(AscendKernel, Gpt3And2023FragmentsVariants)
{
    const auto r0 = readKernelDetails(ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_0/"
                                                 "ASCEND_PROFILER_OUTPUT/kernel_details.csv"),
        m_ctx);
    // 21 rows, but line 17 (a FlashAttentionScore on stream 16) lacks its `Duration(us)`
    // field (31 of 32 fields, its values shifted left): skipped and reported.
    ASSERT_EQ(r0.size(), 20u);
    EXPECT_EQ(countByStream(r0), (std::map<std::string, int> {{"", 4}, {"16", 12}, {"17", 4}}));
    ASSERT_EQ(m_report.diagnostics().size(), 1u);
    EXPECT_EQ(m_report.diagnostics()[0].line, 17);
    EXPECT_EQ(m_report.diagnostics()[0].file,
        "msinsight-gpt3-pp2-16rank-trimmed/test_rank_0/ASCEND_PROFILER_OUTPUT/kernel_details.csv");
    EXPECT_EQ(r0[0].startNs, 1695115378713661000); // integer text, no decimals
    EXPECT_EQ(r0[0].durationNs, 496851); // 496.8508 us rounds to 496 851 ns
    EXPECT_EQ(r0[0].step, 2);
    const auto frag =
        readKernelDetails(ascendData("mstt-advisor-fragments/kernel_details.csv"), m_ctx);
    ASSERT_EQ(frag.size(), 591u);
    EXPECT_EQ(
        countByStream(frag), (std::map<std::string, int> {{"", 19}, {"16", 558}, {"17", 14}}));
    EXPECT_EQ(communicationRows(frag), 19);
    EXPECT_EQ(m_report.diagnostics().size(), 1u) << m_report.toText();

    model::TraceBuilder b;
    b.trace().originNs = 1699529622790614800;
    import::ascend::addKernelTracks(frag, b, 3);
    model::Trace t = b.finish().trace;
    EXPECT_EQ(t.tracks.size(), 3u);
    EXPECT_EQ(t.eventCount(), 591u);
    for (const model::Track &tr : t.tracks) {
        EXPECT_EQ(tr.info().rank, 3);
        if (tr.info().threadId == "16") {
            EXPECT_EQ(tr.size(), 558u);
        }
    }
    EXPECT_EQ(t.checkInvariants(), "");
}

TEST_F(AscendKernel, Cann83DeviceIdAndCommunicationCore)
{
    // [other output] CANN 8.3: Device_id after Step Id, COMMUNICATION instead of HCCL.
    const auto p = writeTemp("kernel_details.csv",
        "Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,"
        "Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n"
        "3,4,4294967295,12,7,MatMul_1,MatMul,dynamic,AI_CORE,"
        "1750000000000000.125\t,10.5\t,0,24\n"
        "3,4,4294967295,N/A,N/A,hcom_allGather__1_1,hcom_allGather_,N/A,"
        "COMMUNICATION,1750000000000100.000,20,1.25,0\n"
        "3,4,4294967295,13,7,MemcpyAsync,MEMCPY_ASYNC,N/A,N/A,"
        "1750000000000200,1,0,0\n");
    const auto rows = readKernelDetails(p, m_ctx);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].deviceId, "4");
    EXPECT_EQ(rows[0].stream, "7");
    EXPECT_EQ(rows[0].taskId, "12");
    EXPECT_EQ(rows[0].blockDim, 24);
    EXPECT_EQ(rows[0].startNs, 1750000000000000125);
    EXPECT_EQ(rows[0].durationNs, 10500);
    EXPECT_EQ(rows[0].category, model::Category::Compute);
    EXPECT_EQ(rows[1].category, model::Category::Communication);
    EXPECT_EQ(rows[1].waitNs, 1250);
    EXPECT_EQ(rows[2].category, model::Category::Memcpy);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendKernel, MalformedRowsAreSkippedWithLines)
{
    const auto p = writeTemp("bad/kernel_details.csv",
        "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),"
        "Wait Time(us),Block Dim\r\n"
        "1,ok1,N/A,N/A,100.5,1,0,0\r\n"
        "1,badstart,N/A,N/A,abc,1,0,0\r\n"
        "1,mangled,N/A,N/A,1.69512E+15,1,0,0\r\n"
        "1,negdur,N/A,N/A,200,-3,0,0\r\n"
        "garbage line without commas\r\n"
        "1,ok2,N/A,N/A,300,2,0,0\r\n"
        "1,trunc,N/A,N/A,40");
    const auto rows = readKernelDetails(p, m_ctx);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "ok1");
    EXPECT_EQ(rows[1].name, "ok2");
    EXPECT_EQ(rows[1].line, 7);
    const auto &d = m_report.diagnostics();
    ASSERT_EQ(d.size(), 4u) << m_report.toText();
    EXPECT_EQ(d[0].file, "bad/kernel_details.csv");
    EXPECT_EQ(d[0].line, 3);
    EXPECT_EQ(d[1].line, 4);
    EXPECT_NE(d[1].message.find("scientific"), std::string::npos);
    EXPECT_EQ(d[2].line, 5);
    EXPECT_EQ(d[3].line, 6); // garbage: too few fields
    EXPECT_EQ(d[3].count, 2u); // and the truncated last line 8
}

TEST_F(AscendKernel, MissingColumnsDropTheFile)
{
    const auto p = writeTemp("kernel_details.csv", "Step Id,Name,Type\n1,a,b\n");
    EXPECT_TRUE(readKernelDetails(p, m_ctx).empty());
    ASSERT_EQ(m_report.diagnostics().size(), 1u);
    EXPECT_EQ(m_report.diagnostics()[0].severity, model::Severity::Error);
    EXPECT_EQ(m_report.diagnostics()[0].line, 1);
    EXPECT_TRUE(readKernelDetails(writeTemp("empty.csv", ""), m_ctx).empty());
    EXPECT_EQ(m_report.diagnostics().size(), 2u);
}

} // namespace
