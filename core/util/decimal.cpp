// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "decimal.h"

#include "util/text.h"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace stepscope::util {

namespace {

bool pushDigitOne(std::uint64_t &value)
{
    if (value == std::numeric_limits<std::uint64_t>::max())
        return false;
    ++value;
    return true;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

/// The pieces of a decimal literal: its significant digits (leading zeros dropped),
/// the power of ten they are scaled by, and the sign.
struct Decimal
{
    std::string_view digits; // may include a '.' that is skipped when read
    bool negative = false;
    int exponent = 0; // value = 0.digits-as-integer * 10^exponent, see parse
    int digitCount = 0; // number of digits in `digits` (without the dot)
    int fractionDigits = 0;
};

std::optional<Decimal> splitDecimal(std::string_view s)
{
    s = trimBlanks(s);
    Decimal d;
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
        d.negative = s[i] == '-';
        ++i;
    }
    const std::size_t mantissaBegin = i;
    int intDigits = 0;
    while (i < s.size() && isDigit(s[i])) {
        ++i;
        ++intDigits;
    }
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && isDigit(s[i])) {
            ++i;
            ++d.fractionDigits;
        }
    }
    if (intDigits + d.fractionDigits == 0)
        return std::nullopt;
    d.digits = s.substr(mantissaBegin, i - mantissaBegin);
    d.digitCount = intDigits + d.fractionDigits;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
            expNegative = s[i] == '-';
            ++i;
        }
        if (i >= s.size() || !isDigit(s[i]))
            return std::nullopt;
        long exp = 0;
        while (i < s.size() && isDigit(s[i])) {
            exp = exp * 10 + (s[i] - '0');
            if (exp > 100000)
                return std::nullopt;
            ++i;
        }
        d.exponent = static_cast<int>(expNegative ? -exp : exp);
    }
    if (i != s.size())
        return std::nullopt;
    return d;
}

} // namespace

std::string_view trimBlanks(std::string_view s)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && blank(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && blank(s.back()))
        s.remove_suffix(1);
    return s;
}

namespace {

/// parseScaledDecimal for what traces write: [-]digits[.digits], no exponent, no blanks, the
/// result under 10^18. False for anything else, which the general reading below takes.
bool scaledPlain(std::string_view s, int scaleExponent, std::int64_t &out)
{
    if (scaleExponent < 0 || scaleExponent > 18)
        return false;
    const bool negative = !s.empty() && s.front() == '-';
    std::size_t i = negative ? 1 : 0;
    const std::size_t intBegin = i;
    while (i < s.size() && isDigit(s[i]))
        ++i;
    const std::size_t intDigits = i - intBegin;
    std::size_t fracBegin = i;
    if (i < s.size() && s[i] == '.') {
        fracBegin = ++i;
        while (i < s.size() && isDigit(s[i]))
            ++i;
    }
    const std::size_t fracDigits = i - fracBegin;
    const auto scale = static_cast<std::size_t>(scaleExponent);
    if (i != s.size() || intDigits + fracDigits == 0 || intDigits + scale > 18)
        return false;
    std::uint64_t value = 0;
    for (std::size_t k = intBegin; k < intBegin + intDigits; ++k)
        value = value * 10 + static_cast<std::uint64_t>(s[k] - '0');
    for (std::size_t k = 0; k < scale; ++k)
        value =
            value * 10 + (k < fracDigits ? static_cast<std::uint64_t>(s[fracBegin + k] - '0') : 0);
    // Round half away from zero: only the first digit below the units decides.
    if (fracDigits > scale && s[fracBegin + scale] >= '5')
        ++value;
    out = negative ? -static_cast<std::int64_t>(value) : static_cast<std::int64_t>(value);
    return true;
}

} // namespace

