// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Convergence compare of two runs' training logs and the log-side deltas of the gate.
#include "convergence.h"

#include "skippedsteps.h"
#include "traininghealth.h"
#include "trainingsummary.h"
#include "units.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace stepscope::analysis {

using model::LogSeries;
using model::LogSeriesKind;

std::string_view convergenceVerdictName(ConvergenceVerdict v)
{
    // In the enum's order.
    static constexpr std::array<std::string_view, 4> Names = {
        "held", "drifted", "diverged", "no_data"};
    const auto i = static_cast<std::size_t>(v);
    return i < Names.size() ? Names[i] : "no_data";
}

namespace {

/// Centred moving average of `v` over finite values, `window` wide (shrinking at the ends).
std::vector<double> smooth(const std::vector<double> &v, std::size_t window)
{
    std::vector<double> out(v.size(), std::nan(""));
    const std::size_t half = window / 2;
    for (std::size_t i = 0; i < v.size(); ++i) {
        double sum = 0;
        std::size_t n = 0;
        for (std::size_t k = i > half ? i - half : 0; k <= i + half && k < v.size(); ++k) {
            if (std::isfinite(v[k])) {
                sum += v[k];
                ++n;
            }
        }
        if (n > 0)
            out[i] = sum / static_cast<double>(n);
    }
    return out;
}

/// The health findings that make a run "diverged": NaN/inf after finite values, or a rise.
const HealthFinding *divergence(
    const std::vector<HealthFinding> &findings, std::uint32_t run, const std::string &series)
{
    for (const HealthFinding &f : findings) {
        if (f.run == run && f.series == series
            && (f.kind == HealthKind::NonFiniteLoss || f.kind == HealthKind::LossRising))
            return &f;
    }
    return nullptr;
}

} // namespace

