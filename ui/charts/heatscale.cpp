// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "heatscale.h"

#include "ui/palette.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPalette>
#include <QRect>

#include <algorithm>
#include <cmath>
#include <vector>

namespace stepscope::ui {

void HeatScale::fit(const double *first, const double *last, Range range)
{
    m_min = 0;
    m_max = 0;
    m_clippedAbove = 0;
    m_clippedMax = 0;
    bool any = false;
    for (const double *v = first; v != last; ++v) {
        if (std::isnan(*v))
            continue;
        m_min = any ? std::min(m_min, *v) : *v;
        m_max = any ? std::max(m_max, *v) : *v;
        any = true;
    }
    if (range == Range::FromZero) {
        // Start the scale at 0 so near-equal values look near-equal.
        m_min = std::min(0.0, m_min);
    } else if (range == Range::Symmetric) {
        const double a = std::max(std::fabs(m_min), std::fabs(m_max));
        m_min = -a;
        m_max = a;
    }
}

void HeatScale::fitClippingOutliers(const double *first, const double *last)
{
    fit(first, last, Range::Values);
    std::vector<double> present;
    for (const double *v = first; v != last; ++v)
        if (!std::isnan(*v))
            present.push_back(*v);
    if (present.size() < 4)
        return;
    const auto mid = present.begin() + static_cast<std::ptrdiff_t>(present.size() / 2);
    std::nth_element(present.begin(), mid, present.end());
    const double limit = 3 * *mid;
    if (!(limit > 0))
        return;
    int above = 0;
    double inside = m_min;
    for (const double v : present) {
        if (v > limit)
            ++above;
        else
            inside = std::max(inside, v);
    }
    if (above == 0 || static_cast<std::size_t>(above) * 4 > present.size())
        return;
    m_clippedAbove = above;
    m_clippedMax = m_max;
    m_max = inside;
}

QColor HeatScale::color(double value, bool diverging, const QColor &empty) const
{
    if (std::isnan(value))
        return empty;
    if (diverging)
        return divergingScaleColor(m_max > 0 ? value / m_max : 0.0);
    const double span = m_max - m_min;
    return heatScaleColor(span > 0 ? (value - m_min) / span : 1.0);
}

QString HeatScale::text(double value) const
{
    return m_format ? m_format(value) : QString::number(value);
}

QRect HeatScale::paintLegend(QPainter &p, const QRect &bar, const QFontMetrics &fm,
    const std::function<QColor(double)> &colorAt) const
{
    for (int x = 0; x < bar.width(); ++x)
        p.fillRect(QRect(bar.left() + x, bar.top(), 1, bar.height()),
            colorAt(static_cast<double>(x) / std::max(1, bar.width() - 1)));
    const QRect under(bar.left(), bar.bottom() + 1, bar.width(), fm.height());
    p.drawText(under, Qt::AlignLeft, text(m_min));
    p.drawText(under, Qt::AlignRight,
        m_clippedAbove > 0 ? QStringLiteral("≥ ") + text(m_max) : text(m_max));
    return under;
}

void HeatScale::paintEmptyCell(QPainter &p, const QRect &cell, const QPalette &palette)
{
    p.fillRect(cell, palette.color(QPalette::Base));
    p.fillRect(cell, QBrush(palette.color(QPalette::Mid), Qt::BDiagPattern));
    p.save();
    p.setPen(palette.color(QPalette::Mid));
    p.drawRect(cell.adjusted(0, 0, -1, -1));
    p.restore();
}

QRect HeatScale::paintEmptyLegend(QPainter &p, const QPoint &topLeft, const QFontMetrics &fm,
    const QPalette &palette, const QString &text)
{
    const int h = fm.height();
    const QRect swatch(topLeft.x(), topLeft.y() + 1, h + 4, h - 2);
    paintEmptyCell(p, swatch, palette);
    const QRect label(swatch.right() + 5, topLeft.y(), fm.horizontalAdvance(text) + 2, h);
    p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter, text);
    return swatch.united(label);
}

} // namespace stepscope::ui
