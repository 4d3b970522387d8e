// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Convergence compare of two runs' training logs, and the gate over it and the logs' own
// figures (logdeltas.cpp).
#include "convergence.h"

#include "traininghealth.h"
#include "trainingsummary.h"
#include "units.h"

#include <algorithm>
#include <array>
#include <cmath>

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

/// "before: lm loss of 2 loss series" when `run` offers more than one series of the compared
/// one's kind, else "": the reason then says which one was compared and by what rule.
std::string choice(
    const model::TrainingLog &log, std::uint32_t run, const LogSeries &compared, const char *side)
{
    std::size_t n = 0;
    for (const LogSeries &s : log.series)
        n += s.run == run && s.kind == compared.kind ? 1 : 0;
    if (n < 2)
        return {};
    return std::string(side) + ": " + compared.name + " of " + std::to_string(n) + " "
        + std::string(model::logSeriesKindName(compared.kind)) + " series";
}

Convergence compareCurves(const model::TrainingLog &before, std::uint32_t runBefore,
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

} // namespace

Convergence compareConvergence(const model::TrainingLog &before, std::uint32_t runBefore,
    const model::TrainingLog &after, std::uint32_t runAfter, const TrainingThresholds &t)
{
    Convergence c = compareCurves(before, runBefore, after, runAfter, t);
    const LogSeries *lb = before.primaryLoss(runBefore);
    const LogSeries *la = after.primaryLoss(runAfter);
    if (!lb || !la)
        return c;
    // One loss of several is compared: say which, and that the rule, not the order of the
    // log's columns, chose it.
    const std::string b = choice(before, runBefore, *lb, "before");
    const std::string a = choice(after, runAfter, *la, "after");
    if (!b.empty() || !a.empty())
        c.reason += "; compared " + b + (b.empty() || a.empty() ? "" : ", ") + a
            + " (the primary loss: the most points, then the shortest name, then name order)";
    return c;
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
        if (!r.failed)
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
