// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "heatscale.h"

#include <QColor>
#include <QFont>
#include <QImage>
#include <QList>
#include <QRect>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <utility>
#include <vector>

namespace stepscope::ui {

/// One cell of a HeatMap that holds a value.
struct HeatCell
{
    int row = 0;
    int column = 0;
    double value = 0;
};

/// A matrix drawn as coloured cells (the rank-to-rank communication matrix). Qt Charts has no
/// heat map, so this one is painted with QPainter; it lives in ui/charts/ beside the adapter.
///
/// Rows are sources, columns destinations. Only the cells with a value are kept; the others
/// ("no traffic") are drawn empty, hatched. The colour scale is sequential (light = little,
/// dark = much) from the smallest to the largest present value; a legend bar shows it.
/// Hovering a cell shows the exact value; clicking it emits cellClicked. When the cells would
/// be smaller than MinCellPx (thousands of ranks), each pixel of the grid shows the largest
/// value of the rows and columns under it, and hovering or clicking it picks that cell: memory
/// and painting grow with the cells that hold a value and the widget's size, not with rows
/// times columns. GUI thread only.
class HeatMap : public QWidget
{
    Q_OBJECT
public:
    explicit HeatMap(QWidget *parent = nullptr);

    void setTitle(const QString &title);
    void setAxisTitles(const QString &rows, const QString &columns);
    /// What an empty (NaN) cell means, written beside its hatched swatch in the legend
    /// ("no traffic"); default "no data".
    void setEmptyText(const QString &text);
    /// The title as painted: elided in the middle to the widget's width.
    QString shownTitle() const;
    /// Where the empty-cell legend entry starts (tests read its pixels).
    QPoint emptyLegendPos() const;
    /// Cells smaller than this are drawn a pixel per group of rows and columns.
    static constexpr int MinCellPx = 6;

    /// values.size() must be rows.size() * columns.size() (asserted), row-major, NaN for no
    /// value; `format` prints a value.
    void setMatrix(const QStringList &rows, const QStringList &columns, const QList<double> &values,
        std::function<QString(double)> format);
    /// The same from the cells that hold a value, in any order; a cell outside the rows or
    /// columns is ignored, and a later cell at the same place replaces an earlier one.
    void setCells(const QStringList &rows, const QStringList &columns, std::vector<HeatCell> cells,
        std::function<QString(double)> format);

    int rowCount() const { return static_cast<int>(m_rows.size()); }
    int columnCount() const { return static_cast<int>(m_columns.size()); }
    /// NaN where the cell has no value.
    double value(int row, int column) const;
    /// Whether a pixel of the grid stands for several rows or columns (cells < MinCellPx).
    bool isBinned() const { return layout().binned; }
    QRect cellRect(int row, int column) const;
    /// The cell under a widget position, {-1, -1} outside.
    std::pair<int, int> cellAt(const QPoint &pos) const;
    QColor cellColor(int row, int column) const;
    QString toolTipFor(int row, int column) const;
    /// What hovering a widget position shows: its cell's tooltip and, binned, which rows and
    /// columns the pixel stands for; empty outside the grid.
    QString toolTipAt(const QPoint &pos) const;
    /// The column labels as painted, with the column each is centred on: every n-th where
    /// they do not all fit their cells ("0, 2, 4, ..." rather than "10" shown as "…").
    std::vector<std::pair<int, QString>> shownColumnLabels() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellClicked(int row, int column);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    /// The grid: cells of `cell` px each way, or (binned) `image` pixels of rows and columns
    /// scaled into `grid`.
    struct Layout
    {
        QRect grid;
        bool binned = false;
        int cell = 1;
        QSize image;
    };
    Layout layout() const;
    QRect gridRect() const { return layout().grid; }
    /// The widest row label (or row title) and column label for the font, measured once.
    void measureLabels() const;
    /// Binned: the image of the largest value under each pixel, for this layout.
    void rebuildImage(const Layout &l) const;
    /// Binned: the rows [first, last) and columns under a grid position.
    std::pair<std::pair<int, int>, std::pair<int, int>> itemsAt(const Layout &l, QPoint pos) const;
    /// Where the column labels fit: every `every`-th column is labelled (the stride the step
    /// charts use), each label `room` wide (its cell, or the cells up to the next label).
    struct ColumnLabelLayout
    {
        int every = 1;
        int room = 0;
    };
    ColumnLabelLayout columnLabelLayout() const;
    std::vector<std::pair<int, QString>> columnLabels(const ColumnLabelLayout &layout) const;
    QColor colorFor(double value) const;

    QString m_title;
    QString m_emptyText;
    QString m_rowTitle;
    QString m_columnTitle;
    QStringList m_rows;
    QStringList m_columns;
    std::vector<HeatCell> m_cells; ///< sorted by row, then column
    HeatScale m_scale;
    // Caches: the labels' widths for a font, the binned image for a grid size.
    mutable QFont m_labelFont;
    mutable int m_rowLabelWidth = -1;
    mutable int m_widestColumnLabel = -1;
    mutable QImage m_image;
    mutable QSize m_imageFor;
    mutable std::vector<int> m_pixelCell; ///< per image pixel: its largest cell, -1 none
};

} // namespace stepscope::ui
