// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Training-health rules over a training log (docs/metrics.md "Training health").
#include "traininghealth.h"

#include "skippedsteps.h"
#include "units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

namespace stepscope::analysis {

using model::LogSeries;
using model::LogSeriesKind;

std::string_view healthKindName(HealthKind k)
{
    switch (k) {
    case HealthKind::NonFiniteLoss:
        return "non_finite_loss";
    case HealthKind::LossSpike:
        return "loss_spike";
    case HealthKind::LossRising:
        return "loss_rising";
    case HealthKind::LossFlat:
        return "loss_flat";
    case HealthKind::GradNormExplosion:
        return "grad_norm_explosion";
    case HealthKind::GradNormVanishing:
        return "grad_norm_vanishing";
    case HealthKind::LossScaleCollapse:
        return "loss_scale_collapse";
    case HealthKind::OverflowSkipped:
        return "overflow_skipped";
    case HealthKind::StepTimeRegression:
        return "step_time_regression";
    case HealthKind::StepStall:
        return "step_stall";
    case HealthKind::LrStepLossStep:
        return "lr_step_loss_step";
    case HealthKind::Eta:
        return "eta";
    }
    return "unknown";
}

std::string_view healthSeverityName(HealthSeverity s)
{
    switch (s) {
    case HealthSeverity::Info:
        return "info";
    case HealthSeverity::Warning:
        return "warning";
    case HealthSeverity::Error:
        return "error";
    }
    return "info";
}

double medianOf(std::vector<double> values)
{
    if (values.empty())
        return std::nan("");
    const std::size_t mid = values.size() / 2;
    std::nth_element(
        values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
    double m = values[mid];
    if (values.size() % 2 == 0) {
        const double lower =
            *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
        m = (m + lower) / 2;
    }
    return m;
}

double stepTimeSeconds(double value, std::string_view unit)
{
    if (unit == "s" || unit == "sec")
        return value;
    if (unit == "ms")
        return value / 1e3;
    if (unit == "us")
        return value / 1e6;
    return std::nan("");
}

namespace {

/// The series of `run` by name, then rank: not in the order the log printed them, so that
/// which findings are kept (and which series the ETA reads) never depends on column order.
std::vector<const LogSeries *> seriesOf(const model::TrainingLog &log, std::uint32_t run)
{
    std::vector<const LogSeries *> out;
    for (const LogSeries &s : log.series) {
        if (s.run == run)
            out.push_back(&s);
    }
    std::stable_sort(out.begin(), out.end(), [](const LogSeries *a, const LogSeries *b) {
        return a->name != b->name ? a->name < b->name : a->rank < b->rank;
    });
    return out;
}

/// A usable point of a series: finite unless asked otherwise, never a duplicate.
struct Point
{
    std::int64_t step = 0;
    double value = 0;
    std::int64_t line = 0;
};

std::vector<Point> points(const LogSeries &s, bool finiteOnly = true)
{
    std::vector<Point> out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s.duplicate[i] != 0 || (finiteOnly && !std::isfinite(s.values[i])))
            continue;
        out.push_back({s.steps[i], s.values[i], s.lines[i]});
    }
    return out;
}

std::string pct(double share)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f %%", share * 100);
    return buf;
}

double medianRange(const std::vector<Point> &p, std::size_t from, std::size_t to)
{
    std::vector<double> v;
    for (std::size_t i = from; i < to && i < p.size(); ++i)
        v.push_back(p[i].value);
    return medianOf(std::move(v));
}

class Collector
{
public:
    Collector(std::vector<HealthFinding> &out, const HealthRules &rules)
        : m_out(out)
        , m_rules(rules)
    {
    }
    /// Adds a finding unless maxPerKind of its kind, run and series name were kept (one noisy
    /// series does not hide another's findings); counts the rest into the last kept one's
    /// evidence. A series of that name already told this kind at this step (another rank
    /// printing the same loss) adds nothing.
    void add(HealthFinding f)
    {
        if (!m_told.insert({f.run, f.kind, f.series, f.step}).second)
            return;
        const Key key {f.run, f.kind, f.series};
        std::size_t &n = m_kept[key];
        if (n < m_rules.maxPerKind) {
            ++n;
            m_out.push_back(std::move(f));
            m_last[key] = m_out.size() - 1;
            return;
        }
        ++m_dropped[key];
    }
    void finish()
    {
        for (const auto &[key, dropped] : m_dropped)
            m_out[m_last[key]].evidence += "; " + std::to_string(dropped) + " more not listed";
    }

private:
    using Key = std::tuple<std::uint32_t, HealthKind, std::string>;
    std::vector<HealthFinding> &m_out;
    const HealthRules &m_rules;
    std::map<Key, std::size_t> m_kept;
    std::map<Key, std::size_t> m_last;
    std::map<Key, std::size_t> m_dropped;
    std::set<std::tuple<std::uint32_t, HealthKind, std::string, std::int64_t>> m_told;
};

