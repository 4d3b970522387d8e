// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stepscope::import {
struct ImportContext;
}

namespace stepscope::import::csv {

/// Streams a CSV file one record at a time, the way profilers really write them.
///
/// Handles: CRLF, LF and lone CR line ends mixed in one file; quoted fields with embedded
/// newlines, separators and doubled quotes (`"""32,3"""` -> `"32,3"`); a UTF-8 byte order mark;
/// blank lines (skipped); a last line without a line end. Columns are found by header name
/// (surrounding blanks trimmed, first occurrence wins), so column order does not matter and
/// unknown columns are simply never asked for.
///
/// Invariants: after next() returned true, field(i) views stay valid until the next call of
/// next(); line() is the 1-based physical line where the current record starts (the header
/// is normally line 1). A record with fewer fields than the header is reported (with its line)
/// and skipped; one with more is reported and delivered (extra fields ignored). An unterminated
/// quote at end of file is reported and the record delivered as read.
///
/// Diagnostics go to ctx->report (file relative to ctx->root) when a context is given;
/// progress is advanced by bytes read (and by the unread rest of the file on destruction) and
/// the cancel token is checked about every MiB (ctx->progress->checkCancel() may throw
/// util::Cancelled, the loader catches it).
/// Not thread-safe; one reader per file.
class CsvReader
{
public:
    explicit CsvReader(const std::filesystem::path &file, const ImportContext *ctx = nullptr,
        char delimiter = ',');
    CsvReader(const CsvReader &) = delete;
    CsvReader &operator=(const CsvReader &) = delete;
    ~CsvReader();

    /// False when the file could not be opened (a diagnostic was added).
    bool isOpen() const { return m_open; }

    /// Reads the first record as the header. False (with a diagnostic) when the file is empty
    /// or unreadable.
    bool readHeader();
    const std::vector<std::string> &header() const { return m_header; }
    /// Index of the column named `name` (exact, after trimming blanks), -1 when absent.
    int column(std::string_view name) const;
    /// The first of `names` that is present, -1 when none is.
    int columnAnyOf(std::initializer_list<std::string_view> names) const;

    /// Advances to the next record; false at end of file.
    bool next();
    std::size_t fieldCount() const { return m_fieldEnds.size(); }
    /// Field `col` with surrounding blanks (space, tab, CR, LF) removed; empty when col < 0 or
    /// the record has no such field.
    std::string_view field(int col) const;
    /// Field `col` exactly as unquoted from the file.
    std::string_view rawField(int col) const;
    /// 1-based physical line where the current record (or the header) starts.
    std::int64_t line() const { return m_recordLine; }

    /// Records delivered by next() so far, and records skipped because they were short.
    std::uint64_t recordCount() const { return m_records; }
    std::uint64_t skippedCount() const { return m_skipped; }
    std::uint64_t bytesRead() const { return m_bytesRead; }
    const std::filesystem::path &path() const { return m_path; }

private:
    bool parseRecord();
    int getChar();
    int peekChar();
    bool refill();
    void endField();
    void reportProgress(bool final);
    void warn(const std::string &message, std::int64_t line) const;

    std::filesystem::path m_path;
    const ImportContext *m_ctx = nullptr;
    char m_delimiter = ',';
    std::ifstream m_in;
    bool m_open = false;
    bool m_eof = false;
    std::vector<char> m_chunk;
    std::size_t m_pos = 0;
    std::size_t m_len = 0;
    std::uint64_t m_bytesRead = 0;
    std::uint64_t m_bytesReported = 0;
    std::uint64_t m_fileSize = 0;

    std::string m_buf; // unquoted text of the current record's fields
    std::vector<std::size_t> m_fieldEnds; // end offset of each field in m_buf
    std::int64_t m_line = 1; // physical line of the next character
    std::int64_t m_recordLine = 0;
    std::vector<std::string> m_header;
    std::unordered_map<std::string, int> m_columns;
    std::uint64_t m_records = 0;
    std::uint64_t m_skipped = 0;
};

} // namespace stepscope::import::csv
