// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <string>
#include <string_view>

namespace stepscope::util {

/// C++17 has no std::string_view::starts_with; importers and analysis classify names by
/// prefix ("ProfilerStep#", "nccl", "hcom_").
inline bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
}

/// ASCII letters in lower case, every other byte (UTF-8 included) as it is; no locale.
/// Names, kinds and file extensions are compared this way.
inline std::string asciiLower(std::string_view s)
{
    std::string out(s);
    for (char &c : out)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return out;
}

/// `s` on one line: each run of blanks, tabs and line breaks becomes one blank, and none is
/// left at either end. For a message a file wrote over several lines (nsys's diagnostics),
/// relayed as one diagnostic.
inline std::string oneLine(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    bool blank = false;
    for (const char c : s) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            blank = !out.empty();
            continue;
        }
        if (blank)
            out += ' ';
        blank = false;
        out += c;
    }
    return out;
}

/// The string value of `"key": "..."` in an event's args JSON text (compact or pretty),
/// without a parse: dialects read one or two keys ("Task Type") of every event. Empty when
/// the key is absent or its value is not a string. Escapes are not decoded.
inline std::string_view stringArg(std::string_view args, std::string_view key)
{
    const std::size_t k = args.find(key);
    if (k == std::string_view::npos)
        return {};
    std::size_t p = args.find(':', k + key.size());
    if (p == std::string_view::npos)
        return {};
    p = args.find_first_not_of(" \t\r\n", p + 1);
    if (p == std::string_view::npos || args[p] != '"')
        return {};
    const std::size_t end = args.find('"', p + 1);
    return end == std::string_view::npos ? std::string_view() : args.substr(p + 1, end - p - 1);
}

/// Name order with digit runs compared as numbers: "rank2" before "rank10" (std::string's
/// order puts "rank10" first). Files without a rank of their own are numbered in this order.
inline bool naturalLess(std::string_view a, std::string_view b)
{
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < a.size() && j < b.size()) {
        if (!digit(a[i]) || !digit(b[j])) {
            if (a[i] != b[j])
                return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
            ++i;
            ++j;
            continue;
        }
        // Two digit runs: without leading zeros, the longer is larger; else digit by digit.
        std::size_t ei = i;
        std::size_t ej = j;
        while (ei < a.size() && digit(a[ei]))
            ++ei;
        while (ej < b.size() && digit(b[ej]))
            ++ej;
        std::size_t si = i;
        std::size_t sj = j;
        while (si + 1 < ei && a[si] == '0')
            ++si;
        while (sj + 1 < ej && b[sj] == '0')
            ++sj;
        if (ei - si != ej - sj)
            return ei - si < ej - sj;
        const int c = a.substr(si, ei - si).compare(b.substr(sj, ej - sj));
        if (c != 0)
            return c < 0;
        if (ei - i != ej - j) // equal numbers: fewer leading zeros first ("2" before "02")
            return ei - i < ej - j;
        i = ei;
        j = ej;
    }
    return a.size() - i < b.size() - j;
}

} // namespace stepscope::util
