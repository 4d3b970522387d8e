// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Malformed Nsight Systems exports, written by the tests from a copy of the sample: a
// missing table, a missing column, values of the wrong type, a truncated file and a file
// that is not SQLite. Each gives a diagnostic naming the file (and the table), the rest
// loads, nothing crashes.

#include "import/loader.h"
#include "import/nsys/nsys.h"
#include "sqlitedb_fixture.h"

#include <filesystem>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

class NsysMalformed : public testsupport::SqliteFixture
{
protected:
    fs::path copySample()
    {
        const fs::path file = m_tmp / "run.sqlite";
        fs::copy_file(testsupport::sqliteData(
                          "nsys_sqlite/pipit-cloverleaf-cuda/perlmutter-cloverleaf-cuda.sqlite"),
            file);
        fs::permissions(file, fs::perms::owner_write, fs::perm_options::add);
        return file;
    }
    import::nsys::FileResult read(const fs::path &file) { auto r = import::nsys::readNsysPath(file);
    m_text = r.report.toText();
    return r;
} bool said(const import::nsys::FileResult &r, const std::string &part) const
{
    for (const auto &d : r.report.diagnostics())
        if (d.file == "run.sqlite" && d.message.find(part) != std::string::npos)
            return true;
    return false;
}
std::string m_text;
}; // namespace

TEST_F(NsysMalformed, MissingKernelTableIsNamedAndTheRestLoads)
{
    const fs::path file = copySample();
    testsupport::writeDatabase(file, "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL;");
    const auto r = read(file);
    ASSERT_TRUE(r.ok) << m_text;
    EXPECT_TRUE(said(r, "(no table): CUPTI_ACTIVITY_KIND_KERNEL")) << m_text;
    EXPECT_EQ(r.counts.kernels, 0u);
    EXPECT_EQ(r.counts.memcpys, 279u);
    EXPECT_EQ(r.counts.runtime, 3048u);
    EXPECT_EQ(r.counts.flows, 279u + 1312u);
}

TEST_F(NsysMalformed, MissingStringTableIsNamedAndEventsKeepTheirIds)
{
    const fs::path file = copySample();
    testsupport::writeDatabase(file, "DROP TABLE StringIds;");
    const auto r = read(file);
    ASSERT_TRUE(r.ok) << m_text;
    EXPECT_TRUE(said(r, "no table `StringIds`")) << m_text;
    EXPECT_EQ(r.counts.kernels, 1312u);
    EXPECT_EQ(r.counts.runtime, 3048u);
}

/// An export without StringIds was "an SQLite database of no profiler" to the loader: it is
/// an export by its other tables (with or without META_DATA_EXPORT), loads, and says once
/// that names are ids. One without any timeline table names the tables it lacks.
TEST_F(NsysMalformed, ExportWithoutStringIdsLoadsAndSaysNamesAreIds)
{
    const fs::path file = copySample();
    testsupport::writeDatabase(file, "DROP TABLE StringIds; DROP TABLE META_DATA_EXPORT;");
    util::Progress progress;
    auto s = import::loadPath(file, progress).session;
    m_text = s->report.toText();
    EXPECT_EQ(s->format, "nsys") << m_text;
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_EQ(s->report.count(model::Severity::Error), 0u) << m_text;
    std::size_t saidIds = 0;
    for (const auto &d : s->report.diagnostics())
        if (d.file == "run.sqlite" && d.message.find("StringIds") != std::string::npos) {
            ++saidIds;
            EXPECT_NE(
                d.message.find("no table `StringIds`: kernels, CUDA API calls"), std::string::npos)
                << d.message;
            EXPECT_NE(d.message.find("shown by their numeric string ids"), std::string::npos);
        }
    EXPECT_EQ(saidIds, 1u) << m_text;

    const fs::path bare = m_tmp / "bare.sqlite";
    testsupport::writeDatabase(bare,
        "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT);"
        "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1696392839587175550, 'now');");
    s = import::loadPath(bare, progress).session;
    m_text = s->report.toText();
    EXPECT_EQ(s->format, "nsys") << m_text;
    EXPECT_TRUE(s->traces.empty());
    bool named = false;
    for (const auto &d : s->report.diagnostics())
        named = named
            || (d.file == "bare.sqlite" && d.severity == model::Severity::Error
                && d.message.find("none of the tables a timeline is made of is in this Nsight "
                                  "Systems export (CUPTI_ACTIVITY_KIND_KERNEL, ")
                    != std::string::npos);
    EXPECT_TRUE(named) << m_text;
}

