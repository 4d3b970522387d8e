// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "chartstyle.h"

#include <QAbstractAxis>
#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>

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

} // namespace stepscope::ui
