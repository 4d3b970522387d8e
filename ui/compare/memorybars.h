// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/deltarow.h"
#include "ui/palette.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace stepscope::ui {
class BarChart;
}

namespace stepscope::ui::compare {

/// What compare mode's memory chart shows, read from the comparison's memory rows
/// (analysis::RunComparison::memoryRows, the rows of the Δ table and the report's table):
/// - both runs name what their memory held at the allocator's peak ("memory.<group>" rows):
///   those categories, and "In no record", which add up to each run's peak allocated;
/// - else the peak of each category over time ("memory_peak.<group>"), as far as a run has
///   categories;
/// - else the peak allocated and reserved.
/// Categories where neither run has a figure above zero are left out. Values in bytes; NaN
/// where a run has no figure.
struct MemoryBars
{
    QString title;
    QStringList categories;
    QList<double> before;
    QList<double> after;

    bool empty() const { return categories.isEmpty(); }
};

MemoryBars memoryBars(const std::vector<analysis::DeltaRow> &rows);

/// Fills `chart` with grouped bars, "before" and "after" in the compare colours.
void fillMemoryChart(BarChart &chart, const MemoryBars &bars, const QString &beforeName,
    const QString &afterName, Theme theme);

} // namespace stepscope::ui::compare
