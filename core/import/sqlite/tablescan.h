// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Row-by-row reading of one table with the diagnostics every SQLite importer needs.
//
// `SELECT <columns> FROM <table> <tail>`: the columns are looked up by name with
// `PRAGMA table_info` first (columns come and go between schema versions), so result column
// i is always the i-th requested column; an optional column the table lacks reads as NULL.
//
// Diagnostics name the file and the table:
// - table missing: a warning when the table is Required, nothing when Optional (exports
//   create tables lazily: absent means "not collected");
// - a required column missing: a warning, the table is not read;
// - an SQLite error while stepping (truncated or damaged file): one error, the scan ends
//   and the rows read so far stay;
// - a value of the wrong type (text where an integer is needed): get*() warns once per
//   column and row kind (counted, position = the row number) and the caller skips the row.

#include "database.h"
#include "import/importcontext.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::import::sqlite {

struct ColumnSpec
{
    std::string_view name;
    bool required = true;
};

enum class TablePresence : std::uint8_t { Required, Optional };

class TableScan
{
public:
    TableScan(const Database &db, const ImportContext &ctx, std::string_view table,
        std::vector<ColumnSpec> columns, std::string_view tail = {},
        TablePresence presence = TablePresence::Required);

    /// The table and its required columns exist and the statement prepared.
    bool ok() const { return m_stmt.has_value(); }
    /// Next row; false at the end, when !ok(), or after an SQLite error (diagnosed).
    bool next();
    /// True when the scan stopped early on an SQLite error.
    bool failed() const { return m_failed; }
    /// 1-based number of the current row in scan order.
    std::int64_t row() const { return m_row; }
    /// Whether the table has requested column c (optional columns may be absent).
    bool has(std::size_t c) const { return m_present[c]; }

    bool isNull(std::size_t c) const { return m_stmt->isNull(col(c)); }
    /// Typed reads without diagnostics (nullopt for NULL or the wrong type).
    std::optional<std::int64_t> int64(std::size_t c) const { return m_stmt->int64(col(c)); }
    std::optional<double> real(std::size_t c) const { return m_stmt->real(col(c)); }
    std::string_view text(std::size_t c) const { return m_stmt->text(col(c)); }
    /// Typed reads of values the row cannot do without: NULL or the wrong type warns
    /// "<table>: `<column>` must be an integer ..." and returns nullopt.
    std::optional<std::int64_t> needInt(std::size_t c);
    std::optional<double> needReal(std::size_t c);
    /// NULL reads as `fallback`; a non-NULL value of the wrong type warns (as needInt).
    std::optional<std::int64_t> intOr(std::size_t c, std::int64_t fallback);

    const std::string &table() const { return m_table; }

private:
    int col(std::size_t c) const { return static_cast<int>(c); }
    void wrongType(std::size_t c, const char *what);

    const Database &m_db;
    const ImportContext &m_ctx;
    std::string m_table;
    std::vector<ColumnSpec> m_columns;
    std::vector<bool> m_present;
    std::optional<Statement> m_stmt;
    std::int64_t m_row = 0;
    bool m_failed = false;
};

} // namespace stepscope::import::sqlite
