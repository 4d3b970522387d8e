// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ascend_fixture.h"
#include "import/ascend/memoryfiles.h"
#include "import/ascend/opstatistic.h"

#include <algorithm>
#include <map>

using namespace stepscope;
using namespace stepscope::import::ascend;
using testsupport::ascendData;

namespace {

class AscendMemory : public testsupport::AscendFixture
{
};

const model::MemoryCurve *curve(
    const std::vector<model::MemoryCurve> &curves, const std::string &component)
{
    for (const auto &c : curves)
        if (c.component == component)
            return &c;
    return nullptr;
}

/// Value of the last point at or before t, -2 when none.
std::int64_t latestAllocated(const model::MemoryCurve &c, std::int64_t t)
{
    const auto it = std::upper_bound(c.timestampsNs.begin(), c.timestampsNs.end(), t);
    if (it == c.timestampsNs.begin())
        return -2;
    return c.allocatedBytes[static_cast<std::size_t>(it - c.timestampsNs.begin() - 1)];
}

TEST_F(AscendMemory, MemoryRecordCurvesPerComponentSortedExact)
{
    const auto curves = readMemoryRecord(
        ascendData(
            "msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv"),
        m_ctx);
    ASSERT_EQ(curves.size(), 4u);
    // 1 003 rows: PTA+GE 495, PTA 381, GE 114, APP 13 (not sorted by time in the file).
    const std::map<std::string, std::size_t> expected {
        {"PTA+GE", 495}, {"PTA", 381}, {"GE", 114}, {"APP", 13}};
    for (const auto &[name, n] : expected) {
        const model::MemoryCurve *c = curve(curves, name);
        ASSERT_NE(c, nullptr) << name;
        EXPECT_EQ(c->timestampsNs.size(), n) << name;
        EXPECT_EQ(c->allocatedBytes.size(), n);
        EXPECT_EQ(c->reservedBytes.size(), n);
        EXPECT_EQ(c->activeBytes.size(), n);
        EXPECT_TRUE(std::is_sorted(c->timestampsNs.begin(), c->timestampsNs.end())) << name;
        EXPECT_EQ(c->device, "NPU:0");
    }
    const model::MemoryCurve &pta = *curve(curves, "PTA");
    EXPECT_EQ(pta.timestampsNs.front(), 1736412474720601300);
    EXPECT_EQ(pta.allocatedBytes.front(), 981462016); // 935.9951171875 MiB
    EXPECT_EQ(pta.reservedBytes.front(), 1522532352); // 1452.0 MiB
    EXPECT_EQ(*std::max_element(pta.allocatedBytes.begin(), pta.allocatedBytes.end()), 1245688832);
    const model::MemoryCurve &app = *curve(curves, "APP");
    EXPECT_EQ(app.allocatedBytes.front(), -1); // APP fills only Total Reserved
    EXPECT_EQ(app.reservedBytes.front(), 2212077568); // 2109.6015625 MiB
    const model::MemoryCurve &ge = *curve(curves, "GE");
    EXPECT_EQ(ge.timestampsNs.front(), 1736412474730098330);
    EXPECT_EQ(ge.activeBytes.front(), -1);

    // PTA+GE allocated = latest PTA + latest GE on all 483 rows where both exist.
    const model::MemoryCurve &sum = *curve(curves, "PTA+GE");
    int checked = 0;
    for (std::size_t i = 0; i < sum.timestampsNs.size(); ++i) {
        const std::int64_t a = latestAllocated(pta, sum.timestampsNs[i]);
        const std::int64_t b = latestAllocated(ge, sum.timestampsNs[i]);
        if (a < 0 || b < 0)
            continue;
        ++checked;
        EXPECT_EQ(sum.allocatedBytes[i], a + b) << i;
    }
    EXPECT_EQ(checked, 483);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendMemory, MemoryRecord2023VariantHasNoActiveColumn)
{
    const auto curves = readMemoryRecord(ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_0/"
                                                    "ASCEND_PROFILER_OUTPUT/memory_record.csv"),
        m_ctx);
    ASSERT_EQ(curves.size(), 4u); // 11 rows: PTA 3, PTA+GE 3, GE 3, APP 2
    const model::MemoryCurve &pta = *curve(curves, "PTA");
    ASSERT_EQ(pta.timestampsNs.size(), 3u);
    EXPECT_TRUE(pta.activeBytes.empty());
    EXPECT_EQ(pta.timestampsNs.front(), 1695115378714622800);
    EXPECT_EQ(pta.allocatedBytes.front(), 4823177728); // 4599.74072265625 MiB
    EXPECT_EQ(curve(curves, "APP")->timestampsNs.size(), 2u);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendMemory, SpreadsheetMangledTimestampsDropTheCurves)
{
    const auto curves = readMemoryRecord(ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_1/"
                                                    "ASCEND_PROFILER_OUTPUT/memory_record.csv"),
        m_ctx);
    EXPECT_TRUE(curves.empty());
    ASSERT_EQ(m_report.diagnostics().size(), 1u);
    const model::Diagnostic &d = m_report.diagnostics()[0];
    EXPECT_EQ(d.severity, model::Severity::Warning);
    EXPECT_EQ(d.line, 2);
    EXPECT_NE(d.message.find("30 timestamps"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("spreadsheet"), std::string::npos);
}

