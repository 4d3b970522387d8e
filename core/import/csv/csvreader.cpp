// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "csvreader.h"

#include "import/importcontext.h"
#include "util/decimal.h"
#include "util/regularfile.h"

namespace stepscope::import::csv {

namespace {
constexpr std::size_t ChunkSize = 64 * 1024;
constexpr std::uint64_t ProgressStep = 1024 * 1024;
constexpr int EndOfFile = -1;
} // namespace

CsvReader::CsvReader(const std::filesystem::path &file, const ImportContext *ctx, char delimiter)
    : m_path(file)
    , m_ctx(ctx)
    , m_delimiter(delimiter)
{
    std::string why;
    m_open = util::openRegular(m_in, file, &why);
    if (!m_open && m_ctx && m_ctx->report)
        m_ctx->error(m_path, "cannot open the file for reading: " + why);
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    m_fileSize = ec ? 0 : static_cast<std::uint64_t>(size);
    m_chunk.resize(ChunkSize);
}

CsvReader::~CsvReader()
{
    // A read that stopped early (bad header, caller gave up) still counts the whole file, so
    // the folder's progress reaches its total. Never throws: no cancel check here.
    if (m_ctx && m_ctx->progress && m_fileSize > m_bytesReported)
        m_ctx->progress->advance(m_fileSize - m_bytesReported);
}

void CsvReader::warn(const std::string &message, std::int64_t line) const
{
    if (m_ctx && m_ctx->report)
        m_ctx->warn(m_path, message, line);
}

void CsvReader::reportProgress(bool final)
{
    if (!m_ctx || !m_ctx->progress)
        return;
    if (final || m_bytesRead - m_bytesReported >= ProgressStep) {
        m_ctx->progress->advance(m_bytesRead - m_bytesReported);
        m_bytesReported = m_bytesRead;
        m_ctx->progress->checkCancel();
    }
}

bool CsvReader::refill()
{
    if (m_eof || !m_open)
        return false;
    m_in.read(m_chunk.data(), static_cast<std::streamsize>(m_chunk.size()));
    const std::streamsize got = m_in.gcount();
    m_pos = 0;
    m_len = got > 0 ? static_cast<std::size_t>(got) : 0;
    m_bytesRead += m_len;
    if (m_len == 0) {
        m_eof = true;
        reportProgress(true);
        return false;
    }
    reportProgress(false);
    return true;
}

int CsvReader::getChar()
{
    if (m_pos >= m_len && !refill())
        return EndOfFile;
    return static_cast<unsigned char>(m_chunk[m_pos++]);
}

int CsvReader::peekChar()
{
    if (m_pos >= m_len && !refill())
        return EndOfFile;
    return static_cast<unsigned char>(m_chunk[m_pos]);
}

void CsvReader::endField()
{
    m_fieldEnds.push_back(m_buf.size());
}

/* One record, character by character (RFC 4180 plus what real files do):
 * a quote opens a quoted field only at the start of a field; inside it, "" is one quote and
 * any line end is kept as '\n'; outside quotes CR, LF or CRLF end the record. Blank lines are
 * skipped. Returns false at end of file when no character of a new record was read. */
bool CsvReader::parseRecord()
{
    for (;;) {
        m_buf.clear();
        m_fieldEnds.clear();
        m_recordLine = m_line;
        bool inQuotes = false;
        bool fieldStarted = false; // a character (or quote) of the current field was read
        bool anyChar = false;
        std::size_t fieldBegin = 0;
        for (;;) {
            const int c = getChar();
            if (c == EndOfFile) {
                if (!anyChar)
                    return false;
                if (inQuotes)
                    warn("unterminated quoted field at end of file", m_recordLine);
                endField();
                return true;
            }
            anyChar = true;
            if (inQuotes) {
                if (c == '"') {
                    if (peekChar() == '"') {
                        getChar();
                        m_buf.push_back('"');
                    } else {
                        inQuotes = false;
                    }
                } else if (c == '\r' || c == '\n') {
                    if (c == '\r' && peekChar() == '\n')
                        getChar();
                    ++m_line;
                    m_buf.push_back('\n');
                } else {
                    m_buf.push_back(static_cast<char>(c));
                }
                continue;
            }
            if (c == m_delimiter) {
                endField();
                fieldBegin = m_buf.size();
                fieldStarted = false;
            } else if (c == '\r' || c == '\n') {
                if (c == '\r' && peekChar() == '\n')
                    getChar();
                ++m_line;
                if (m_fieldEnds.empty() && !fieldStarted)
                    break; // blank (or all-blank) line: start over on the next line
                endField();
                return true;
            } else if (c == '"' && !fieldStarted) {
                inQuotes = true;
                fieldStarted = true;
                m_buf.resize(fieldBegin); // drop blanks before the opening quote
            } else {
                m_buf.push_back(static_cast<char>(c));
                if (c != ' ' && c != '\t')
                    fieldStarted = true;
            }
        }
    }
}

bool CsvReader::readHeader()
{
    if (!m_open)
        return false;
    if (!parseRecord()) {
        if (m_ctx && m_ctx->report)
            m_ctx->error(m_path, "the file is empty: no header line");
        return false;
    }
    m_header.clear();
    m_columns.clear();
    for (std::size_t i = 0; i < m_fieldEnds.size(); ++i) {
        std::string name(rawField(static_cast<int>(i)));
        if (i == 0 && name.rfind("\xEF\xBB\xBF", 0) == 0)
            name.erase(0, 3);
        name = std::string(util::trimBlanks(name));
        m_columns.emplace(name, static_cast<int>(i));
        m_header.push_back(std::move(name));
    }
    return true;
}

int CsvReader::column(std::string_view name) const
{
    const auto it = m_columns.find(std::string(name));
    return it == m_columns.end() ? -1 : it->second;
}

int CsvReader::columnAnyOf(std::initializer_list<std::string_view> names) const
{
    for (std::string_view n : names) {
        const int c = column(n);
        if (c >= 0)
            return c;
    }
    return -1;
}

bool CsvReader::next()
{
    while (parseRecord()) {
        const std::size_t want = m_header.size();
        if (want > 0 && m_fieldEnds.size() < want) {
            ++m_skipped;
            warn("record has fewer fields than the header (" + std::to_string(want)
                    + "); record skipped",
                m_recordLine);
            continue;
        }
        if (want > 0 && m_fieldEnds.size() > want)
            warn("record has more fields than the header (" + std::to_string(want)
                    + "); extra fields ignored",
                m_recordLine);
        ++m_records;
        return true;
    }
    m_fieldEnds.clear();
    m_buf.clear();
    return false;
}

std::string_view CsvReader::rawField(int col) const
{
    if (col < 0 || static_cast<std::size_t>(col) >= m_fieldEnds.size())
        return {};
    const std::size_t i = static_cast<std::size_t>(col);
    const std::size_t begin = i == 0 ? 0 : m_fieldEnds[i - 1];
    return std::string_view(m_buf).substr(begin, m_fieldEnds[i] - begin);
}

std::string_view CsvReader::field(int col) const
{
    return util::trimBlanks(rawField(col));
}

} // namespace stepscope::import::csv
