// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clusterdata.h"

#include "analysis/breakdown.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace stepscope::ui::cluster {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

double median(std::vector<double> v)
{
    if (v.empty())
        return std::nan("");
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/// One rank's step as the panel needs it: step id and each category in ns.
struct CellRow
{
    std::int32_t rank = 0;
    std::int64_t step = 0;
    double stepNs = 0;
    std::vector<double> categoryNs; // NaN where the row has no such column
};

/// The profiler's cluster table (its "rank" rows), categories in the file's column order.
bool fromClusterTable(
    const model::Session &session, std::vector<QString> &categories, std::vector<CellRow> &rows)
{
    std::vector<std::string> keys;
    for (const model::ReferenceStep &s : session.clusterSteps) {
        if (s.kind != "rank")
            continue;
        for (const auto &[key, value] : s.valuesUs) {
            if (std::find(keys.begin(), keys.end(), key) == keys.end())
                keys.push_back(key);
        }
    }
    if (keys.empty())
        return false;
    for (const std::string &k : keys)
        categories.push_back(qs(k));
    for (const model::ReferenceStep &s : session.clusterSteps) {
        if (s.kind != "rank")
            continue;
        CellRow row;
        row.rank = s.rank;
        row.step = s.step;
        for (const std::string &k : keys) {
            const double *v = s.find(k);
            row.categoryNs.push_back(v ? *v * 1000.0 : std::nan(""));
        }
        // Step = Computing + Communication(Not Overlapped) + Free (= Stage + Bubble).
        const double *c = s.find("Computing");
        const double *e = s.find("Communication(Not Overlapped)");
        const double *f = s.find("Free");
        row.stepNs = (c && e && f) ? (*c + *e + *f) * 1000.0 : std::nan("");
        rows.push_back(std::move(row));
    }
    return true;
}

/// Without a cluster table: each loaded rank's own breakdown.
void fromBreakdowns(const model::Session &session, const analysis::SessionAnalysis *analysed,
    std::vector<QString> &categories, std::vector<CellRow> &rows)
{
    categories = {QStringLiteral("Computing"), QStringLiteral("Communication(Not Overlapped)"),
        QStringLiteral("Overlapped"), QStringLiteral("Free"), QStringLiteral("Bubble"),
        QStringLiteral("Preparing")};
    for (const auto &trace : session.traces) {
        const auto breakdowns = analysed ? analysis::breakdownsOfRank(*analysed, trace->rank)
                                         : analysis::computeBreakdowns(*trace);
        for (const analysis::StepBreakdown &b : breakdowns) {
            CellRow row;
            row.rank = trace->rank;
            row.step = b.step;
            row.stepNs = static_cast<double>(b.durationNs());
            row.categoryNs = {static_cast<double>(b.computeNs),
                static_cast<double>(b.commExposedNs), static_cast<double>(b.commOverlappedNs),
                static_cast<double>(b.freeNs), static_cast<double>(b.bubbleNs),
                static_cast<double>(b.preparingNs)};
            rows.push_back(std::move(row));
        }
    }
}

int categoryIndex(const std::vector<QString> &categories, const QString &name)
{
    const auto it = std::find(categories.begin(), categories.end(), name);
    return it == categories.end() ? -1 : static_cast<int>(it - categories.begin());
}

} // namespace

std::vector<QString> ClusterData::metricNames() const
{
    std::vector<QString> out {QStringLiteral("Step time")};
    out.insert(out.end(), categories.begin(), categories.end());
    return out;
}