HealthFinding finding(HealthKind kind, HealthSeverity severity, std::uint32_t run,
    const LogSeries &s, const Point &at, std::string rule, double threshold)
{
    HealthFinding f;
    f.kind = kind;
    f.severity = severity;
    f.run = run;
    f.step = at.step;
    f.line = at.line;
    f.series = s.name;
    f.value = at.value;
    f.rule = std::move(rule);
    f.threshold = threshold;
    return f;
}

std::string at(const Point &p)
{
    return "step " + std::to_string(p.step)
        + (p.line > 0 ? " (line " + std::to_string(p.line) + ")" : std::string());
}

void nonFinite(const LogSeries &s, std::uint32_t run, Collector &c)
{
    const std::vector<Point> all = points(s, false);
    bool seenFinite = false;
    std::size_t count = 0;
    const Point *first = nullptr;
    for (const Point &p : all) {
        if (std::isfinite(p.value)) {
            seenFinite = true;
        } else if (seenFinite) {
            ++count;
            if (!first)
                first = &p;
        }
    }
    if (!first)
        return;
    HealthFinding f = finding(HealthKind::NonFiniteLoss, HealthSeverity::Error, run, s, *first,
        "a NaN/inf value after finite ones", 0);
    f.count = count;
    f.evidence = s.name + " is " + formatShort(first->value) + " at " + at(*first) + "; "
        + std::to_string(count) + " of " + std::to_string(all.size())
        + " points are NaN/inf after the first finite value";
    c.add(std::move(f));
}

void spikes(const LogSeries &s, std::uint32_t run, const HealthRules &r, Collector &c)
{
    const std::vector<Point> p = points(s);
    bool inSpike = false;
    for (std::size_t i = r.spikeMinHistory; i < p.size(); ++i) {
        const std::size_t from = i > r.spikeWindow ? i - r.spikeWindow : 0;
        const double m = medianRange(p, from, i);
        std::vector<double> dev;
        for (std::size_t k = from; k < i; ++k)
            dev.push_back(std::fabs(p[k].value - m));
        // A MAD of 0 (repeated values) is floored at 0.1 % of the median: any change is
        // not infinitely unusual.
        const double scale = std::max(1.4826 * medianOf(std::move(dev)), 1e-3 * std::fabs(m));
        const double z = scale > 0 ? (p[i].value - m) / scale : 0;
        const bool spike = z > r.spikeZ && p[i].value - m > r.spikeMinRise * std::fabs(m);
        if (spike && !inSpike) {
            HealthFinding f = finding(HealthKind::LossSpike, HealthSeverity::Warning, run, s, p[i],
                "robust z-score > " + formatShort(r.spikeZ) + " against the median of the previous "
                    + std::to_string(r.spikeWindow) + " points, and > "
                    + formatShort(r.spikeMinRise * 100) + " % above it",
                r.spikeZ);
            f.evidence = s.name + " " + formatShort(p[i].value) + " at " + at(p[i])
                + " against a rolling median of " + formatShort(m) + " (MAD-scale "
                + formatShort(scale) + "): robust z " + formatShort(z);
            c.add(std::move(f));
        }
        inSpike = spike;
    }
}

