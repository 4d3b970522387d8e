// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <string_view>

namespace stepscope::util {

/// C++17 has no std::string_view::starts_with; importers and analysis classify names by
/// prefix ("ProfilerStep#", "nccl", "hcom_").
inline bool startsWith(std::string_view s, std::string_view prefix)
{
    return s.substr(0, prefix.size()) == prefix;
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

} // namespace stepscope::util
