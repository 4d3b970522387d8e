// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "losscompare.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace stepscope::analysis {

namespace {

using model::LogSeriesKind;

// step -> value of the first non-duplicate point at that step.
std::map<std::int64_t, double> distinctPoints(const model::LogSeries &s, std::size_t &duplicates)
{
    std::map<std::int64_t, double> out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (i < s.duplicate.size() && s.duplicate[i]) {
            ++duplicates;
            continue;
        }
        out.emplace(s.steps[i], s.values[i]);
    }
    return out;
}

} // namespace

std::size_t LossComparison::finiteCount() const
{
    return static_cast<std::size_t>(std::count_if(points.begin(), points.end(),
        [](const LossPoint &p) { return std::isfinite(p.before) && std::isfinite(p.after); }));
}

std::string commonStepsText(std::size_t common, std::size_t finite)
{
    std::string text = std::to_string(common) + (common == 1 ? " common step" : " common steps");
    if (finite < common)
        text += ", " + std::to_string(finite) + " finite in both";
    return text;
}

LossComparison compareLoss(const model::LogSeries &before, const model::LogSeries &after)
{
    LossComparison c;
    std::map<std::int64_t, double> b = distinctPoints(before, c.duplicatesSkipped);
    std::map<std::int64_t, double> a = distinctPoints(after, c.duplicatesSkipped);
    c.beforeCount = b.size();
    c.afterCount = a.size();
    for (const auto &[step, v] : b)
        if (!std::isfinite(v))
            c.nonFiniteBefore.push_back(step);
    for (const auto &[step, v] : a)
        if (!std::isfinite(v))
            c.nonFiniteAfter.push_back(step);
    for (const auto &[step, vb] : b) {
        auto it = a.find(step);
        if (it == a.end()) {
            ++c.onlyBeforeCount;
            continue;
        }
        LossPoint p;
        p.step = step;
        p.before = vb;
        p.after = it->second;
        bool finite = std::isfinite(p.before) && std::isfinite(p.after);
        p.delta = finite ? p.after - p.before : std::nan("");
        if (finite && p.before != 0)
            p.relative = std::fabs(p.delta) / std::fabs(p.before);
        if (finite) {
            double ad = std::fabs(p.delta);
            if (!c.maxAbsDelta || ad > *c.maxAbsDelta) {
                c.maxAbsDelta = ad;
                c.maxAbsDeltaStep = step;
            }
            if (p.relative && (!c.maxRelative || *p.relative > *c.maxRelative)) {
                c.maxRelative = p.relative;
                c.maxRelativeStep = step;
            }
            c.finalAbsDelta = ad;
            c.finalRelative = p.relative;
            c.finalStep = step;
        }
        c.points.push_back(p);
    }
    c.onlyAfterCount = c.afterCount - c.points.size();
    return c;
}

std::string_view crossCheckStatisticName(CrossCheckStatistic s)
{
    switch (s) {
    case CrossCheckStatistic::Median:
        return "median after warm-up";
    case CrossCheckStatistic::Peak:
        return "peak";
    case CrossCheckStatistic::Total:
        return "total";
    case CrossCheckStatistic::Last:
        return "last";
    }
    return "median";
}

std::optional<double> summarise(
    const model::LogSeries &series, CrossCheckStatistic statistic, std::size_t *count)
{
    std::vector<double> values;
    for (std::size_t i = 0; i < series.size(); ++i) {
        if (i < series.duplicate.size() && series.duplicate[i])
            continue;
        if (std::isfinite(series.values[i]))
            values.push_back(series.values[i]);
    }
    if (statistic == CrossCheckStatistic::Median && values.size() > 1)
        values.erase(values.begin()); // the first step includes compilation / warm-up
    if (count)
        *count = values.size();
    if (values.empty())
        return std::nullopt;
    switch (statistic) {
    case CrossCheckStatistic::Median: {
        std::sort(values.begin(), values.end());
        std::size_t n = values.size();
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
    case CrossCheckStatistic::Peak:
        return *std::max_element(values.begin(), values.end());
    case CrossCheckStatistic::Total: {
        double sum = 0;
        for (double v : values)
            sum += v;
        return sum;
    }
    case CrossCheckStatistic::Last:
        return values.back();
    }
    return std::nullopt;
}

} // namespace stepscope::analysis
