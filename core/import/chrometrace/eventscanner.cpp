// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "eventscanner.h"

#include "rangescan.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace stepscope::import::chrometrace {

namespace {
constexpr std::size_t ReadBlock = 1 << 20;
constexpr std::size_t MaxKeyValueBytes = 64u << 20; // top-level values we keep (metadata)
// Filler (blanks, commas, skipped elements) a chunk may carry between two events. Past this
// the chunk is handed over and the filler skipped without being copied, so no amount of it
// grows memory (a gzip of 4 GiB of blanks between two events once cost 4 GB).
constexpr std::uint64_t MaxGapBytes = 64u << 10;
constexpr std::uint64_t MaxElementReports = RangeScan::MaxElementReports; // per file

bool isBlank(int c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/// scanEventBytes a byte at a time (strings jumped with memchr).
const char *scanBytes(const char *p, const char *e, EventBraces &state)
{
    while (p < e) {
        if (state.inString) {
            if (state.escape) {
                state.escape = false;
                ++p;
                continue;
            }
            const auto *quote =
                static_cast<const char *>(std::memchr(p, '"', static_cast<std::size_t>(e - p)));
            const char *limit = quote ? quote : e;
            const auto *backslash = static_cast<const char *>(
                std::memchr(p, '\\', static_cast<std::size_t>(limit - p)));
            if (backslash) {
                p = backslash + 1;
                state.escape = true;
                continue;
            }
            if (!quote)
                return e;
            p = quote + 1;
            state.inString = false;
            continue;
        }
        const char c = *p++;
        if (c == '"') {
            state.inString = true;
        } else if (c == '{' || c == '[') {
            ++state.depth;
        } else if ((c == '}' || c == ']') && --state.depth == 0) {
            return p;
        }
    }
    return p;
}

#if defined(__SSE2__)
constexpr std::ptrdiff_t BlockBytes = 64;

/// Bit i set where block[i] == c.
std::uint64_t bytesEqual(const __m128i (&block)[4], char c)
{
    const __m128i wanted = _mm_set1_epi8(c);
    std::uint64_t bits = 0;
    for (int i = 0; i < 4; ++i) {
        const auto lanes =
            static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(block[i], wanted)));
        bits |= std::uint64_t {lanes} << (16 * i);
    }
    return bits;
}

/// Bit i = XOR of bits 0..i: set from a string's opening quote up to (not with) its closing one.
std::uint64_t prefixXor(std::uint64_t bits)
{
    for (int shift = 1; shift < 64; shift *= 2)
        bits ^= bits << shift;
    return bits;
}
#endif

} // namespace

const char *scanEventBytes(const char *p, const char *e, EventBraces &state)
{
#if defined(__SSE2__)
    if (state.depth <= 0) // not inside an event: only the byte loop's rules apply
        return scanBytes(p, e, state);
    // 64 bytes at a time, as simdjson's stage 1 does: masks of quotes and brackets, the bytes
    // inside strings from the quotes' running XOR, then only the brackets outside strings are
    // visited. A block with a backslash (escapes are rare in traces) goes byte by byte.
    while (e - p >= BlockBytes) {
        __m128i block[4];
        for (int i = 0; i < 4; ++i)
            block[i] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16 * i));
        if (state.escape || bytesEqual(block, '\\') != 0) {
            const char *const blockEnd = p + BlockBytes;
            const char *const r = scanBytes(p, blockEnd, state);
            if (state.depth == 0) // it stopped at the event's closing bracket
                return r;
            p = blockEnd;
            continue;
        }
        const std::uint64_t quotes = bytesEqual(block, '"');
        std::uint64_t inString = prefixXor(quotes);
        if (state.inString)
            inString = ~inString;
        __m128i lowered[4];
        for (int i = 0; i < 4; ++i) // '[' | 0x20 == '{', ']' | 0x20 == '}'
            lowered[i] = _mm_or_si128(block[i], _mm_set1_epi8(0x20));
        const std::uint64_t opens = bytesEqual(lowered, '{') & ~inString;
        const std::uint64_t closes = bytesEqual(lowered, '}') & ~inString;
        for (std::uint64_t brackets = opens | closes; brackets != 0; brackets &= brackets - 1) {
            const std::uint64_t bit = brackets & (~brackets + 1);
            if ((opens & bit) != 0) {
                ++state.depth;
            } else if (--state.depth == 0) {
                state.inString = false;
                return p + __builtin_ctzll(bit) + 1;
            }
        }
        state.inString = (inString >> 63) != 0;
        p += BlockBytes;
    }
