// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace stepscope::ui {

/// How the value axis and the hover text print values.
enum class ValueUnit {
    Bytes, ///< binary units on the axis (MiB / GiB), exact bytes in the tooltip
    Duration, ///< values in ns, axis in ms
    Plain,
};

/// A chart of series over time, the adapter in front of Qt Charts for lines, stacked areas
/// and markers (STYLE.md §5: nothing outside ui/charts/ includes a Qt Charts header).
///
/// The chart keeps the full series and hands Qt Charts only a decimated copy (core
/// analysis::decimate, about two points per pixel of plot width, min and max per bucket), fed
/// in bulk with QXYSeries::replace. It re-decimates when resized or zoomed (drag a range with
/// the mouse to zoom, right-click to zoom out). Times are ns relative to the trace origin; the
/// x axis shows ms or s. Hovering shows the exact value of every series at the cursor's time
/// (series are step functions: a value holds until the next point); a left click emits
/// timeClicked with the time of the series point under the cursor.
///
/// GUI thread only.
class TimeChart : public QWidget
{
    Q_OBJECT
public:
    explicit TimeChart(QWidget *parent = nullptr);
    ~TimeChart() override;

    void setTitle(const QString &title);
    void setValueUnit(ValueUnit unit);
    void setValueAxisTitle(const QString &title);
    /// Where the legend sits (bottom by default; right when the chart is short and wide).
    void setLegendAlignment(Qt::Alignment alignment);
    Qt::Alignment legendAlignment() const;
    /// Removes every series and marker.
    void clear();

    /// A line. Timestamps sorted (asserted in core); values.size() == timestampsNs.size().
    /// With skipNegative, negative values mean "not recorded" and are left out.
    /// Returns the series index (lines and stacks share one numbering, in insertion order).
    int addLine(const QString &name, const QColor &color, std::vector<std::int64_t> timestampsNs,
        std::vector<double> values, bool skipNegative = false);
    /// Stacked areas, rows bottom to top, each of the timestamps' length. One series index per
    /// row; the stack is decimated on one set of points so it stays consistent.
    int addStack(const QStringList &names, const QList<QColor> &colors,
        std::vector<std::int64_t> timestampsNs, std::vector<std::vector<std::int64_t>> rows);
    /// A marked point (e.g. the peak), drawn on top with its label in the legend.
    void addMarker(const QString &label, const QColor &color, std::int64_t tNs, double value);
    /// Empty stretches of time ([start, end) ns, e.g. between two captures) drawn short, as
    /// the timeline draws its breaks, whenever one is longer than a few pixels at the scale
    /// shown. clear() keeps them.
    void setBreaks(std::vector<std::pair<std::int64_t, std::int64_t>> breaksNs);
    /// Breaks drawn short in the window shown, as of the last refresh.
    int cutCount() const;
    /// The time axis' labels while breaks are cut short (empty otherwise).
    QStringList timeTickLabels() const;
    /// Shows [startNs, endNs]; the default after adding series is their whole extent.
    void setTimeWindow(std::int64_t startNs, std::int64_t endNs);
    void resetTimeWindow();
    /// The window shown when not zoomed (and after a reset) instead of the data's own extent:
    /// charts of one panel share one time base. clear() keeps it.
    void setHomeWindow(std::int64_t startNs, std::int64_t endNs);
    /// The time the axis and the hover text call 0 (series keep their own times: timeClicked,
    /// timeAt and the windows are in them). 0 unless set; clear() keeps it.
    void setTimeOrigin(std::int64_t originNs);
    std::int64_t timeOrigin() const;
    /// The window on screen: the zoom, else the home window, else the data extent.
    std::pair<std::int64_t, std::int64_t> shownWindow() const;

    // Introspection (tests, export).
    int seriesCount() const;
    QString seriesName(int series) const;
    /// Points handed to Qt Charts for `series` (x in ns, y in the series' value unit; for a
    /// stack row, y is the top of the row).
    QList<QPointF> drawnPoints(int series) const;
    /// The value of `series` in effect at time t (the last point at or before t), NaN before
    /// its first point. For a stack row, the row's own value (not the top).
    double valueAt(int series, std::int64_t tNs) const;
    /// The hover text for time t.
    QString toolTipAt(std::int64_t tNs) const;
    /// Widget coordinates of (t, value) on the plot; used to click in tests.
    QPoint widgetPosition(std::int64_t tNs, double value) const;
    /// The time under a widget position.
    std::int64_t timeAt(const QPoint &widgetPos) const;
    /// Times of the first and last point over all series; {0, 0} when empty.
    std::pair<std::int64_t, std::int64_t> dataExtent() const;

    /// Re-decimates to the current plot width (called on resize and zoom; public for tests).
    void refresh();
    /// The time axis' labelled ticks inside the shown window, as of the last refresh.
    int timeTickCount() const;

signals:
    /// Left click on the plot: the time of the series point in effect under the cursor.
    void timeClicked(qint64 tNs);
    /// The shown window changed by setTimeWindow (a drag zooms) / went back to everything;
    /// lets a panel keep several charts on one time axis.
    void timeWindowChanged(qint64 startNs, qint64 endNs);
    void timeWindowReset();

private:
    void refreshOnce();

    struct Impl;
    std::unique_ptr<Impl> d;
    friend struct Impl;
};

/// Formats a value of `unit` as the hover text and tables print it ("4.49 GiB", "12.3 ms").
QString formatValue(ValueUnit unit, double value);

} // namespace stepscope::ui
