// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// compareMarkdown and the row formatting every comparison output shares.
#include "compareoutput.h"
#include "metricdefinitions.h"
#include "units.h"
#include "util/countof.h"
#include "util/saturate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace stepscope::analysis {

namespace {

constexpr const char *Minus = "\u2212";
constexpr const char *Dash = "\u2014";

std::string cell(const std::string &s)
{
    std::string out;
    for (char ch : s) {
        if (ch == '|')
            out += "\\|";
        else if (ch == '\n')
            out += ' ';
        else
            out += ch;
    }
    return out;
}

void rowsTable(std::ostringstream &out, const std::string &title, const std::vector<DeltaRow> &rows,
    const std::string &note = {})
{
    if (rows.empty())
        return;
    out << "\n## " << title << "\n\n";
    if (!note.empty())
        out << note << "\n\n";
    out << deltaRowsMarkdown(rows);
}

} // namespace

std::string formatRowValue(const std::string &unit, double value, bool isDelta)
{
    if (!std::isfinite(value))
        return Dash;
    const std::string sign = isDelta ? (value > 0 ? "+" : value < 0 ? Minus : "") : "";
    const double v = isDelta ? std::fabs(value) : value;
    if (unit == "us")
        return sign + formatDuration(util::saturatingRound(v * 1000.0));
    if (unit == "ns")
        return sign + formatDuration(util::saturatingRound(v));
    if (unit == "fraction") {
        if (isDelta) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.1f pp", v * 100.0);
            return sign + buf;
        }
        return formatShare(v);
    }
    if (unit == "bytes")
        return sign + formatBytes(util::saturatingRound(v));
    std::string out = sign + formatSignificant(v);
    if (!unit.empty())
        out += " " + unit;
    return out;
}

std::string formatRowPercent(double percent)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", std::fabs(percent));
    return std::string(percent > 0 ? "+" : percent < 0 ? Minus : "") + buf;
}

std::string formatMedian(const NameStats &side)
{
    return side.count > 0 ? formatDuration(std::llround(side.medianNs)) : std::string(Dash);
}

std::string rowTitle(const DeltaRow &row)
{
    if (row.label == row.key) {
        if (const MetricDefinition *d = metricDefinition(row.key))
            return std::string(d->title);
    }
    return row.label;
}

std::string rankCaption(const RunComparison &c, bool after)
{
    const std::int32_t rank = after ? c.afterRank : c.beforeRank;
    const std::size_t count = (after ? c.afterRanks : c.beforeRanks).size();
    const RankChoice choice = after ? c.afterRankChoice : c.beforeRankChoice;
    const std::optional<std::int32_t> missing = after ? c.afterRankMissing : c.beforeRankMissing;
    if (count == 0) // a training log alone, or nothing with steps
        return "no profile";
    std::ostringstream out;
    out << "rank " << rank << " (";
    if (count <= 1)
        out << "the only rank";
    else if (choice == RankChoice::Requested)
        out << "chosen, of " << count << " ranks";
    else
        out << "slowest of " << count << " ranks";
    if (missing)
        out << "; rank " << *missing << " is not in this run";
    out << ")";
    if (!(after ? c.afterHasTrace : c.beforeHasTrace))
        out << ", steps from the profiler's table only";
    return out.str();
}

std::string deltaRowsMarkdown(const std::vector<DeltaRow> &rows)
{
    std::ostringstream out;
    out << "| metric | before | after | Δ | Δ % | verdict |\n|---|---:|---:|---:|---:|---|\n";
    for (const DeltaRow &r : rows) {
        out << "| " << cell(rowTitle(r)) << " | "
            << (r.before ? formatRowValue(r.unit, *r.before) : Dash) << " | "
            << (r.after ? formatRowValue(r.unit, *r.after) : Dash) << " | "
            << (r.delta ? formatRowValue(r.unit, *r.delta, true) : Dash) << " | "
            << (r.percent ? formatRowPercent(*r.percent) : Dash) << " | " << verdictText(r)
            << " |\n";
    }
    return out.str();
}

std::string kpiScope(const RunComparison &c)
{
    if (!c.anyCluster())
        return {};
    std::ostringstream out;
    out << "These KPIs cover all ranks of each run (" << c.beforeRanks.size() << " and "
        << c.afterRanks.size() << " ranks; a step's time is its slowest rank's), not only "
        << "rank " << c.beforeRank << " of before and rank " << c.afterRank << " of after.";
    return out.str();
}

