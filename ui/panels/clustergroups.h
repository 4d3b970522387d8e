// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/cluster.h"

#include <QWidget>

#include <memory>

class QLabel;
class QStandardItemModel;
class QTableView;

namespace stepscope::ui {

/// The Cluster panel's "Communication groups" tab, read from analysis::ClusterAnalysis::groups
/// (cluster_communication.json, cluster_communication_matrix.json, communication_group.json):
/// one row per group with its slowest rank and slowest link; under it, for the selected
/// group, the slowest link of each transport (RDMA, HCCS, PCIE, SIO...) with its bandwidth
/// and the group's traffic on it, and each collective with wait vs transit time. Nothing is
/// computed here. Double-clicking a row emits rankActivated with its slowest rank.
class ClusterGroupsView : public QWidget
{
    Q_OBJECT

public:
    static constexpr int GroupRole = Qt::UserRole + 8;

    explicit ClusterGroupsView(QWidget *parent = nullptr);

    /// `owner` keeps `cluster` alive; nullptr clears the tab.
    void setCluster(std::shared_ptr<const void> owner, const analysis::ClusterAnalysis *cluster);
    /// Shows group `index` (into ClusterAnalysis::groups) in the detail tables.
    void showGroup(int index);
    int shownGroup() const { return m_shown; }

    QStandardItemModel *groupModel() const { return m_groups; }
    QStandardItemModel *linkModel() const { return m_links; }
    QStandardItemModel *collectiveModel() const { return m_collectives; }
    QTableView *groupTable() const { return m_groupView; }

signals:
    void rankActivated(std::int32_t rank);

private:
    std::shared_ptr<const void> m_owner;
    const analysis::ClusterAnalysis *m_cluster = nullptr;
    int m_shown = -1;
    QLabel *m_title = nullptr;
    QStandardItemModel *m_groups = nullptr;
    QStandardItemModel *m_links = nullptr;
    QStandardItemModel *m_collectives = nullptr;
    QTableView *m_groupView = nullptr;
    QTableView *m_linkView = nullptr;
    QTableView *m_collectiveView = nullptr;
};

} // namespace stepscope::ui
