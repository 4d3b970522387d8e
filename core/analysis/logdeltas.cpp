// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "logdeltas.h"

#include "skippedsteps.h"
#include "traininghealth.h"
#include "units.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace stepscope::analysis {

using model::LogSeries;
using model::LogSeriesKind;

namespace {

std::string kindKey(LogSeriesKind k)
{
    switch (k) {
    case LogSeriesKind::StepTime:
        return "step_time";
    case LogSeriesKind::Throughput:
        return "throughput";
    case LogSeriesKind::Memory:
        return "memory";
    case LogSeriesKind::Mfu:
        return "mfu";
    case LogSeriesKind::Skipped:
        return "skipped";
    default:
        return "other";
    }
}

/// Factor from the printed unit to the kind's base unit (seconds, bytes); NaN if unknown.
double toBase(LogSeriesKind kind, const std::string &unit)
{
    if (kind == LogSeriesKind::StepTime)
        return stepTimeSeconds(1, unit);
    if (kind == LogSeriesKind::Memory) {
        static const std::map<std::string, double> f = {{"bytes", 1}, {"B", 1}, {"KB", 1024.0},
            {"KiB", 1024.0}, {"MB", 1048576.0}, {"MiB", 1048576.0}, {"GB", 1073741824.0},
            {"GiB", 1073741824.0}};
        auto it = f.find(unit);
        return it == f.end() ? std::nan("") : it->second;
    }
    return std::nan("");
}

std::vector<const LogSeries *> ofKind(
    const model::TrainingLog &log, std::uint32_t run, LogSeriesKind kind)
{
    if (kind == LogSeriesKind::Skipped) { // one account of the skipped steps, as health's
        std::vector<const LogSeries *> sources = skippedSources(log, run);
        sources.erase(std::remove_if(sources.begin(), sources.end(),
                          [](const LogSeries *s) { return s->empty(); }),
            sources.end());
        return sources;
    }
    std::vector<const LogSeries *> out;
    for (const LogSeries &s : log.series) {
        if (s.run == run && s.kind == kind && !s.empty())
            out.push_back(&s);
    }
    return out;
}

/// Pairs by name, every rank that both sides print (a rank's memory may grow while rank 0's
/// holds), else the one series of the kind on each side.
std::vector<std::pair<const LogSeries *, const LogSeries *>> pairSeries(
    const std::vector<const LogSeries *> &b, const std::vector<const LogSeries *> &a)
{
    std::vector<std::pair<const LogSeries *, const LogSeries *>> out;
    // Names in the order the before log first prints them; per name the ranks ascending,
    // whichever rank's line came first.
    std::vector<std::string> names;
    for (const LogSeries *x : b)
        if (std::find(names.begin(), names.end(), x->name) == names.end())
            names.push_back(x->name);
    for (const std::string &name : names) {
        std::vector<std::pair<const LogSeries *, const LogSeries *>> ofName;
        for (const LogSeries *x : b) {
            if (x->name != name)
                continue;
            for (const LogSeries *y : a)
                if (y->name == name && y->rank == x->rank) {
                    ofName.emplace_back(x, y);
                    break;
                }
        }
        std::stable_sort(ofName.begin(), ofName.end(),
            [](const auto &l, const auto &r) { return l.first->rank < r.first->rank; });
        out.insert(out.end(), ofName.begin(), ofName.end());
    }
    if (out.empty() && !b.empty() && !a.empty()) {
        std::map<std::string, int> nb;
        std::map<std::string, int> na;
        for (const LogSeries *x : b)
            ++nb[x->name];
        for (const LogSeries *y : a)
            ++na[y->name];
        if (nb.size() == 1 && na.size() == 1)
            out.emplace_back(b.front(), a.front());
    }
    return out;
}

Better betterFor(LogSeriesKind k)
{
    return k == LogSeriesKind::Throughput || k == LogSeriesKind::Mfu ? Better::Higher
                                                                     : Better::Lower;
}

/// How a series is summarised: memory by its peak, skipped steps each side by its own kind of
/// series (a running total's last value, or the sum of per-step flags: two producers may
/// differ), the rest by the median after warm-up.
CrossCheckStatistic statisticFor(const LogSeries &s)
{
    if (s.kind == LogSeriesKind::Memory)
        return CrossCheckStatistic::Peak;
    if (s.kind == LogSeriesKind::Skipped)
        return s.cumulative ? CrossCheckStatistic::Last : CrossCheckStatistic::Total;
    return CrossCheckStatistic::Median;
}

std::string withRank(const std::string &label, std::int32_t rank)
{
    return rank >= 0 ? label + " (rank " + std::to_string(rank) + ")" : label;
}

/// "log.memory:allocated@rank4"
std::string qualifiedKey(LogSeriesKind kind, const LogSeries &s)
{
    return "log." + kindKey(kind) + ":" + s.name
        + (s.rank >= 0 ? "@rank" + std::to_string(s.rank) : std::string());
}

/// A pair's row: values per side, converted to the kind's base unit where the units differ.
TrainingDelta pairRow(LogSeriesKind kind, const LogSeries *sb, const LogSeries *sa)
{
    const LogSeries &ref = sb ? *sb : *sa;
    TrainingDelta r;
    r.kind = kind;
    r.rank = ref.rank;
    r.label = withRank(
        sb && sa && sb->name != sa->name ? sb->name + " / " + sa->name : ref.name, ref.rank);
    r.statistic = std::string(crossCheckStatisticName(statisticFor(ref)));
    if (sb && sa && statisticFor(*sb) != statisticFor(*sa)) // "last / total"
        r.statistic += " / " + std::string(crossCheckStatisticName(statisticFor(*sa)));
    r.unit = ref.unit;
    if (sb)
        r.before = summarise(*sb, statisticFor(*sb), &r.countBefore);
    if (sa)
        r.after = summarise(*sa, statisticFor(*sa), &r.countAfter);
    if (!sb || !sa)
        return r;
    if (sb->unit != sa->unit) {
        const double fb = toBase(kind, sb->unit);
        const double fa = toBase(kind, sa->unit);
        if (!(std::isfinite(fb) && std::isfinite(fa) && r.before && r.after)) {
            r.unit = sb->unit + " / " + sa->unit;
            return r; // not comparable: no delta
        }
        *r.before *= fb;
        *r.after *= fa;
        r.unit = kind == LogSeriesKind::StepTime ? "s" : "bytes";
    }
    if (r.before && r.after) {
        r.delta = *r.after - *r.before;
        if (*r.before != 0)
            r.percent = 100 * *r.delta / std::fabs(*r.before);
    }
    return r;
}

/// Whether the row is worse than the gate allows. Skipped steps are no rule of the gate (the
/// tables mark an increase regressed; health's `overflow_skipped` names the steps).
bool failsGate(const TrainingDelta &r, const TrainingThresholds &t)
{
    if (r.kind == LogSeriesKind::Skipped || !r.percent)
        return false;
    if (r.kind == LogSeriesKind::Throughput || r.kind == LogSeriesKind::Mfu)
        return -*r.percent / 100 > t.throughput;
    return *r.percent / 100 > (r.kind == LogSeriesKind::Memory ? t.memory : t.stepTime);
}

} // namespace