Convergence compareConvergence(const model::TrainingLog &before, std::uint32_t runBefore,
    const model::TrainingLog &after, std::uint32_t runAfter, const TrainingThresholds &t)
{
    Convergence c;
    c.tolerance = t.tolerance;
    const LogSeries *lb = before.primaryLoss(runBefore);
    const LogSeries *la = after.primaryLoss(runAfter);
    if (!lb || !la) {
        c.reason = std::string("no loss curve in the ") + (lb ? "after" : "before") + " run";
        return c;
    }
    c.metric = lb->name == la->name ? lb->name : lb->name + " / " + la->name;
    const LossComparison raw = compareLoss(*lb, *la);
    c.commonSteps = raw.points.size();
    c.maxRelDeltaRaw = raw.maxRelative;
    std::vector<double> vb;
    std::vector<double> va;
    for (const LossPoint &p : raw.points) {
        const bool finite = std::isfinite(p.before) && std::isfinite(p.after);
        vb.push_back(finite ? p.before : std::nan(""));
        va.push_back(finite ? p.after : std::nan(""));
        c.finiteCommonSteps += finite ? 1 : 0;
    }
    const std::vector<double> sb = smooth(vb, t.smoothing);
    const std::vector<double> sa = smooth(va, t.smoothing);
    std::vector<double> magnitudes;
    for (double v : sb) {
        if (std::isfinite(v))
            magnitudes.push_back(std::fabs(v));
    }
    // Relative to the before curve, floored at 1 % of its median magnitude so that a loss
    // near zero does not turn a tiny difference into a huge share.
    const double floor = magnitudes.empty() ? 0 : 0.01 * medianOf(magnitudes);
    for (std::size_t i = 0; i < raw.points.size(); ++i) {
        ConvergencePoint p;
        p.step = raw.points[i].step;
        p.before = raw.points[i].before;
        p.after = raw.points[i].after;
        p.smoothBefore = sb[i];
        p.smoothAfter = sa[i];
        const double denom = std::max(std::fabs(sb[i]), floor);
        p.relDelta =
            std::isfinite(vb[i]) && denom > 0 ? std::fabs(sa[i] - sb[i]) / denom : std::nan("");
        if (std::isfinite(p.relDelta)) {
            if (!c.maxRelDelta || p.relDelta > *c.maxRelDelta) {
                c.maxRelDelta = p.relDelta;
                c.maxRelDeltaStep = p.step;
            }
            if (p.relDelta > t.tolerance && !c.firstStepOutside)
                c.firstStepOutside = p.step;
        }
        c.points.push_back(p);
    }
    const std::string band = "tolerance " + formatRelative(t.tolerance) + " of the smoothed "
        + std::to_string(t.smoothing) + "-point curves";
    const std::vector<HealthFinding> hb = trainingHealth(before);
    const std::vector<HealthFinding> ha = trainingHealth(after);
    const HealthFinding *db = divergence(hb, runBefore, lb->name);
    const HealthFinding *da = divergence(ha, runAfter, la->name);
    // Diverged is the after run's: a divergence the before run shares (the same run compared
    // with itself) or had alone (a fix) is said, and the curves are then compared as usual.
    if (da && !(db && db->kind == da->kind)) {
        c.verdict = ConvergenceVerdict::Diverged;
        c.reason = "after: " + da->evidence;
        if (db)
            c.reason += "; before: " + db->evidence;
        if (c.maxRelDelta)
            c.reason += "; the curves differ by at most " + formatRelative(*c.maxRelDelta)
                + " over " + std::to_string(c.finiteCommonSteps) + " common finite steps";
        return c;
    }
    std::string shared;
    if (db && da)
        shared =
            "both runs diverge alike (before: " + db->evidence + "; after: " + da->evidence + "); ";
    else if (db)
        shared = "the before run diverges (" + db->evidence + "), the after run does not; ";
    if (c.finiteCommonSteps == 0) {
        c.verdict = ConvergenceVerdict::NoData;
        c.reason = shared + "no common step with finite values: before prints steps "
            + std::to_string(lb->steps.front()) + "–" + std::to_string(lb->steps.back())
            + ", after " + std::to_string(la->steps.front()) + "–"
            + std::to_string(la->steps.back());
        return c;
    }
    if (c.firstStepOutside) {
        c.verdict = ConvergenceVerdict::Drifted;
        c.reason = shared + "first outside the " + band + " at step "
            + std::to_string(*c.firstStepOutside) + "; largest difference "
            + formatRelative(*c.maxRelDelta) + " at step " + std::to_string(c.maxRelDeltaStep);
    } else {
        c.verdict = ConvergenceVerdict::Held;
        c.reason = shared + "within the " + band + " over " + std::to_string(c.finiteCommonSteps)
            + " common steps; largest difference " + formatRelative(c.maxRelDelta.value_or(0))
            + " at step " + std::to_string(c.maxRelDeltaStep);
    }
    return c;
}

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

} // namespace

