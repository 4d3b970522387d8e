// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/kpis.h"
#include "export/imageexport.h"
#include "loading/profileloader.h"
#include "model/ids.h"

#include <QDockWidget>
#include <QList>
#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QStackedWidget;
class QTimer;

namespace stepscope::ui {

class KpiStrip;
class LoadProgressDialog;
class LoadReportView;
class MemoryPanel;
class StepsPanel;
class WelcomePage;
namespace timeline {
class DetailsPane;
class RangeStatsPanel;
class TimelineView;
struct EventKey;
} // namespace timeline

/// The application window (DESIGN.md "The main window"): a welcome page until a profile is
/// open, then the timeline in the centre with bottom docks (Details, Range stats, Diagnostics,
/// and the analysis panels other parts add through addPanelDock()). Opening runs in the
/// background (ProfileLoader) with a progress dialog; a new open replaces the shown profile.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    WelcomePage *welcomePage() const { return m_welcome; }
    timeline::TimelineView *timelineView() const { return m_timeline; }
    timeline::DetailsPane *detailsPane() const { return m_details; }
    timeline::RangeStatsPanel *rangeStatsPanel() const { return m_rangeStats; }
    LoadReportView *loadReportView() const { return m_report; }
    ProfileLoader *loader() const { return m_loader; }
    LoadProgressDialog *progressDialog() const { return m_progress; }
    QLineEdit *searchBox() const { return m_search; }
    /// The session shown now (null before the first successful load).
    std::shared_ptr<const model::Session> session() const { return m_profile.session; }
    const LoadedProfile &profile() const { return m_profile; }

    /// Adds a panel as a bottom dock, tabbed with the others (Steps, Memory, Communication...).
    QDockWidget *addPanelDock(const QString &title, QWidget *panel, const QString &objectName);

    static QStringList recentPaths();
    /// Comparisons opened, newest first: (before, after) absolute paths.
    static QList<QPair<QString, QString>> recentCompares();

    /// What File › Export View and Copy View Image paint for `what`: "timeline", "compare",
    /// a dock's object name or "window"; all but the window under exportTitle(what).
    PaintFunction viewPaintFunction(const QString &what) const;
    /// The title line of an exported picture (DESIGN.md: profile, rank, step or range):
    /// "run3 — timeline, step 2", "run3 — Kernels".
    QString exportTitle(const QString &what) const;

public slots:
    /// Opens a folder or file in the background; replaces what is shown once loaded.
    void openPath(const QString &path);
    /// openPath with load options (--ranks, --no-memory-check). When the memory budget
    /// refuses the load, the window asks what to open instead (askWhatToOpen).
    void openPathWith(const QString &path, const import::LoadOptions &options);
    /// Fits and selects [startNs, endNs) of `rank` (ns relative to that rank's trace origin,
    /// as the analysis panels give them).
    void showRankTime(int rank, qint64 startNs, qint64 endNs);
    /// Selects an event of a rank's trace on the timeline and brings it into view.
    void showRankEvent(int rank, stepscope::model::EventRef event);
    /// Shows BEFORE against AFTER in the centre (compare mode, DESIGN.md); both load in the
    /// background. The single-profile timeline stays one click away (View › Single Profile).
    /// Ranks: which rank of each run to compare (empty: its slowest rank).
    void openCompare(const QString &beforePath, const QString &afterPath,
        std::optional<std::int32_t> beforeRank = std::nullopt,
        std::optional<std::int32_t> afterRank = std::nullopt);
    /// The compare view in the centre, or nullptr.
    QWidget *compareView() const { return m_compare; }

signals:
    void openRequested(const QString &path);
    /// A load ended: `ok` when a profile with content is now shown.
    void loadFinished(bool ok);
    /// The comparison openCompare started is shown (`ok`) or could not be made.
    void compareFinished(bool ok);
    /// A profile was shown: docked panels update from here.
    void sessionChanged(std::shared_ptr<const stepscope::model::Session> session);

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    // mainwindowdocks.cpp: the bottom docks and the analysis panels.
    void createDocks();
    void createClusterDock();
    /// Per rank, the trace time the timeline's ruler calls 0 (empty when no timeline shows):
    /// the panels that print times count from it.
    std::map<int, std::int64_t> rulerZeros() const;
    /// Shows the docks compare mode hid (a profile is shown again, or the layout is saved).
    void restoreDocksAfterCompare();
    /// The index in the session of the first trace of `rank`; -1 when none.
    int traceIndexOfRank(int rank) const;
    // mainwindowmenus.cpp: menus, tool bar, search, file choosers, recent files.
    void createMenus();
    void createToolBar();
    void updateSearchLabel(int count, int current);
    void chooseFolder();
    void chooseFile();
    void rememberRecent(const QString &path);
    void rememberRecentCompare(const QString &beforePath, const QString &afterPath);
    void updateRecentMenu();
    void showShortcuts();
    // mainwindowexport.cpp: File › Export View, Copy View Image.
    void exportView();
    void copyViewImage();
    // mainwindow.cpp: loading, the shown profile, compare, selection.
    void chooseCompare();
    void updateKpis();
    void onLoaded(quint64 generation, const LoadedProfile &profile);
    void onCancelled(quint64 generation);
    void onEventSelected(const timeline::EventKey &event);
    void onRangeSelected(qint64 t0, qint64 t1);
    void resetLayout();
    /// The height the bottom docks need so that the tallest panel shows without scrolling:
    /// its minimum height, the dock's title bar and the tab bar.
    int bottomPanelNeed() const;
    /// Gives the bottom docks defaultlayout::bottomDockHeight() of the window.
    void giveDocksRoom();
    QString statusText() const;

