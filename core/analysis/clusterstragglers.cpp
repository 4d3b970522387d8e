// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clusterdetail.h"
#include "units.h"
#include "util/saturate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace stepscope::analysis::detail {

namespace {

/// The categories a straggler's excess is attributed to, in tie-break order.
struct ReasonCategory
{
    StragglerReason reason;
    std::array<ClusterMetric, 2> metrics; ///< summed; Step = unused slot
    std::string_view text;
};
constexpr std::array<ReasonCategory, 4> Reasons = {{
    {StragglerReason::SlowCompute, {ClusterMetric::Compute, ClusterMetric::Step}, "compute"},
    {StragglerReason::CommunicationWait, {ClusterMetric::CommExposed, ClusterMetric::Step},
        "exposed communication"},
    {StragglerReason::PipelineBubble, {ClusterMetric::Bubble, ClusterMetric::Step},
        "pipeline bubble"},
    {StragglerReason::FreeTime, {ClusterMetric::Free, ClusterMetric::Preparing},
        "free time (device idle)"},
}};

std::int64_t categoryNs(
    const ClusterMatrix &m, const ReasonCategory &c, std::size_t r, std::size_t s)
{
    std::int64_t v = 0;
    for (ClusterMetric k : c.metrics) {
        if (k != ClusterMetric::Step)
            v = util::satAdd(v, m.at(k, r, s));
    }
    return v;
}

} // namespace

std::int64_t median(std::vector<std::int64_t> &v)
{
    const std::size_t n = v.size();
    if (n == 0)
        return 0;
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(v.begin(), mid, v.end());
    const std::int64_t hi = *mid;
    if (n % 2)
        return hi;
    const std::int64_t lo = *std::max_element(v.begin(), mid);
    return lo + (hi - lo) / 2;
}

std::vector<Straggler> findStragglers(
    const ClusterMatrix &m, const std::vector<std::int32_t> &stageOf, double k, double minFraction)
{
    std::vector<Straggler> out;
    // Peer groups: one per stage, plus one for the ranks without a stage.
    std::map<std::int32_t, std::vector<std::size_t>> groups;
    for (std::size_t r = 0; r < m.ranks.size(); ++r)
        groups[stageOf[r]].push_back(r);
    std::vector<std::int64_t> values;
    std::vector<std::size_t> members;
    for (std::size_t s = 0; s < m.steps.size(); ++s) {
        for (const auto &[stage, ranks] : groups) {
            members.clear();
            values.clear();
            for (std::size_t r : ranks) {
                if (m.has(r, s)) {
                    members.push_back(r);
                    values.push_back(m.at(ClusterMetric::Step, r, s));
                }
            }
            if (members.size() < 3)
                continue; // a median of two says nothing about which one is slow
            const std::int64_t med = median(values);
            for (auto &v : values)
                v = std::abs(v - med);
            const std::int64_t mad = median(values);
            const auto threshold = static_cast<std::int64_t>(std::llround(std::max(
                k * 1.4826 * static_cast<double>(mad), minFraction * static_cast<double>(med))));
            // Per-category medians of the peers, for the reason.
            std::array<std::int64_t, Reasons.size()> catMedian {};
            bool catDone = false;
            for (std::size_t r : members) {
                const std::int64_t stepNs = m.at(ClusterMetric::Step, r, s);
                if (stepNs - med <= threshold)
                    continue;
                if (!catDone) {
                    for (std::size_t c = 0; c < Reasons.size(); ++c) {
                        values.clear();
                        for (std::size_t p : members)
                            values.push_back(categoryNs(m, Reasons[c], p, s));
                        catMedian[c] = median(values);
                    }
                    catDone = true;
                }
                Straggler st;
                st.rank = m.ranks[r];
                st.step = m.steps[s];
                st.stepNs = stepNs;
                st.peerMedianNs = med;
                st.thresholdNs = threshold;
                std::size_t best = Reasons.size();
                for (std::size_t c = 0; c < Reasons.size(); ++c) {
                    const std::int64_t excess = categoryNs(m, Reasons[c], r, s) - catMedian[c];
                    if (best == Reasons.size() || excess > st.reasonExcessNs) {
                        best = c;
                        st.reasonExcessNs = excess;
                    }
                }
                st.reason = Reasons[best].reason;
                st.explanation = "rank " + std::to_string(st.rank) + " step "
                    + std::to_string(st.step) + " took " + formatDuration(stepNs) + ", "
                    + formatDuration(stepNs - med) + " above the median of its "
                    + (stage >= 0 ? "pipeline stage" : "peers") + "; mostly "
                    + std::string(Reasons[best].text) + " (+" + formatDuration(st.reasonExcessNs)
                    + ")";
                out.push_back(std::move(st));
            }
        }
    }
    std::sort(out.begin(), out.end(), [](const Straggler &a, const Straggler &b) {
        return a.step != b.step ? a.step < b.step : a.rank < b.rank;
    });
    return out;
}

void summariseStragglers(
    const std::vector<Straggler> &stragglers, std::vector<ClusterRankRow> &rows)
{
    std::map<std::int32_t, std::array<std::int64_t, 5>> counts;
    for (const auto &s : stragglers)
        ++counts[s.rank][static_cast<std::size_t>(s.reason)];
    for (auto &row : rows) {
        const auto it = counts.find(row.rank);
        if (it == counts.end())
            continue;
        std::size_t best = 0;
        for (std::size_t i = 0; i < it->second.size(); ++i) {
            row.stragglerSteps += it->second[i];
            if (it->second[i] > it->second[best])
                best = i;
        }
        row.reason = static_cast<StragglerReason>(best);
    }
}

} // namespace stepscope::analysis::detail
