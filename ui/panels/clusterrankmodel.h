// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/cluster.h"

#include <QAbstractTableModel>

#include <memory>

namespace stepscope::ui::cluster {

/// The per-rank table of the Cluster panel as a Qt model over analysis::ClusterAnalysis::ranks
/// (a model, not a QTableWidget, so 10,000 ranks cost nothing until shown): rank, stage, steps,
/// mean / median / max step, each category's mean, deviation of the mean from the median
/// rank, straggler steps with their most frequent reason, timeline. Nothing is computed here.
/// Qt::DisplayRole is the formatted text, SortRole the number a column sorts by.
class RankTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int RankRole = Qt::UserRole + 2;

    /// Columns before the per-category means, and after them.
    enum Column { Rank, Stage, Steps, Mean, Median, Max, FirstCategory };
    /// The categories shown as columns (ClusterMetric after Step), in this order.
    static constexpr int CategoryCount = analysis::ClusterMetricCount - 1;
    static constexpr int DeviationColumn = FirstCategory + CategoryCount;
    static constexpr int StragglerColumn = DeviationColumn + 1;
    static constexpr int ReasonColumn = DeviationColumn + 2;
    static constexpr int TimelineColumn = DeviationColumn + 3;
    static constexpr int ColumnCount = DeviationColumn + 4;

    explicit RankTableModel(QObject *parent = nullptr);
    /// `owner` keeps `cluster` alive (the load's SessionAnalysis).
    void setCluster(std::shared_ptr<const void> owner, const analysis::ClusterAnalysis *cluster);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const void> m_owner;
    const analysis::ClusterAnalysis *m_cluster = nullptr;
};

/// "stage 1 (8–15)" for a stage index of `cluster`, empty when -1.
QString stageName(const analysis::ClusterAnalysis &cluster, std::int32_t index);
/// "slow compute", "waiting in communication", "pipeline bubble", "free time", "".
QString reasonText(analysis::StragglerReason reason);
/// Ranks as "0–7, 9, 12–15".
QString rankList(const std::vector<std::int32_t> &ranks);

} // namespace stepscope::ui::cluster
