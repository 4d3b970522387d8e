// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Extreme integers in an Ascend DB (issue 14, found with the `ascend_db` fuzz target's seeds,
// docs/robustness.md): times of ±(2^63 - 1) made `absNs - originNs` and `end - start`
// overflow (UBSan: signed integer overflow in ProfilerDb::rel), as did NPU_MEM `ddr + hbm` and
// a plane id near INT64_MAX. Now such times are clamped to ±2^61 ns around the origin with
// one warning naming the file, every row still becomes its event, and the trace holds its
// invariants. The asan-core preset runs this test under UBSan.

#include "import/ascenddb/ascenddb.h"
#include "sqlitedb_fixture.h"

#include <filesystem>
#include <limits>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

class AscendDbExtremes : public testsupport::SqliteFixture
{
};

TEST_F(AscendDbExtremes, HugeTimesAreClampedWithAWarningAndEveryRowLoads)
{
    const fs::path file = m_tmp / "ascend_pytorch_profiler_0.db";
    fs::copy_file(testsupport::sqliteData("ascend_db/msinsight-cnn-db-level2-2rank/"
                                          "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/"
                                          "ascend_pytorch_profiler_0.db"),
        file);
    fs::permissions(file, fs::perms::owner_write, fs::perm_options::add);
    testsupport::writeDatabase(file,
        "UPDATE TASK SET startNs = -9223372036854775807 WHERE rowid = 1;"
        "UPDATE TASK SET endNs = 9223372036854775807 WHERE rowid = 2;"
        "UPDATE CANN_API SET startNs = -9223372036854775807, endNs = 9223372036854775807 "
        "WHERE rowid = 1;"
        "UPDATE PYTORCH_API SET startNs = '-9223372036854775807' WHERE rowid = 1;"
        "UPDATE NPU_MEM SET ddr = 9223372036854775807, hbm = 9223372036854775807 WHERE rowid = 1;"
        "UPDATE COMMUNICATION_TASK_INFO SET planeId = 9223372036854775806 WHERE rowid = 1;"
        "UPDATE MEMORY_RECORD SET timestamp = -9223372036854775807 WHERE rowid = 1;");

    const auto r = import::ascenddb::readAscendDbPath(file, true);
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.trace.checkInvariants(), "");
    // The same rows as the untouched file: nothing skipped, nothing doubled.
    EXPECT_EQ(r.trace.eventCount(), 552u + 2460u + 1133u + 4u) << r.report.toText();
    bool warned = false;
    for (const auto &d : r.report.diagnostics())
        if (d.file == "ascend_pytorch_profiler_0.db"
            && d.message.find("timestamps lie more than 73 years from the trace origin")
                != std::string::npos)
            warned = true;
    EXPECT_TRUE(warned) << r.report.toText();
    constexpr std::int64_t Bound = std::int64_t(1) << 61;
    for (const auto &track : r.trace.tracks)
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            EXPECT_GE(track.start(i), -Bound);
            EXPECT_LE(track.end(i), Bound);
            EXPECT_GE(track.duration(i), 0);
        }
}

} // namespace
