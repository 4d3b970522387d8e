// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

namespace stepscope::util {

/// The first `limit` items joined by ", ", then ", …" when there are more: the lists of ids,
/// steps or folders a message names. Numbers are written in decimal, strings as they are.
template <typename Range> std::string joinFirst(const Range &items, std::size_t limit)
{
    std::string out;
    std::size_t n = 0;
    for (const auto &item : items) {
        if (n == limit)
            return out + ", …";
        if (n++ != 0)
            out += ", ";
        if constexpr (std::is_arithmetic_v<std::decay_t<decltype(item)>>)
            out += std::to_string(item);
        else
            out += item;
    }
    return out;
}

} // namespace stepscope::util
