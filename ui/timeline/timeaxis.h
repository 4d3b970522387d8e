// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

namespace stepscope::ui::timeline {

/// A stretch of session time with nothing in it, e.g. between two profiling windows
/// (axisbreaks.h finds them): the axis draws it as a break TimeAxis::BreakPx wide instead of
/// to scale. Session-relative ns, [startNs, endNs), sorted and disjoint in a list.
struct AxisBreak
{
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;

    std::int64_t lengthNs() const { return endNs - startNs; }
    friend bool operator==(const AxisBreak &a, const AxisBreak &b)
    {
        return a.startNs == b.startNs && a.endNs == b.endNs;
    }
};
using AxisBreaks = std::shared_ptr<const std::vector<AxisBreak>>;

/// The one time <-> pixel mapping of the timeline (STYLE.md §5): the visible window starts at
/// startNs (ns relative to the session origin) and each pixel of the lane area is nsPerPixel
/// wide. Pixel 0 is the left edge of the lane area (not of the widget).
///
/// Breaks: with setBreaks(), each break longer than BreakPx pixels at the current scale takes
/// exactly BreakPx pixels (its time spread evenly over them); the time between breaks keeps
/// the scale. Every mapping goes through "display time" d(t) = t minus what the breaks before
/// t save, exact int64; without breaks d(t) = t and the axis is the plain linear one.
///
/// Invariants: nsPerPixel is within [MinNsPerPixel, MaxNsPerPixel]; widthPx >= 1. Every
/// operation keeps them. A value type, cheap to copy (breaks are shared); pure, thread-safe.
class TimeAxis
{
public:
    static constexpr double MinNsPerPixel = 0.01; ///< 1 ns = 100 px
    static constexpr double MaxNsPerPixel = 1.0e15; ///< 11.6 days per pixel
    static constexpr double BreakPx = 24; ///< the width a compressed break takes

    TimeAxis() = default;
    TimeAxis(std::int64_t startNs, double nsPerPixel, int widthPx)
        : m_startNs(startNs)
        , m_nsPerPixel(clampScale(nsPerPixel))
        , m_widthPx(std::max(1, widthPx))
    {
    }

    std::int64_t startNs() const { return m_startNs; }
    /// The time at the right edge (with breaks in view, more than nsPerPixel × width later).
    std::int64_t endNs() const
    {
        if (!hasBreaks())
            return m_startNs + spanNs();
        return toNs(m_widthPx);
    }
    std::int64_t spanNs() const
    {
        if (!hasBreaks())
            return static_cast<std::int64_t>(std::ceil(m_nsPerPixel * m_widthPx));
        return endNs() - m_startNs;
    }
    double nsPerPixel() const { return m_nsPerPixel; }
    int widthPx() const { return m_widthPx; }

    /// Pixel x of time t (may lie outside [0, width)).
    double toPx(std::int64_t t) const
    {
        if (!hasBreaks())
            return static_cast<double>(t - m_startNs) / m_nsPerPixel;
        return static_cast<double>(display(t) - display(m_startNs)) / m_nsPerPixel;
    }
    /// Time at pixel x (rounded to the nearest ns).
    std::int64_t toNs(double px) const
    {
        const auto d = static_cast<std::int64_t>(std::llround(px * m_nsPerPixel));
        if (!hasBreaks())
            return m_startNs + d;
        return fromDisplay(display(m_startNs) + d);
    }
    /// A duration in pixels at the axis' scale (breaks aside).
    double toPxLength(std::int64_t ns) const { return static_cast<double>(ns) / m_nsPerPixel; }

    void setWidth(int widthPx) { m_widthPx = std::max(1, widthPx); }
    void setStart(std::int64_t startNs) { m_startNs = startNs; }
    /// Puts time t at the middle of the width.
    void centreOn(std::int64_t t)
    {
        const auto half = static_cast<std::int64_t>(std::llround(m_widthPx * m_nsPerPixel / 2));
        m_startNs = hasBreaks() ? fromDisplay(display(t) - half) : t - half;
    }

    /// The breaks the axis draws compressed (nullptr or empty: none).
    void setBreaks(AxisBreaks breaks)
    {
        m_breaks = breaks && !breaks->empty() ? std::move(breaks) : nullptr;
    }
    bool hasBreaks() const { return m_breaks != nullptr; }
    const std::vector<AxisBreak> &breaks() const
    {
        static const std::vector<AxisBreak> none;
        return m_breaks ? *m_breaks : none;
    }
    /// The time of [t0, t1) outside every break (the part drawn to scale at any zoom).
    std::int64_t unbrokenNs(std::int64_t t0, std::int64_t t1) const
    {
        std::int64_t ns = t1 - t0;
        for (const AxisBreak &b : breaks())
            ns -= std::max<std::int64_t>(0, std::min(t1, b.endNs) - std::max(t0, b.startNs));
        return ns;
    }
    /// True when break b is drawn compressed at the current scale (longer than BreakPx px).
    bool compresses(const AxisBreak &b) const { return b.lengthNs() > breakNs(); }

