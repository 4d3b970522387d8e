// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "tablescan.h"

#include <algorithm>

namespace stepscope::import::sqlite {

TableScan::TableScan(const Database &db, const ImportContext &ctx, std::string_view table,
    std::vector<ColumnSpec> columns, std::string_view tail, TablePresence presence)
    : m_db(db)
    , m_ctx(ctx)
    , m_table(table)
    , m_columns(std::move(columns))
    , m_present(m_columns.size(), false)
{
    if (!db.hasTable(table)) {
        if (presence == TablePresence::Required)
            ctx.warn(db.path(), "no table `" + m_table + "`: its data is missing from the view");
        return;
    }
    try {
        const std::vector<ColumnInfo> declared = db.columns(table);
        std::string sql = "SELECT ";
        std::vector<std::string> missing;
        for (std::size_t i = 0; i < m_columns.size(); ++i) {
            const std::string_view name = m_columns[i].name;
            m_present[i] = std::any_of(declared.begin(), declared.end(),
                [&](const ColumnInfo &c) { return c.name == name; });
            if (!m_present[i] && m_columns[i].required)
                missing.emplace_back(name);
            if (i > 0)
                sql += ", ";
            sql += m_present[i] ? quoteIdentifier(name) : std::string("NULL");
        }
        if (!missing.empty()) {
            std::string list;
            for (const std::string &m : missing)
                list += (list.empty() ? "`" : ", `") + m + "`";
            ctx.warn(db.path(),
                "table `" + m_table + "` lacks the column" + (missing.size() > 1 ? "s " : " ")
                    + list + "; the table was not read");
            return;
        }
        sql += " FROM " + quoteIdentifier(table);
        if (!tail.empty()) {
            sql += ' ';
            sql += tail;
        }
        m_stmt.emplace(db.prepare(sql));
    } catch (const Error &e) {
        ctx.error(db.path(), "table `" + m_table + "`: " + e.what() + "; the table was not read");
        m_stmt.reset();
    }
}

bool TableScan::next()
{
    if (!m_stmt || m_failed)
        return false;
    if ((m_row & 0xffff) == 0 && m_ctx.progress != nullptr)
        m_ctx.progress->checkCancel();
    try {
        if (!m_stmt->step())
            return false;
        ++m_row;
        return true;
    } catch (const Error &e) {
        m_failed = true;
        m_ctx.error(m_db.path(),
            "table `" + m_table + "`: " + e.what() + " after " + std::to_string(m_row)
                + " rows; the rows before it loaded",
            m_row + 1);
        return false;
    }
}

void TableScan::wrongType(std::size_t c, const char *what)
{
    const char *got = "NULL";
    switch (m_stmt->type(col(c))) {
    case ValueType::Null:
        got = "NULL";
        break;
    case ValueType::Integer:
        got = "an integer";
        break;
    case ValueType::Real:
        got = "a real number";
        break;
    case ValueType::Text:
        got = "text";
        break;
    case ValueType::Blob:
        got = "a blob";
        break;
    }
    m_ctx.warn(m_db.path(),
        "table `" + m_table + "`: `" + std::string(m_columns[c].name) + "` must be " + what
            + ", got " + got + "; row skipped (line = row number)",
        m_row);
}

std::optional<std::int64_t> TableScan::needInt(std::size_t c)
{
    std::optional<std::int64_t> v = m_stmt->int64(col(c));
    if (!v)
        wrongType(c, "an integer");
    return v;
}

std::optional<double> TableScan::needReal(std::size_t c)
{
    std::optional<double> v = m_stmt->real(col(c));
    if (!v)
        wrongType(c, "a number");
    return v;
}

std::optional<std::int64_t> TableScan::intOr(std::size_t c, std::int64_t fallback)
{
    if (m_stmt->isNull(col(c)))
        return fallback;
    return needInt(c);
}

} // namespace stepscope::import::sqlite
