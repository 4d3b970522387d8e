// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

/// Interpreting CSV field text the way profiler CSVs use it: `N/A` and empty for "no value",
/// `4294967295` (uint32 -1) for "no id", trailing tabs after numbers, and numbers a
/// spreadsheet re-saved in scientific notation (`1.69512E+15`), which lost their precision.
namespace stepscope::import::csv {

/// True for an empty field or `N/A` (any case), after trimming blanks.
bool isMissing(std::string_view field);

/// True when the text is a number in scientific notation (`1.69512E+15`, `9.4509e13`): in a
/// time or id column this means a spreadsheet rounded it to a few digits.
bool isScientific(std::string_view field);

/// An id column: nullopt for missing, `4294967295`, `18446744073709551615` or non-integers.
std::optional<std::int64_t> parseId(std::string_view field);

/// Outcome of reading a time or other exact decimal column.
enum class ValueStatus : std::uint8_t {
    Ok,
    Missing, ///< empty or N/A
    Scientific, ///< spreadsheet-mangled (`1.69512E+15`): value rounded, do not use as time
    Invalid, ///< not a number
};

struct ExactValue
{
    ValueStatus status = ValueStatus::Missing;
    std::int64_t value = 0;
};

/// Microseconds as decimal text to exact int64 nanoseconds (trailing tab allowed).
ExactValue parseMicros(std::string_view field);

/// Decimal text scaled by 10^scaleExponent, exact, with the same statuses as parseMicros.
ExactValue parseScaled(std::string_view field, int scaleExponent);

/// A double, nullopt for missing or not-a-number text (scientific notation is accepted).
std::optional<double> parseNumber(std::string_view field);

} // namespace stepscope::import::csv
