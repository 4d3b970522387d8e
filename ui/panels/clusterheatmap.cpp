// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clusterheatmap.h"

#include "stepspanel.h"
#include "tableitems.h"
#include "ui/charts/elide.h"
#include "ui/charts/gridbuckets.h"
#include "ui/palette.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPen>
#include <QRegion>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace stepscope::ui {

namespace {

constexpr int Margin = 6;
constexpr int LegendHeight = 12;
constexpr int LegendWidth = 240;
constexpr int MaxCellWidth = 64;
constexpr int MaxCellHeight = 22;

/// [first, last) of `count` items drawn over `px` pixels, at pixel p.
std::pair<int, int> bucket(int p, int count, int px)
{
    if (count <= px) {
        const int cell = std::max(1, px / std::max(1, count));
        const int i = p / cell;
        return {i, std::min(count, i + 1)};
    }
    return itemsUnderPixel(p, count, px);
}

} // namespace

ClusterHeatMap::ClusterHeatMap(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("clusterHeatMap"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ClusterHeatMap::setMatrix(std::vector<std::int32_t> rowRanks,
    std::vector<std::int64_t> columnSteps, std::vector<double> values, const QString &title,
    std::function<QString(double)> format)
{
    m_ranks = std::move(rowRanks);
    m_steps = std::move(columnSteps);
    m_values = std::move(values);
    m_values.resize(m_ranks.size() * m_steps.size(), std::nan(""));
    m_title = title;
    m_scale.setFormat(std::move(format));
    if (m_diverging)
        m_scale.fit(
            m_values.data(), m_values.data() + m_values.size(), HeatScale::Range::Symmetric);
    else // a warm-up step 12 times the others left the rest one colour
        m_scale.fitClippingOutliers(m_values.data(), m_values.data() + m_values.size());
    m_imageFor = {};
    updateGeometry();
    update();
}

void ClusterHeatMap::setDiverging(bool diverging)
{
    m_diverging = diverging;
    m_imageFor = {};
    update();
}

void ClusterHeatMap::setMarkers(std::vector<std::pair<int, int>> cells, const QString &label)
{
    m_markers = std::move(cells);
    m_markerLabel = label;
    update();
}

double ClusterHeatMap::value(int row, int column) const
{
    if (row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return std::nan("");
    return m_values[static_cast<std::size_t>(row) * m_steps.size()
        + static_cast<std::size_t>(column)];
}

int ClusterHeatMap::labelWidth() const
{
    const QFontMetrics fm(font());
    const std::int32_t widest = m_ranks.empty()
        ? 0
        : std::max(std::abs(*std::min_element(m_ranks.begin(), m_ranks.end())),
            *std::max_element(m_ranks.begin(), m_ranks.end()));
    return std::max(fm.horizontalAdvance(QStringLiteral("rank")),
        fm.horizontalAdvance(QString::number(widest) + QStringLiteral("0")));
}

QRect ClusterHeatMap::gridRect() const
{
    const QFontMetrics fm(font());
    const int left = Margin + labelWidth() + Margin;
    const int top = Margin + fm.height() + Margin + fm.height();
    const int bottom =
        Margin + LegendHeight + fm.height() + Margin + (captionBelowLegend() ? fm.height() : 0);
    const int cols = std::max(1, columnCount());
    const int rows = std::max(1, rowCount());
    const int availW = std::max(1, width() - left - Margin);
    const int availH = std::max(1, height() - top - bottom);
    const int w = cols <= availW ? std::min(MaxCellWidth, availW / cols) * cols : availW;
    const int h = rows <= availH ? std::min(MaxCellHeight, availH / rows) * rows : availH;
    return QRect(left, top, w, h);
}

std::pair<int, int> ClusterHeatMap::rowsAtY(int y) const
{
    const QRect g = gridRect();
    if (y < g.top() || y > g.bottom() || m_ranks.empty())
        return {-1, -1};
    return bucket(y - g.top(), rowCount(), g.height());
}

std::pair<int, int> ClusterHeatMap::cellAt(const QPoint &pos) const
{
    const QRect g = gridRect();
    if (!g.contains(pos) || m_ranks.empty() || m_steps.empty())
        return {-1, -1};
    const auto [r0, r1] = bucket(pos.y() - g.top(), rowCount(), g.height());
    const auto [c0, c1] = bucket(pos.x() - g.left(), columnCount(), g.width());
    if (r0 >= rowCount() || c0 >= columnCount())
        return {-1, -1};
    int bestR = r0;
    int bestC = c0;
    double best = -HUGE_VAL;
    for (int r = r0; r < r1; ++r) {
        for (int c = c0; c < c1; ++c) {
            const double v = value(r, c);
            if (!std::isnan(v) && v > best) {
                best = v;
                bestR = r;
                bestC = c;
            }
        }
    }
    return {bestR, bestC};
}

QColor ClusterHeatMap::colorFor(double v) const
{
    return m_scale.color(v, m_diverging, palette().color(QPalette::Base));
}

QString ClusterHeatMap::toolTipAt(const QPoint &pos) const
{
    const auto [r, c] = cellAt(pos);
    if (r < 0)
        return {};
    const double v = value(r, c);
    QString tip = QStringLiteral("rank %1 · step %2 · %3: %4")
                      .arg(rankOfRow(r))
                      .arg(stepLabel(stepOfColumn(c)))
                      .arg(m_title,
                          std::isnan(v) ? tr("%1 (rank %2 recorded no step %3)")
                                              .arg(emptyText())
                                              .arg(rankOfRow(r))
                                              .arg(stepLabel(stepOfColumn(c)))
                                        : m_scale.text(v));
    if (stepOfColumn(c) < 0)
        tip += QLatin1Char('\n') + noStepIdTip();
    const auto [r0, r1] = rowsAtY(pos.y());
    if (r1 - r0 > 1)
        tip += QStringLiteral("\n(largest of ranks %1–%2 in this pixel row)")
                   .arg(rankOfRow(r0))
                   .arg(rankOfRow(r1 - 1));
    return tip;
}

bool ClusterHeatMap::hasEmptyCells() const
{
    return std::any_of(m_values.begin(), m_values.end(), [](double v) { return std::isnan(v); });
}

QString ClusterHeatMap::emptyText()
{
    return tr("no data");
}

QSize ClusterHeatMap::sizeHint() const
{
    return QSize(std::min(600, 120 + 40 * columnCount()), std::min(600, 90 + 14 * rowCount()));
}

QSize ClusterHeatMap::minimumSizeHint() const
{
    return QSize(220, 160);
}

/*
 * The cells as an image of one pixel per drawn column and pixel row (each the largest value
 * of the items it covers), scaled without smoothing into the grid: the paint cost depends on
 * the widget's size, not on the number of ranks.
 */
void ClusterHeatMap::rebuildImage() const
{
    const QRect g = gridRect();
    if (m_imageFor == g.size() && !m_image.isNull())
        return;
    m_imageFor = g.size();
    const int cols = columnCount();
    const int rows = rowCount();
    const int iw = std::min(cols, g.width());
    const int ih = std::min(rows, g.height());
    m_image = QImage(std::max(1, iw), std::max(1, ih), QImage::Format_RGB32);
    m_image.fill(palette().color(QPalette::Base));
    m_emptyPixels.assign(static_cast<std::size_t>(m_image.width()) * m_image.height(), false);
    if (cols == 0 || rows == 0)
        return;
    for (int y = 0; y < ih; ++y) {
        const auto [r0, r1] = bucket(y, rows, ih);
        auto *line = reinterpret_cast<QRgb *>(m_image.scanLine(y));
        for (int x = 0; x < iw; ++x) {
            const auto [c0, c1] = bucket(x, cols, iw);
            double best = std::nan("");
            for (int r = r0; r < r1; ++r)
                for (int c = c0; c < c1; ++c) {
                    const double v = value(r, c);
                    if (!std::isnan(v) && (std::isnan(best) || v > best))
                        best = v;
                }
            line[x] = colorFor(best).rgb();
            m_emptyPixels[static_cast<std::size_t>(y) * iw + x] = std::isnan(best);
        }
    }
}

/*
 * Pixels of the image without a value, hatched as the communication matrix's empty cells
 * (HeatScale::paintEmptyCell) so they never read as the light end of the scale. A pixel maps
 * to [x * w / iw, (x + 1) * w / iw) of the grid, as drawImage scales it. Cells at least 6 px
 * each way are outlined one by one; smaller ones (bucketed ranks) are hatched as one region.
 */
void ClusterHeatMap::paintEmptyCells(QPainter &p, const QRect &g) const
{
    const int iw = m_image.width();
    const int ih = m_image.height();
    if (m_emptyPixels.size() != static_cast<std::size_t>(iw) * ih)
        return;
    const auto edge = &pixelOfItem;
    const bool outlined = g.width() / iw >= 6 && g.height() / ih >= 6;
    QRegion region;
    for (int y = 0; y < ih; ++y) {
        const int y0 = g.top() + edge(y, ih, g.height());
        const int y1 = g.top() + edge(y + 1, ih, g.height());
        for (int x = 0; x < iw;) {
            if (!m_emptyPixels[static_cast<std::size_t>(y) * iw + x]) {
                ++x;
                continue;
            }
            int end = x + 1;
            while (!outlined && end < iw && m_emptyPixels[static_cast<std::size_t>(y) * iw + end])
                ++end;
            const QRect cell(QPoint(g.left() + edge(x, iw, g.width()), y0),
                QPoint(g.left() + edge(end, iw, g.width()) - 1, y1 - 1));
            if (outlined)
                HeatScale::paintEmptyCell(p, cell, palette());
            else
                region += cell;
            x = end;
        }
    }
    if (region.isEmpty())
        return;
    p.save();
    p.setClipRegion(region);
    p.fillRect(g, palette().color(QPalette::Base));
    p.fillRect(g, QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
    p.restore();
}

void ClusterHeatMap::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const QColor text = palette().color(QPalette::Text);
    p.setPen(text);
    const QFontMetrics fm(font());
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRect(Margin, Margin, width() - 2 * Margin, fm.height()), Qt::AlignLeft,
        m_ranks.empty() ? m_title + QStringLiteral(": no ranks")
                        : QStringLiteral("%1 · %2 × %3")
                              .arg(m_title, countText(rowCount(), tr("rank"), tr("ranks")),
                                  countText(columnCount(), tr("step"), tr("steps"))));
    p.setFont(font());
    if (m_ranks.empty() || m_steps.empty())
        return;
    const QRect g = gridRect();
    rebuildImage();
    p.drawImage(g, m_image);
    paintEmptyCells(p, g);
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(g.adjusted(0, 0, -1, -1));
    // Marked cells: outlined when a cell is at least 4 px tall; thinner (ranks bucketed into
    // pixel rows) a line of the marker colour across the cell's pixel row(s), so a straggler
    // among thousands of ranks shows where it is without covering its neighbours.
    const QColor marker = worseColor(currentTheme());
    p.setPen(QPen(marker, 2));
    p.setBrush(Qt::NoBrush);
    const auto edge = &pixelOfItem;
    for (const auto &[r, c] : m_markers) {
        if (r < 0 || c < 0 || r >= rowCount() || c >= columnCount())
            continue;
        const int x0 = g.left() + edge(c, columnCount(), g.width());
        const int x1 = g.left() + edge(c + 1, columnCount(), g.width());
        const int y0 = g.top() + edge(r, rowCount(), g.height());
        const int y1 = g.top() + edge(r + 1, rowCount(), g.height());
        if (y1 - y0 >= 4)
            p.drawRect(QRect(QPoint(x0 + 1, y0 + 1), QPoint(std::max(x0 + 2, x1 - 1), y1 - 1)));
        else
            p.fillRect(QRect(x0, std::min(y0, g.bottom() - 1), std::max(1, x1 - x0),
                           std::clamp(y1 - y0, 1, 2)),
                marker);
    }
    p.setPen(text);

    // Column labels: step ids, thinned so they do not overlap.
    const double colPx = static_cast<double>(g.width()) / columnCount();
    int widestStep = 0;
    for (const std::int64_t step : {m_steps.front(), m_steps.back()})
        widestStep = std::max(widestStep, fm.horizontalAdvance(stepLabel(step)) + 6);
    const int cStride = labelStride(colPx, widestStep);
    p.drawText(QRect(Margin, g.top() - fm.height(), g.left() - 2 * Margin, fm.height()),
        Qt::AlignRight | Qt::AlignBottom, QStringLiteral("step"));
    for (int c = 0; c < columnCount(); c += cStride) {
        const int x = g.left() + static_cast<int>(c * colPx);
        p.drawText(QRect(x, g.top() - fm.height(),
                       std::max<int>(widestStep, static_cast<int>(colPx)), fm.height()),
            Qt::AlignLeft | Qt::AlignBottom, stepLabel(m_steps[static_cast<std::size_t>(c)]));
    }
    // Row labels: ranks, thinned likewise.
    const double rowPx = static_cast<double>(g.height()) / rowCount();
    const int rStride = labelStride(rowPx, fm.height());
    for (int r = 0; r < rowCount(); r += rStride) {
        const int y = g.top() + static_cast<int>(r * rowPx);
        p.drawText(QRect(Margin, y, g.left() - 2 * Margin,
                       std::max<int>(fm.height(), static_cast<int>(rowPx))),
            Qt::AlignRight | Qt::AlignTop, QString::number(m_ranks[static_cast<std::size_t>(r)]));
    }

    // Legend: the scale with its ends in the metric's unit.
    const int ly = g.bottom() + Margin + 2;
    const QRect legend(g.left(), ly, std::min(std::max(g.width(), 120), LegendWidth), LegendHeight);
    const QRect under = m_scale.paintLegend(p, legend, fm,
        [this](double f) { return colorFor(m_scale.min() + (m_scale.max() - m_scale.min()) * f); });
    const QString what = legendCaption();
    // Beside the scale when it fits, else on its own line under the scale's end labels (never
    // cut: "red = slo").
    const QRect whatRect = captionBelowLegend()
        ? QRect(g.left(), under.bottom() + 1, std::max(0, width() - g.left() - Margin), fm.height())
        : QRect(legend.right() + 2 * Margin, legend.top() - 2,
            std::max(0, width() - legend.right() - 3 * Margin), fm.height());
    m_captionRect = whatRect;
    p.drawText(whatRect, Qt::AlignLeft | Qt::AlignVCenter, elideMiddle(what, fm, whatRect.width()));
    // The keys (marked cells, empty cells): under the caption when it is beside the scale,
    // else after the caption on its own line.
    QPoint key = captionBelowLegend()
        ? QPoint(whatRect.left() + fm.horizontalAdvance(what) + 3 * Margin, whatRect.top())
        : QPoint(whatRect.left(), under.top());
    if (!m_markers.empty() && !m_markerLabel.isEmpty()) {
        // A sample outline and what it marks.
        const QRect sample(key.x(), key.y() + 2, 14, fm.height() - 4);
        p.setPen(QPen(marker, 2));
        p.drawRect(sample);
        p.setPen(text);
        const QString label = QStringLiteral("%1 (%2)").arg(m_markerLabel).arg(m_markers.size());
        p.drawText(
            QRect(sample.right() + Margin, key.y(), fm.horizontalAdvance(label) + 2, fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter, label);
        key.rx() = sample.right() + Margin + fm.horizontalAdvance(label) + 3 * Margin;
    }
    m_emptyLegendRect =
        hasEmptyCells() ? HeatScale::paintEmptyLegend(p, key, fm, palette(), emptyText()) : QRect();
}

QString ClusterHeatMap::legendCaption() const
{
    if (m_diverging)
        return QStringLiteral("%1: blue = faster, red = slower").arg(m_title);
    const QFontMetrics fm(font());
    const int gridRows =
        height() - (2 * Margin + 2 * fm.height()) - (Margin + LegendHeight + fm.height() + Margin);
    QString caption = rowCount() > gridRows
        ? QStringLiteral("%1 (largest of the ranks in a pixel row)").arg(m_title)
        : m_title;
    if (m_scale.clippedAbove() > 0)
        caption += QStringLiteral(" · %1 over 3× the median, up to %2, drawn at the dark end")
                       .arg(m_scale.clippedAbove() == 1
                               ? QStringLiteral("1 cell")
                               : QStringLiteral("%1 cells").arg(m_scale.clippedAbove()))
                       .arg(m_scale.text(m_scale.clippedMax()));
    return caption;
}

bool ClusterHeatMap::captionBelowLegend() const
{
    const QFontMetrics fm(font());
    const int left = Margin + labelWidth() + Margin;
    const int room = width() - (left + LegendWidth) - 3 * Margin;
    return fm.horizontalAdvance(legendCaption()) > room;
}

void ClusterHeatMap::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_imageFor = {};
}

void ClusterHeatMap::mouseMoveEvent(QMouseEvent *event)
{
    const QString tip = toolTipAt(event->position().toPoint());
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
}

void ClusterHeatMap::mouseDoubleClickEvent(QMouseEvent *event)
{
    const auto [r, c] = cellAt(event->position().toPoint());
    if (r >= 0 && event->button() == Qt::LeftButton)
        emit cellActivated(r, c);
}

} // namespace stepscope::ui
