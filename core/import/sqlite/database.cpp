// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "database.h"

#include "util/decimal.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sqlite3.h>
#include <utility>

namespace stepscope::import::sqlite {

namespace fs = std::filesystem;

namespace {

/// `file:` URI of an absolute path with the characters URIs reserve escaped (SQLite's URI
/// rules: '%', '?', '#' must be percent-encoded in the path).
std::string fileUri(const fs::path &path)
{
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    std::string p = (ec ? path : abs).generic_string();
    if (p.empty() || p.front() != '/')
        p.insert(p.begin(), '/'); // "C:/x" -> "/C:/x"
    std::string uri = "file:";
    for (char c : p) {
        if (c == '%' || c == '?' || c == '#') {
            static const char *hex = "0123456789ABCDEF";
            const auto u = static_cast<unsigned char>(c);
            uri += '%';
            uri += hex[u >> 4];
            uri += hex[u & 15];
        } else {
            uri += c;
        }
    }
    return uri + "?immutable=1";
}

/// A sentence for the user from an SQLite result code.
std::string describe(int code, sqlite3 *db)
{
    switch (code & 0xff) {
    case SQLITE_NOTADB:
        return "the SQLite header is damaged or the file is cut short (SQLite: file is not a "
               "database)";
    case SQLITE_CORRUPT:
        return "the database file is damaged or truncated (SQLite: "
            + std::string(db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code)) + ")";
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return "the database is locked by another process";
    case SQLITE_CANTOPEN:
        return "cannot open the file (missing or not readable)";
    case SQLITE_IOERR:
        return "a read error occurred (SQLite: "
            + std::string(db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code)) + ")";
    default:
        return std::string("SQLite: ")
            + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code));
    }
}

} // namespace

// ---- Statement -------------------------------------------------------------------------

Statement::Statement(sqlite3_stmt *stmt, sqlite3 *db)
    : m_stmt(stmt)
    , m_db(db)
{
}

Statement::Statement(Statement &&other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr))
    , m_db(other.m_db)
{
}

Statement &Statement::operator=(Statement &&other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_db = other.m_db;
    }
    return *this;
}

Statement::~Statement()
{
    sqlite3_finalize(m_stmt);
}

bool Statement::step()
{
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    throw Error(describe(sqlite3_extended_errcode(m_db), m_db));
}

void Statement::reset()
{
    sqlite3_reset(m_stmt);
}

void Statement::bind(int index, std::int64_t value)
{
    if (sqlite3_bind_int64(m_stmt, index, value) != SQLITE_OK)
        throw Error(describe(sqlite3_extended_errcode(m_db), m_db));
}

void Statement::bind(int index, std::string_view value)
{
    if (sqlite3_bind_text64(
            m_stmt, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8)
        != SQLITE_OK)
        throw Error(describe(sqlite3_extended_errcode(m_db), m_db));
}

int Statement::columnCount() const
{
    return sqlite3_column_count(m_stmt);
}

std::string Statement::columnName(int c) const
{
    const char *name = sqlite3_column_name(m_stmt, c);
    return name != nullptr ? std::string(name) : std::string();
}

int Statement::column(std::string_view name) const
{
    const int n = columnCount();
    for (int c = 0; c < n; ++c) {
        const char *s = sqlite3_column_name(m_stmt, c);
        if (s != nullptr && name == s)
            return c;
    }
    return -1;
}

ValueType Statement::type(int c) const
{
    switch (sqlite3_column_type(m_stmt, c)) {
    case SQLITE_INTEGER:
        return ValueType::Integer;
    case SQLITE_FLOAT:
        return ValueType::Real;
    case SQLITE_TEXT:
        return ValueType::Text;
    case SQLITE_BLOB:
        return ValueType::Blob;
    default:
        return ValueType::Null;
    }
}