#endif
    return scanBytes(p, e, state);
}

EventScanner::EventScanner(ByteSource &source, std::size_t chunkBytes)
    : m_source(source)
    , m_chunkBytes(chunkBytes)
    , m_buf(new char[ReadBlock])
{
}

void EventScanner::problem(model::Severity severity, std::int64_t offset, std::string message)
{
    m_problems.push_back({severity, offset, std::move(message)});
}

bool EventScanner::fill()
{
    if (m_eof)
        return false;
    if (m_capturing) {
        m_chunk->text.append(m_buf.get() + m_capStart, m_len - m_capStart);
        m_capStart = 0;
    }
    m_base += m_len;
    m_pos = 0;
    m_len = m_source.read(m_buf.get(), ReadBlock);
    if (m_len == 0)
        m_eof = true;
    return m_len > 0;
}

int EventScanner::peek()
{
    if (m_pos == m_len && !fill())
        return -1;
    return static_cast<unsigned char>(m_buf[m_pos]);
}

int EventScanner::get()
{
    const int c = peek();
    if (c >= 0)
        ++m_pos;
    return c;
}

void EventScanner::skipBlanks()
{
    while (isBlank(peek()))
        ++m_pos;
}

bool EventScanner::readKey(std::string &key)
{
    get(); // opening quote
    key.clear();
    for (;;) {
        const int c = get();
        if (c < 0)
            return false;
        if (c == '"')
            break;
        key.push_back(static_cast<char>(c));
        if (c == '\\') {
            const int n = get();
            if (n < 0)
                return false;
            key.push_back(static_cast<char>(n));
        }
    }
    // Escapes are rare in keys: "displayTim\u0065Unit" is displayTimeUnit.
    if (key.find('\\') != std::string::npos) {
        const nlohmann::json name = nlohmann::json::parse('"' + key + '"', nullptr, false);
        if (name.is_string())
            key = name.get<std::string>();
    }
    return true;
}

