// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "report.h"
#include "ui/compare/comparedata.h"

#include <QSize>

#include <memory>

namespace stepscope::ui {

/// The before/after report of DESIGN.md "The report": header → KPI table with deltas →
/// paired step times → bottlenecks of each run → memory → kernel deltas → loss overlay (when
/// logs are found beside the profiles) → timelines of the aligned step → load diagnostics.
/// Every row is `data->comparison` (analysis::compareRuns), the pictures are compare mode's
/// own painters (ui/compare/comparepictures.h) and report.md is analysis::compareMarkdown.
/// Needs a QApplication (fonts, widgets); GUI thread.
Report buildCompareReport(
    std::shared_ptr<const compare::CompareData> data, QSize imageSize = QSize(2000, 800));

} // namespace stepscope::ui
