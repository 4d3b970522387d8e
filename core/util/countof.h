// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <string>
#include <string_view>

namespace stepscope::util {

/// "1 rank", "14 ranks": a count with its words in the right number, for messages (never
/// "rank(s)"). `one` and `many` may carry the verb too ("rank has", "ranks have").
template <typename Integer>
std::string countOf(Integer n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + ' ' + std::string(n == 1 ? one : many);
}

} // namespace stepscope::util
