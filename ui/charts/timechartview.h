// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// TimeChart's view (private to ui/charts): the mouse handling of its chart.
#pragma once

#include <QChartView>

class QRubberBand;

namespace stepscope::ui {

class TimeChart;

/// The Qt Charts view with our own mouse handling: a drag zooms to the dragged time range, a
/// click emits timeClicked, right-click or double-click shows everything, hovering the values.
class TimeChartView : public QChartView
{
public:
    TimeChartView(QChart *chart, TimeChart *owner);

protected:
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    TimeChart *m_owner;
    QRubberBand *m_band;
    QPoint m_pressPos;
    bool m_pressed = false;
};

} // namespace stepscope::ui
