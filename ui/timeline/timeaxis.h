// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace stepscope::ui::timeline {

/// The one time <-> pixel mapping of the timeline (STYLE.md §5): the visible window starts at
/// startNs (ns relative to the session origin) and each pixel of the lane area is nsPerPixel
/// wide. Pixel 0 is the left edge of the lane area (not of the widget).
///
/// Invariants: nsPerPixel is within [MinNsPerPixel, MaxNsPerPixel]; widthPx >= 1. Every
/// operation keeps them. A value type, cheap to copy; pure, thread-safe.
class TimeAxis
{
public:
    static constexpr double MinNsPerPixel = 0.01; ///< 1 ns = 100 px
    static constexpr double MaxNsPerPixel = 1.0e15; ///< 11.6 days per pixel

    TimeAxis() = default;
    TimeAxis(std::int64_t startNs, double nsPerPixel, int widthPx)
        : m_startNs(startNs)
        , m_nsPerPixel(clampScale(nsPerPixel))
        , m_widthPx(std::max(1, widthPx))
    {
    }

    std::int64_t startNs() const { return m_startNs; }
    std::int64_t endNs() const { return m_startNs + spanNs(); }
    std::int64_t spanNs() const
    {
        return static_cast<std::int64_t>(std::ceil(m_nsPerPixel * m_widthPx));
    }
    double nsPerPixel() const { return m_nsPerPixel; }
    int widthPx() const { return m_widthPx; }

    /// Pixel x of time t (may lie outside [0, width)).
    double toPx(std::int64_t t) const { return static_cast<double>(t - m_startNs) / m_nsPerPixel; }
    /// Time at pixel x (rounded to the nearest ns).
    std::int64_t toNs(double px) const
    {
        return m_startNs + static_cast<std::int64_t>(std::llround(px * m_nsPerPixel));
    }
    /// A duration in pixels.
    double toPxLength(std::int64_t ns) const { return static_cast<double>(ns) / m_nsPerPixel; }

    void setWidth(int widthPx) { m_widthPx = std::max(1, widthPx); }
    void setStart(std::int64_t startNs) { m_startNs = startNs; }

    /// Shows [t0, t1) across the whole width (at least 1 ns).
    void fit(std::int64_t t0, std::int64_t t1)
    {
        const std::int64_t span = std::max<std::int64_t>(1, t1 - t0);
        m_nsPerPixel = clampScale(static_cast<double>(span) / m_widthPx);
        m_startNs = t0;
    }
    /// Zooms by `factor` (> 1 zooms in) keeping the time under pixel `anchorPx` in place.
    void zoomAt(double anchorPx, double factor)
    {
        if (!(factor > 0))
            return;
        const double anchorNs = static_cast<double>(m_startNs) + anchorPx * m_nsPerPixel;
        m_nsPerPixel = clampScale(m_nsPerPixel / factor);
        m_startNs = static_cast<std::int64_t>(std::llround(anchorNs - anchorPx * m_nsPerPixel));
    }
    /// Moves the window by `dx` pixels (positive: later times come into view).
    void panPx(double dx)
    {
        m_startNs += static_cast<std::int64_t>(std::llround(dx * m_nsPerPixel));
    }

    friend bool operator==(const TimeAxis &a, const TimeAxis &b)
    {
        return a.m_startNs == b.m_startNs && a.m_nsPerPixel == b.m_nsPerPixel
            && a.m_widthPx == b.m_widthPx;
    }
    friend bool operator!=(const TimeAxis &a, const TimeAxis &b) { return !(a == b); }

private:
    static double clampScale(double s)
    {
        if (!(s > 0))
            return 1.0;
        return std::clamp(s, MinNsPerPixel, MaxNsPerPixel);
    }

    std::int64_t m_startNs = 0;
    double m_nsPerPixel = 1.0;
    int m_widthPx = 1;
};

/// Ruler ticks: a "nice" step (1, 2, 5 × 10^k ns) so that labels are at least `minPx` apart,
/// and the unit to print them in.
struct TickSpacing
{
    std::int64_t stepNs = 1;
    const char *unit = "ns"; ///< "ns", "µs", "ms" or "s"
    double unitNs = 1; ///< ns per unit
};

inline TickSpacing tickSpacing(double nsPerPixel, double minPx)
{
    const double minNs = std::max(1.0, nsPerPixel * minPx);
    double decade = std::pow(10.0, std::floor(std::log10(minNs)));
    double step = decade;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * decade;
        if (step >= minNs)
            break;
    }
    TickSpacing t;
    t.stepNs = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::llround(step)));
    if (step >= 1e9) {
        t.unit = "s";
        t.unitNs = 1e9;
    } else if (step >= 1e6) {
        t.unit = "ms";
        t.unitNs = 1e6;
    } else if (step >= 1e3) {
        t.unit = "µs";
        t.unitNs = 1e3;
    }
    return t;
}

} // namespace stepscope::ui::timeline