    /// Shows [t0, t1) across the whole width (at least 1 ns).
    void fit(std::int64_t t0, std::int64_t t1)
    {
        const std::int64_t span = std::max<std::int64_t>(1, t1 - t0);
        m_startNs = t0;
        m_nsPerPixel = clampScale(static_cast<double>(span) / m_widthPx);
        if (!hasBreaks())
            return;
        // The displayed length of [t0, t1) shrinks as breaks compress; find the scale at
        // which it fills the width by bisection on log(scale) (few breaks, 60 rounds).
        double hi = m_nsPerPixel;
        double lo = MinNsPerPixel;
        for (int i = 0; i < 60 && hi / lo > 1.0 + 1e-12; ++i) {
            const double mid = std::sqrt(lo * hi);
            m_nsPerPixel = mid;
            const auto shown = static_cast<double>(display(t1) - display(t0));
            (shown / mid > m_widthPx ? lo : hi) = mid;
        }
        m_nsPerPixel = clampScale(hi);
    }
    /// Zooms by `factor` (> 1 zooms in) keeping the time under pixel `anchorPx` in place.
    void zoomAt(double anchorPx, double factor)
    {
        if (!(factor > 0))
            return;
        if (!hasBreaks()) {
            const double anchorNs = static_cast<double>(m_startNs) + anchorPx * m_nsPerPixel;
            m_nsPerPixel = clampScale(m_nsPerPixel / factor);
            m_startNs = static_cast<std::int64_t>(std::llround(anchorNs - anchorPx * m_nsPerPixel));
            return;
        }
        const std::int64_t anchorNs = toNs(anchorPx);
        m_nsPerPixel = clampScale(m_nsPerPixel / factor);
        m_startNs = fromDisplay(
            display(anchorNs) - static_cast<std::int64_t>(std::llround(anchorPx * m_nsPerPixel)));
    }
    /// Moves the window by `dx` pixels (positive: later times come into view).
    void panPx(double dx)
    {
        const auto d = static_cast<std::int64_t>(std::llround(dx * m_nsPerPixel));
        m_startNs = hasBreaks() ? fromDisplay(display(m_startNs) + d) : m_startNs + d;
    }

    friend bool operator==(const TimeAxis &a, const TimeAxis &b)
    {
        return a.m_startNs == b.m_startNs && a.m_nsPerPixel == b.m_nsPerPixel
            && a.m_widthPx == b.m_widthPx && a.m_breaks == b.m_breaks;
    }
    friend bool operator!=(const TimeAxis &a, const TimeAxis &b) { return !(a == b); }

private:
    static double clampScale(double s)
    {
        if (!(s > 0))
            return 1.0;
        return std::clamp(s, MinNsPerPixel, MaxNsPerPixel);
    }
    /// The time a compressed break shows at the current scale (at least 1 ns).
    std::int64_t breakNs() const
    {
        return std::max<std::int64_t>(1, std::llround(BreakPx * m_nsPerPixel));
    }
    /// Display time of t: t less what the compressed breaks before it save.
    std::int64_t display(std::int64_t t) const
    {
        const std::int64_t w = breakNs();
        std::int64_t saved = 0;
        for (const AxisBreak &b : *m_breaks) {
            const std::int64_t len = b.lengthNs();
            if (t <= b.startNs)
                break;
            if (len <= w)
                continue;
            if (t >= b.endNs) {
                saved += len - w;
                continue;
            }
            // Inside the break: its len ns spread evenly over w.
            const double inside = static_cast<double>(t - b.startNs);
            saved += static_cast<std::int64_t>(
                std::llround(inside * (1.0 - static_cast<double>(w) / static_cast<double>(len))));
            break;
        }
        return t - saved;
    }
    /// The inverse of display().
    std::int64_t fromDisplay(std::int64_t d) const
    {
        const std::int64_t w = breakNs();
        std::int64_t saved = 0;
        for (const AxisBreak &b : *m_breaks) {
            const std::int64_t len = b.lengthNs();
            if (len <= w)
                continue;
            const std::int64_t shownStart = b.startNs - saved;
            if (d <= shownStart)
                break;
            if (d < shownStart + w) {
                const double inside = static_cast<double>(d - shownStart);
                return b.startNs
                    + static_cast<std::int64_t>(
                        std::llround(inside * static_cast<double>(len) / static_cast<double>(w)));
            }
            saved += len - w;
        }
        return d + saved;
    }

    std::int64_t m_startNs = 0;
    double m_nsPerPixel = 1.0;
    int m_widthPx = 1;
    AxisBreaks m_breaks;
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