void trend(const LogSeries &s, std::uint32_t run, const HealthRules &r, Collector &c)
{
    const std::vector<Point> p = points(s);
    if (p.size() < r.trendMinPoints)
        return;
    const auto share = static_cast<double>(p.size()) * r.trendWindowShare;
    const std::size_t w = std::clamp<std::size_t>(static_cast<std::size_t>(share), 3, 200);
    // Adjacent windows of w points; the first rise is reported.
    for (std::size_t from = w; from + w <= p.size(); from += w) {
        const double before = medianRange(p, from - w, from);
        const double after = medianRange(p, from, from + w);
        if (before > 0 && after > before * (1 + r.risingShare)) {
            HealthFinding f =
                finding(HealthKind::LossRising, HealthSeverity::Error, run, s, p[from],
                    "median of a window of " + std::to_string(w) + " points > "
                        + formatShort(r.risingShare * 100) + " % above the previous window's",
                    r.risingShare);
            f.evidence = s.name + " median " + formatShort(before) + " over steps "
                + std::to_string(p[from - w].step) + "–" + std::to_string(p[from - 1].step)
                + " rises to " + formatShort(after) + " (" + pct(after / before - 1)
                + ") over steps " + std::to_string(p[from].step) + "–"
                + std::to_string(p[from + w - 1].step);
            c.add(std::move(f));
            return;
        }
    }
    if (p.size() < r.flatMinPoints)
        return;
    const double first = medianRange(p, 0, w);
    const double last = medianRange(p, p.size() - w, p.size());
    if (first != 0 && std::fabs(last - first) <= r.flatShare * std::fabs(first)) {
        HealthFinding f = finding(HealthKind::LossFlat, HealthSeverity::Warning, run, s,
            p[p.size() - w],
            "median of the last " + std::to_string(w) + " points within "
                + formatShort(r.flatShare * 100) + " % of the first " + std::to_string(w) + "'s",
            r.flatShare);
        f.evidence = s.name + " median " + formatShort(first) + " over the first "
            + std::to_string(w) + " points and " + formatShort(last) + " over the last "
            + std::to_string(w) + " (" + pct(last / first - 1) + "): no learning visible over "
            + std::to_string(p.size()) + " points";
        c.add(std::move(f));
    }
}

void gradNorm(const LogSeries &s, std::uint32_t run, const HealthRules &r, Collector &c)
{
    const std::vector<Point> p = points(s, false);
    std::size_t exploded = 0;
    const Point *first = nullptr;
    for (const Point &q : p) {
        if (!std::isfinite(q.value) || q.value > r.gradExplosion) {
            ++exploded;
            if (!first)
                first = &q;
        }
    }
    if (first) {
        HealthFinding f = finding(HealthKind::GradNormExplosion, HealthSeverity::Error, run, s,
            *first, "grad norm > " + formatShort(r.gradExplosion) + " or NaN/inf", r.gradExplosion);
        f.count = exploded;
        f.evidence = s.name + " " + formatShort(first->value) + " at " + at(*first) + "; "
            + std::to_string(exploded) + " of " + std::to_string(p.size()) + " points above "
            + formatShort(r.gradExplosion);
        c.add(std::move(f));
    }
    std::size_t streak = 0;
    for (std::size_t i = 0; i <= p.size(); ++i) {
        const bool low = i < p.size() && std::isfinite(p[i].value) && p[i].value < r.gradVanishing;
        if (low) {
            ++streak;
            continue;
        }
        if (streak >= r.vanishingPoints) {
            const Point &start = p[i - streak];
            HealthFinding f =
                finding(HealthKind::GradNormVanishing, HealthSeverity::Warning, run, s, start,
                    "grad norm < " + formatShort(r.gradVanishing) + " for "
                        + std::to_string(r.vanishingPoints) + " or more points in a row",
                    r.gradVanishing);
            f.count = streak;
            f.evidence = s.name + " below " + formatShort(r.gradVanishing) + " for "
                + std::to_string(streak) + " points from " + at(start) + " to step "
                + std::to_string(p[i - 1].step);
            c.add(std::move(f));
        }
        streak = 0;
    }
}

void lossScale(const LogSeries &s, std::uint32_t run, const HealthRules &r, Collector &c)
{
    double peak = 0;
    for (const Point &q : points(s)) {
        peak = std::max(peak, q.value);
        if (peak > 1 && q.value <= peak / r.lossScaleCollapse) {
            HealthFinding f = finding(HealthKind::LossScaleCollapse, HealthSeverity::Error, run, s,
                q, "loss scale <= run maximum / " + formatShort(r.lossScaleCollapse),
                r.lossScaleCollapse);
            f.evidence = s.name + " " + formatShort(q.value) + " at " + at(q)
                + " after a maximum of " + formatShort(peak) + " (÷"
                + formatShort(peak / std::max(q.value, 1e-300)) + ")";
            c.add(std::move(f));
            return;
        }
    }
}

void skipped(const LogSeries &s, std::uint32_t run, Collector &c)
{
    const SkippedSteps k = skippedSteps(s);
    if (k.steps.empty())
        return;
    const Point first {k.steps.front(), k.values.front(), k.lines.front()};
    HealthFinding f = finding(HealthKind::OverflowSkipped, HealthSeverity::Warning, run, s, first,
        "any step skipped on overflow", 0);
    f.count = static_cast<std::size_t>(k.count);
    // Steps in runs: newer DeepSpeed's OVERFLOW lines name no step and take the last one
    // printed, so the loss-scale search at the start reads "0 ×6", not "0, 0, 0, 0, 0, 0".
    std::string list;
    std::size_t runs = 0;
    for (std::size_t i = 0; i < k.steps.size();) {
        std::size_t j = i;
        while (j < k.steps.size() && k.steps[j] == k.steps[i])
            ++j;
        if (++runs > 8) {
            list += ", …";
            break;
        }
        list += (list.empty() ? "" : ", ") + std::to_string(k.steps[i])
            + (j - i > 1 ? " ×" + std::to_string(j - i) : "");
        i = j;
    }
    f.evidence = std::to_string(k.count) + " skipped step" + (k.count == 1 ? "" : "s") + " ("
        + s.name + (s.cumulative ? ", running total" : "") + ") first at " + at(first)
        + "; printed at steps " + list;
    c.add(std::move(f));
}

