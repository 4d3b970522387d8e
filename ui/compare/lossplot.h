// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "comparedata.h"
#include "ui/palette.h"

#include <QColor>
#include <QFontMetrics>
#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <vector>

class QPainter;

namespace stepscope::ui::compare {

/// One curve as drawn: (step, value) per pixel column, min and max kept per column so spikes
/// survive; NaN/inf points and verbatim duplicates are left out (NaN/inf become markers).
std::vector<QPointF> lossPolyline(
    const model::LogSeries &series, double stepMin, double stepMax, int widthPx);

/// `text` in at most two lines of `width` pixels: broken at the last blank that fits, the
/// second line elided at its end if still too wide; one line when it fits. The convergence
/// verdict is a sentence the report's picture must show whole.
QStringList twoLines(const QFontMetrics &fm, const QString &text, int width);

/// Paints the loss overlay: both curves on one step axis, NaN/inf markers (×) above the
/// plot at their steps, a legend and the divergence figures. The same function draws the
/// Loss tab and the exported picture.
void paintLossOverlay(
    QPainter &painter, const QSize &size, const LossOverlay &overlay, Theme theme = Theme::Light);

/// The Loss tab's plot. GUI thread only.
class LossPlot : public QWidget
{
    Q_OBJECT

public:
    explicit LossPlot(QWidget *parent = nullptr);
    void setOverlay(LossOverlay overlay);
    const LossOverlay &overlay() const { return m_overlay; }
    QSize sizeHint() const override { return {700, 320}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    LossOverlay m_overlay;
};

} // namespace stepscope::ui::compare
