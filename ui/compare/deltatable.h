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

/// Every row of the Δ table, all from core (analysis/compare.h): KPIs, the mean over the
/// paired steps and the aligned pair per breakdown category, bottleneck shares and memory
/// peaks (allocated, reserved, each category at the peak) of the shown ranks.
std::vector<DeltaSection> deltaSections(
    const CompareData &data, const analysis::StepPairing &pairing, const AlignedPair &aligned);

/// A value in the unit the row carries ("us" → "148 ms", "fraction" → "21.0 %",
/// "bytes" → "6.17 GiB"); with `isDelta` a signed difference (fractions in "pp").
QString formatDeltaValue(const std::string &unit, double value, bool isDelta = false);
/// The label shown for a row (KPI keys get their DESIGN.md names).
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
/// Columns: Name, Count b/a, Total b/a, Δ total, Mean b/a, Share b/a (per profiled step).
void fillNameDeltaTable(QTableWidget *table, const analysis::NameDeltaTable &deltas);

} // namespace stepscope::ui::compare
