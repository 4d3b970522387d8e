// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/analysissummary.h"
#include "model/session.h"

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

class ClusterGroupsView;
class ClusterHeatMap;
namespace cluster {
class RankTableModel;
}

/// The Cluster panel (issue 11 item 3), where a many-rank user starts. It shows core's
/// cluster analysis (analysis::ClusterAnalysis, computed once per load in SessionAnalysis)
/// and computes nothing itself: the rank × step heat map of step time or of one category
/// (switchable, with its scale and unit), the cluster communication share with the bubble
/// beside it, a sortable per-rank table, the stragglers of each pipeline stage with their
/// reason, the stages with their bubble and the communication groups.
///
/// Nothing here loads a rank's timeline up front: activating (double-clicking) a rank shows
/// its loaded timeline (timeRequested, like the other panels) or, when it has no events
/// here but its own folder is on disk and not loaded, asks for that folder to be opened
/// (rankFolderRequested). GUI thread only.
class ClusterPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ClusterPanel(QWidget *parent = nullptr);
    ~ClusterPanel() override;

    /// The opened path; rank folders are looked for under it (or, for a
    /// cluster_analysis_output folder, beside it) the first time a rank is activated.
    void setProfilePath(const QString &path);

    /// What the panel shows (empty before a session).
    const analysis::ClusterAnalysis &cluster() const;
    ClusterHeatMap *heatMap() const { return m_heatMap; }
    QComboBox *metricBox() const { return m_metric; }
    QLabel *summaryLabel() const { return m_summary; }
    QTableView *rankTable() const { return m_rankTable; }
    QStandardItemModel *stragglerModel() const { return m_stragglers; }
    QStandardItemModel *stageModel() const { return m_stages; }
    ClusterGroupsView *groupsView() const { return m_groups; }
    QTabWidget *tabs() const { return m_tabs; }
    /// The folder of a rank's own profile, empty when none is on disk.
    QString rankFolder(std::int32_t rank);
    /// Whether the summary says how to open a rank: off for an exported picture, where nothing
    /// can be clicked. Set before setSession.
    void setInteractive(bool interactive) { m_interactive = interactive; }

public slots:
    /// The load's analysis for the next setSession (its cluster part is what is shown).
    void setAnalysis(std::shared_ptr<const analysis::SessionAnalysis> analysed)
    {
        m_analysis = std::move(analysed);
    }
    /// Shows the session with the analysis given by setAnalysis; without one (callers
    /// outside the main window) the session is analysed once here by analyzeSession.
    void setSession(std::shared_ptr<const model::Session> session);
    /// Shows heat-map metric `index` (analysis::ClusterMetric order: step time, then the
    /// categories).
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
    void fillSummary();
    void fillTables();
    void scanRankFolders();
    bool folderLoaded(std::int32_t rank, const QString &folder) const;

    std::shared_ptr<const model::Session> m_session;
    std::shared_ptr<const analysis::SessionAnalysis> m_analysis;
    std::shared_ptr<const analysis::SessionAnalysis> m_shown; ///< what the views read
    QString m_path;
    bool m_foldersScanned = false;
    bool m_interactive = true;
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
    ClusterGroupsView *m_groups = nullptr;
};

} // namespace stepscope::ui
