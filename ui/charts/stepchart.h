// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QColor>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

namespace stepscope::ui {

/// A chart of series over training steps (the adapter in front of Qt Charts for the
/// Training panel; STYLE.md §5). Lines are drawn through their finite points; NaN/inf
/// points are marked with a cross at the bottom of the plot, event markers (skipped steps)
/// with a triangle. The value axis can be logarithmic (non-positive values are then left
/// out of the line, and counted in nonPlottedCount). Several charts share one step axis
/// through setStepRange. Hover shows the nearest point's step, value and log line; a left
/// click emits pointClicked with that point. GUI thread only.
class StepChart : public QWidget
{
    Q_OBJECT
public:
    explicit StepChart(QWidget *parent = nullptr);
    ~StepChart() override;

    void setTitle(const QString &title);
    QString title() const;
    /// The value axis' title, e.g. "Throughput (samples/s)"; shown whole when the plot is
    /// tall enough, else its "(unit)" part, else elided in the middle (shownValueAxisTitle).
    void setValueAxisTitle(const QString &title);
    /// Values are bytes: the value axis in binary units (KiB … TiB), its unit in the title.
    void setBytes(bool bytes);
    /// The values are durations, `nsPerUnit` ns each (1e6 for a log's ms): the axis in the
    /// unit the span needs (µs, ms, s). 0: plain values.
    void setDurationUnit(double nsPerUnit);
    QString shownValueAxisTitle() const;
    void setLogScale(bool log);
    bool logScale() const;
    /// The labels of a logarithmic value axis, as drawn at its ticks; empty when linear.
    QStringList valueAxisLabels() const;
    void clear();
    /// A line; steps, values and lines (1-based log lines, 0 unknown) have one length.
    /// `source` names the file the lines belong to. Returns the series index.
    int addLine(const QString &name, const QColor &color, std::vector<std::int64_t> steps,
        std::vector<double> values, std::vector<std::int64_t> lines, const QString &source);
    /// Event markers at steps (e.g. overflow-skipped steps), drawn as triangles at the top.
    /// The legend reads "name (count)": `count` events in all, the markers' number when -1
    /// (a marker may stand for several, as an increase of a running total does).
    void addEvents(const QString &name, const QColor &color, std::vector<std::int64_t> steps,
        std::vector<std::int64_t> lines, const QString &source, std::int64_t count = -1);
    /// The step axis shown; by default the extent of the data.
    void setStepRange(std::int64_t first, std::int64_t last);
    std::pair<std::int64_t, std::int64_t> dataExtent() const;

    // Introspection (tests, export).
    int seriesCount() const;
    QString seriesName(int series) const;
    /// Points drawn for `series` (x = step, y = value).
    QList<QPointF> drawnPoints(int series) const;
    /// Non-finite points marked over all lines.
    int nonFiniteCount() const;
    /// Finite points not drawn because the axis is logarithmic and they are <= 0.
    int nonPlottedCount() const;
    int eventCount() const;
    /// The legend entries of the event markers, as drawn ("skipped step (139)").
    QStringList eventLegends() const;
    /// Hover text for the point nearest to `step` over all lines ("" when none).
    QString toolTipAt(std::int64_t step) const;
    /// Widget coordinates of (step, value) on the plot; used to click in tests.
    QPoint widgetPosition(std::int64_t step, double value) const;

signals:
    /// Left click: the nearest point's step, its log line and file (line 0 when unknown).
    void pointClicked(qint64 step, qint64 line, const QString &source);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace stepscope::ui
