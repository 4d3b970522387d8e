// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// A small RAII layer over the SQLite C API for the importers of SQLite exports (Ascend DB,
// Nsight Systems). No ORM: SQL text in, typed column reads out.
//
// Files are opened read-only and immutable (`file:<path>?immutable=1`): SQLite takes no
// locks and never looks at a journal or WAL, so a file another process holds locked still
// reads, and nothing is ever written beside the profile. Reads are streamed: a Statement
// steps row by row; nothing copies a whole table or database into memory.
//
// Typed reads accept what these files really contain: integers stored as TEXT
// (Ascend PYTORCH_API.startNs), REAL columns holding integers, NUMERIC columns holding
// either. A value that is none of these reads as nullopt, never as a silent 0.
//
// Thread affinity: a Database and its Statements are used from one thread at a time.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace stepscope::import::sqlite {

/// An SQLite error (damaged file, bad SQL). Thrown by prepare() and step(); importers catch
/// it at a table boundary and turn it into a diagnostic naming the file and the table.
class Error : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// The storage class of one value of the current row.
enum class ValueType : std::uint8_t { Null, Integer, Real, Text, Blob };

/// A prepared statement. Move-only; finalised on destruction.
class Statement
{
public:
    Statement(Statement &&other) noexcept;
    Statement &operator=(Statement &&other) noexcept;
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;
    ~Statement();

    /// Advances to the next row; false when there is none. Throws Error (e.g. a truncated or
    /// damaged file found while reading).
    bool step();
    /// Back to before the first row (bindings are kept).
    void reset();
    void bind(int index, std::int64_t value); ///< 1-based, as in SQLite
    void bind(int index, std::string_view value);

    int columnCount() const;
    std::string columnName(int c) const;
    /// Index of the result column named `name` (exact), or -1.
    int column(std::string_view name) const;

    ValueType type(int c) const;
    bool isNull(int c) const { return type(c) == ValueType::Null; }
    /// INTEGER; TEXT holding a whole decimal integer (blanks around it allowed); REAL
    /// holding an integral value in range. Otherwise (NULL included) nullopt.
    std::optional<std::int64_t> int64(int c) const;
    /// INTEGER, REAL, or TEXT holding a decimal number. Otherwise nullopt.
    std::optional<double> real(int c) const;
    /// The value as text (SQLite's conversion for numbers); empty for NULL. Valid until the
    /// next step().
    std::string_view text(int c) const;

private:
    friend class Database;
    Statement(sqlite3_stmt *stmt, sqlite3 *db);
    sqlite3_stmt *m_stmt = nullptr;
    sqlite3 *m_db = nullptr;
};

/// One column as `PRAGMA table_info` declares it.
struct ColumnInfo
{
    std::string name;
    std::string declaredType; ///< as written in CREATE TABLE ("INTEGER", "TEXT", "" ...)
};

/// An open database. Move-only; closed on destruction.
class Database
{
public:
    /// Opens `path` read-only and immutable and reads its table list, which is where a file
    /// that is not SQLite or is damaged shows. Returns nullopt with *error set to a sentence
    /// for the user ("not an SQLite database", "the database file is damaged ...").
    static std::optional<Database> open(const std::filesystem::path &path, std::string *error);
    /// True when the file starts with the SQLite header `SQLite format 3\0` (detection).
    static bool hasSqliteHeader(const std::filesystem::path &path);

    Database(Database &&) noexcept = default;
    Database &operator=(Database &&) noexcept = default;

    const std::filesystem::path &path() const { return m_path; }
    /// Throws Error.
    Statement prepare(std::string_view sql) const;
    /// Tables (not views or indexes) in the file, sorted.
    const std::vector<std::string> &tables() const { return m_tables; }
    bool hasTable(std::string_view name) const;
    /// Columns of `table` in declaration order; empty when the table does not exist. Throws
    /// Error.
    std::vector<ColumnInfo> columns(std::string_view table) const;

private:
    struct Closer
    {
        void operator()(sqlite3 *db) const;
    };
    Database() = default;

    std::unique_ptr<sqlite3, Closer> m_db;
    std::filesystem::path m_path;
    std::vector<std::string> m_tables;
};

/// `name` quoted as an SQL identifier ("a""b").
std::string quoteIdentifier(std::string_view name);

} // namespace stepscope::import::sqlite