std::vector<TrainingDelta> trainingDeltas(const model::TrainingLog &before, std::uint32_t runBefore,
    const model::TrainingLog &after, std::uint32_t runAfter, const TrainingThresholds &t)
{
    std::vector<TrainingDelta> rows;
    for (LogSeriesKind kind : {LogSeriesKind::StepTime, LogSeriesKind::Throughput,
             LogSeriesKind::Memory, LogSeriesKind::Mfu, LogSeriesKind::Skipped}) {
        const auto pairs =
            pairSeries(ofKind(before, runBefore, kind), ofKind(after, runAfter, kind));
        for (const auto &[sb, sa] : pairs) {
            CrossCheckStatistic stat = CrossCheckStatistic::Median;
            if (kind == LogSeriesKind::Memory)
                stat = CrossCheckStatistic::Peak;
            // Skipped steps: each side by its own kind of series (a running total's last
            // value, or the sum of per-step flags), as two producers may differ.
            const auto skippedStat = [](const LogSeries &s) {
                return s.cumulative ? CrossCheckStatistic::Last : CrossCheckStatistic::Total;
            };
            if (kind == LogSeriesKind::Skipped)
                stat = skippedStat(*sb);
            TrainingDelta r;
            r.label = sb->name == sa->name ? sb->name : sb->name + " / " + sa->name;
            if (sb->rank >= 0)
                r.label += " (rank " + std::to_string(sb->rank) + ")";
            r.key = "log." + kindKey(kind);
            if (&sb != &pairs.front().first) // "log.memory:allocated@rank4"
                r.key += ":" + sb->name + (sb->rank >= 0 ? "@rank" + std::to_string(sb->rank) : "");
            r.statistic = std::string(crossCheckStatisticName(stat));
            r.before = summarise(*sb, stat);
            r.after = summarise(*sa, kind == LogSeriesKind::Skipped ? skippedStat(*sa) : stat);
            r.unit = sb->unit;
            if (sb->unit != sa->unit) {
                const double fb = toBase(kind, sb->unit);
                const double fa = toBase(kind, sa->unit);
                if (std::isfinite(fb) && std::isfinite(fa) && r.before && r.after) {
                    *r.before *= fb;
                    *r.after *= fa;
                    r.unit = kind == LogSeriesKind::StepTime ? "s" : "bytes";
                } else {
                    r.unit = sb->unit + " / " + sa->unit;
                    rows.push_back(std::move(r)); // not comparable: no delta
                    continue;
                }
            }
            if (r.before && r.after) {
                r.delta = *r.after - *r.before;
                if (*r.before != 0)
                    r.percent = 100 * *r.delta / std::fabs(*r.before);
            }
            double limit = t.stepTime;
            double sign = 1; // +1: higher is worse
            if (kind == LogSeriesKind::Throughput || kind == LogSeriesKind::Mfu) {
                limit = t.throughput;
                sign = -1;
            } else if (kind == LogSeriesKind::Memory) {
                limit = t.memory;
            } else if (kind == LogSeriesKind::Skipped) {
                limit = 0;
            }
            // The verdict as every table gives it (makeDeltaRow's tolerance); the gate's limit
            // decides `failed`, so a row can read "regressed" and not fail the gate.
            r.verdict = makeDeltaRow(r.key, r.label, r.unit, r.before, r.after,
                sign > 0 ? Better::Lower : Better::Higher)
                            .verdict;
            if (kind == LogSeriesKind::Skipped)
                r.failed = r.delta && *r.delta > 0;
            else if (r.percent)
                r.failed = sign * *r.percent / 100 > limit;
            rows.push_back(std::move(r));
        }
    }
    return rows;
}

TrainingComparison compareTraining(
    const model::Session &before, const model::Session &after, const TrainingThresholds &t)
{
    TrainingComparison out;
    const std::vector<TrainingRun> rb = trainingRuns(before);
    const std::vector<TrainingRun> ra = trainingRuns(after);
    const TrainingRun *b = mainTrainingRun(rb);
    const TrainingRun *a = mainTrainingRun(ra);
    if (!b || !a)
        return out;
    out.hasLogs = true;
    out.convergence = compareConvergence(*b->log, b->run, *a->log, a->run, t);
    out.convergence.beforeLabel = b->label;
    out.convergence.afterLabel = a->label;
    out.rows = trainingDeltas(*b->log, b->run, *a->log, a->run, t);
    const Convergence &c = out.convergence;
    if (c.verdict == ConvergenceVerdict::Drifted || c.verdict == ConvergenceVerdict::Diverged)
        out.regressions.push_back(
            "convergence " + std::string(convergenceVerdictName(c.verdict)) + ": " + c.reason);
    for (const TrainingDelta &r : out.rows) {
        if (!r.failed || r.key.rfind("log.skipped", 0) == 0)
            continue;
        out.failedKeys.insert(r.key);
        out.regressions.push_back(r.key + " (" + r.label + ") " + formatShort(r.before.value_or(0))
            + " → " + formatShort(r.after.value_or(0)) + " " + r.unit
            + (r.percent ? " (" + formatShort(*r.percent) + " %)" : std::string()));
    }
    return out;
}

std::string convergenceText(const Convergence &c)
{
    if (c.verdict == ConvergenceVerdict::NoData)
        return "Convergence: no verdict (" + c.reason + ").";
    return "Convergence of " + c.metric + ": " + std::string(convergenceVerdictName(c.verdict))
        + " — " + c.reason + " (" + commonStepsText(c.commonSteps, c.finiteCommonSteps) + ").";
}

} // namespace stepscope::analysis