void EventScanner::readValue(std::string &value)
{
    value.clear();
    int depth = 0;
    bool inString = false;
    for (;;) {
        const int c = peek();
        if (c < 0)
            return;
        if (inString) {
            ++m_pos;
            if (value.size() < MaxKeyValueBytes)
                value.push_back(static_cast<char>(c));
            if (c == '\\') {
                const int n = get();
                if (n >= 0 && value.size() < MaxKeyValueBytes)
                    value.push_back(static_cast<char>(n));
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        if (depth == 0 && (c == ',' || c == '}'))
            return;
        ++m_pos;
        if (c == '"')
            inString = true;
        else if (c == '{' || c == '[')
            ++depth;
        else if (c == '}' || c == ']')
            --depth;
        if (value.size() < MaxKeyValueBytes)
            value.push_back(static_cast<char>(c));
    }
}

void EventScanner::topLevel()
{
    if (m_state == State::Start) {
        skipBlanks();
        if (peek() == 0xEF) { // UTF-8 byte order mark
            get();
            get();
            get();
            skipBlanks();
        }
        const std::int64_t at = static_cast<std::int64_t>(offset());
        const int c = get();
        if (c < 0) {
            problem(model::Severity::Error, -1,
                at == 0 ? "the file is empty" : "the file holds only blanks");
            m_state = State::Done;
        } else if (c == '[') {
            m_sawEventArray = true;
            m_state = State::Events;
        } else if (c == '{') {
            m_objectForm = true;
            m_state = State::ObjectKeys;
        } else {
            problem(model::Severity::Error, at,
                "not a Chrome trace: the file does not start with '[' or '{'");
            m_state = State::Done;
        }
        return;
    }
    std::string key;
    std::string value;
    while (m_state == State::ObjectKeys) {
        skipBlanks();
        const std::int64_t at = static_cast<std::int64_t>(offset());
        const int c = peek();
        if (c < 0) {
            if (m_sawEventArray)
                problem(model::Severity::Warning, at,
                    "the top-level object is not closed (file truncated?)");
            m_state = State::Done;
        } else if (c == ',') {
            get();
        } else if (c == '}') {
            get();
            m_state = State::Done;
        } else if (c == '"') {
            if (!readKey(key)) {
                m_state = State::Done;
                break;
            }
            skipBlanks();
            if (get() != ':') {
                problem(model::Severity::Error, static_cast<std::int64_t>(offset()),
                    "malformed top-level object: ':' expected after \"" + key + "\"");
                m_state = State::Done;
                break;
            }
            skipBlanks();
            if (key == "traceEvents" && peek() == '[') {
                get();
                m_sawEventArray = true;
                m_state = State::Events;
                return;
            }
            readValue(value);
            m_keys.emplace_back(key, value);
        } else {
            problem(model::Severity::Error, at,
                "malformed top-level object: unexpected character '"
                    + std::string(1, static_cast<char>(c)) + "'");
            m_state = State::Done;
        }
    }
}

const char *EventScanner::skipElement()
{
    const int first = peek();
    if (first == '"' || first == '[') {
        // A string, or an array (which may hold strings and objects): balanced skip.
        int depth = 0;
        bool inString = false;
        for (int c = get(); c >= 0; c = get()) {
            if (inString) {
                if (c == '\\')
                    get();
                else if (c == '"')
                    inString = false;
                else
                    continue;
                if (!inString && depth == 0)
                    break;
                continue;
            }
            if (c == '"')
                inString = true;
            else if (c == '[' || c == '{')
                ++depth;
            else if ((c == ']' || c == '}') && --depth <= 0)
                break;
        }
        return first == '"' ? "a string" : "an array";
    }
    // A number, literal or stray character: up to the next separator or event.
    get();
    for (int c = peek(); c >= 0 && !isBlank(c) && c != ',' && c != ']' && c != '{'; c = peek())
        ++m_pos;
    if ((first >= '0' && first <= '9') || first == '-')
        return "a number";
    if (first == 't' || first == 'f' || first == 'n')
        return "a literal";
    return "a stray character";
}

bool EventScanner::enterEventArray()
{
    while (m_state == State::Start || m_state == State::ObjectKeys)
        topLevel();
    return m_state == State::Events;
}

void EventScanner::absorb(const RangeScan &scan)
{
    for (std::uint64_t i = 0; i < scan.junkElements && i < scan.elementProblems.size(); ++i) {
        if (m_junkElements + i + 1 > MaxElementReports)
            break;
        m_problems.push_back(scan.elementProblems[i]);
    }
    m_junkElements += scan.junkElements;
    m_junkBytes += scan.junkBytes;
    for (const Problem &p : scan.problems)
        m_problems.push_back(p);
    if (scan.fileEnded)
        m_truncated = true;
}

bool EventScanner::resumeAfterEventArray(std::uint64_t arrayEnd)
{
    if (!m_source.seek(arrayEnd + 1))
        return false;
    m_base = arrayEnd + 1;
    m_pos = 0;
    m_len = 0;
    m_eof = false;
    m_state = m_objectForm ? State::ObjectKeys : State::Done;
    return true;
}

void EventScanner::endInsideEventArray()
{
    m_state = State::Done;
}

bool EventScanner::next(Chunk &chunk)
{
    chunk.text.clear();
    chunk.text.push_back('[');
    chunk.events.clear();
    chunk.dirty = false;
    chunk.index = m_chunkIndex;
    chunk.fileOffset = offset();
    m_chunk = &chunk;
    std::size_t lastEnd = 1; // end of the last whole event within chunk.text
    bool full = false;

    auto stopCapture = [&] {
        if (m_capturing) {
            chunk.text.append(m_buf.get() + m_capStart, m_pos - m_capStart);
            m_capturing = false;
        }
        chunk.text.resize(lastEnd);
    };

    while (!full && m_state != State::Done) {
        if (m_state != State::Events) {
            topLevel();
            continue;
        }
        // Between events.
        if (m_pos == m_len && !fill()) {
            m_truncated = true;
            problem(model::Severity::Warning, static_cast<std::int64_t>(offset()),
                "the event array is never closed: the file ends after " + std::to_string(offset())
                    + " bytes (truncated?); every complete event before that was kept");
            stopCapture();
            m_state = State::Done;
            break;
        }
        const char ch = m_buf[m_pos];
        if (isBlank(ch) || ch == ',') {
            std::size_t p = m_pos + 1;
            while (p < m_len && (isBlank(m_buf[p]) || m_buf[p] == ','))
                ++p;
            m_gapBytes += p - m_pos;
            m_pos = p;
            if (m_capturing && m_gapBytes > MaxGapBytes) {
                stopCapture();
                full = true;
            }
            continue;
        }
        if (ch == ']') {
            stopCapture();
            ++m_pos;
            m_state = m_objectForm ? State::ObjectKeys : State::Done;
            full = !chunk.events.empty(); // hand these over before reading further keys
            continue;
        }
        if (ch != '{') {
            // An element that is not an event object (`1`, `"x"`, `null`, `[...]`): skip just
            // that element and keep reading the events after it.
            const std::uint64_t at = offset();
            const char *what = skipElement();
            const std::uint64_t skipped = offset() - at;
            m_junkBytes += skipped;
            m_gapBytes += skipped;
            ++m_junkElements;
            if (m_junkElements <= MaxElementReports)
                problem(model::Severity::Warning, static_cast<std::int64_t>(at),
                    std::string("an array element that is not an event object (") + what + ", "
                        + std::to_string(skipped) + " bytes) skipped; reading on");
            if (m_capturing) {
                chunk.dirty = true;
                if (m_gapBytes > MaxGapBytes) {
                    stopCapture();
                    full = true;
                }
            }
            continue;
        }
        m_gapBytes = 0;
        // One event: find its closing brace.
        if (!m_capturing) {
            m_capturing = true;
            m_capStart = m_pos;
            chunk.fileOffset = offset();
            chunk.text.resize(1);
            lastEnd = 1;
        }
        const std::size_t begin = chunk.text.size() + (m_pos - m_capStart);
        const std::uint64_t eventOffset = offset();
        ++m_pos;
        EventBraces braces;
        for (;;) {
            if (m_pos == m_len && !fill())
                break;
            const char *p = scanEventBytes(m_buf.get() + m_pos, m_buf.get() + m_len, braces);
            m_pos = static_cast<std::size_t>(p - m_buf.get());
            if (braces.depth == 0)
                break;
        }
        if (braces.depth != 0) {
            m_truncated = true;
            problem(model::Severity::Warning, static_cast<std::int64_t>(eventOffset),
                "the file ends inside an event (truncated?): the incomplete event was dropped; "
                "every complete event before it was kept");
            stopCapture();
            m_state = State::Done;
            break;
        }
        const std::size_t end = chunk.text.size() + (m_pos - m_capStart);
        chunk.events.emplace_back(
            static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end));
        lastEnd = end;
        if (end >= m_chunkBytes) {
            stopCapture();
            full = true;
        }
    }
    if (m_capturing)
        stopCapture();
    m_chunk = nullptr;
    if (m_junkBytes > 0 && m_state == State::Done) {
        problem(model::Severity::Warning, -1,
            std::to_string(m_junkElements) + " array elements that are not events ("
                + std::to_string(m_junkBytes) + " bytes) were skipped");
        m_junkBytes = 0;
        m_junkElements = 0;
    }
    chunk.text.push_back(']');
    chunk.jsonStart = 0;
    chunk.jsonSize = chunk.text.size();
    chunk.text.append(simdjson::SIMDJSON_PADDING, ' ');
    if (chunk.events.empty())
        return false;
    ++m_chunkIndex;
    return true;
}

} // namespace stepscope::import::chrometrace
