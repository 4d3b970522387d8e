// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "compare.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace stepscope::analysis {

/// What the outputs say about one run besides its rows.
struct CompareRunInfo
{
    std::string name; ///< short label ("resnet50_num_workers_0")
    std::string path;
    std::string format; ///< the session's format ("kineto", ...)
};

/// `stepscope compare --json` (comparejson.cpp): `before` / `after` (name, path, format,
/// rank), `pairing`, `kpis`, `mean_step`, `steps` (per pair: before_step, after_step, rows),
/// `memory`, `bottlenecks` (rows), `bottlenecks_before` / `bottlenecks_after` (kind, share),
/// `kernels` / `host_ops` (top names by |Δ|, per paired step when `per_paired_step`),
/// `loss` (null without both logs), `cross_check`. Rows: key, label, unit, before, after,
/// delta, percent (null when absent), better, verdict.
nlohmann::json compareJson(
    const RunComparison &c, const CompareRunInfo &before, const CompareRunInfo &after);

/// The Markdown summary of a comparison (comparemarkdown.cpp): the same rows as the JSON,
/// as tables with the values formatted like the compare view (formatRowValue).
std::string compareMarkdown(
    const RunComparison &c, const CompareRunInfo &before, const CompareRunInfo &after);

/// A row value in its unit ("us" → "148 ms", "ns", "fraction" → "21.0 %", "bytes" →
/// "6.17 GiB", else significant digits and the unit); with `isDelta` a signed difference
/// (− for negative, fractions in "pp"). Not finite: "—".
std::string formatRowValue(const std::string &unit, double value, bool isDelta = false);
/// "+12.3 %" / "−4.0 %" / "0.0 %".
std::string formatRowPercent(double percent);
/// The label a row is shown with: a KPI's title (docs/metrics.md) when the row is a KPI,
/// else the row's own label.
std::string rowTitle(const DeltaRow &row);

} // namespace stepscope::analysis
