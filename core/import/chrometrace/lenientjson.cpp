// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "lenientjson.h"

namespace stepscope::import::chrometrace {

std::string LenientFixes::describe() const
{
    std::string s;
    auto add = [&s](std::uint32_t n, const char *what) {
        if (n == 0)
            return;
        if (!s.empty())
            s += ", ";
        s += what;
    };
    add(trailingCommas, "trailing comma");
    add(controlCharacters, "raw control character in a string");
    add(invalidUtf8, "invalid UTF-8");
    return s;
}

namespace {

/// Length of the valid UTF-8 sequence starting at text[i], or 0.
std::size_t utf8Length(std::string_view text, std::size_t i)
{
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t n = 0;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (i + n > text.size())
        return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
            return 0;
    }
    return n;
}

} // namespace

LenientFixes makeStrict(std::string_view text, std::string &out)
{
    LenientFixes fixes;
    out.clear();
    out.reserve(text.size() + 16);
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x80) {
            const std::size_t n = utf8Length(text, i);
            if (n == 0) {
                ++fixes.invalidUtf8;
                out.push_back('?');
            } else {
                out.append(text.substr(i, n));
                i += n - 1;
            }
            continue;
        }
        if (inString) {
            if (c == '\\' && i + 1 < text.size()) {
                out.push_back(c);
                out.push_back(text[++i]);
            } else if (c == '"') {
                inString = false;
                out.push_back(c);
            } else if (u < 0x20) {
                ++fixes.controlCharacters;
                static const char hex[] = "0123456789abcdef";
                out += "\\u00";
                out.push_back(hex[u >> 4]);
                out.push_back(hex[u & 0xF]);
            } else {
                out.push_back(c);
            }
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == ',') {
            std::size_t j = i + 1;
            while (j < text.size()
                && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r'))
                ++j;
            if (j < text.size() && (text[j] == '}' || text[j] == ']')) {
                ++fixes.trailingCommas;
                continue;
            }
        }
        out.push_back(c);
    }
    return fixes;
}

} // namespace stepscope::import::chrometrace
