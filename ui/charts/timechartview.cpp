// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "timechartview.h"

#include "timechart.h"

#include <QMouseEvent>
#include <QRubberBand>
#include <QToolTip>

#include <algorithm>
#include <cstdlib>

namespace stepscope::ui {

TimeChartView::TimeChartView(QChart *chart, TimeChart *owner)
    : QChartView(chart)
    , m_owner(owner)
    , m_band(new QRubberBand(QRubberBand::Rectangle, this))
{
    setMouseTracking(true);
    setRenderHint(QPainter::Antialiasing);
}

void TimeChartView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        m_pressPos = event->position().toPoint();
        m_pressed = true;
        event->accept();
        return;
    }
    if (event->button() == Qt::RightButton) {
        m_owner->resetTimeWindow();
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void TimeChartView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_pressed && std::abs(pos.x() - m_pressPos.x()) > 4) {
        const QRectF plot = chart()->plotArea();
        m_band->setGeometry(
            QRect(QPoint(std::min(pos.x(), m_pressPos.x()), static_cast<int>(plot.top())),
                QPoint(std::max(pos.x(), m_pressPos.x()), static_cast<int>(plot.bottom()))));
        m_band->show();
    }
    const QPoint ownerPos = mapTo(m_owner, pos);
    if (chart()->plotArea().contains(pos))
        QToolTip::showText(
            event->globalPosition().toPoint(), m_owner->toolTipAt(m_owner->timeAt(ownerPos)), this);
    else
        QToolTip::hideText();
    QChartView::mouseMoveEvent(event);
}

void TimeChartView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_pressed) {
        QChartView::mouseReleaseEvent(event);
        return;
    }
    m_pressed = false;
    m_band->hide();
    const QPoint pos = event->position().toPoint();
    const std::int64_t t0 = m_owner->timeAt(mapTo(m_owner, m_pressPos));
    const std::int64_t t1 = m_owner->timeAt(mapTo(m_owner, pos));
    if (std::abs(pos.x() - m_pressPos.x()) > 4 && t0 != t1)
        m_owner->setTimeWindow(std::min(t0, t1), std::max(t0, t1));
    else if (chart()->plotArea().contains(pos))
        emit m_owner->timeClicked(static_cast<qint64>(t1));
    event->accept();
}

void TimeChartView::mouseDoubleClickEvent(QMouseEvent *event)
{
    m_owner->resetTimeWindow();
    event->accept();
}

} // namespace stepscope::ui
