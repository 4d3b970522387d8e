// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "heatmap.h"

#include "elide.h"
#include "sparselabels.h"
#include "ui/palette.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cassert>
#include <cmath>

namespace stepscope::ui {

namespace {

constexpr int Margin = 6;
constexpr int LegendHeight = 14;
constexpr int MaxCell = 72;

} // namespace

HeatMap::HeatMap(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
}

void HeatMap::setTitle(const QString &title)
{
    m_title = title;
    update();
}

void HeatMap::setEmptyText(const QString &text)
{
    m_emptyText = text;
    update();
}

void HeatMap::setAxisTitles(const QString &rows, const QString &columns)
{
    m_rowTitle = rows;
    m_columnTitle = columns;
    update();
}

void HeatMap::setMatrix(const QStringList &rows, const QStringList &columns,
    const QList<double> &values, std::function<QString(double)> format)
{
    assert(values.size() == rows.size() * columns.size());
    m_rows = rows;
    m_columns = columns;
    m_values = values;
    m_values.resize(rows.size() * columns.size(), std::nan(""));
    m_scale.setFormat(std::move(format));
    m_scale.fit(
        m_values.constData(), m_values.constData() + m_values.size(), HeatScale::Range::FromZero);
    updateGeometry();
    update();
}

double HeatMap::value(int row, int column) const
{
    return m_values.at(row * m_columns.size() + column);
}

QRect HeatMap::gridRect() const
{
    const QFontMetrics fm(font());
    int labelWidth = fm.horizontalAdvance(m_rowTitle);
    for (const QString &r : m_rows)
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(r));
    const int left = Margin + labelWidth + Margin;
    const int top = Margin + (m_title.isEmpty() ? 0 : fm.height() + Margin) + 2 * fm.height();
    const int bottom = Margin + LegendHeight + fm.height() + Margin;
    const int cols = std::max(1, static_cast<int>(m_columns.size()));
    const int rows = std::max(1, static_cast<int>(m_rows.size()));
    const int availW = std::max(cols, width() - left - Margin);
    const int availH = std::max(rows, height() - top - bottom);
    const int cell = std::max(1, std::min({availW / cols, availH / rows, MaxCell}));
    return QRect(left, top, cell * cols, cell * rows);
}

QRect HeatMap::cellRect(int row, int column) const
{
    const QRect g = gridRect();
    const int cell = g.width() / std::max(1, static_cast<int>(m_columns.size()));
    return QRect(g.left() + column * cell, g.top() + row * cell, cell, cell);
}

std::pair<int, int> HeatMap::cellAt(const QPoint &pos) const
{
    const QRect g = gridRect();
    if (!g.contains(pos) || m_columns.isEmpty() || m_rows.isEmpty())
        return {-1, -1};
    const int cell = g.width() / static_cast<int>(m_columns.size());
    const int c = (pos.x() - g.left()) / cell;
    const int r = (pos.y() - g.top()) / cell;
    if (r >= m_rows.size() || c >= m_columns.size())
        return {-1, -1};
    return {r, c};
}

QColor HeatMap::colorFor(double v) const
{
    return m_scale.color(v, false, palette().color(QPalette::Base));
}

QColor HeatMap::cellColor(int row, int column) const
{
    return colorFor(value(row, column));
}

QString HeatMap::toolTipFor(int row, int column) const
{
    if (row < 0 || column < 0 || row >= m_rows.size() || column >= m_columns.size())
        return {};
    const double v = value(row, column);
    return QStringLiteral("%1 %2 → %3 %4: %5")
        .arg(m_rowTitle, m_rows[row], m_columnTitle, m_columns[column],
            std::isnan(v) ? QStringLiteral("no traffic") : m_scale.text(v));
}

QSize HeatMap::sizeHint() const
{
    return QSize(
        120 + 40 * static_cast<int>(m_columns.size()), 90 + 40 * static_cast<int>(m_rows.size()));
}

QSize HeatMap::minimumSizeHint() const
{
    return QSize(160, 120);
}

