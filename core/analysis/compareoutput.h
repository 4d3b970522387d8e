// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "compare.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace stepscope::analysis {

/// What the outputs say about one run besides its rows.
struct CompareRunInfo
{
    std::string name; ///< short label ("resnet50_num_workers_0")
    std::string path;
    std::string format; ///< the session's format ("kineto", ...)
};

/// `stepscope compare --json` (comparejson.cpp): `before` / `after` (name, path, format,
/// rank compared, rank_choice "slowest" / "requested", rank_missing: a requested rank the
/// run lacks or null, ranks: the comparable ranks, rank_has_trace), `pairing`, `kpis`, `mean_step`,
/// `steps` (per pair: before_step, after_step, rows), `memory`, `bottlenecks` (rows),
/// `bottlenecks_before` / `bottlenecks_after` (kind, share), `kernels` / `host_ops` (top names by
/// |Δ|, per paired step when `per_paired_step`), `loss` (null without both logs), `cross_check`,
/// and for two clusters `rank_deltas` (rank, pairs, rows), `rank_step_deltas` (ranks, before_steps,
/// step_time_delta_us rows × columns, null = no pair), `only_before_ranks` / `only_after_ranks`
/// (empty otherwise). Rows: key, label, unit, before, after, delta, percent (null when absent),
/// better, verdict.
nlohmann::json compareJson(
    const RunComparison &c, const CompareRunInfo &before, const CompareRunInfo &after);

/// The Markdown summary of a comparison (comparemarkdown.cpp): the same rows as the JSON,
/// as tables with the values formatted like the compare view (formatRowValue).
std::string compareMarkdown(
    const RunComparison &c, const CompareRunInfo &before, const CompareRunInfo &after);

/// What a side compares, for people: "rank 1 (slowest of 2 ranks)", "rank 0 (chosen, of 2
/// ranks)", "rank 1 (slowest of 2 ranks; rank 5 is not in this run)", "rank 0 (the only
/// rank)"; ", steps from the profiler's table only" when the rank has no trace; "no profile"
/// for a side with no rank (a training log alone).
std::string rankCaption(const RunComparison &c, bool after);

/// Delta rows as a Markdown table (metric, before, after, Δ, Δ %, verdict), the values
/// formatted as in the compare view (formatRowValue).
std::string deltaRowsMarkdown(const std::vector<DeltaRow> &rows);

/// With several ranks on a side, the KPIs cover each whole run (a step's time is its slowest
/// rank's) while the rest compares one rank of each: the sentence that says so, as the
/// compare view's KPI strip does; "" when both runs have one rank.
std::string kpiScope(const RunComparison &c);

/// The ranks with the largest |step-time delta| of two clusters (rankDeltas, at most
/// `limit`), largest first; ties by rank.
std::vector<const RankDelta *> largestRankDeltas(const RunComparison &c, std::size_t limit);

/// A row value in its unit ("us" → "148 ms", "ns", "fraction" → "21.0 %", "bytes" →
/// "6.17 GiB", else significant digits and the unit); with `isDelta` a signed difference
/// (− for negative, fractions in "pp"). Not finite: "—".
std::string formatRowValue(const std::string &unit, double value, bool isDelta = false);
/// "+12.3 %" / "−4.0 %" / "0.0 %".
std::string formatRowPercent(double percent);
/// One side's median of a kernel or op of the deltas ("2.52 ms"); "—" on a side that did not
/// run it. The compare view, the report and the Markdown show it alike.
std::string formatMedian(const NameStats &side);
/// The label a row is shown with: a KPI's title (docs/metrics.md) when the row is a KPI,
/// else the row's own label.
std::string rowTitle(const DeltaRow &row);

} // namespace stepscope::analysis
