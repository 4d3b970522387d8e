// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "comparedata.h"
#include "ui/palette.h"

#include <QColor>
#include <QString>

#include <vector>

class QTableWidget;

namespace stepscope::ui::compare {

/// A titled block of delta rows of the Δ table.
struct DeltaSection
{
    QString title;
    std::vector<analysis::DeltaRow> rows;
};

/// The sections of the Δ table, every row from analysis::compareRuns: KPIs, the mean over
/// the paired steps, the aligned pair per breakdown category (its row of `pairRows`),
/// bottleneck shares and memory peaks of the shown ranks.
std::vector<DeltaSection> deltaSections(
    const analysis::RunComparison &comparison, const AlignedPair &aligned);

/// analysis::formatRowValue as a QString (the same text as the report and the Markdown).
QString formatDeltaValue(const std::string &unit, double value, bool isDelta = false);
/// analysis::rowTitle: KPI keys get their docs/metrics.md titles.
QString rowLabel(const analysis::DeltaRow &row);
/// Green for Improved, red for Regressed, invalid (no colour) otherwise.
QColor verdictColor(analysis::Verdict verdict, Theme theme = Theme::Light);

/// Columns of the Δ table.
enum class DeltaColumn { Metric, Before, After, Delta, Percent };
inline constexpr int DeltaColumnCount = 5;

/// Fills `table` (section title rows in bold, then Metric / Before / After / Δ / %; the Δ
/// and % cells coloured by verdict). Each metric row keeps its key in Qt::UserRole of the
/// Metric cell.
void fillDeltaTable(QTableWidget *table, const std::vector<DeltaSection> &sections);

/// Fills the kernel table: top names by |Δ total| then the names of one side only.
/// Columns: Name, Count b/a, Total b/a, Δ, Mean b/a, Median b/a, Share b/a. With
/// `perPairedStep` (RunComparison::perPairedStep) counts and totals are over the paired steps
/// and Δ is per paired step, else over the whole traces; the title row and header say which.
void fillNameDeltaTable(
    QTableWidget *table, const analysis::NameDeltaTable &deltas, bool perPairedStep);

} // namespace stepscope::ui::compare