void HeatMap::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    p.setPen(palette().color(QPalette::Text));
    const QFontMetrics fm(font());
    int y = Margin;
    if (!m_title.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        // Elided in the middle when the dock is narrow; the whole title is the tooltip.
        p.drawText(
            QRect(Margin, y, width() - 2 * Margin, fm.height()), Qt::AlignLeft, shownTitle());
        p.setFont(font());
        y += fm.height() + Margin;
    }
    if (m_rows.isEmpty() || m_columns.isEmpty())
        return;
    const QRect g = gridRect();
    p.drawText(QRect(g.left(), y, g.width(), fm.height()), Qt::AlignHCenter, m_columnTitle);
    p.drawText(QRect(Margin, y + fm.height(), g.left() - 2 * Margin, fm.height()), Qt::AlignRight,
        m_rowTitle);
    const ColumnLabelLayout labels = columnLabelLayout();
    for (const auto &[c, text] : columnLabels(labels)) {
        const QRect r = cellRect(0, c);
        p.drawText(QRect(r.center().x() + 1 - labels.room / 2, g.top() - fm.height(), labels.room,
                       fm.height()),
            Qt::AlignHCenter | Qt::AlignBottom, text);
    }
    for (int r = 0; r < m_rows.size(); ++r) {
        const QRect cr = cellRect(r, 0);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRect(Margin, cr.top(), g.left() - 2 * Margin, cr.height()),
            Qt::AlignRight | Qt::AlignVCenter, m_rows[r]);
        for (int c = 0; c < m_columns.size(); ++c) {
            const QRect cell = cellRect(r, c);
            const double v = value(r, c);
            if (std::isnan(v)) {
                HeatScale::paintEmptyCell(p, cell.adjusted(0, 0, -1, -1), palette());
                continue;
            }
            const QColor fill = colorFor(v);
            p.fillRect(cell.adjusted(0, 0, -1, -1), fill);
            const QString text = m_scale.text(v);
            if (fm.horizontalAdvance(text) + 4 <= cell.width() && fm.height() <= cell.height()) {
                p.setPen(textOn(fill));
                p.drawText(cell, Qt::AlignCenter, text);
            }
        }
    }
    // Legend: the colour scale from the smallest to the largest value.
    const QRect legend(g.left(), g.bottom() + Margin + 2, std::min(g.width(), 240), LegendHeight);
    p.setPen(palette().color(QPalette::Text));
    m_scale.paintLegend(p, legend, fm, heatScaleColor);
    if (std::any_of(m_values.begin(), m_values.end(), [](double v) { return std::isnan(v); }))
        HeatScale::paintEmptyLegend(p, emptyLegendPos(), fm, palette(),
            m_emptyText.isEmpty() ? tr("no data") : m_emptyText);
}

HeatMap::ColumnLabelLayout HeatMap::columnLabelLayout() const
{
    if (m_columns.isEmpty())
        return {};
    const QFontMetrics fm(font());
    int widest = 0;
    for (const QString &label : m_columns)
        widest = std::max(widest, fm.horizontalAdvance(label) + 4);
    const int cell = cellRect(0, 0).width();
    const int every = sparseCategoryLabels(m_columns, cell, widest).every;
    return {every, std::max(cell, every * cell)};
}

std::vector<std::pair<int, QString>> HeatMap::columnLabels(const ColumnLabelLayout &layout) const
{
    std::vector<std::pair<int, QString>> out;
    const QFontMetrics fm(font());
    // Ranks 0, 2, 4, ...: a label may reach half a stride past the grid's ends, where the row
    // labels and the margin are.
    for (int c = 0; c < m_columns.size(); ++c) {
        bool numeric = false;
        const qlonglong v = m_columns[c].toLongLong(&numeric);
        if ((numeric ? v : c) % layout.every == 0)
            out.emplace_back(c, fm.elidedText(m_columns[c], Qt::ElideMiddle, layout.room));
    }
    return out;
}

std::vector<std::pair<int, QString>> HeatMap::shownColumnLabels() const
{
    return columnLabels(columnLabelLayout());
}

QPoint HeatMap::emptyLegendPos() const
{
    const QRect g = gridRect();
    return {g.left() + std::min(g.width(), 240) + 2 * Margin, g.bottom() + Margin + 2};
}

QString HeatMap::shownTitle() const
{
    QFont bold = font();
    bold.setBold(true);
    return elideMiddle(m_title, QFontMetrics(bold), width() - 2 * Margin);
}

void HeatMap::mouseMoveEvent(QMouseEvent *event)
{
    const auto [r, c] = cellAt(event->position().toPoint());
    if (r >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), toolTipFor(r, c), this);
    else if (event->position().y() < Margin + fontMetrics().height() && !m_title.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), m_title, this);
    else
        QToolTip::hideText();
}

void HeatMap::mousePressEvent(QMouseEvent *event)
{
    const auto [r, c] = cellAt(event->position().toPoint());
    if (r >= 0 && event->button() == Qt::LeftButton)
        emit cellClicked(r, c);
}

} // namespace stepscope::ui
