// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "rangescan.h"

#include "bytesource.h"

#include <simdjson.h>

#include <array>
#include <cstring>
#include <string>

namespace stepscope::import::chrometrace {

namespace {

constexpr std::uint64_t LookBack = 256; // bytes before a range that a guess may look at
constexpr std::uint64_t ExtendBytes = 1u << 20; // growth of the window past the range
/// Events in a chunk are 32-bit offsets: one event (or run) past this stops the read.
constexpr std::uint64_t MaxWindowBytes = 1ull << 31;

bool isBlank(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

bool isFiller(char c)
{
    return isBlank(c) || c == ',';
}

/// File bytes [base, held()) kept at chunk.text[1...], grown on demand.
class Window
{
public:
    Window(const ByteSource &file, std::string &text, std::uint64_t base)
        : m_file(file)
        , m_text(text)
        , m_base(base)
    {
        // The text keeps its size from the chunk it held before: bytes past held() are stale
        // and never read, and growing it again would zero them all first (std::string).
        if (m_text.empty())
            m_text.push_back('[');
        m_text[0] = '[';
    }

    std::uint64_t base() const { return m_base; }
    std::uint64_t held() const { return m_base + m_len; }
    bool atEnd() const { return m_eof; }
    bool failed() const { return m_failed; }
    const char *at(std::uint64_t pos) const { return m_text.data() + 1 + (pos - m_base); }
    char *data() { return m_text.data() + 1; }
    std::uint64_t pos(const char *p) const
    {
        return m_base + static_cast<std::uint64_t>(p - (m_text.data() + 1));
    }

    /// Holds bytes up to `until` (at least ExtendBytes more), as far as the file has them.
    /// False when no byte past held() could be added.
    bool extend(std::uint64_t until)
    {
        if (m_eof)
            return false;
        std::uint64_t want = std::max(until, held() + ExtendBytes) - m_base;
        if (want > MaxWindowBytes) {
            want = MaxWindowBytes;
            if (m_len >= want) {
                m_eof = true;
                m_tooLong = true;
                return false;
            }
        }
        if (m_text.size() < 1 + want)
            m_text.resize(1 + want);
        const std::int64_t got = m_file.readAt(held(), m_text.data() + 1 + m_len, want - m_len);
        if (got < 0) {
            m_failed = true;
            m_eof = true;
            return false;
        }
        m_len += static_cast<std::uint64_t>(got);
        if (m_len < want)
            m_eof = true;
        return got > 0;
    }

    bool tooLong() const { return m_tooLong; }

private:
    const ByteSource &m_file;
    std::string &m_text;
    std::uint64_t m_base;
    std::uint64_t m_len = 0;
    bool m_eof = false;
    bool m_failed = false;
    bool m_tooLong = false;
};

/// The byte at `pos`, or -1 past the end of the file.
int byteAt(Window &w, std::uint64_t pos)
{
    if (pos >= w.held() && !w.extend(pos + 1))
        return -1;
    if (pos >= w.held())
        return -1;
    return static_cast<unsigned char>(*w.at(pos));
}

/// The first '{' in [begin, end) after '}' ',' (blanks between), or NoStart.
std::uint64_t guessStart(const Window &w, std::uint64_t begin, std::uint64_t end)
{
    const char *const lowest = w.at(w.base());
    const char *p = w.at(begin);
    const char *const e = w.at(end);
    while (p < e) {
        const auto *brace =
            static_cast<const char *>(std::memchr(p, '{', static_cast<std::size_t>(e - p)));
        if (!brace)
            return RangeScan::NoStart;
        const char *q = brace;
        while (q > lowest && isBlank(q[-1]))
            --q;
        if (q > lowest && q[-1] == ',') {
            --q;
            while (q > lowest && isBlank(q[-1]))
                --q;
            if (q > lowest && q[-1] == '}')
                return w.pos(brace);
        }
        p = brace + 1;
    }
    return RangeScan::NoStart;
}

/// Skips filler past the window without keeping it: the first element at or past `pos`, or
/// -1 at the end of the file (`pos` is then the file's size).
int skipFarFiller(const ByteSource &file, std::uint64_t &pos, bool &failed)
{
    std::array<char, 64 * 1024> block {};
    for (;;) {
        const std::int64_t got = file.readAt(pos, block.data(), block.size());
        if (got <= 0) {
            failed = got < 0;
            return -1;
        }
        for (std::int64_t i = 0; i < got; ++i) {
            if (!isFiller(block[static_cast<std::size_t>(i)])) {
                pos += static_cast<std::uint64_t>(i);
                return static_cast<unsigned char>(block[static_cast<std::size_t>(i)]);
            }
        }
        pos += static_cast<std::uint64_t>(got);
    }
}

/// Skips one array element that is not an object; returns what it was (EventScanner's words).
const char *skipElement(Window &w, std::uint64_t &pos)
{
    const int first = byteAt(w, pos);
    if (first == '"' || first == '[') {
        int depth = 0;
        bool inString = false;
        for (int c = byteAt(w, pos); c >= 0; c = byteAt(w, pos)) {
            ++pos;
            if (inString) {
                if (c == '\\') {
                    if (byteAt(w, pos) >= 0)
                        ++pos;
                } else if (c == '"') {
                    inString = false;
                } else {
                    continue;
                }
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
    ++pos;
    for (int c = byteAt(w, pos);
         c >= 0 && !isBlank(static_cast<char>(c)) && c != ',' && c != ']' && c != '{';
         c = byteAt(w, pos))
        ++pos;
    if ((first >= '0' && first <= '9') || first == '-')
        return "a number";
    if (first == 't' || first == 'f' || first == 'n')
        return "a literal";
    return "a stray character";
}

/// Moves `pos` from an event's '{' past its closing '}'; false when the file ends first.
bool skipEvent(Window &w, std::uint64_t &pos)
{
    ++pos;
    EventBraces braces;
    for (;;) {
        if (pos >= w.held() && !w.extend(pos + 1))
            return false;
        pos = w.pos(scanEventBytes(w.at(pos), w.at(w.held()), braces));
        if (braces.depth == 0)
            return true;
    }
}

void endOfFile(RangeScan &scan, const Window &w, std::uint64_t size, bool failed)
{
    scan.fileEnded = true;
    std::string message = "the event array is never closed: the file ends after "
        + std::to_string(size) + " bytes (truncated?); every complete event before that was kept";
    if (failed || w.failed())
        message = "read error after " + std::to_string(size)
            + " bytes; every complete event before that was kept";
    scan.problems.push_back({model::Severity::Warning, static_cast<std::int64_t>(size), message});
}

} // namespace

RangeScan scanRange(const ByteSource &file, std::uint64_t begin, std::uint64_t end,
    std::uint64_t exactStart, Chunk &chunk)
{
    RangeScan scan;
    const bool guess = exactStart == RangeScan::NoStart;
    const std::uint64_t base = guess ? begin - std::min(begin, LookBack) : exactStart;
    Window w(file, chunk.text, base);
    chunk.events.clear();
    chunk.dirty = false;
    if (end > base)
        w.extend(end);

    std::uint64_t pos = exactStart;
    if (guess) {
        pos = guessStart(w, std::min(begin, w.held()), std::min(end, w.held()));
        scan.start = pos;
    } else {
        scan.start = exactStart;
    }

    std::uint64_t first = RangeScan::NoStart;
    std::uint64_t lastEnd = 0;
    while (pos != RangeScan::NoStart) {
        int c = -1;
        bool farFailed = false;
        for (;;) {
            if (pos >= w.held()) {
                if (w.atEnd())
                    break;
                if (pos >= end) {
                    // Past the range: the filler is skipped without being kept.
                    c = skipFarFiller(file, pos, farFailed);
                    break;
                }
                if (!w.extend(pos + 1))
                    break;
            }
            const char *p = w.at(pos);
            const char *const e = w.at(w.held());
            while (p < e && isFiller(*p))
                ++p;
            pos = w.pos(p);
            if (p < e) {
                c = static_cast<unsigned char>(*p);
                break;
            }
        }
        if (c < 0) {
            endOfFile(scan, w, pos, farFailed);
            break;
        }
        if (pos >= end) {
            scan.next = pos;
            break;
        }
        if (c == ']') {
            scan.arrayEnded = true;
            scan.arrayEnd = pos;
            break;
        }
        if (c != '{') {
            const std::uint64_t at = pos;
            const char *what = skipElement(w, pos);
            ++scan.junkElements;
            scan.junkBytes += pos - at;
            if (scan.elementProblems.size() < RangeScan::MaxElementReports)
                scan.elementProblems.push_back(
                    {model::Severity::Warning, static_cast<std::int64_t>(at),
                        std::string("an array element that is not an event object (") + what + ", "
                            + std::to_string(pos - at) + " bytes) skipped; reading on"});
            if (first != RangeScan::NoStart)
                chunk.dirty = true;
            continue;
        }
        const std::uint64_t eventStart = pos;
        if (!skipEvent(w, pos)) {
            scan.fileEnded = true;
            std::string message = w.tooLong()
                ? "an event of more than " + std::to_string(MaxWindowBytes >> 20)
                    + " MiB: reading stopped there; every complete event before it was kept"
                : "the file ends inside an event (truncated?): the incomplete event was dropped; "
                  "every complete event before it was kept";
            scan.problems.push_back(
                {model::Severity::Warning, static_cast<std::int64_t>(eventStart), message});
            break;
        }
        if (first == RangeScan::NoStart)
            first = eventStart;
        chunk.events.emplace_back(static_cast<std::uint32_t>(eventStart - base + 1),
            static_cast<std::uint32_t>(pos - base + 1));
        lastEnd = pos;
    }

    // The chunk: '[' + the bytes from the first event to the end of the last + ']', where
    // the '[' overwrites the byte (filler) before the first event.
    std::string &text = chunk.text;
    if (first == RangeScan::NoStart) {
        text.assign(1, '[');
        chunk.jsonStart = 0;
        chunk.fileOffset = base;
    } else {
        chunk.jsonStart = static_cast<std::size_t>(first - base);
        text[chunk.jsonStart] = '[';
        text.resize(1 + static_cast<std::size_t>(lastEnd - base));
        chunk.fileOffset = first;
    }
    text.push_back(']');
    chunk.jsonSize = text.size() - chunk.jsonStart;
    text.append(simdjson::SIMDJSON_PADDING, ' ');
    return scan;
}

} // namespace stepscope::import::chrometrace
