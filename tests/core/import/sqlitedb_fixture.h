// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Shared by the SQLite importer tests (sqlite_*, ascenddb_*, nsys_*): a temp folder, an
// ImportContext rooted in it, and a writer that builds small databases with plain SQL (the
// malformed variants are written by the tests, never checked in).

#include "import_fixture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sqlite3.h>
#include <string>

namespace stepscope::testsupport {

inline std::filesystem::path sqliteData(const std::string &rel)
{
    return std::filesystem::path(STEPSCOPE_TEST_DATA) / rel;
}

/// Runs `sql` (several statements) on a new or existing database file; fails the test on
/// an SQLite error.
inline void writeDatabase(const std::filesystem::path &file, const std::string &sql)
{
    sqlite3 *db = nullptr;
    ASSERT_EQ(sqlite3_open(file.string().c_str(), &db), SQLITE_OK);
    char *err = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    const std::string message = err != nullptr ? err : "";
    sqlite3_free(err);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << message;
}

class SqliteFixture : public ImportFixture
{
protected:
    void writeText(const std::filesystem::path &file, const std::string &text)
    {
        writeFile(file, text);
    }
    /// True when some diagnostic's file is `file` and its message contains `part`.
    bool hasDiagnostic(const std::string &file, const std::string &part) const
    {
        for (const auto &d : m_report.diagnostics())
            if (d.file == file && d.message.find(part) != std::string::npos)
                return true;
        return false;
    }
};

} // namespace stepscope::testsupport
