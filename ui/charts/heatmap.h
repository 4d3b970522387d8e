// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "heatscale.h"

#include <QColor>
#include <QList>
#include <QRect>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <utility>
#include <vector>

namespace stepscope::ui {

/// A matrix drawn as coloured cells (the rank-to-rank communication matrix). Qt Charts has no
/// heat map, so this one is painted with QPainter; it lives in ui/charts/ beside the adapter.
///
/// Rows are sources, columns destinations. Values are row-major; NaN means "no traffic" and is
/// drawn as an empty cell. The colour scale is sequential (light = little, dark = much) from
/// the smallest to the largest present value; a legend bar shows it. Hovering a cell shows the
/// exact value; clicking it emits cellClicked. GUI thread only.
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
    /// values.size() must be rows.size() * columns.size() (asserted); `format` prints a value.
    void setMatrix(const QStringList &rows, const QStringList &columns, const QList<double> &values,
        std::function<QString(double)> format);

    int rowCount() const { return static_cast<int>(m_rows.size()); }
    int columnCount() const { return static_cast<int>(m_columns.size()); }
    double value(int row, int column) const;
    QRect cellRect(int row, int column) const;
    /// The cell under a widget position, {-1, -1} outside.
    std::pair<int, int> cellAt(const QPoint &pos) const;
    QColor cellColor(int row, int column) const;
    QString toolTipFor(int row, int column) const;
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
    QRect gridRect() const;
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
    QList<double> m_values;
    HeatScale m_scale;
};

} // namespace stepscope::ui
