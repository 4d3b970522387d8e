// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>

/// Arithmetic on numbers read from files: int64 sums, differences and products held at the
/// int64 limits instead of overflowing (signed overflow is undefined behaviour, and UBSan
/// stops the fuzz targets on it), and doubles to int64 without the undefined cast of a value
/// outside int64. docs/robustness.md lists where the readers use them.
namespace stepscope::util {

inline constexpr std::int64_t Int64Max = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t Int64Min = std::numeric_limits<std::int64_t>::min();

/// The largest time in ns, absolute or relative, that readers take from a file: 2^61 ns is
/// 73 years (the nsys and Ascend DB readers clamp to it too). Sums and differences of a few
/// such times stay inside int64.
inline constexpr std::int64_t MaxFileTimeNs = std::int64_t {1} << 61;

/// a + b, held at the int64 limits.
inline std::int64_t satAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (!__builtin_add_overflow(a, b, &r))
        return r;
    return b > 0 ? Int64Max : Int64Min;
}

/// a - b, held at the int64 limits.
inline std::int64_t satSub(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (!__builtin_sub_overflow(a, b, &r))
        return r;
    return b < 0 ? Int64Max : Int64Min;
}

/// a * b, held at the int64 limits.
inline std::int64_t satMul(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (!__builtin_mul_overflow(a, b, &r))
        return r;
    return (a < 0) != (b < 0) ? Int64Min : Int64Max;
}

/// v truncated toward zero when it lies inside int64; nullopt for NaN, infinities and
/// values beyond ±2^63 (whose cast is undefined behaviour).
inline std::optional<std::int64_t> int64FromDouble(double v)
{
    // -2^63 is exact in double; 2^63 is the first value above INT64_MAX.
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
        return std::nullopt;
    return static_cast<std::int64_t>(v);
}

/// v truncated toward zero, held at the int64 limits; NaN gives 0.
inline std::int64_t saturatingInt64(double v)
{
    if (std::isnan(v))
        return 0;
    if (v >= 9223372036854775808.0)
        return Int64Max;
    if (v < -9223372036854775808.0)
        return Int64Min;
    return static_cast<std::int64_t>(v);
}

/// v rounded half away from zero, held at the int64 limits; NaN gives 0 (std::llround's
/// result is unspecified there).
inline std::int64_t saturatingRound(double v)
{
    return saturatingInt64(std::round(v));
}

} // namespace stepscope::util
