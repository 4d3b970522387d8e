// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// core/import/sqlite: opening, typed reads, and the malformed cases (not SQLite, empty,
// truncated, locked, a missing table, a missing column, a value of the wrong type). Every
// bad database is written by the test itself.

#include "import/sqlite/database.h"
#include "import/sqlite/idstrings.h"
#include "import/sqlite/tablescan.h"
#include "sqlitedb_fixture.h"

#include <filesystem>
#include <fstream>
#include <sqlite3.h>

using namespace stepscope;
using import::sqlite::Database;
using import::sqlite::TablePresence;
using import::sqlite::TableScan;

namespace {

class SqliteDatabase : public testsupport::SqliteFixture
{
protected:
    std::filesystem::path bigDatabase(const std::string &name, int rows)
    {
        const auto file = m_tmp / name;
        std::string sql = "CREATE TABLE T (id INTEGER, payload TEXT); BEGIN;";
        for (int i = 0; i < rows; ++i)
            sql += "INSERT INTO T VALUES (" + std::to_string(i) + ", printf('%.200c', 'x'));";
        sql += "COMMIT;";
        testsupport::writeDatabase(file, sql);
        return file;
    }
};

TEST_F(SqliteDatabase, TypedReadsAcceptTextIntegersAndIntegralReals)
{
    const auto file = m_tmp / "types.db";
    testsupport::writeDatabase(file,
        "CREATE TABLE V (a TEXT, b REAL, c NUMERIC, d TEXT);"
        "INSERT INTO V VALUES ('1736414119968337190', 5.0, 7, ' 42 ');"
        "INSERT INTO V VALUES ('abc', 5.5, 2.25, NULL);");
    std::string error;
    auto db = Database::open(file, &error);
    ASSERT_TRUE(db) << error;
    EXPECT_TRUE(db->hasTable("V"));
    auto s = db->prepare("SELECT a, b, c, d FROM V");
    ASSERT_TRUE(s.step());
    EXPECT_EQ(s.int64(0), 1736414119968337190); // 19 digits, exact (not via double)
    EXPECT_EQ(s.int64(1), 5);
    EXPECT_EQ(s.int64(2), 7);
    EXPECT_EQ(s.int64(3), 42);
    EXPECT_DOUBLE_EQ(*s.real(2), 7.0);
    ASSERT_TRUE(s.step());
    EXPECT_FALSE(s.int64(0)); // text that is not a number: never a silent 0
    EXPECT_FALSE(s.int64(1)); // 5.5 is not an integer
    EXPECT_DOUBLE_EQ(*s.real(1), 5.5);
    EXPECT_DOUBLE_EQ(*s.real(2), 2.25);
    EXPECT_FALSE(s.real(0));
    EXPECT_TRUE(s.isNull(3));
    EXPECT_FALSE(s.int64(3));
    EXPECT_FALSE(s.step());
}

TEST_F(SqliteDatabase, NotSqliteIsRefusedWithASentence)
{
    const auto file = m_tmp / "trace.db";
    writeText(file, "{\"traceEvents\": []}\n");
    std::string error;
    EXPECT_FALSE(Database::open(file, &error));
    EXPECT_NE(error.find("not an SQLite database"), std::string::npos) << error;
    EXPECT_FALSE(Database::hasSqliteHeader(file));
    EXPECT_FALSE(Database::open(m_tmp / "missing.db", &error));
    EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
}

TEST_F(SqliteDatabase, DamagedHeaderIsRefused)
{
    const auto file = m_tmp / "half.db";
    // The magic, then garbage where the page size and the schema should be.
    writeText(file, std::string("SQLite format 3\0", 16) + std::string(4080, '\x7f'));
    std::string error;
    EXPECT_FALSE(Database::open(file, &error));
    EXPECT_FALSE(error.empty());
}

TEST_F(SqliteDatabase, EmptyFileHasNoTablesAndAMissingTableIsNamed)
{
    const auto file = m_tmp / "empty.db";
    writeText(file, "");
    std::string error;
    auto db = Database::open(file, &error);
    ASSERT_TRUE(db) << error;
    EXPECT_TRUE(db->tables().empty());
    TableScan scan(*db, m_ctx, "TASK", {{"startNs"}});
    EXPECT_FALSE(scan.ok());
    EXPECT_FALSE(scan.next());
    EXPECT_TRUE(hasDiagnostic("empty.db", "no table `TASK`")) << m_report.toText();
    // An optional table that is absent is "not collected": no diagnostic.
    m_report = {};
    TableScan optional(*db, m_ctx, "NVTX_EVENTS", {{"start"}}, {}, TablePresence::Optional);
    EXPECT_FALSE(optional.ok());
    EXPECT_TRUE(m_report.empty());
}

TEST_F(SqliteDatabase, TruncatedFileIsRefusedWithASentence)
{
    const auto file = bigDatabase("truncated.db", 4000);
    std::filesystem::resize_file(file, std::filesystem::file_size(file) / 2);
    std::string error;
    EXPECT_FALSE(Database::open(file, &error));
    EXPECT_NE(error.find("damaged or truncated"), std::string::npos) << error;
}

TEST_F(SqliteDatabase, DamagedPageGivesOneErrorAndKeepsTheRowsBefore)
{
    const auto file = bigDatabase("damaged.db", 4000);
    {
        // Overwrite one page in the middle of the table with garbage, size unchanged.
        std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(4096 * 100);
        const std::string garbage(4096, '\xff');
        f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    std::string error;
    auto db = Database::open(file, &error);
    ASSERT_TRUE(db) << error; // page 1 (the schema) is intact
    TableScan scan(*db, m_ctx, "T", {{"id"}, {"payload"}});
    ASSERT_TRUE(scan.ok());
    std::int64_t rows = 0;
    while (scan.next())
        ++rows;
    EXPECT_TRUE(scan.failed());
    EXPECT_GT(rows, 0);
    EXPECT_LT(rows, 4000);
    EXPECT_TRUE(hasDiagnostic("damaged.db", "table `T`")) << m_report.toText();
    EXPECT_TRUE(hasDiagnostic("damaged.db", "damaged or truncated")) << m_report.toText();
    EXPECT_EQ(m_report.count(model::Severity::Error), 1u);
}

TEST_F(SqliteDatabase, LockedDatabaseStillReads)
{
    const auto file = bigDatabase("locked.db", 10);
    // Another process holds an exclusive lock with a write in progress.
    sqlite3 *writer = nullptr;
    ASSERT_EQ(sqlite3_open(file.string().c_str(), &writer), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(writer, "BEGIN EXCLUSIVE; INSERT INTO T VALUES (99, 'x');", nullptr,
                  nullptr, nullptr),
        SQLITE_OK);
    std::string error;
    auto db = Database::open(file, &error);
    ASSERT_TRUE(db) << error; // immutable: no lock is taken
    TableScan scan(*db, m_ctx, "T", {{"id"}});
    std::int64_t rows = 0;
    while (scan.next())
        ++rows;
    EXPECT_EQ(rows, 10); // the committed rows, not the pending one
    EXPECT_TRUE(m_report.empty()) << m_report.toText();
    sqlite3_exec(writer, "ROLLBACK;", nullptr, nullptr, nullptr);
    sqlite3_close(writer);
}

TEST_F(SqliteDatabase, MissingColumnAndWrongTypeAreDiagnosed)
{
    const auto file = m_tmp / "cols.db";
    testsupport::writeDatabase(file,
        "CREATE TABLE TASK (startNs INTEGER, endNs TEXT);"
        "INSERT INTO TASK VALUES (10, '20'), ('x', 30), (40, 'y'), (50, 60);");
    std::string error;
    auto db = Database::open(file, &error);
    ASSERT_TRUE(db) << error;
    {
        TableScan scan(*db, m_ctx, "TASK", {{"startNs"}, {"streamId"}});
        EXPECT_FALSE(scan.ok());
        EXPECT_TRUE(hasDiagnostic("cols.db", "table `TASK` lacks the column `streamId`"))
            << m_report.toText();
    }
    m_report = {};
    TableScan scan(*db, m_ctx, "TASK", {{"startNs"}, {"endNs"}, {"streamId", false}});
    ASSERT_TRUE(scan.ok());
    EXPECT_FALSE(scan.has(2));
    std::int64_t sum = 0;
    while (scan.next()) {
        EXPECT_TRUE(scan.isNull(2));
        const auto s = scan.needInt(0);
        const auto e = scan.needInt(1);
        if (s && e)
            sum += *e - *s;
    }
    EXPECT_EQ(sum, 10 + 10); // rows 1 and 4
    ASSERT_EQ(m_report.diagnostics().size(), 2u) << m_report.toText();
    EXPECT_EQ(m_report.diagnostics()[0].line, 2); // the first bad row
    EXPECT_NE(m_report.diagnostics()[0].message.find("`startNs` must be an integer, got text"),
        std::string::npos);
    EXPECT_EQ(m_report.diagnostics()[1].line, 3);
}

TEST_F(SqliteDatabase, PathWithUriCharactersOpens)
{
    const auto dir = m_tmp / "run #1 ?50%";
    std::filesystem::create_directories(dir);
    const auto file = dir / "a.db";
    testsupport::writeDatabase(file, "CREATE TABLE X (a INTEGER);");
    std::string error;
    auto db = Database::open(file, &error);
    ASSERT_TRUE(db) << error;
    EXPECT_TRUE(db->hasTable("X"));
    EXPECT_FALSE(std::filesystem::exists(dir / "a.db-journal"));
}

TEST_F(SqliteDatabase, IdStringsInternByText)
{
    const auto file = m_tmp / "strings.db";
    testsupport::writeDatabase(file,
        "CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);"
        "INSERT INTO STRING_IDS VALUES (386, 'GE'), (536870912, 'GE'), (7, 'MatMul');");
    std::string error;
    auto db = Database::open(file, &error);
    ASSERT_TRUE(db) << error;
    import::sqlite::IdStrings strings;
    EXPECT_EQ(strings.load(*db, m_ctx, "STRING_IDS"), 3u);
    model::TraceBuilder b;
    EXPECT_EQ(strings.intern(386, b), strings.intern(536870912, b));
    EXPECT_EQ(b.trace().strings.view(strings.intern(7, b)), "MatMul");
    EXPECT_EQ(b.trace().strings.view(strings.intern(12345, b)), "12345");
    EXPECT_EQ(strings.text(99, "none"), "none");
}

} // namespace