    QStackedWidget *m_centre = nullptr;
    WelcomePage *m_welcome = nullptr;
    timeline::TimelineView *m_timeline = nullptr;
    QLabel *m_noTimeline = nullptr; ///< the centre for sessions without trace events
    timeline::DetailsPane *m_details = nullptr;
    timeline::RangeStatsPanel *m_rangeStats = nullptr;
    LoadReportView *m_report = nullptr;
    QDockWidget *m_detailsDock = nullptr;
    QDockWidget *m_rangeDock = nullptr;
    QDockWidget *m_reportDock = nullptr;
    QMenu *m_viewMenu = nullptr;
    QAction *m_rawClocks = nullptr; ///< View › Raw Clocks
    QMenu *m_recentMenu = nullptr;
    QLineEdit *m_search = nullptr;
    QLabel *m_searchLabel = nullptr;
    QLabel *m_counts = nullptr;
    ProfileLoader *m_loader = nullptr;
    LoadProgressDialog *m_progress = nullptr;
    QTimer *m_progressDelay = nullptr;
    LoadedProfile m_profile;
    QString m_loadingPath;
    QWidget *m_compare = nullptr; ///< the compare view while one is shown
    /// The docks compare mode hid: they show one run's panels and their minimum heights
    /// pushed the window past a 1080p screen; shown again with the next profile.
    QList<QPointer<QDockWidget>> m_docksHiddenForCompare;
    KpiStrip *m_kpis = nullptr;
    StepsPanel *m_steps = nullptr; ///< reads m_profile.analysis (onLoaded, run config)
    MemoryPanel *m_memory = nullptr;
    QAction *m_runConfigAction = nullptr; ///< opens the run config dialog (createDocks)
    bool m_raiseDetails = true; ///< onEventSelected raises Details (not for a panel's request)
    analysis::RunConfig m_runConfig; ///< stepscope.json beside the profile, or the GUI's
    QByteArray m_defaultState; ///< the dock layout of a first launch (View › Reset Layout)
    bool m_layoutRestored = false; ///< the window shows a layout kept from an earlier launch
};

} // namespace stepscope::ui