ClusterData buildClusterData(
    const model::Session &session, const QString &, const analysis::SessionAnalysis *analysed)
{
    ClusterData d;
    std::vector<CellRow> rows;
    if (fromClusterTable(session, d.categories, rows))
        d.source = QStringLiteral("cluster_step_trace_time.csv (the profiler's table)");
    else {
        fromBreakdowns(session, analysed, d.categories, rows);
        d.source = QStringLiteral("each loaded rank's step breakdown");
    }
    std::set<std::int32_t> rankSet;
    std::set<std::int64_t> stepSet;
    for (const auto &t : session.traces)
        rankSet.insert(t->rank);
    for (const CellRow &r : rows) {
        rankSet.insert(r.rank);
        stepSet.insert(r.step);
    }
    d.ranks.assign(rankSet.begin(), rankSet.end());
    d.steps.assign(stepSet.begin(), stepSet.end());
    const std::size_t R = d.ranks.size();
    const std::size_t S = d.steps.size();
    const std::size_t M = 1 + d.categories.size();
    d.cells.assign(M, std::vector<double>(R * S, std::nan("")));
    std::map<std::int32_t, std::size_t> rankRow;
    for (std::size_t i = 0; i < R; ++i)
        rankRow[d.ranks[i]] = i;
    std::map<std::int64_t, std::size_t> stepCol;
    for (std::size_t i = 0; i < S; ++i)
        stepCol[d.steps[i]] = i;
    for (const CellRow &r : rows) {
        const std::size_t cell = rankRow[r.rank] * S + stepCol[r.step];
        d.cells[0][cell] = r.stepNs;
        for (std::size_t k = 0; k < r.categoryNs.size() && k + 1 < M; ++k)
            d.cells[k + 1][cell] = r.categoryNs[k];
    }

    // Per-rank rows.
    d.rows.resize(R);
    for (std::size_t i = 0; i < R; ++i) {
        RankRow &row = d.rows[i];
        row.rank = d.ranks[i];
        std::vector<double> steps;
        for (std::size_t s = 0; s < S; ++s) {
            const double v = d.cells[0][i * S + s];
            if (!std::isnan(v))
                steps.push_back(v);
        }
        row.steps = static_cast<std::int64_t>(steps.size());
        if (!steps.empty()) {
            double sum = 0;
            for (double v : steps)
                sum += v;
            row.meanNs = sum / static_cast<double>(steps.size());
            row.maxNs = *std::max_element(steps.begin(), steps.end());
            row.medianNs = median(steps);
        }
        for (std::size_t k = 1; k < M; ++k) {
            double sum = 0;
            int n = 0;
            for (std::size_t s = 0; s < S; ++s) {
                const double v = d.cells[k][i * S + s];
                if (!std::isnan(v)) {
                    sum += v;
                    ++n;
                }
            }
            row.categoryMeanNs.push_back(n ? sum / n : std::nan(""));
        }
    }
    for (std::size_t t = 0; t < session.traces.size(); ++t)
        d.rows[rankRow[session.traces[t]->rank]].traceIndex = static_cast<int>(t);
    std::vector<double> means;
    for (const RankRow &row : d.rows)
        if (row.steps > 0)
            means.push_back(row.meanNs);
    const double med = median(means);
    for (RankRow &row : d.rows)
        row.deviation = (row.steps > 0 && med > 0) ? (row.meanNs - med) / med : 0;

    // Stragglers: per step, above median + 3 × 1.4826 × MAD and 5 % above the median.
    d.stragglerRule = QStringLiteral(
        "A rank straggles in a step when its step time exceeds the step's median over ranks by "
        "more than 3 × 1.4826 × MAD and by more than 5 %; the reason is the category with the "
        "largest excess over that category's median.");
    const int compute = categoryIndex(d.categories, QStringLiteral("Computing"));
    const int comm = categoryIndex(d.categories, QStringLiteral("Communication(Not Overlapped)"));
    const int idle = categoryIndex(d.categories, QStringLiteral("Free"));
    for (std::size_t s = 0; s < S; ++s) {
        std::vector<double> col;
        for (std::size_t i = 0; i < R; ++i)
            if (!std::isnan(d.cells[0][i * S + s]))
                col.push_back(d.cells[0][i * S + s]);
        if (col.size() < 3)
            continue;
        const double m = median(col);
        std::vector<double> dev;
        for (double v : col)
            dev.push_back(std::fabs(v - m));
        const double limit = std::max(m + 3 * 1.4826 * median(dev), m * 1.05);
        auto catMedian = [&](int k) {
            std::vector<double> v;
            for (std::size_t i = 0; i < R; ++i)
                if (!std::isnan(d.cells[static_cast<std::size_t>(k) + 1][i * S + s]))
                    v.push_back(d.cells[static_cast<std::size_t>(k) + 1][i * S + s]);
            return median(v);
        };
        const double mc = compute >= 0 ? catMedian(compute) : 0;
        const double me = comm >= 0 ? catMedian(comm) : 0;
        const double mf = idle >= 0 ? catMedian(idle) : 0;
        for (std::size_t i = 0; i < R; ++i) {
            const double v = d.cells[0][i * S + s];
            if (std::isnan(v) || v <= limit)
                continue;
            auto excess = [&](int k, double catMed) {
                return k >= 0 ? d.cells[static_cast<std::size_t>(k) + 1][i * S + s] - catMed
                              : -HUGE_VAL;
            };
            const double ec = excess(compute, mc);
            const double ee = excess(comm, me);
            const double ef = excess(idle, mf);
            Straggler st;
            st.rank = d.ranks[i];
            st.step = d.steps[s];
            st.stepNs = v;
            st.thresholdNs = limit;
            st.reason = ec >= ee && ec >= ef ? QStringLiteral("slow compute")
                : ee >= ef                   ? QStringLiteral("waiting in communication")
                                             : QStringLiteral("free time");
            d.stragglers.push_back(st);
            d.rows[i].straggler = true;
        }
    }

    // Pipeline stages from the "stage" rows.
    std::map<std::vector<std::int32_t>, std::vector<const model::ReferenceStep *>> stages;
    for (const model::ReferenceStep &s : session.clusterSteps)
        if (s.kind == "stage")
            stages[s.stageRanks].push_back(&s);
    for (const auto &[ranks, steps] : stages) {
        Stage st;
        st.name = ranks.empty() ? QStringLiteral("stage %1").arg(d.stages.size())
                                : QStringLiteral("stage %1 (%2–%3)")
                                      .arg(d.stages.size())
                                      .arg(ranks.front())
                                      .arg(ranks.back());
        st.ranks = ranks;
        double stage = 0;
        double bubble = 0;
        for (const model::ReferenceStep *s : steps) {
            if (const double *v = s->find("Stage"))
                stage += *v * 1000.0;
            if (const double *v = s->find("Bubble"))
                bubble += *v * 1000.0;
        }
        st.stepNs = (stage + bubble) / static_cast<double>(steps.size());
        st.bubbleNs = bubble / static_cast<double>(steps.size());
        d.stages.push_back(std::move(st));
        for (std::int32_t r : ranks)
            if (rankRow.count(r))
                d.rows[rankRow[r]].stage = d.stages.back().name;
    }
    return d;
}

} // namespace stepscope::ui::cluster
