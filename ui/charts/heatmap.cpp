// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "heatmap.h"

#include "elide.h"
#include "gridbuckets.h"
#include "sparselabels.h"
#include "ui/palette.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <tuple>

namespace stepscope::ui {

namespace {

constexpr int Margin = 6;
constexpr int LegendHeight = 14;
constexpr int MaxCell = 72;

/// Whether the `index`-th label is one of every `every`: by its number when it is one (ranks
/// 0, 2, 4, ... whatever the first rank), else by its place.
bool onStride(const QString &label, int index, int every)
{
    bool numeric = false;
    const qlonglong n = label.toLongLong(&numeric);
    return (numeric ? n : index) % every == 0;
}

/// The pixel of an `image` scaled into `grid` that lies under a grid position.
QPoint imagePixelAt(const QRect &grid, QSize image, QPoint pos)
{
    return {(pos.x() - grid.left()) * image.width() / std::max(1, grid.width()),
        (pos.y() - grid.top()) * image.height() / std::max(1, grid.height())};
}

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
    m_rowLabelWidth = -1; // the row title is measured with the row labels
    update();
}

void HeatMap::setMatrix(const QStringList &rows, const QStringList &columns,
    const QList<double> &values, std::function<QString(double)> format)
{
    assert(values.size() == rows.size() * columns.size());
    std::vector<HeatCell> cells;
    for (qsizetype i = 0; i < values.size() && !columns.isEmpty(); ++i) {
        if (!std::isnan(values[i]))
            cells.push_back({static_cast<int>(i / columns.size()),
                static_cast<int>(i % columns.size()), values[i]});
    }
    setCells(rows, columns, std::move(cells), std::move(format));
}

void HeatMap::setCells(const QStringList &rows, const QStringList &columns,
    std::vector<HeatCell> cells, std::function<QString(double)> format)
{
    m_rows = rows;
    m_columns = columns;
    cells.erase(std::remove_if(cells.begin(), cells.end(),
                    [&](const HeatCell &c) {
                        return c.row < 0 || c.column < 0 || c.row >= rows.size()
                            || c.column >= columns.size() || std::isnan(c.value);
                    }),
        cells.end());
    std::stable_sort(cells.begin(), cells.end(), [](const HeatCell &a, const HeatCell &b) {
        return std::tie(a.row, a.column) < std::tie(b.row, b.column);
    });
    // A later cell at the same place replaces an earlier one: keep the last of each run.
    std::vector<HeatCell> unique;
    for (const HeatCell &c : cells) {
        if (!unique.empty() && unique.back().row == c.row && unique.back().column == c.column)
            unique.back() = c;
        else
            unique.push_back(c);
    }
    m_cells = std::move(unique);
    std::vector<double> values;
    values.reserve(m_cells.size());
    for (const HeatCell &c : m_cells)
        values.push_back(c.value);
    m_scale.setFormat(std::move(format));
    m_scale.fit(values.data(), values.data() + values.size(), HeatScale::Range::FromZero);
    m_rowLabelWidth = -1;
    m_imageFor = QSize();
    updateGeometry();
    update();
}

double HeatMap::value(int row, int column) const
{
    const auto it = std::lower_bound(m_cells.begin(), m_cells.end(), std::make_pair(row, column),
        [](const HeatCell &c, const std::pair<int, int> &at) {
            return std::tie(c.row, c.column) < std::tie(at.first, at.second);
        });
    return it != m_cells.end() && it->row == row && it->column == column ? it->value : std::nan("");
}

void HeatMap::measureLabels() const
{
    if (m_rowLabelWidth >= 0 && m_labelFont == font())
        return;
    m_labelFont = font();
    const QFontMetrics fm(font());
    m_rowLabelWidth = fm.horizontalAdvance(m_rowTitle);
    for (const QString &r : m_rows)
        m_rowLabelWidth = std::max(m_rowLabelWidth, fm.horizontalAdvance(r));
    m_widestColumnLabel = 0;
    for (const QString &label : m_columns)
        m_widestColumnLabel = std::max(m_widestColumnLabel, fm.horizontalAdvance(label) + 4);
}

HeatMap::Layout HeatMap::layout() const
{
    const QFontMetrics fm(font());
    measureLabels();
    const int left = Margin + m_rowLabelWidth + Margin;
    const int top = Margin + (m_title.isEmpty() ? 0 : fm.height() + Margin) + 2 * fm.height();
    const int bottom = Margin + LegendHeight + fm.height() + Margin;
    const int cols = std::max(1, static_cast<int>(m_columns.size()));
    const int rows = std::max(1, static_cast<int>(m_rows.size()));
    const int availW = std::max(1, width() - left - Margin);
    const int availH = std::max(1, height() - top - bottom);
    Layout l;
    l.cell = std::min({availW / cols, availH / rows, MaxCell});
    if (l.cell >= MinCellPx || (rows == 1 && cols == 1)) {
        l.cell = std::max(1, l.cell);
        l.grid = QRect(left, top, l.cell * cols, l.cell * rows);
        return l;
    }
    // Too many cells for the space: a square grid, each pixel a group of rows and columns.
    l.binned = true;
    const int side = std::max(1, std::min(availW, availH));
    l.grid = QRect(left, top, side, side);
    l.image = QSize(std::min(cols, side), std::min(rows, side));
    return l;
}

QRect HeatMap::cellRect(int row, int column) const
{
    const Layout l = layout();
    const QRect &g = l.grid;
    if (!l.binned)
        return QRect(g.left() + column * l.cell, g.top() + row * l.cell, l.cell, l.cell);
    // The image pixel the cell falls in, as drawImage scales it into the grid.
    const int x = pixelOfItem(column, columnCount(), l.image.width());
    const int y = pixelOfItem(row, rowCount(), l.image.height());
    const int x0 = g.left() + pixelOfItem(x, l.image.width(), g.width());
    const int x1 = g.left() + pixelOfItem(x + 1, l.image.width(), g.width());
    const int y0 = g.top() + pixelOfItem(y, l.image.height(), g.height());
    const int y1 = g.top() + pixelOfItem(y + 1, l.image.height(), g.height());
    return QRect(QPoint(x0, y0), QPoint(std::max(x0, x1 - 1), std::max(y0, y1 - 1)));
}

std::pair<std::pair<int, int>, std::pair<int, int>> HeatMap::itemsAt(
    const Layout &l, QPoint pos) const
{
    const QPoint p = imagePixelAt(l.grid, l.image, pos);
    return {itemsUnderPixel(p.y(), rowCount(), l.image.height()),
        itemsUnderPixel(p.x(), columnCount(), l.image.width())};
}

std::pair<int, int> HeatMap::cellAt(const QPoint &pos) const
{
    const Layout l = layout();
    const QRect &g = l.grid;
    if (!g.contains(pos) || m_columns.isEmpty() || m_rows.isEmpty())
        return {-1, -1};
    if (l.binned) {
        // The pixel's largest cell (its colour), else the first row and column under it.
        rebuildImage(l);
        const QPoint p = imagePixelAt(g, l.image, pos);
        const int k = m_pixelCell[static_cast<std::size_t>(p.y()) * l.image.width() + p.x()];
        if (k >= 0)
            return {m_cells[static_cast<std::size_t>(k)].row,
                m_cells[static_cast<std::size_t>(k)].column};
        const auto [rows, cols] = itemsAt(l, pos);
        return {rows.first, cols.first};
    }
    const int c = (pos.x() - g.left()) / l.cell;
    const int r = (pos.y() - g.top()) / l.cell;
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

QString HeatMap::toolTipAt(const QPoint &pos) const
{
    const auto [r, c] = cellAt(pos);
    if (r < 0)
        return {};
    const QString tip = toolTipFor(r, c);
    const Layout l = layout();
    if (!l.binned)
        return tip;
    const auto [rows, cols] = itemsAt(l, pos);
    if (rows.second - rows.first == 1 && cols.second - cols.first == 1)
        return tip;
    const auto span = [](const QStringList &labels, std::pair<int, int> items) {
        return items.second - items.first == 1
            ? labels[items.first]
            : QStringLiteral("%1–%2").arg(labels[items.first], labels[items.second - 1]);
    };
    const QString under =
        QStringLiteral("%1 %2 → %3 %4")
            .arg(m_rowTitle, span(m_rows, rows), m_columnTitle, span(m_columns, cols));
    if (std::isnan(value(r, c)))
        return under + QStringLiteral(": no traffic");
    return tip + QStringLiteral("\n(the largest of %1 under this pixel)").arg(under);
}

/*
 * One image pixel per group of rows and columns, the colour of the largest value among them,
 * transparent where none has a value (the hatched grid shows through). Built from the cells
 * that hold a value: no pass over rows times columns.
 */
void HeatMap::rebuildImage(const Layout &l) const
{
    if (m_imageFor == l.image && !m_image.isNull())
        return;
    m_imageFor = l.image;
    const int iw = std::max(1, l.image.width());
    const int ih = std::max(1, l.image.height());
    m_image = QImage(iw, ih, QImage::Format_ARGB32);
    m_image.fill(Qt::transparent);
    m_pixelCell.assign(static_cast<std::size_t>(iw) * ih, -1);
    for (std::size_t k = 0; k < m_cells.size(); ++k) {
        const HeatCell &c = m_cells[k];
        const std::size_t at = static_cast<std::size_t>(pixelOfItem(c.row, rowCount(), ih)) * iw
            + static_cast<std::size_t>(pixelOfItem(c.column, columnCount(), iw));
        int &best = m_pixelCell[at];
        if (best < 0 || c.value > m_cells[static_cast<std::size_t>(best)].value)
            best = static_cast<int>(k);
    }
    for (int y = 0; y < ih; ++y) {
        auto *line = reinterpret_cast<QRgb *>(m_image.scanLine(y));
        for (int x = 0; x < iw; ++x) {
            const int k = m_pixelCell[static_cast<std::size_t>(y) * iw + x];
            if (k >= 0)
                line[x] = colorFor(m_cells[static_cast<std::size_t>(k)].value).rgb();
        }
    }
}

QSize HeatMap::sizeHint() const
{
    // 40 px a cell, up to what a screen holds (ten thousand ranks asked for 400 000 px).
    const auto hint = [](qsizetype n, int base, int most) {
        return static_cast<int>(std::min<qsizetype>(base + 40 * n, most));
    };
    return QSize(hint(m_columns.size(), 120, 1200), hint(m_rows.size(), 90, 1000));
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
    const Layout l = layout();
    const QRect &g = l.grid;
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
    // Row labels: every n-th where the rows are closer than a line of text.
    const double rowPx = static_cast<double>(g.height()) / static_cast<double>(m_rows.size());
    const int stride = labelStride(rowPx, fm.height());
    for (int r = 0; r < m_rows.size(); ++r) {
        if (!onStride(m_rows[r], r, stride))
            continue;
        const int cy = g.top() + static_cast<int>((r + 0.5) * rowPx);
        p.drawText(QRect(Margin, cy - fm.height() / 2, g.left() - 2 * Margin, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, m_rows[r]);
    }
    if (l.binned) {
        rebuildImage(l);
        p.fillRect(g, QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
        p.drawImage(g, m_image);
    } else {
        auto next = m_cells.begin();
        for (int r = 0; r < m_rows.size(); ++r) {
            for (int c = 0; c < m_columns.size(); ++c) {
                const QRect cell(g.left() + c * l.cell, g.top() + r * l.cell, l.cell, l.cell);
                if (next == m_cells.end() || next->row != r || next->column != c) {
                    HeatScale::paintEmptyCell(p, cell.adjusted(0, 0, -1, -1), palette());
                    continue;
                }
                const double v = (next++)->value;
                const QColor fill = colorFor(v);
                p.fillRect(cell.adjusted(0, 0, -1, -1), fill);
                const QString text = m_scale.text(v);
                if (fm.horizontalAdvance(text) + 4 <= cell.width()
                    && fm.height() <= cell.height()) {
                    p.setPen(textOn(fill));
                    p.drawText(cell, Qt::AlignCenter, text);
                }
            }
        }
    }
    // Legend: the colour scale from the smallest to the largest value.
    const QRect legend(g.left(), g.bottom() + Margin + 2, std::min(g.width(), 240), LegendHeight);
    p.setPen(palette().color(QPalette::Text));
    m_scale.paintLegend(p, legend, fm, heatScaleColor);
    if (static_cast<qsizetype>(m_cells.size()) < m_rows.size() * m_columns.size())
        HeatScale::paintEmptyLegend(p, emptyLegendPos(), fm, palette(),
            m_emptyText.isEmpty() ? tr("no data") : m_emptyText);
}

HeatMap::ColumnLabelLayout HeatMap::columnLabelLayout() const
{
    if (m_columns.isEmpty())
        return {};
    const Layout l = layout();
    const double cell = static_cast<double>(l.grid.width()) / static_cast<double>(m_columns.size());
    measureLabels();
    const int every = sparseCategoryLabels(m_columns, cell, m_widestColumnLabel).every;
    return {every, std::max(static_cast<int>(cell), static_cast<int>(every * cell))};
}

std::vector<std::pair<int, QString>> HeatMap::columnLabels(const ColumnLabelLayout &layout) const
{
    std::vector<std::pair<int, QString>> out;
    const QFontMetrics fm(font());
    // Ranks 0, 2, 4, ...: a label may reach half a stride past the grid's ends, where the row
    // labels and the margin are.
    for (int c = 0; c < m_columns.size(); ++c) {
        if (onStride(m_columns[c], c, layout.every))
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
    const QString tip = toolTipAt(event->position().toPoint());
    if (!tip.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
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
