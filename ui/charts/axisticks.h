// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QString>

#include <vector>

namespace stepscope::ui {

/// What the values on an axis measure, for the unit its ticks print in.
enum class TickUnit {
    Bytes, ///< binary units: B, KiB, MiB, GiB, TiB (DESIGN.md "Numbers and text")
    Nanoseconds, ///< ns, µs, ms, s
    Plain, ///< no unit
};

/// Ticks at round values (1, 2 or 5 × 10^k of the display unit) covering a data range, in the
/// unit that suits the range's largest magnitude: never "0, 2e+07, 4e+07" or "0 … 1e-09".
struct AxisTicks
{
    double scale = 1; ///< data units per display unit (1024³ for GiB, 1e6 for ms)
    QString unit; ///< "GiB", "ms", "" for Plain
    double lo = 0; ///< the axis range in display units, ticks at both ends
    double hi = 1;
    double step = 1; ///< between ticks, display units
    int decimals = 0; ///< enough to tell neighbouring ticks apart, no more
    std::vector<double> values; ///< tick positions in display units, lo first, hi last

    /// A tick value as text, with the unit: "1.5 GiB", "20 ms".
    QString label(double displayValue) const;
};

/// Ticks for data in [lo, hi] (data units: bytes, ns or plain numbers) with about
/// `targetTicks` intervals. An empty range (hi <= lo, or both 0) gives 0 … 1 of the
/// smallest unit. Pure.
AxisTicks niceTicks(double lo, double hi, TickUnit unit, int targetTicks = 5);
/// niceTicks with the most intervals that still gives at most `maxTicks` tick values (at
/// least 2): for short charts, whose axis would otherwise elide its labels. Pure.
AxisTicks niceTicksAtMost(double lo, double hi, TickUnit unit, int maxTicks);

} // namespace stepscope::ui