TEST_F(AscendMemory, OperatorMemoryAllocations)
{
    const auto allocs = readOperatorMemory(ascendData("msinsight-cnn-level2-2rank/rank0_ascend_pt/"
                                                      "ASCEND_PROFILER_OUTPUT/operator_memory.csv"),
        m_ctx);
    ASSERT_EQ(allocs.size(), 184u);
    EXPECT_EQ(std::count_if(allocs.begin(), allocs.end(),
                  [](const model::Allocation &a) { return a.releasedNs == -1; }),
        24);
    EXPECT_EQ(allocs[0].op, "aten::empty_strided");
    EXPECT_EQ(allocs[0].sizeBytes, 19268096); // 18816.5 KB
    EXPECT_EQ(allocs[0].allocatedNs, 1736412474720984920);
    EXPECT_EQ(allocs[2].op, "aten::_convolution");
    EXPECT_EQ(allocs[2].releasedNs, 1736412474761849960);
    EXPECT_EQ(allocs[2].category, model::MemoryCategory::Unknown);
    EXPECT_FALSE(allocs[2].categoryInferred);
    std::int64_t total = 0;
    for (const auto &a : allocs)
        total += a.sizeBytes;
    EXPECT_EQ(total, 1495289344);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();

    // 2023 10-column variant: 28 rows, all released; 2024 15-column file of rank 1: 21, 2 alive.
    const auto old = readOperatorMemory(ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_0/"
                                                   "ASCEND_PROFILER_OUTPUT/operator_memory.csv"),
        m_ctx);
    ASSERT_EQ(old.size(), 28u);
    EXPECT_EQ(old[0].op, "cann::Graph_70");
    EXPECT_EQ(old[0].sizeBytes, 196608);
    EXPECT_EQ(old[0].releasedNs, 1695115378723939200);
    const auto r1 = readOperatorMemory(ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_1/"
                                                  "ASCEND_PROFILER_OUTPUT/operator_memory.csv"),
        m_ctx);
    ASSERT_EQ(r1.size(), 21u);
    EXPECT_EQ(std::count_if(r1.begin(), r1.end(),
                  [](const model::Allocation &a) { return a.releasedNs == -1; }),
        2);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendMemory, NpuModuleMemNumericComponentIsOther)
{
    const auto modules =
        readNpuModuleMem(ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_0/"
                                    "ASCEND_PROFILER_OUTPUT/npu_module_mem.csv"),
            m_ctx);
    ASSERT_EQ(modules.size(), 23u); // 22 module names + "other" (the 3 rows of component 76)
    std::size_t points = 0;
    for (const auto &m : modules) {
        points += m.timestampsNs.size();
        EXPECT_TRUE(std::is_sorted(m.timestampsNs.begin(), m.timestampsNs.end()));
        EXPECT_EQ(m.device, "NPU:0");
    }
    EXPECT_EQ(points, 78u);
    const auto other = std::find_if(modules.begin(), modules.end(),
        [](const model::ModuleMemory &m) { return m.module == "other"; });
    ASSERT_NE(other, modules.end());
    EXPECT_EQ(other->timestampsNs.size(), 3u);
    EXPECT_TRUE(m_report.empty()) << m_report.toText();

    const auto l2 = readNpuModuleMem(
        ascendData(
            "msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/npu_module_mem.csv"),
        m_ctx);
    EXPECT_EQ(l2.size(), 77u);
    points = 0;
    for (const auto &m : l2)
        points += m.timestampsNs.size();
    EXPECT_EQ(points, 1001u);
}

