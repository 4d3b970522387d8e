// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "axisticks.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace stepscope::ui {

namespace {

struct Unit
{
    double scale;
    const char *name;
};

Unit unitFor(double magnitude, TickUnit kind)
{
    if (kind == TickUnit::Bytes) {
        static constexpr std::array<Unit, 6> Units {
            {{1.0, "B"}, {1024.0, "KiB"}, {1048576.0, "MiB"}, {1073741824.0, "GiB"},
                {1099511627776.0, "TiB"}, {1125899906842624.0, "PiB"}}};
        Unit u = Units[0];
        for (const Unit &c : Units)
            if (magnitude >= c.scale)
                u = c;
        return u;
    }
    if (kind == TickUnit::Nanoseconds) {
        static constexpr std::array<Unit, 4> Units {
            {{1.0, "ns"}, {1e3, "µs"}, {1e6, "ms"}, {1e9, "s"}}};
        Unit u = Units[0];
        for (const Unit &c : Units)
            if (magnitude >= c.scale)
                u = c;
        return u;
    }
    return {1.0, ""};
}

} // namespace

QString AxisTicks::label(double displayValue) const
{
    // -0.0 prints as "-0": ticks are exact multiples of step, so compare against half a step.
    if (std::abs(displayValue) < step * 1e-6)
        displayValue = 0;
    const QString number = QString::number(displayValue, 'f', decimals);
    return unit.isEmpty() ? number : number + QLatin1Char(' ') + unit;
}

AxisTicks niceTicks(double lo, double hi, TickUnit kind, int targetTicks)
{
    AxisTicks t;
    if (!std::isfinite(lo) || !std::isfinite(hi))
        lo = hi = 0;
    if (lo > hi)
        std::swap(lo, hi);
    const double magnitude = std::max(std::abs(lo), std::abs(hi));
    const Unit u = unitFor(magnitude, kind);
    t.scale = u.scale;
    t.unit = QString::fromUtf8(u.name);
    if (kind == TickUnit::Plain && magnitude > 0 && magnitude < 1e-3) {
        // Learning rates: ticks in units of a power of ten ("2.5" in "(×1e-5)"), where
        // "0.000025" labels were wider than Qt's axis and cut to "...".
        const int e = static_cast<int>(std::floor(std::log10(magnitude)));
        t.scale = std::pow(10.0, e);
        t.unit = QStringLiteral("×1e%1").arg(e);
    }
    double l = lo / t.scale;
    double h = hi / t.scale;
    if (!(h > l)) {
        // An empty range: one unit above (or around) the single value.
        if (l == 0) {
            h = 1;
        } else {
            const double pad = std::abs(l) * 0.1;
            l -= pad;
            h += pad;
        }
    }
    const double raw = (h - l) / std::max(1, targetTicks);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * decade;
    int exponent = static_cast<int>(std::lround(std::log10(decade)));
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * decade >= raw * (1 - 1e-9)) {
            step = m * decade;
            break;
        }
    }
    if (step == 10 * decade)
        ++exponent;
    t.step = step;
    t.decimals = std::max(0, -exponent);
    const double first = std::floor(l / step + 1e-9);
    const double last = std::ceil(h / step - 1e-9);
    t.lo = first * step;
    t.hi = last * step;
    for (double k = first; k <= last + 0.5; k += 1)
        t.values.push_back(k * step);
    return t;
}

AxisTicks niceTicksAtMost(double lo, double hi, TickUnit unit, int maxTicks)
{
    maxTicks = std::max(2, maxTicks);
    for (int target = maxTicks - 1; target > 1; --target) {
        AxisTicks t = niceTicks(lo, hi, unit, target);
        if (static_cast<int>(t.values.size()) <= maxTicks)
            return t;
    }
    return niceTicks(lo, hi, unit, 1);
}

} // namespace stepscope::ui