std::optional<std::int64_t> Statement::int64(int c) const
{
    switch (sqlite3_column_type(m_stmt, c)) {
    case SQLITE_INTEGER:
        return static_cast<std::int64_t>(sqlite3_column_int64(m_stmt, c));
    case SQLITE_FLOAT: {
        const double v = sqlite3_column_double(m_stmt, c);
        // 2^63 is exactly representable; values in [-2^63, 2^63) convert without overflow.
        if (std::isfinite(v) && v == std::floor(v) && v >= -9223372036854775808.0
            && v < 9223372036854775808.0)
            return static_cast<std::int64_t>(v);
        return std::nullopt;
    }
    case SQLITE_TEXT:
        return util::parseInt(text(c));
    default:
        return std::nullopt;
    }
}

std::optional<double> Statement::real(int c) const
{
    switch (sqlite3_column_type(m_stmt, c)) {
    case SQLITE_INTEGER:
        return static_cast<double>(sqlite3_column_int64(m_stmt, c));
    case SQLITE_FLOAT:
        return sqlite3_column_double(m_stmt, c);
    case SQLITE_TEXT:
        return util::parseDouble(text(c));
    default:
        return std::nullopt;
    }
}

std::string_view Statement::text(int c) const
{
    const unsigned char *s = sqlite3_column_text(m_stmt, c);
    if (s == nullptr)
        return {};
    const int n = sqlite3_column_bytes(m_stmt, c);
    return std::string_view(reinterpret_cast<const char *>(s), static_cast<std::size_t>(n));
}

// ---- Database --------------------------------------------------------------------------

void Database::Closer::operator()(sqlite3 *db) const
{
    sqlite3_close_v2(db);
}

std::optional<Database> Database::open(const fs::path &path, std::string *error)
{
    auto fail = [&](std::string message) -> std::optional<Database> {
        if (error != nullptr)
            *error = std::move(message);
        return std::nullopt;
    };
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return fail("cannot open the file (missing or not a regular file)");
    if (fs::file_size(path, ec) > 0 && !ec && !hasSqliteHeader(path))
        return fail("not an SQLite database (the file has no SQLite header)");

    sqlite3 *raw = nullptr;
    const int rc = sqlite3_open_v2(fileUri(path).c_str(), &raw,
        SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    Database db;
    db.m_db.reset(raw); // closed even when the open failed (SQLite allocates a handle)
    db.m_path = path;
    if (rc != SQLITE_OK)
        return fail(describe(rc, raw));
    sqlite3_extended_result_codes(raw, 1);
    try {
        Statement s = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'");
        while (s.step())
            db.m_tables.emplace_back(s.text(0));
    } catch (const Error &e) {
        return fail(e.what());
    }
    std::sort(db.m_tables.begin(), db.m_tables.end());
    return db;
}

bool Database::hasSqliteHeader(const fs::path &path)
{
    static constexpr char Magic[] = "SQLite format 3"; // + the terminating NUL: 16 bytes
    std::ifstream in(path, std::ios::binary);
    char head[sizeof(Magic)] = {};
    if (!in.read(head, sizeof(head)))
        return false;
    return std::equal(head, head + sizeof(head), Magic);
}

Statement Database::prepare(std::string_view sql) const
{
    sqlite3_stmt *stmt = nullptr;
    const int rc =
        sqlite3_prepare_v2(m_db.get(), sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc != SQLITE_OK) {
        sqlite3_finalize(stmt);
        throw Error(describe(sqlite3_extended_errcode(m_db.get()), m_db.get()));
    }
    return Statement(stmt, m_db.get());
}

bool Database::hasTable(std::string_view name) const
{
    return std::binary_search(m_tables.begin(), m_tables.end(), name);
}

std::vector<ColumnInfo> Database::columns(std::string_view table) const
{
    std::vector<ColumnInfo> out;
    if (!hasTable(table))
        return out;
    Statement s = prepare("PRAGMA table_info(" + quoteIdentifier(table) + ")");
    const int cName = s.column("name");
    const int cType = s.column("type");
    while (s.step())
        out.push_back(ColumnInfo {std::string(s.text(cName)), std::string(s.text(cType))});
    return out;
}

std::string quoteIdentifier(std::string_view name)
{
    std::string out = "\"";
    for (char c : name) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + '"';
}

} // namespace stepscope::import::sqlite