TEST_F(AscendMemory, StaticOpMemAndOpStatistic)
{
    const auto statics = readStaticOpMem(ascendData("msinsight-gpt3-pp2-16rank-trimmed/test_rank_1/"
                                                    "ASCEND_PROFILER_OUTPUT/static_op_mem.csv"),
        m_ctx);
    ASSERT_EQ(statics.size(), 56u);
    EXPECT_EQ(statics[0].op, "sqrt_01");
    EXPECT_EQ(statics[0].model, "0");
    EXPECT_EQ(statics[0].sizeBytes, 2400032); // 2343.78125 KB

    const auto stats = readOpStatistic(
        ascendData(
            "msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv"),
        m_ctx);
    ASSERT_EQ(stats.size(), 33u);
    EXPECT_EQ(stats[0].name, "ForeachAddList");
    EXPECT_EQ(stats[0].coreType, "AI_VECTOR_CORE");
    EXPECT_EQ(stats[0].count, 3);
    EXPECT_DOUBLE_EQ(stats[0].totalUs, 1954.719);
    EXPECT_DOUBLE_EQ(stats[0].maxUs, 700.394);
    std::int64_t calls = 0;
    for (const auto &s : stats)
        calls += s.count;
    EXPECT_EQ(calls, 187); // the 187 non-HCCL rows of kernel_details.csv
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
}

TEST_F(AscendMemory, MalformedMemoryFiles)
{
    const auto rec = writeTemp("memory_record.csv",
        "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Device Type\n"
        "PTA,300.5,1.0,2.0,NPU:0\n"
        "PTA,abc,1.0,2.0,NPU:0\n"
        "PTA,100,0.5,2.0,NPU:0\n"
        "PTA,200,bad,2.0,NPU:0\n"
        "PTA,400");
    const auto curves = readMemoryRecord(rec, m_ctx);
    ASSERT_EQ(curves.size(), 1u);
    EXPECT_EQ(curves[0].timestampsNs, (std::vector<std::int64_t> {100000, 200000, 300500}));
    EXPECT_EQ(curves[0].allocatedBytes, (std::vector<std::int64_t> {524288, -1, 1048576}));
    ASSERT_EQ(m_report.diagnostics().size(), 2u) << m_report.toText();
    EXPECT_EQ(m_report.diagnostics()[0].line, 3);
    EXPECT_EQ(m_report.diagnostics()[1].line, 6);

    const auto op = writeTemp("operator_memory.csv",
        "Name,Size(KB),Allocation Time(us),Release Time(us)\n"
        "a,1,10,20\n"
        "b,x,10,20\n"
        "c,1,,20\n"
        "d,2,30,never\n");
    const auto allocs = readOperatorMemory(op, m_ctx);
    ASSERT_EQ(allocs.size(), 2u);
    EXPECT_EQ(allocs[1].op, "d");
    EXPECT_EQ(allocs[1].releasedNs, -1);
    const auto &d = m_report.diagnostics();
    ASSERT_EQ(d.size(), 5u) << m_report.toText();
    EXPECT_EQ(d[2].line, 3);
    EXPECT_EQ(d[3].line, 4);
    EXPECT_EQ(d[4].line, 5);

    EXPECT_TRUE(readNpuModuleMem(writeTemp("npu_module_mem.csv", "Foo,Bar\n1,2\n"), m_ctx).empty());
    EXPECT_EQ(m_report.diagnostics().back().severity, model::Severity::Error);
}

TEST(AscendUnits, BinaryMegabytesAndKilobytes)
{
    EXPECT_EQ(megabytesToBytes("1").value_or(0), 1048576);
    EXPECT_EQ(megabytesToBytes("4599.74072265625").value_or(0), 4823177728);
    EXPECT_EQ(kilobytesToBytes("0.5").value_or(0), 512);
    EXPECT_FALSE(megabytesToBytes("").has_value());
    EXPECT_FALSE(megabytesToBytes("N/A").has_value());
}

} // namespace