void stepTime(const LogSeries &s, std::uint32_t run, const HealthRules &r, Collector &c)
{
    std::vector<Point> p = points(s);
    if (!p.empty())
        p.erase(p.begin()); // warm-up
    if (p.size() < r.stepTimeMinPoints)
        return;
    const std::size_t w = std::clamp<std::size_t>(p.size() / 4, 3, 50);
    const double early = medianRange(p, 0, w);
    const double recent = medianRange(p, p.size() - w, p.size());
    if (early > 0 && recent > early * (1 + r.stepTimeRegression)) {
        HealthFinding f = finding(HealthKind::StepTimeRegression, HealthSeverity::Warning, run, s,
            p[p.size() - w],
            "median of the last " + std::to_string(w) + " step times > "
                + formatShort(r.stepTimeRegression * 100) + " % above the first "
                + std::to_string(w) + "'s (after the first point)",
            r.stepTimeRegression);
        f.evidence = s.name + " median " + formatShort(early) + " " + s.unit + " early, "
            + formatShort(recent) + " " + s.unit + " over the last " + std::to_string(w)
            + " points (" + pct(recent / early - 1) + ")";
        c.add(std::move(f));
    }
    for (std::size_t i = 5; i < p.size(); ++i) {
        const double m = medianRange(p, i > 10 ? i - 10 : 0, i);
        if (m > 0 && p[i].value > r.stallFactor * m) {
            HealthFinding f = finding(HealthKind::StepStall, HealthSeverity::Warning, run, s, p[i],
                "a step time > " + formatShort(r.stallFactor) + "× the median of the previous 10",
                r.stallFactor);
            f.evidence = s.name + " " + formatShort(p[i].value) + " " + s.unit + " at " + at(p[i])
                + " against a rolling median of " + formatShort(m) + " " + s.unit + " (×"
                + formatShort(p[i].value / m) + ")";
            c.add(std::move(f));
        }
    }
}

void lrSteps(const LogSeries &lr, const LogSeries *loss, std::uint32_t run, const HealthRules &r,
    Collector &c)
{
    if (!loss)
        return;
    const std::vector<Point> p = points(lr);
    const std::vector<Point> l = points(*loss);
    std::vector<double> rel(p.size(), 0);
    for (std::size_t i = 1; i < p.size(); ++i)
        rel[i] = p[i - 1].value > 0 ? std::fabs(p[i].value - p[i - 1].value) / p[i - 1].value : 0;
    for (std::size_t i = 1; i < p.size(); ++i) {
        if (rel[i] < r.lrStepShare || p[i - 1].value <= 0)
            continue;
        std::vector<double> around;
        for (std::size_t k = i > 5 ? i - 5 : 1; k <= i + 5 && k < p.size(); ++k) {
            if (k != i)
                around.push_back(rel[k]);
        }
        const double base = medianOf(around);
        if (!around.empty() && !(rel[i] >= r.lrStepContrast * base))
            continue;
        // Loss medians over the 5 points before and from this step.
        const auto split = std::lower_bound(l.begin(), l.end(), p[i].step,
            [](const Point &q, std::int64_t st) { return q.step < st; });
        const auto idx = static_cast<std::size_t>(split - l.begin());
        if (idx < 3 || l.size() - idx < 3)
            continue;
        const double before = medianRange(l, idx >= 5 ? idx - 5 : 0, idx);
        const double after = medianRange(l, idx, idx + 5);
        if (before == 0 || std::fabs(after / before - 1) < r.lossStepShare)
            continue;
        HealthFinding f = finding(HealthKind::LrStepLossStep, HealthSeverity::Info, run, lr, p[i],
            "lr changes >= " + formatShort(r.lrStepShare * 100) + " % between two points ("
                + formatShort(r.lrStepContrast)
                + "× its neighbours' change) and the loss median of 5 "
                  "points changes >= "
                + formatShort(r.lossStepShare * 100) + " % across it",
            r.lossStepShare);
        f.evidence = lr.name + " " + formatShort(p[i - 1].value) + " → " + formatShort(p[i].value)
            + " at " + at(p[i]) + "; " + loss->name + " median " + formatShort(before) + " → "
            + formatShort(after) + " (" + pct(after / before - 1) + ")";
        c.add(std::move(f));
    }
}

