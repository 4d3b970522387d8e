// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <optional>
#include <string>
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
    OutOfRange, ///< a time beyond ±2^61 ns (73 years, util::MaxFileTimeNs): not used
};

struct ExactValue
{
    ValueStatus status = ValueStatus::Missing;
    std::int64_t value = 0;
};

/// Microseconds as decimal text to exact int64 nanoseconds (trailing tab allowed). A time
/// beyond ±2^61 ns is OutOfRange: sums and differences of a few times read this way then
/// stay inside int64.
ExactValue parseMicros(std::string_view field);

/// A time as decimal text scaled by 10^scaleExponent to ns, exact, with the same statuses
/// (and bound) as parseMicros.
ExactValue parseScaled(std::string_view field, int scaleExponent);

/// "`column` ... ; row skipped" for a time that is not Ok (Scientific, Invalid, OutOfRange).
std::string timeProblem(ValueStatus status, std::string_view column);

/// A double, nullopt for missing or not-a-number text (scientific notation is accepted).
std::optional<double> parseNumber(std::string_view field);

} // namespace stepscope::import::csv
