// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace stepscope::import::chrometrace {

/// What makeStrict() had to repair.
struct LenientFixes
{
    std::uint32_t trailingCommas = 0;
    std::uint32_t controlCharacters = 0;
    std::uint32_t invalidUtf8 = 0;

    bool any() const { return trailingCommas + controlCharacters + invalidUtf8 > 0; }
    /// "trailing comma, raw control character in a string" etc.
    std::string describe() const;
};

/// The tolerant fallback for JSON that profilers really write (docs/formats.md §8a): drops
/// trailing commas before `}`/`]`, escapes raw control characters inside strings and
/// replaces bytes that are not UTF-8 with '?'. Everything else is copied unchanged into
/// `out`, so text that was strict JSON stays the same.
LenientFixes makeStrict(std::string_view text, std::string &out);

} // namespace stepscope::import::chrometrace
