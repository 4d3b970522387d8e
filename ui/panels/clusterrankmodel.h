// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "clusterdata.h"

#include <QAbstractTableModel>

#include <memory>

namespace stepscope::ui::cluster {

/// The per-rank table of the Cluster panel as a Qt model (a model, not a QTableWidget, so
/// 10,000 ranks cost nothing until shown): rank, stage, steps, mean / median / max step,
/// each category's mean, deviation of the mean from the median rank, straggler, timeline.
/// Qt::DisplayRole is the formatted text, SortRole the number a column sorts by.
class RankTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr int SortRole = Qt::UserRole + 1;
    static constexpr int RankRole = Qt::UserRole + 2;

    explicit RankTableModel(QObject *parent = nullptr);
    void setClusterData(std::shared_ptr<const ClusterData> data);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// Column of the deviation from the median (after the categories).
    int deviationColumn() const;

private:
    std::shared_ptr<const ClusterData> m_data;
};

} // namespace stepscope::ui::cluster
