// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace stepscope::util {

/// Parses decimal text (JSON number syntax, optionally with a leading '+', surrounding
/// blanks/tabs, and a missing integer or fraction part such as ".75" or "246.") and scales
/// it by 10^scaleExponent, rounding half away from zero to an integer.
///
/// Exact: no floating point is involved, so "1736412474730415.308" microseconds becomes
/// 1736412474730415308 ns with scaleExponent 3. Returns nullopt for text that is not a
/// whole number or for results outside int64.
std::optional<std::int64_t> parseScaledDecimal(std::string_view text, int scaleExponent);

/// Microseconds as decimal text to integer nanoseconds.
inline std::optional<std::int64_t> parseMicrosToNanos(std::string_view text)
{
    return parseScaledDecimal(text, 3);
}

/// A double from text, with the same accepted syntax as parseScaledDecimal plus
/// "nan"/"inf"/"-inf" (case-insensitive) when allowNonFinite is set.
std::optional<double> parseDouble(std::string_view text, bool allowNonFinite = false);

/// An int64 from text (optional sign, digits only, surrounding blanks trimmed).
std::optional<std::int64_t> parseInt(std::string_view text);

/// Removes leading and trailing spaces, tabs, CR and LF.
std::string_view trimBlanks(std::string_view s);

} // namespace stepscope::util