std::vector<const RankDelta *> largestRankDeltas(const RunComparison &c, std::size_t limit)
{
    std::vector<const RankDelta *> out;
    for (const RankDelta &d : c.rankDeltas)
        if (!d.rows.empty() && d.rows.front().delta && d.rows.front().before
            && d.rows.front().after)
            out.push_back(&d);
    std::sort(out.begin(), out.end(), [](const RankDelta *x, const RankDelta *y) {
        const double a = std::abs(*x->rows.front().delta);
        const double b = std::abs(*y->rows.front().delta);
        return a != b ? a > b : x->rank < y->rank;
    });
    if (out.size() > limit)
        out.resize(limit);
    return out;
}

std::string compareMarkdown(
    const RunComparison &c, const CompareRunInfo &before, const CompareRunInfo &after)
{
    std::ostringstream out;
    out << "# StepScope comparison: " << cell(before.name) << " → " << cell(after.name)
        << "\n\n| run | path | format | rank |\n|---|---|---|---:|\n"
        << "| before: " << cell(before.name) << " | " << cell(before.path) << " | " << before.format
        << " | " << cell(rankCaption(c, false)) << " |\n"
        << "| after: " << cell(after.name) << " | " << cell(after.path) << " | " << after.format
        << " | " << cell(rankCaption(c, true)) << " |\n\n";
    // Two training logs: no rank, step or KPI of a profile to speak of (the report says the
    // same; a "Rank 0 against rank 0; 0 step pairs" line and a table of dashes said nothing).
    const bool profiles = !c.beforeRanks.empty() || !c.afterRanks.empty();
    if (!profiles)
        out << "Training logs only, no profile: the loss curves and the logs' own figures are "
               "compared.\n";
    else
        out << "Rank " << c.beforeRank << " of before against rank " << c.afterRank << " of after; "
            << util::countOf(c.pairing.pairs.size(), "step pair", "step pairs") << ", paired "
            << pairingModeName(c.pairing.mode) << ".\n";
    for (const std::string &note : c.stepNotes)
        out << "\n> " << note << ".\n";
    if (!c.rankDeltas.empty()) {
        out << "\n## Per-rank step time\n\n"
            << util::countOf(c.rankDeltas.size(), "rank", "ranks")
            << " in both runs; the largest changes, mean over each rank's paired "
               "steps.\n\n| rank | before | after | Δ | Δ % |\n|---:|---:|---:|---:|---:|\n";
        for (const RankDelta *d : largestRankDeltas(c, 20)) {
            const DeltaRow &r = d->rows.front();
            out << "| " << d->rank << " | " << formatRowValue(r.unit, *r.before) << " | "
                << formatRowValue(r.unit, *r.after) << " | "
                << formatRowValue(r.unit, *r.delta, true) << " | "
                << (r.percent ? formatRowPercent(*r.percent) : std::string(Dash)) << " |\n";
        }
    }
    const std::string scope = kpiScope(c);
    if (profiles)
        rowsTable(out, scope.empty() ? "KPIs" : "KPIs (whole runs, all ranks)", c.kpiRows, scope);
    rowsTable(out, "Step breakdown, mean over paired steps", c.meanStepRows);
    rowsTable(out, "Bottlenecks (share of step time)", c.bottleneckRows);
    rowsTable(out, "Memory", c.memoryRows);
    if (!c.kernels.top.empty()) {
        out << "\n## Kernel deltas\n\nDevice kernels, "
            << (c.perPairedStep ? "totals over the paired steps, Δ per paired step"
                                : "totals over the whole traces")
            << " (before " << c.kernels.nameCountBefore << " names, after "
            << c.kernels.nameCountAfter
            << ").\n\n| kernel | count before | count after | total before | total after | "
            << (c.perPairedStep ? "Δ per step" : "Δ total")
            << " | median before | median after |\n|---|---:|---:|---:|---:|---:|---:|---:|\n";
        for (const NameDelta &d : c.kernels.top) {
            out << "| " << cell(d.name) << " | " << d.before.count << " | " << d.after.count
                << " | " << formatDuration(d.before.totalNs) << " | "
                << formatDuration(d.after.totalNs) << " | "
                << formatRowValue("ns", d.deltaTotalNs, true) << " | " << formatMedian(d.before)
                << " | " << formatMedian(d.after) << " |\n";
        }
    }
    if (c.loss) {
        const LossComparison &l = *c.loss;
        out << "\n## Loss curves\n\nPrinted values: "
            << commonStepsText(l.points.size(), l.finiteCount()) << "; max relative divergence "
            << (l.maxRelative ? formatRelative(*l.maxRelative) : Dash) << ", final "
            << (l.finalRelative ? formatRelative(*l.finalRelative) : Dash) << ".\n";
    }
    if (!c.crossCheck.empty()) {
        std::vector<DeltaRow> rows;
        for (const TrainingDelta &r : c.crossCheck)
            rows.push_back(deltaRowOf(r));
        rowsTable(out, "Training-log cross-check", rows);
    }
    return out.str();
}

} // namespace stepscope::analysis
