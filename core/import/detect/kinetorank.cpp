// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "kinetorank.h"

#include <cstdint>
#include <limits>

namespace stepscope::import::detect {

namespace {

bool isRegexSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

} // namespace

std::int32_t kinetoRank(std::string_view head)
{
    constexpr std::string_view Key = "\"distributedInfo\"";
    constexpr std::string_view Rank = "\"rank\"";
    const auto skipSpace = [&](std::size_t i) {
        while (i < head.size() && isRegexSpace(head[i]))
            ++i;
        return i;
    };
    for (std::size_t at = head.find(Key); at != std::string_view::npos;
         at = head.find(Key, at + 1)) {
        std::size_t i = skipSpace(at + Key.size());
        if (i >= head.size() || head[i] != ':')
            continue;
        i = skipSpace(i + 1);
        if (i >= head.size() || head[i] != '{')
            continue;
        const std::size_t close = head.find('}', i + 1);
        const std::string_view body = head.substr(
            i + 1, close == std::string_view::npos ? std::string_view::npos : close - i - 1);
        for (std::size_t r = body.find(Rank); r != std::string_view::npos;
             r = body.find(Rank, r + 1)) {
            std::size_t k = skipSpace(i + 1 + r + Rank.size());
            if (k >= head.size() || head[k] != ':')
                continue;
            k = skipSpace(k + 1);
            std::int64_t value = 0;
            std::size_t digits = 0;
            for (; k < head.size() && head[k] >= '0' && head[k] <= '9'; ++k, ++digits) {
                if (value <= std::numeric_limits<std::int32_t>::max())
                    value = value * 10 + (head[k] - '0');
            }
            if (digits == 0)
                continue;
            return value <= std::numeric_limits<std::int32_t>::max()
                ? static_cast<std::int32_t>(value)
                : -1;
        }
    }
    return -1;
}

} // namespace stepscope::import::detect