TEST_F(NsysMalformed, MissingColumnSkipsThatTableOnly)
{
    const fs::path file = copySample();
    testsupport::writeDatabase(file, "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY DROP COLUMN start;");
    const auto r = read(file);
    ASSERT_TRUE(r.ok) << m_text;
    EXPECT_TRUE(said(r, "table `CUPTI_ACTIVITY_KIND_MEMCPY` lacks the column `start`")) << m_text;
    EXPECT_EQ(r.counts.memcpys, 0u);
    EXPECT_EQ(r.counts.kernels, 1312u);
}

TEST_F(NsysMalformed, WrongTypeSkipsOnlyThoseRows)
{
    const fs::path file = copySample();
    testsupport::writeDatabase(file,
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 'soon' WHERE rowid IN (1, 2, 3);"
        "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = X'00ff' WHERE rowid = 10;");
    const auto r = read(file);
    ASSERT_TRUE(r.ok) << m_text;
    EXPECT_TRUE(said(r, "table `CUPTI_ACTIVITY_KIND_KERNEL`: `start` must be an integer, got text"))
        << m_text;
    EXPECT_TRUE(said(r,
        "table `CUPTI_ACTIVITY_KIND_RUNTIME`: `nameId` must be an integer, got a "
        "blob"))
        << m_text;
    EXPECT_EQ(r.counts.kernels, 1309u);
    EXPECT_EQ(r.counts.runtime, 3047u);
    EXPECT_EQ(r.trace.checkInvariants(), "");
}

// Times at the int64 limits used to overflow end - start (UBSan: signed overflow); they are
// clamped, said once, and the rest of the file loads as before.
TEST_F(NsysMalformed, TimesAtTheInt64LimitsAreClampedAndSaid)
{
    const fs::path file = copySample();
    testsupport::writeDatabase(file,
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = -9223372036854775807, end = "
        "9223372036854775807 WHERE rowid = 1;"
        "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = 9223372036854775807 WHERE rowid = 2;"
        "UPDATE OSRT_API SET start = -9223372036854775807 WHERE rowid = 3;");
    const auto r = read(file);
    ASSERT_TRUE(r.ok) << m_text;
    EXPECT_TRUE(said(r, "timestamps lie more than 73 years from the session start")) << m_text;
    EXPECT_EQ(r.counts.kernels, 1312u);
    EXPECT_EQ(r.counts.runtime, 3048u);
    EXPECT_EQ(r.trace.checkInvariants(), "");
}

/// A damaged row is kept and said: a kernel ending before it starts (no duration), kernels
/// whose name id StringIds lacks (named by their short name, not "999999").
TEST_F(NsysMalformed, DamagedKernelRowsAreKeptAndSaid)
{
    const fs::path file = copySample();
    testsupport::writeDatabase(file,
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1000 WHERE rowid = 5;"
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 999999 WHERE rowid IN (6, 7);");
    const auto r = read(file);
    ASSERT_TRUE(r.ok) << m_text;
    EXPECT_TRUE(said(r, "1 device row ends before it starts (a damaged `end`)")) << m_text;
    EXPECT_TRUE(said(r, "2 kernels name a string id missing from `StringIds`")) << m_text;
    EXPECT_EQ(r.counts.kernels, 1312u);
    for (const model::Track &t : r.trace.tracks)
        for (std::uint32_t i = 0; i < t.size(); ++i)
            ASSERT_NE(r.trace.strings.view(t.name(i)), "999999");
    EXPECT_EQ(r.trace.checkInvariants(), "");
}

TEST_F(NsysMalformed, TruncatedFileIsReportedWithoutACrash)
{
    const fs::path file = copySample();
    fs::resize_file(file, fs::file_size(file) / 3);
    const auto r = read(file);
    EXPECT_TRUE(said(r, "damaged or truncated")) << m_text;
    EXPECT_EQ(r.trace.checkInvariants(), "");
    // Through the loader too: a diagnostic, never a crash.
    util::Progress progress;
    const auto s = import::loadPath(file, progress).session;
    ASSERT_NE(s, nullptr);
    EXPECT_GT(
        s->report.count(model::Severity::Error) + s->report.count(model::Severity::Warning), 0u);
}

TEST_F(NsysMalformed, NotSqliteIsReported)
{
    const fs::path file = m_tmp / "run.sqlite";
    writeText(file, "this is not a database\n");
    const auto r = read(file);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(said(r, "not an SQLite database")) << m_text;
}

TEST_F(NsysMalformed, NsysReportIsRefusedWithTheExportCommand)
{
    const fs::path file = m_tmp / "run.nsys-rep";
    writeText(file, "binary");
    util::Progress progress;
    const auto s = import::loadPath(file, progress).session;
    EXPECT_NE(s->report.toText().find("nsys export --type sqlite run.nsys-rep"), std::string::npos)
        << s->report.toText();
}

} // namespace
