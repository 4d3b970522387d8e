// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QColor>
#include <QString>

#include <cstdint>
#include <functional>

class QFontMetrics;
class QPainter;
class QPalette;
class QPoint;
class QRect;

namespace stepscope::ui {

/// The colour scale of a heat map (the communication matrix's HeatMap, the Cluster panel's
/// ClusterHeatMap): the range of the present (non-NaN) values, the colour of a value on it
/// (sequential: light = little, dark = much; diverging: blue below 0, red above), the text
/// of a value, and the legend bar with its two ends. A value type; GUI thread only (it paints).
class HeatScale
{
public:
    enum class Range : std::uint8_t {
        Values, ///< smallest to largest present value
        FromZero, ///< 0 (or the smallest value below it) to the largest (traffic, never < 0)
        Symmetric, ///< -a to a, a the largest magnitude (deltas)
    };

    /// Fits the range to the present values of [first, last); none: [0, 0].
    void fit(const double *first, const double *last, Range range);
    /// As fit(Range::Values), but a few values far above the rest (over 3 times the median,
    /// at most a quarter of the values: a warm-up or checkpoint step beside steady ones) stay
    /// off the scale, so that they do not wash the rest out to one colour. They are drawn at
    /// its dark end; clippedAbove() counts them, clippedMax() is the largest.
    void fitClippingOutliers(const double *first, const double *last);
    int clippedAbove() const { return m_clippedAbove; }
    double clippedMax() const { return m_clippedMax; }
    /// `format` prints a value with its unit (none: QString::number).
    void setFormat(std::function<QString(double)> format) { m_format = std::move(format); }

    double min() const { return m_min; }
    double max() const { return m_max; }
    /// NaN: `empty`. Sequential: heatScaleColor of the value's place in [min, max] (1 when the
    /// range is empty); diverging: divergingScaleColor of value / max.
    QColor color(double value, bool diverging, const QColor &empty) const;
    QString text(double value) const;

    /// The legend: `bar` filled one pixel column at a time with colorAt(fraction 0..1), then
    /// text(min) and text(max) under its left and right ends (in the painter's pen; "≥ max"
    /// when values lie beyond it). Returns the line under the bar where the ends are written.
    QRect paintLegend(QPainter &p, const QRect &bar, const QFontMetrics &fm,
        const std::function<QColor(double)> &colorAt) const;

    /// A cell without a value: hatched in the palette's Mid colour over Base, so it never reads
    /// as the light end of the scale.
    static void paintEmptyCell(QPainter &p, const QRect &cell, const QPalette &palette);
    /// The legend entry for empty cells: a hatched swatch and `text` starting at `topLeft`;
    /// returns the rectangle painted.
    static QRect paintEmptyLegend(QPainter &p, const QPoint &topLeft, const QFontMetrics &fm,
        const QPalette &palette, const QString &text);

private:
    double m_min = 0;
    double m_max = 0;
    int m_clippedAbove = 0;
    double m_clippedMax = 0;
    std::function<QString(double)> m_format;
};

} // namespace stepscope::ui
