// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "clusterdata.h"

#include <QHash>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
class QTabWidget;

namespace stepscope::ui {

class ClusterHeatMap;
namespace cluster {
class RankTableModel;
}

/// The Cluster panel (issue 11 item 3), where a many-rank user starts: the rank × step heat
/// map of step time or of one category (switchable, with its scale and unit), a sortable
/// per-rank table, the stragglers with their reason, the pipeline stages with their bubble
/// and the communication groups with their slowest rank and link.
///
/// Nothing here loads a rank's timeline up front: activating (double-clicking) a rank either
/// shows its loaded timeline (timeRequested, like the other panels) or, when only its folder
/// is on disk, asks for that folder to be opened (rankFolderRequested). GUI thread only.
class ClusterPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ClusterPanel(QWidget *parent = nullptr);
    ~ClusterPanel() override;

    /// The opened path; rank folders are looked for under it (or, for a
    /// cluster_analysis_output folder, beside it) the first time a rank is activated.
    void setProfilePath(const QString &path);

    const cluster::ClusterData &data() const { return *m_data; }
    ClusterHeatMap *heatMap() const { return m_heatMap; }
    QComboBox *metricBox() const { return m_metric; }
    QTableView *rankTable() const { return m_rankTable; }
    QStandardItemModel *stragglerModel() const { return m_stragglers; }
    QStandardItemModel *stageModel() const { return m_stages; }
    QStandardItemModel *groupModel() const { return m_groups; }
    QTabWidget *tabs() const { return m_tabs; }
    /// The folder of a rank's own profile, empty when none is on disk.
    QString rankFolder(std::int32_t rank);

public slots:
    void setSession(std::shared_ptr<const model::Session> session);
    /// The load's analysis for the next setSession (its breakdowns, not a new pass).
    void setAnalysis(std::shared_ptr<const analysis::SessionAnalysis> analysed)
    {
        m_analysis = std::move(analysed);
    }
    /// Shows heat-map metric `index` (0 = step time, then the categories).
    void showMetric(int index);
    /// Opens a rank: its timeline when loaded, else its folder when present.
    void activateRank(std::int32_t rank);

signals:
    /// A loaded rank's steps, ns relative to its trace origin (MainWindow::showRankTime).
    void timeRequested(int rank, qint64 startNs, qint64 endNs);
    /// The rank is not loaded but its folder is on disk: open it (lazily, on demand).
    void rankFolderRequested(int rank, const QString &folder);
    /// A sentence for the status bar (e.g. why a rank cannot be opened).
    void message(const QString &text);

private:
    void fillTables();
    void scanRankFolders();

    std::shared_ptr<const model::Session> m_session;
    std::shared_ptr<const analysis::SessionAnalysis> m_analysis;
    std::shared_ptr<const cluster::ClusterData> m_data;
    QString m_path;
    bool m_foldersScanned = false;
    QHash<std::int32_t, QString> m_folders;
    QLabel *m_summary = nullptr;
    QComboBox *m_metric = nullptr;
    ClusterHeatMap *m_heatMap = nullptr;
    QTabWidget *m_tabs = nullptr;
    cluster::RankTableModel *m_rankModel = nullptr;
    QSortFilterProxyModel *m_rankProxy = nullptr;
    QTableView *m_rankTable = nullptr;
    QStandardItemModel *m_stragglers = nullptr;
    QStandardItemModel *m_stages = nullptr;
    QStandardItemModel *m_groups = nullptr;
};

} // namespace stepscope::ui
