// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "ui/charts/heatscale.h"

#include <QImage>
#include <QRect>
#include <QWidget>

#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

class QPainter;

namespace stepscope::ui {

/// The rank × step matrix of the Cluster panel: one row per rank, one column per step, the
/// colour of a cell its value (step time or a category's time) on a sequential scale from the
/// smallest to the largest value (or, diverging, centred on 0 for deltas), with the scale and
/// its units drawn under the grid. Built for thousands of ranks: when there are more ranks
/// than pixel rows, each pixel row shows the largest value of the ranks it covers (a straggler
/// never disappears), and the picture is cached as an image, so painting does not depend on
/// the number of ranks. Hover shows the value; double-click emits cellActivated with the
/// cell's rank row (the slowest of a pixel's ranks). GUI thread only.
class ClusterHeatMap : public QWidget
{
    Q_OBJECT

public:
    explicit ClusterHeatMap(QWidget *parent = nullptr);

    /// values: rows × columns, row-major; NaN = no value (drawn hatched, as
    /// the communication matrix's empty cells, with a "no data" legend entry). `format` prints a
    /// value with its unit (the legend prints the scale ends with it).
    void setMatrix(std::vector<std::int32_t> rowRanks, std::vector<std::int64_t> columnSteps,
        std::vector<double> values, const QString &title, std::function<QString(double)> format);
    /// Diverging scale centred on 0 (compare deltas: blue faster, red slower).
    void setDiverging(bool diverging);
    /// Cells (row, column) outlined in the palette's "worse" colour, e.g. the stragglers;
    /// `label` names them in the legend ("straggler").
    void setMarkers(std::vector<std::pair<int, int>> cells, const QString &label);
    const std::vector<std::pair<int, int>> &markers() const { return m_markers; }

    int rowCount() const { return static_cast<int>(m_ranks.size()); }
    int columnCount() const { return static_cast<int>(m_steps.size()); }
    double value(int row, int column) const;
    std::int32_t rankOfRow(int row) const { return m_ranks[static_cast<std::size_t>(row)]; }
    std::int64_t stepOfColumn(int column) const
    {
        return m_steps[static_cast<std::size_t>(column)];
    }
    /// Smallest and largest present value (the ends of the legend).
    std::pair<double, double> scaleRange() const { return {m_scale.min(), m_scale.max()}; }
    QString title() const { return m_title; }
    /// Where the cells are drawn (widget coordinates).
    QRect gridRect() const;
    /// The rows a pixel row covers: [first, last).
    std::pair<int, int> rowsAtY(int y) const;
    /// The cell under a position: the row is the one with the largest value of the pixel's
    /// rows; {-1, -1} outside.
    std::pair<int, int> cellAt(const QPoint &pos) const;
    QColor colorFor(double value) const;
    /// True when the cell has no value (that rank recorded no such step): drawn hatched.
    bool isEmptyCell(int row, int column) const { return std::isnan(value(row, column)); }
    bool hasEmptyCells() const;
    QString toolTipAt(const QPoint &pos) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    /// The text written beside (or, when the widget is too narrow, under) the colour scale,
    /// and where the last paint put it.
    QString legendCaption() const;
    QRect captionRect() const { return m_captionRect; }
    /// Where the last paint put the legend entry of the hatched empty cells (empty when there
    /// are none).
    QRect emptyLegendRect() const { return m_emptyLegendRect; }
    /// The word beside the hatched swatch.
    static QString emptyText();

signals:
    void cellActivated(int row, int column);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;

private:
    int labelWidth() const;
    bool captionBelowLegend() const;
    void rebuildImage() const;
    void paintEmptyCells(QPainter &p, const QRect &grid) const;

    std::vector<std::int32_t> m_ranks;
    std::vector<std::int64_t> m_steps;
    std::vector<double> m_values;
    QString m_title;
    HeatScale m_scale;
    bool m_diverging = false;
    std::vector<std::pair<int, int>> m_markers;
    QString m_markerLabel;
    mutable QImage m_image; ///< one pixel per column × pixel row of the grid
    mutable std::vector<bool> m_emptyPixels; ///< m_image's pixels (row-major) with no value
    mutable QSize m_imageFor;
    QRect m_captionRect;
    QRect m_emptyLegendRect;
};

} // namespace stepscope::ui
