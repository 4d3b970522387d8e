// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "csvfield.h"

#include "util/decimal.h"
#include "util/saturate.h"

namespace stepscope::import::csv {

bool isMissing(std::string_view field)
{
    const std::string_view s = util::trimBlanks(field);
    if (s.empty())
        return true;
    return s.size() == 3 && (s[0] == 'N' || s[0] == 'n') && s[1] == '/'
        && (s[2] == 'A' || s[2] == 'a');
}

bool isScientific(std::string_view field)
{
    const std::string_view s = util::trimBlanks(field);
    const std::size_t e = s.find_first_of("eE");
    if (e == std::string_view::npos || e == 0 || e + 1 >= s.size())
        return false;
    std::size_t i = e + 1;
    if (s[i] == '+' || s[i] == '-')
        ++i;
    if (i >= s.size())
        return false;
    for (std::size_t k = i; k < s.size(); ++k)
        if (s[k] < '0' || s[k] > '9')
            return false;
    return util::parseDouble(s).has_value();
}

std::optional<std::int64_t> parseId(std::string_view field)
{
    const std::string_view s = util::trimBlanks(field);
    if (isMissing(s) || s == "4294967295" || s == "18446744073709551615")
        return std::nullopt;
    return util::parseInt(s);
}

ExactValue parseScaled(std::string_view field, int scaleExponent)
{
    const std::string_view s = util::trimBlanks(field);
    if (isMissing(s))
        return {ValueStatus::Missing, 0};
    if (isScientific(s))
        return {ValueStatus::Scientific, 0};
    const std::optional<std::int64_t> v = util::parseScaledDecimal(s, scaleExponent);
    if (!v) {
        // A whole number beyond int64 is out of range too, not "not a number".
        return {util::parseDouble(s) ? ValueStatus::OutOfRange : ValueStatus::Invalid, 0};
    }
    if (*v > util::MaxFileTimeNs || *v < -util::MaxFileTimeNs)
        return {ValueStatus::OutOfRange, 0};
    return {ValueStatus::Ok, *v};
}

std::string timeProblem(ValueStatus status, std::string_view column)
{
    const std::string name = "`" + std::string(column) + "`";
    switch (status) {
    case ValueStatus::Scientific:
        return name
            + " is in scientific notation (re-saved by a spreadsheet, precision lost); row "
              "skipped";
    case ValueStatus::OutOfRange:
        return name + " is beyond 2^61 ns (73 years) from 0; row skipped";
    case ValueStatus::Ok:
    case ValueStatus::Missing:
    case ValueStatus::Invalid:
        break;
    }
    return name + " must be a number; row skipped";
}

ExactValue parseMicros(std::string_view field)
{
    return parseScaled(field, 3);
}

std::optional<double> parseNumber(std::string_view field)
{
    if (isMissing(field))
        return std::nullopt;
    return util::parseDouble(field);
}

} // namespace stepscope::import::csv
