// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "timechart.h" // ValueUnit

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>

class QFontMetrics;

namespace stepscope::ui {

/// One set of bars: one value per category (NaN: no bar).
struct BarSetData
{
    QString name;
    QColor color;
    QList<double> values;
};

/// Stacked or grouped bars over categories (steps, memory categories), the adapter in front
/// of Qt Charts' bar series (STYLE.md §5). Values are raw (ns, bytes, ...) and shown in the
/// chart's ValueUnit; optional markers (e.g. the profiler's own step time) are drawn as points
/// over each category. Hovering a bar shows its exact value and its share of the stack; a
/// click emits barClicked.
///
/// GUI thread only.
class BarChart : public QWidget
{
    Q_OBJECT
public:
    enum class Mode { Stacked, Grouped };

    explicit BarChart(QWidget *parent = nullptr);
    ~BarChart() override;

    void setTitle(const QString &title);
    void setValueUnit(ValueUnit unit);
    void setValueAxisTitle(const QString &title);
    void setCategoryAxisTitle(const QString &title);
    /// Where the legend goes (default: right, one entry per line).
    void setLegendAlignment(Qt::Alignment alignment);
    /// Replaces the bars. Every set's values are padded/truncated to categories.size().
    void setData(const QStringList &categories, const QList<BarSetData> &sets, Mode mode);
    /// A marker per category (NaN: none), e.g. the reference step time. Cleared by setData.
    void setMarkers(const QString &name, const QColor &color, const QList<double> &values);

    // Introspection (tests, export).
    int categoryCount() const;
    /// The category labels as drawn: elided in the middle to the width each category has
    /// (elide.h); the full name is in the bar's tooltip. Step numbers too crowded to label
    /// each: the labelled ones only, every labelEvery()-th, whole (sparselabels.h).
    QStringList shownCategories() const;
    /// 1 when every category is labelled; else the stride of the labelled ones.
    int labelEvery() const;
    int setCount() const;
    double value(int set, int category) const;
    /// Sum of the non-NaN values of a category over all sets.
    double stackTotal(int category) const;
    /// The marker of a category (NaN: none).
    double marker(int category) const;
    QString toolTipFor(int set, int category) const;
    /// Widget coordinates of the centre of a bar (stacked mode: of its segment).
    QPoint barCenter(int set, int category) const;

signals:
    void barClicked(int category, int set);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
    void rebuild();
    void elideCategories();
    bool useSparseLabels(double plotWidth, int room, const QFontMetrics &fm);
};

} // namespace stepscope::ui
