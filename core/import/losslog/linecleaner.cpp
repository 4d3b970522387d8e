// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "linecleaner.h"

#include <cctype>

namespace stepscope::import::losslog {

namespace {

bool isDigit(char c)
{
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// `[rank12]:` or `[default3]:` (optionally followed by one blank): length, rank.
std::size_t rankPrefix(std::string_view s, std::int32_t &rank)
{
    for (std::string_view word : {"[rank", "[default"}) {
        if (s.substr(0, word.size()) != word)
            continue;
        std::size_t i = word.size();
        std::int32_t r = 0;
        std::size_t digits = 0;
        while (i < s.size() && isDigit(s[i]) && digits < 9) {
            r = r * 10 + (s[i] - '0');
            ++i;
            ++digits;
        }
        if (digits == 0 || i + 1 >= s.size() + 1 || s.substr(i, 2) != "]:")
            continue;
        i += 2;
        if (i < s.size() && s[i] == ' ')
            ++i;
        rank = r;
        return i;
    }
    return 0;
}

// `(name pid=123)` followed by blanks.
std::size_t rayPrefix(std::string_view s)
{
    if (s.empty() || s.front() != '(')
        return 0;
    std::size_t close = s.find(')');
    if (close == std::string_view::npos || close > 80)
        return 0;
    std::string_view inner = s.substr(1, close - 1);
    std::size_t pid = inner.find(" pid=");
    if (pid == std::string_view::npos || pid == 0)
        return 0;
    for (std::size_t i = pid + 5; i < inner.size(); ++i)
        if (!isDigit(inner[i]))
            return 0;
    std::size_t n = close + 1;
    while (n < s.size() && (s[n] == ' ' || s[n] == '\t'))
        ++n;
    return n;
}

} // namespace

CleanLine LineCleaner::clean(std::string_view raw)
{
    CleanLine out;
    if (!raw.empty() && raw.back() == '\r')
        raw.remove_suffix(1);
    std::size_t cr = raw.rfind('\r');
    if (cr != std::string_view::npos) {
        raw.remove_prefix(cr + 1);
        out.hadControl = true;
    }
    bool needsCopy =
        raw.find('\0') != std::string_view::npos || raw.find('\x1b') != std::string_view::npos;
    std::string_view s = raw;
    if (needsCopy) {
        out.hadControl = true;
        m_buffer.clear();
        for (std::size_t i = 0; i < raw.size(); ++i) {
            char c = raw[i];
            if (c == '\0')
                continue;
            if (c == '\x1b') {
                // CSI: ESC [ params final-byte; other escapes: drop ESC and the next byte.
                if (i + 1 < raw.size() && raw[i + 1] == '[') {
                    std::size_t j = i + 2;
                    while (j < raw.size() && (isDigit(raw[j]) || raw[j] == ';' || raw[j] == '?'))
                        ++j;
                    i = j; // skips the final byte too
                } else {
                    ++i;
                }
                continue;
            }
            m_buffer.push_back(c);
        }
        s = m_buffer;
    }
    // Prefixes may stack: `(WorkerDict pid=1) [rank0]:`.
    for (int round = 0; round < 3; ++round) {
        std::size_t n = rayPrefix(s);
        if (n == 0)
            n = rankPrefix(s, out.rank);
        if (n == 0)
            break;
        s.remove_prefix(n);
    }
    out.text = s;
    return out;
}

} // namespace stepscope::import::losslog
