// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "units.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace stepscope::analysis {

std::string formatSignificant(double value)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
    if (value == 0)
        return "0";
    const double magnitude = std::fabs(value);
    int decimals = 0;
    if (magnitude < 10)
        decimals = 2;
    else if (magnitude < 100)
        decimals = 1;
    // Rounding may carry into a new digit (9.996 -> "10.0"): print, and reprint if so.
    std::array<char, 64> buf {};
    std::snprintf(buf.data(), buf.size(), "%.*f", decimals, value);
    const double printed = std::fabs(std::atof(buf.data()));
    if ((decimals == 2 && printed >= 10) || (decimals == 1 && printed >= 100))
        std::snprintf(buf.data(), buf.size(), "%.*f", decimals - 1, value);
    if (magnitude < 1)
        std::snprintf(buf.data(), buf.size(), "%.3g", value);
    return buf.data();
}

std::string formatShort(double value)
{
    if (!std::isfinite(value))
        return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
    std::array<char, 32> buf {};
    // Whole numbers up to a trillion as written ("12480 MB", not "1.248e+04 MB"), rounded.
    if (std::fabs(value) >= 1e4 && std::fabs(value) < 1e12)
        std::snprintf(buf.data(), buf.size(), "%.0f", value);
    else
        std::snprintf(buf.data(), buf.size(), "%.4g", value);
    return buf.data();
}

std::string formatDuration(std::int64_t ns)
{
    const double v = static_cast<double>(ns);
    const double a = std::fabs(v);
    if (a < 1e3)
        return std::to_string(ns) + " ns";
    if (a < 999.5e3)
        return formatSignificant(v / 1e3) + " µs";
    if (a < 999.5e6)
        return formatSignificant(v / 1e6) + " ms";
    return formatSignificant(v / 1e9) + " s";
}

std::string formatTimePoint(std::int64_t ns)
{
    // The magnitude as unsigned: -INT64_MIN does not fit int64.
    const std::uint64_t magnitude = ns < 0 ? std::uint64_t {0} - static_cast<std::uint64_t>(ns)
                                           : static_cast<std::uint64_t>(ns);
    std::string out = ns < 0 ? "-" : "";
    struct Unit
    {
        std::uint64_t scale;
        int digits;
        const char *name;
    };
    static constexpr std::array<Unit, 3> Units = {
        {{1'000'000'000, 9, " s"}, {1'000'000, 6, " ms"}, {1'000, 3, " µs"}}};
    for (const Unit &u : Units) {
        if (magnitude < u.scale)
            continue;
        out += std::to_string(magnitude / u.scale);
        if (const std::uint64_t rest = magnitude % u.scale; rest != 0) {
            std::string fraction = std::to_string(rest);
            fraction.insert(0, static_cast<std::size_t>(u.digits) - fraction.size(), '0');
            fraction.erase(fraction.find_last_not_of('0') + 1);
            out += '.' + fraction;
        }
        return out + u.name;
    }
    return out + std::to_string(magnitude) + " ns";
}

std::string formatShare(double fraction)
{
    if (!std::isfinite(fraction))
        return "–";
    std::array<char, 32> buf {};
    std::snprintf(buf.data(), buf.size(), "%.1f %%", fraction * 100.0);
    return buf.data();
}

std::string formatRelative(double fraction)
{
    if (!std::isfinite(fraction))
        return "–";
    std::array<char, 32> buf {};
    std::snprintf(buf.data(), buf.size(), "%.3g %%", fraction * 100.0);
    return buf.data();
}

std::string formatBytes(std::int64_t bytes)
{
    static constexpr std::array<const char *, 5> Units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (std::fabs(v) >= 1024 && unit + 1 < Units.size()) {
        v /= 1024;
        ++unit;
    }
    if (unit == 0)
        return std::to_string(bytes) + " B";
    return formatSignificant(v) + " " + Units[unit];
}

std::string formatMegabytes(double mb)
{
    if (!(mb > 0))
        return "0 B";
    return formatBytes(std::llround(std::min(mb, 1e12) * 1e6));
}

std::string formatBandwidth(double gbPerSecond)
{
    if (!(gbPerSecond > 0))
        return "–";
    const char *unit = "GB/s";
    double v = gbPerSecond;
    if (v < 1e-3) {
        v *= 1e6;
        unit = "kB/s";
    } else if (v < 1) {
        v *= 1e3;
        unit = "MB/s";
    }
    return formatSignificant(v) + " " + unit;
}

} // namespace stepscope::analysis
