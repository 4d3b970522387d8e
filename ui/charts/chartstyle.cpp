// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "chartstyle.h"

#include <QAbstractAxis>
#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QValueAxis>

namespace stepscope::ui {

void applyChartStyle(QChart *chart, const QPalette &palette)
{
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundBrush(palette.brush(QPalette::Base));
    chart->setBackgroundRoundness(0);
    chart->setTitleBrush(palette.brush(QPalette::Text));
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setLabelColor(palette.color(QPalette::Text));
}

void applyAxisStyle(QAbstractAxis *axis, const QPalette &palette)
{
    axis->setLabelsColor(palette.color(QPalette::Text));
    axis->setTitleBrush(palette.brush(QPalette::Text));
    QColor grid = palette.color(QPalette::Text);
    grid.setAlpha(40);
    axis->setGridLineColor(grid);
    axis->setLinePenColor(palette.color(QPalette::Mid));
}

void applyTicks(QValueAxis *axis, const AxisTicks &ticks, const TickOptions &options)
{
    const auto [lo, hi] = options.window.value_or(std::make_pair(ticks.lo, ticks.hi));
    axis->setRange(lo, hi > lo ? hi : lo + ticks.step);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(ticks.step);
    axis->setLabelFormat(ticks.decimals <= 4
            ? QStringLiteral("%.") + QString::number(ticks.decimals) + QStringLiteral("f")
            : QStringLiteral("%.3g"));
}

} // namespace stepscope::ui