std::vector<TrainingDelta> trainingDeltas(const model::TrainingLog &before, std::uint32_t runBefore,
    const model::TrainingLog &after, std::uint32_t runAfter, const TrainingThresholds &t)
{
    std::vector<TrainingDelta> rows;
    for (LogSeriesKind kind : {LogSeriesKind::StepTime, LogSeriesKind::Throughput,
             LogSeriesKind::Memory, LogSeriesKind::Mfu, LogSeriesKind::Skipped}) {
        const auto b = ofKind(before, runBefore, kind);
        const auto a = ofKind(after, runAfter, kind);
        const auto pairs = pairSeries(b, a);
        const auto paired = [&](const LogSeries *s) {
            return std::any_of(pairs.begin(), pairs.end(),
                [&](const auto &p) { return p.first == s || p.second == s; });
        };
        for (const auto &[sb, sa] : pairs) {
            TrainingDelta r = pairRow(kind, sb, sa);
            r.key = &sb == &pairs.front().first ? "log." + kindKey(kind) : qualifiedKey(kind, *sb);
            // The verdict as every table gives it (makeDeltaRow's tolerance); the gate's
            // limit decides `failed`, so a row can read "regressed" and not fail the gate.
            r.verdict = deltaRowOf(r).verdict;
            r.failed = failsGate(r, t);
            rows.push_back(std::move(r));
        }
        // Series one side alone prints: shown, never compared.
        for (const auto *side : {&b, &a}) {
            for (const LogSeries *s : *side) {
                if (paired(s))
                    continue;
                TrainingDelta r =
                    side == &b ? pairRow(kind, s, nullptr) : pairRow(kind, nullptr, s);
                r.key = qualifiedKey(kind, *s);
                rows.push_back(std::move(r));
            }
        }
    }
    return rows;
}

DeltaRow deltaRowOf(const TrainingDelta &r)
{
    const std::string label = r.label + " (" + r.statistic + ")";
    if (r.before && r.after && !r.delta) { // units that cannot be compared
        DeltaRow row =
            makeDeltaRow(r.key, label, r.unit, r.before, std::nullopt, betterFor(r.kind));
        row.after = r.after;
        return row;
    }
    return makeDeltaRow(r.key, label, r.unit, r.before, r.after, betterFor(r.kind));
}

} // namespace stepscope::analysis
