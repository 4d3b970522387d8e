// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "lossplot.h"

#include "analysis/units.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepscope::ui::compare {

namespace {

/// A "nice" tick step (1, 2, 5 × 10^k) giving about `count` ticks over `span`.
double niceStep(double span, int count)
{
    if (!(span > 0))
        return 1;
    const double raw = span / std::max(1, count);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= raw)
            return m * decade;
    return 10 * decade;
}

QString number(double v)
{
    return QString::number(v, 'g', 4);
}

struct Range
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double v)
    {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    bool valid() const { return lo <= hi; }
};

} // namespace

QStringList twoLines(const QFontMetrics &fm, const QString &text, int width)
{
    if (fm.horizontalAdvance(text) <= width)
        return {text};
    qsizetype cut = -1;
    for (qsizetype i = text.indexOf(QLatin1Char(' ')); i > 0;
         i = text.indexOf(QLatin1Char(' '), i + 1)) {
        if (fm.horizontalAdvance(text.left(i)) > width)
            break;
        cut = i;
    }
    if (cut <= 0)
        return {fm.elidedText(text, Qt::ElideRight, width)};
    return {text.left(cut), fm.elidedText(text.mid(cut + 1), Qt::ElideRight, width)};
}

std::vector<QPointF> lossPolyline(
    const model::LogSeries &series, double stepMin, double stepMax, int widthPx)
{
    std::vector<QPointF> out;
    const double span = std::max(1e-9, stepMax - stepMin);
    const int w = std::max(1, widthPx);
    int column = -1;
    double first = 0;
    double last = 0;
    double lo = 0;
    double hi = 0;
    double step = 0;
    auto flush = [&] {
        if (column < 0)
            return;
        // First, extremes, last: the shape of the column survives.
        out.emplace_back(step, first);
        if (lo < std::min(first, last))
            out.emplace_back(step, lo);
        if (hi > std::max(first, last))
            out.emplace_back(step, hi);
        if (last != first)
            out.emplace_back(step, last);
    };
    for (std::size_t i = 0; i < series.size(); ++i) {
        const double v = series.values[i];
        if (!std::isfinite(v) || series.duplicate[i])
            continue;
        const double s = static_cast<double>(series.steps[i]);
        const int c = static_cast<int>((s - stepMin) / span * w);
        if (c != column) {
            flush();
            column = c;
            first = last = lo = hi = v;
            step = s;
        } else {
            last = v;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    flush();
    return out;
}

void paintLossOverlay(QPainter &painter, const QSize &size, const LossOverlay &overlay, Theme theme)
{
    const QPalette pal;
    const QColor text = pal.color(QPalette::WindowText);
    const QColor grid = pal.color(QPalette::Mid);
    painter.fillRect(QRect(QPoint(0, 0), size), pal.color(QPalette::Base));
    const QFontMetrics fm(painter.font());
    const int lh = fm.height();
    if (!overlay.hasAny()) {
        painter.setPen(text);
        painter.drawText(QRect(QPoint(0, 0), size), Qt::AlignCenter | Qt::TextWordWrap,
            QStringLiteral("No training log with a loss curve. Add a log for each run "
                           "(MindSpore, MindFormers, Megatron, DeepSpeed, torchtitan, "
                           "trainer_state.json, metrics.csv, JSON lines, CSV)."));
        return;
    }
    const model::LogSeries *series[2] = {overlay.beforeSeries, overlay.afterSeries};
    const QColor colors[2] = {beforeColor(theme), afterColor(theme)};
    Range xs;
    Range ys;
    for (const auto *s : series) {
        if (!s)
            continue;
        for (std::size_t i = 0; i < s->size(); ++i) {
            xs.add(static_cast<double>(s->steps[i]));
            if (std::isfinite(s->values[i]) && !s->duplicate[i])
                ys.add(s->values[i]);
        }
    }
    if (!xs.valid())
        return;
    if (!ys.valid())
        ys = Range {0, 1};
    if (xs.hi <= xs.lo)
        xs.hi = xs.lo + 1;
    if (ys.hi <= ys.lo) {
        ys.lo -= 0.5;
        ys.hi += 0.5;
    }
    const double pad = (ys.hi - ys.lo) * 0.05;
    ys.lo -= pad;
    ys.hi += pad;

    // Layout: header (legend + figures) on top, markers row, plot, x labels.
    const int left = fm.horizontalAdvance(QStringLiteral("0.00000")) + 12;
    const int right = 16;
    // One or two more header lines for the convergence verdict when both runs have a log.
    const double textWidth = size.width() - 16;
    const QStringList verdict = overlay.convergence
        ? twoLines(fm, QString::fromStdString(analysis::convergenceText(*overlay.convergence)),
            static_cast<int>(textWidth))
        : QStringList();
    const auto verdictLines = static_cast<int>(verdict.size());
    const int top = (2 + verdictLines) * lh + 8 + lh;
    const int bottom = 2 * lh + 6;
    const QRectF plot(left, top, std::max(10, size.width() - left - right),
        std::max(10, size.height() - top - bottom));
    auto px = [&](double s) { return plot.left() + (s - xs.lo) / (xs.hi - xs.lo) * plot.width(); };
    auto py = [&](double v) {
        return plot.bottom() - (v - ys.lo) / (ys.hi - ys.lo) * plot.height();
    };

    // Grid and labels.
    painter.setPen(QPen(grid, 0));
    const double yStep = niceStep(ys.hi - ys.lo, 5);
    for (double v = std::ceil(ys.lo / yStep) * yStep; v <= ys.hi; v += yStep) {
        painter.setPen(QPen(grid, 0));
        painter.drawLine(QPointF(plot.left(), py(v)), QPointF(plot.right(), py(v)));
        painter.setPen(text);
        painter.drawText(QRectF(0, py(v) - lh / 2.0, left - 6, lh),
            Qt::AlignRight | Qt::AlignVCenter, number(v));
    }
    const double xStep = std::max(1.0, niceStep(xs.hi - xs.lo, 8));
    for (double s = std::ceil(xs.lo / xStep) * xStep; s <= xs.hi; s += xStep) {
        painter.setPen(QPen(grid, 0));
        painter.drawLine(QPointF(px(s), plot.top()), QPointF(px(s), plot.bottom()));
        painter.setPen(text);
        painter.drawText(
            QRectF(px(s) - 50, plot.bottom() + 2, 100, lh), Qt::AlignCenter, number(s));
    }
    painter.drawText(QRectF(plot.left(), plot.bottom() + lh + 2, plot.width(), lh), Qt::AlignCenter,
        QStringLiteral("step"));
    painter.setPen(QPen(text, 0));
    painter.drawRect(plot);

    // Curves.
    painter.save();
    painter.setClipRect(plot.adjusted(-1, -1, 1, 1));
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (int k = 0; k < 2; ++k) {
        if (!series[k])
            continue;
        const auto pts = lossPolyline(*series[k], xs.lo, xs.hi, static_cast<int>(plot.width()));
        QPolygonF poly;
        poly.reserve(static_cast<qsizetype>(pts.size()));
        for (const QPointF &p : pts)
            poly.append(QPointF(px(p.x()), py(p.y())));
        painter.setPen(QPen(colors[k], 1.6));
        painter.drawPolyline(poly);
    }
    painter.restore();

    // NaN / inf markers in the row above the plot.
    const QColor bad = worseColor(theme);
    int badCount = 0;
    for (int k = 0; k < 2; ++k) {
        if (!series[k])
            continue;
        const double y = plot.top() - lh * (k == 0 ? 0.75 : 0.3);
        painter.setPen(QPen(colors[k], 2));
        for (std::size_t i = 0; i < series[k]->size(); ++i) {
            if (std::isfinite(series[k]->values[i]))
                continue;
            ++badCount;
            const double x = px(static_cast<double>(series[k]->steps[i]));
            painter.drawLine(QPointF(x - 3, y - 3), QPointF(x + 3, y + 3));
            painter.drawLine(QPointF(x - 3, y + 3), QPointF(x + 3, y - 3));
        }
    }

    // Legend and figures.
    double lx = 8;
    const QString names[2] = {QStringLiteral("before: ")
            + (series[0] ? QString::fromStdString(series[0]->name) : QStringLiteral("no log")),
        QStringLiteral("after: ")
            + (series[1] ? QString::fromStdString(series[1]->name) : QStringLiteral("no log"))};
    for (int k = 0; k < 2; ++k) {
        painter.fillRect(QRectF(lx, 6 + lh / 2.0 - 2, 18, 4), colors[k]);
        painter.setPen(text);
        painter.drawText(QRectF(lx + 22, 4, fm.horizontalAdvance(names[k]) + 4, lh),
            Qt::AlignLeft | Qt::AlignVCenter, names[k]);
        lx += 22 + fm.horizontalAdvance(names[k]) + 20;
    }
    QString figures;
    if (overlay.comparison) {
        const auto &c = *overlay.comparison;
        // Under the verdict (smoothed curves), the printed values' own figures.
        if (overlay.convergence)
            figures = QStringLiteral("printed values: ");
        figures +=
            QString::fromStdString(analysis::commonStepsText(c.points.size(), c.finiteCount()));
        if (c.maxRelative)
            figures += QStringLiteral(" · max relative divergence %1 at step %2")
                           .arg(QString::fromStdString(analysis::formatRelative(*c.maxRelative)))
                           .arg(c.maxRelativeStep);
        if (c.finalRelative)
            figures += QStringLiteral(" · final %1 at step %2")
                           .arg(QString::fromStdString(analysis::formatRelative(*c.finalRelative)))
                           .arg(c.finalStep);
    } else {
        figures = QStringLiteral("only one run has a loss curve");
    }
    if (badCount > 0)
        figures += QStringLiteral(" · %1 NaN/inf (×)").arg(badCount);
    painter.setPen(text);
    for (int k = 0; k < verdictLines; ++k) // `stepscope compare`'s verdict, in the same words
        painter.drawText(QRectF(8, 4 + (1 + k) * (lh + 2), textWidth, lh),
            Qt::AlignLeft | Qt::AlignVCenter, verdict[k]);
    if (badCount > 0)
        painter.setPen(bad);
    painter.drawText(QRectF(8, 4 + (1 + verdictLines) * (lh + 2), textWidth, lh),
        Qt::AlignLeft | Qt::AlignVCenter,
        fm.elidedText(figures, Qt::ElideRight, static_cast<int>(textWidth)));
}

LossPlot::LossPlot(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("lossPlot"));
    setMinimumHeight(120);
}

void LossPlot::setOverlay(LossOverlay overlay)
{
    m_overlay = std::move(overlay);
    update();
}

void LossPlot::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    paintLossOverlay(painter, size(), m_overlay, currentTheme());
}

} // namespace stepscope::ui::compare
