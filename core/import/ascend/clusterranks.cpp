// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clusterranks.h"

#include "util/countof.h"
#include "util/joinfirst.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace stepscope::import::ascend {

namespace {

bool fullRow(const model::ReferenceStep &r)
{
    return r.kind != "stage" && r.find("Computing") != nullptr;
}

/// The largest relative difference of the columns both rows have.
double worstDifference(const model::ReferenceStep &a, const model::ReferenceStep &b)
{
    double worst = 0;
    for (const auto &[key, v] : a.valuesUs) {
        const double *w = b.find(key);
        if (w)
            worst = std::max(worst, std::abs(v - *w) / std::max({std::abs(v), std::abs(*w), 1.0}));
    }
    return worst;
}

/// Whether the cluster rows are of another run than the rank folders: the ranks that have a
/// step table of their own share no step id with their rows (msprof-analyze copies each rank's
/// rows). Said once, naming both sets of steps.
bool ofAnotherRun(const std::map<std::int32_t, std::vector<const model::ReferenceStep *>> &rows,
    const std::unordered_map<std::int32_t, model::Trace *> &byRank, const ImportContext &ctx)
{
    std::set<std::int64_t> theirs;
    std::set<std::int64_t> ours;
    bool shared = false;
    for (const auto &[rank, list] : rows) {
        const auto it = byRank.find(rank);
        if (it == byRank.end())
            continue;
        std::set<std::int64_t> own;
        for (const model::ReferenceStep &s : it->second->referenceSteps)
            if (fullRow(s))
                own.insert(s.step);
        if (own.empty())
            continue;
        for (const model::ReferenceStep *r : list) {
            if (r->step < 0) // msprof-analyze may leave Step empty: nothing to tell by
                return false;
            theirs.insert(r->step);
            shared = shared || own.count(r->step) != 0;
        }
        ours.insert(own.begin(), own.end());
    }
    if (shared || ours.empty())
        return false;
    ctx.report->add(model::Severity::Warning, rows.begin()->second.front()->source,
        "its steps (" + util::joinFirst(theirs, 5)
            + ") are none of the steps of the rank folders here (" + util::joinFirst(ours, 5)
            + "): this cluster output is of another run, and none of it (step table, "
              "communication, groups) was merged; open its folder on its own");
    return true;
}

} // namespace

void addClusterRanks(model::Session &session, const ImportContext &ctx)
{
    std::map<std::int32_t, std::vector<const model::ReferenceStep *>> rows;
    for (const auto &r : session.clusterSteps) {
        if (r.kind != "stage" && r.rank >= 0)
            rows[r.rank].push_back(&r);
    }
    if (rows.empty())
        return;
    // Loose fragments carry no rank id (docs/formats.md §2.1): their trace is rank 0 by default and
    // may be any rank or another window of the run, so no cluster row is attached to it.
    const bool rankless = session.format == "ascend-fragments";
    std::unordered_map<std::int32_t, model::Trace *> byRank;
    for (auto &t : session.traces) {
        // The session is still being built: this loader owns every trace exclusively.
        if (t.use_count() == 1)
            byRank[t->rank] = const_cast<model::Trace *>(t.get());
    }
    if (!rankless && ofAnotherRun(rows, byRank, ctx)) {
        session.clusterSteps.clear();
        session.clusterCollectives.clear();
        session.clusterMatrix.clear();
        session.communicationGroups.clear();
        session.clusterCollectivesSource.clear();
        session.clusterMatrixSource.clear();
        return;
    }
    std::int64_t added = 0;
    std::int64_t completed = 0;
    std::string source;
    for (const auto &[rank, list] : rows) {
        source = list.front()->source;
        const auto it = byRank.find(rank);
        if (it == byRank.end()) {
            auto trace = std::make_shared<model::Trace>();
            trace->rank = rank;
            trace->metadata.format = "ascend";
            trace->metadata.rank = rank;
            trace->metadata.sourceFiles.push_back(source);
            trace->referenceSteps.reserve(list.size());
            for (const auto *r : list)
                trace->referenceSteps.push_back(*r);
            session.traces.push_back(std::move(trace));
            ++added;
            continue;
        }
        if (rankless) {
            ctx.report->add(model::Severity::Info, source,
                "the rows of rank " + std::to_string(rank)
                    + " are not attached to the loose trace files: those carry no rank id "
                      "and may be another rank or window. Rank "
                    + std::to_string(rank)
                    + " in every view is the loose trace's own steps, not these rows");
            continue;
        }
        model::Trace &trace = *it->second;
        for (const auto *r : list) {
            const auto own = std::find_if(trace.referenceSteps.begin(), trace.referenceSteps.end(),
                [&](const model::ReferenceStep &s) { return fullRow(s) && s.step == r->step; });
            if (own == trace.referenceSteps.end()) {
                trace.referenceSteps.push_back(*r);
                ++completed;
            } else if (worstDifference(*own, *r) > 1e-4) {
                ctx.report->add(model::Severity::Warning, source,
                    "rank " + std::to_string(rank) + " step " + std::to_string(r->step)
                        + ": the cluster row differs from " + own->source
                        + " by more than 0.01 %; the rank's own file is used");
            }
        }
    }
    if (added > 0)
        ctx.report->add(model::Severity::Info, source,
            util::countOf(added, "rank has no folder here: its steps come",
                "ranks have no folder here: their steps come")
                + " from this file (no timeline)");
    if (completed > 0)
        ctx.report->add(model::Severity::Info, source,
            util::countOf(completed, "step row", "step rows")
                + " missing from the ranks' own step_trace_time.csv "
                + (completed == 1 ? "was" : "were") + " taken from this file");
}

} // namespace stepscope::import::ascend