std::string duration(double seconds)
{
    const auto s = static_cast<long long>(std::llround(seconds));
    char buf[64];
    if (s >= 86400)
        std::snprintf(buf, sizeof buf, "%lld d %lld h", s / 86400, (s % 86400) / 3600);
    else if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%lld h %02lld min", s / 3600, (s % 3600) / 60);
    else
        std::snprintf(buf, sizeof buf, "%lld min %02lld s", s / 60, s % 60);
    return buf;
}

void eta(const model::TrainingLog &log, std::uint32_t run, const HealthRules &r, Collector &c)
{
    const double *total = log.scalar("total_steps");
    if (!total || *total <= 0)
        return;
    const LogSeries *st = nullptr; // the most points; of as many, the first by name
    for (const LogSeries *s : seriesOf(log, run)) {
        if (s->kind == LogSeriesKind::StepTime && !s->empty()
            && std::isfinite(stepTimeSeconds(1, s->unit)) && (!st || s->size() > st->size()))
            st = s;
    }
    if (!st)
        return;
    std::vector<Point> p = points(*st);
    if (p.size() < 2)
        return;
    const std::size_t n = std::min(r.etaWindow, p.size() - 1);
    const double perStep = stepTimeSeconds(medianRange(p, p.size() - n, p.size()), st->unit);
    const Point &last = p.back();
    const double left = *total - static_cast<double>(last.step);
    if (!(perStep > 0) || left <= 0)
        return;
    HealthFinding f = finding(HealthKind::Eta, HealthSeverity::Info, run, *st, last,
        "(total steps - last step) × median of the last " + std::to_string(r.etaWindow)
            + " step times",
        static_cast<double>(r.etaWindow));
    f.value = left * perStep;
    f.evidence = "step " + std::to_string(last.step) + " of " + formatShort(*total) + ": "
        + formatShort(left) + " steps × " + formatShort(perStep) + " s ≈ "
        + duration(left * perStep) + " left";
    c.add(std::move(f));
}

} // namespace

std::vector<HealthFinding> trainingHealth(const model::TrainingLog &log, const HealthRules &rules)
{
    std::vector<HealthFinding> out;
    for (std::uint32_t run = 0; run < log.runs.size(); ++run) {
        std::vector<HealthFinding> found;
        Collector c(found, rules);
        const LogSeries *loss = log.primaryLoss(run);
        const bool printsLoss = log.findKind(LogSeriesKind::Loss, run) != nullptr;
        const std::vector<const LogSeries *> skippedBy = skippedSources(log, run);
        for (const LogSeries *series : seriesOf(log, run)) {
            const LogSeries &s = *series;
            switch (s.kind) {
            case LogSeriesKind::Loss:
            case LogSeriesKind::EvalLoss:
            case LogSeriesKind::Perplexity:
                nonFinite(s, run, c);
                // Every training loss (every perplexity when the log prints no loss), not
                // only the primary one: a spike in a second loss column is as real.
                if (s.kind == LogSeriesKind::Loss
                    || (s.kind == LogSeriesKind::Perplexity && !printsLoss)) {
                    spikes(s, run, rules, c);
                    trend(s, run, rules, c);
                }
                break;
            case LogSeriesKind::GradNorm:
                gradNorm(s, run, rules, c);
                break;
            case LogSeriesKind::LossScale:
                lossScale(s, run, rules, c);
                break;
            case LogSeriesKind::Skipped: // each skipped step once, from one account of them
                if (std::find(skippedBy.begin(), skippedBy.end(), &s) != skippedBy.end())
                    skipped(s, run, c);
                break;
            case LogSeriesKind::StepTime:
                stepTime(s, run, rules, c);
                break;
            case LogSeriesKind::LearningRate: // every one, against the primary loss
                lrSteps(s, loss, run, rules, c);
                break;
            default:
                break;
            }
        }
        if (run + 1 == log.runs.size())
            eta(log, run, rules, c);
        c.finish();
        std::stable_sort(found.begin(), found.end(), [](const auto &a, const auto &b) {
            if (a.kind != b.kind)
                return a.kind < b.kind;
            return a.step != b.step ? a.step < b.step : a.series < b.series;
        });
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

} // namespace stepscope::analysis