std::optional<std::int64_t> parseScaledDecimal(std::string_view text, int scaleExponent)
{
    if (std::int64_t plain = 0; scaledPlain(text, scaleExponent, plain))
        return plain;
    const std::optional<Decimal> d = splitDecimal(text);
    if (!d)
        return std::nullopt;
    // value = D * 10^shift where D is the integer formed by all digits.
    const long shift = static_cast<long>(d->exponent) - d->fractionDigits + scaleExponent;

    // Read the digits that land at or above the units position, and the first digit below
    // it for rounding. Digits further below can only matter for an exact half, which
    // "round half away from zero" resolves the same way regardless of them.
    constexpr std::uint64_t MaxU64 = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t value = 0;
    const auto pushDigit = [&value](std::uint64_t digit) {
        if (value > (MaxU64 - digit) / 10)
            return false;
        value = value * 10 + digit;
        return true;
    };
    int position = 0; // index of the digit being read, from the most significant
    int roundDigit = 0;
    bool sawRoundDigit = false;
    const long keepDigits = d->digitCount + shift; // digits at or above the units position
    if (keepDigits < 0)
        return 0; // the first written digit is at 10^-2 or below: rounds to zero
    for (char c : d->digits) {
        if (c == '.')
            continue;
        const int digit = c - '0';
        if (position < keepDigits) {
            if (!pushDigit(static_cast<std::uint64_t>(digit)))
                return std::nullopt;
        } else if (!sawRoundDigit) {
            roundDigit = digit;
            sawRoundDigit = true;
        }
        ++position;
    }
    // Trailing zeros implied by a positive shift beyond the written digits.
    for (long extra = d->digitCount; extra < keepDigits; ++extra) {
        if (!pushDigit(0))
            return std::nullopt;
    }
    if (sawRoundDigit && roundDigit >= 5 && !pushDigitOne(value))
        return std::nullopt;
    const auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (d->negative) {
        if (value > max + 1)
            return std::nullopt;
        if (value == max + 1)
            return std::numeric_limits<std::int64_t>::min();
        return -static_cast<std::int64_t>(value);
    }
    if (value > max)
        return std::nullopt;
    return static_cast<std::int64_t>(value);
}

std::optional<double> parseDouble(std::string_view text, bool allowNonFinite)
{
    std::string_view s = trimBlanks(text);
    if (allowNonFinite) {
        const std::string lower = asciiLower(s);
        if (lower == "nan" || lower == "+nan" || lower == "-nan")
            return std::numeric_limits<double>::quiet_NaN();
        if (lower == "inf" || lower == "+inf" || lower == "infinity")
            return std::numeric_limits<double>::infinity();
        if (lower == "-inf" || lower == "-infinity")
            return -std::numeric_limits<double>::infinity();
    }
    if (!splitDecimal(s))
        return std::nullopt;
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    double value = 0;
    // from_chars does not accept ".75" or "246." in every library: normalise those.
    std::string buffer;
    std::string_view parseText = s;
    const bool leadingDot =
        !s.empty() && (s.front() == '.' || (s.size() > 1 && s[0] == '-' && s[1] == '.'));
    if (leadingDot || s.find(".e") != std::string_view::npos
        || s.find(".E") != std::string_view::npos || (!s.empty() && s.back() == '.')) {
        buffer.assign(s);
        if (leadingDot)
            buffer.insert(buffer[0] == '-' ? 1 : 0, "0");
        for (std::size_t p = buffer.find('.'); p != std::string::npos && p + 1 <= buffer.size();) {
            if (p + 1 == buffer.size() || buffer[p + 1] == 'e' || buffer[p + 1] == 'E')
                buffer.insert(p + 1, "0");
            break;
        }
        parseText = buffer;
    }
    const auto result =
        std::from_chars(parseText.data(), parseText.data() + parseText.size(), value);
    if (result.ec != std::errc() && result.ec != std::errc::result_out_of_range)
        return std::nullopt;
    if (result.ptr != parseText.data() + parseText.size())
        return std::nullopt;
    return value;
}

std::optional<std::int64_t> parseInt(std::string_view text)
{
    std::string_view s = trimBlanks(text);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    std::int64_t value = 0;
    const auto result = std::from_chars(s.data(), s.data() + s.size(), value);
    if (result.ec != std::errc() || result.ptr != s.data() + s.size() || s.empty())
        return std::nullopt;
    return value;
}

} // namespace stepscope::util
