// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/analysissummary.h"
#include "model/session.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace stepscope::ui::cluster {

/// One rank's row of the Cluster panel's table (times in ns).
struct RankRow
{
    std::int32_t rank = 0;
    QString stage; ///< pipeline stage name, empty when unknown
    std::int64_t steps = 0;
    double meanNs = 0;
    double medianNs = 0;
    double maxNs = 0;
    std::vector<double> categoryMeanNs; ///< one per ClusterData::categories
    double deviation = 0; ///< (mean − median of the ranks' means) / that median
    bool straggler = false;
    int traceIndex = -1; ///< index into session.traces when the rank's timeline is loaded
};

/// A rank × step cell far above its step's other ranks, and why.
struct Straggler
{
    std::int32_t rank = 0;
    std::int64_t step = 0;
    double stepNs = 0;
    double thresholdNs = 0; ///< the rule's limit for that step
    QString reason; ///< "slow compute", "waiting in communication", "free time"
};

/// A pipeline stage: its ranks and bubble (from the table's "stage" rows).
struct Stage
{
    QString name;
    std::vector<std::int32_t> ranks;
    double stepNs = 0; ///< mean over steps
    double bubbleNs = 0; ///< mean over steps
};

/// One collective of a communication group: its slowest rank and where its time went.
struct GroupCollective
{
    QString name;
    std::int32_t slowestRank = -1;
    double elapseMs = 0;
    double waitMs = 0;
    double transitMs = 0;
};

/// A communication group with its slowest rank and slowest link.
struct Group
{
    QString name;
    QString kind; ///< "dp", "tp", "pp"… or empty
    std::vector<std::int32_t> ranks;
    std::int32_t slowestRank = -1;
    double slowestRankMs = 0; ///< its total collective time
    QString slowestLink; ///< "3 → 5"
    QString slowestTransport; ///< RDMA, HCCS, PCIE, SIO…
    double slowestLinkGbps = -1;
    std::vector<GroupCollective> collectives;
};

/// Everything the Cluster panel shows, read from the session and its analysis.
struct ClusterData
{
    QString source; ///< where the numbers come from, said under the title
    QString stragglerRule; ///< the documented rule, as a sentence
    std::vector<QString> categories; ///< the step-table columns, in the profiler's order
    std::vector<std::int32_t> ranks; ///< heat-map rows (sorted)
    std::vector<std::int64_t> steps; ///< heat-map columns (sorted)
    /// [0]: step time, [1 + k]: categories[k]; each ranks × steps, row-major, ns, NaN = none.
    std::vector<std::vector<double>> cells;
    std::vector<RankRow> rows; ///< one per rank, same order as `ranks`
    std::vector<Straggler> stragglers;
    std::vector<Stage> stages;
    std::vector<Group> groups;

    bool empty() const { return ranks.empty(); }
    /// Heat-map metric names: "Step time" then the categories.
    std::vector<QString> metricNames() const;
};

/// The cluster of a loaded session (every rank the session knows of). Without a cluster
/// table the ranks' own breakdowns come from `analysed` (the load's analysis) when given.
ClusterData buildClusterData(const model::Session &session, const QString &profilePath,
    const analysis::SessionAnalysis *analysed = nullptr);

} // namespace stepscope::ui::cluster
