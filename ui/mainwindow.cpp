// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// The main window itself: the centre (welcome page, timeline, compare view), loading and
// the shown profile, selection, drag and drop. Docks, menus and export are in
// mainwindowdocks.cpp, mainwindowmenus.cpp and mainwindowexport.cpp.
#include "mainwindow.h"

#include "analysis/trainingsummary.h"
#include "compare/comparedialog.h"
#include "compare/compareloader.h"
#include "compare/compareview.h"
#include "defaultlayout.h"
#include "kpistrip.h"
#include "loading/loadprogressdialog.h"
#include "loading/loadreportview.h"
#include "loading/memoryprompt.h"
#include "panels/stepspanel.h"
#include "panels/tableitems.h"
#include "timeline/detailspane.h"
#include "timeline/rangestatistics.h"
#include "timeline/rangestatspanel.h"
#include "timeline/timelineview.h"
#include "welcomepage.h"
#include "windowsettings.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace stepscope::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("StepScope"));
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_centre = new QStackedWidget(this);
    m_welcome = new WelcomePage(m_centre);
    m_timeline = new timeline::TimelineView(m_centre);
    m_noTimeline = new QLabel(m_centre);
    m_noTimeline->setObjectName(QStringLiteral("noTimeline"));
    m_noTimeline->setAlignment(Qt::AlignCenter);
    m_noTimeline->setWordWrap(true);
    m_noTimeline->setMargin(12);
    m_centre->addWidget(m_welcome);
    m_centre->addWidget(m_timeline);
    m_centre->addWidget(m_noTimeline);
    // DESIGN.md: the KPI strip sits above the timeline; hidden until a profile is open and
    // while a comparison (which has its own before → after strip) is shown.
    auto *centre = new QWidget(this);
    auto *centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    m_kpis = new KpiStrip(centre);
    m_kpis->hide();
    centreLayout->addWidget(m_kpis);
    centreLayout->addWidget(m_centre, 1);
    setCentralWidget(centre);
    connect(m_centre, &QStackedWidget::currentChanged, this, [this] {
        m_kpis->setVisible(m_centre->currentWidget() == m_timeline);
        // One KPI strip in the window: the Steps panel's own only while the centre's is hidden.
        if (m_steps)
            m_steps->kpiStrip()->setVisible(m_centre->currentWidget() != m_timeline);
    });
    connect(m_welcome, &WelcomePage::openFolderClicked, this, &MainWindow::chooseFolder);
    connect(m_welcome, &WelcomePage::openFileClicked, this, &MainWindow::chooseFile);
    connect(m_welcome, &WelcomePage::openRecentClicked, this, &MainWindow::openPath);
    connect(m_welcome, &WelcomePage::openCompareClicked, this,
        [this](const QString &before, const QString &after) { openCompare(before, after); });

    m_loader = new ProfileLoader(this);
    m_progress = new LoadProgressDialog(this);
    m_progressDelay = new QTimer(this);
    m_progressDelay->setSingleShot(true);
    m_progressDelay->setInterval(300); // quick loads never flash a dialog
    connect(m_progressDelay, &QTimer::timeout, this, [this] {
        if (m_loader->isRunning())
            m_progress->show();
    });
    connect(m_progress, &LoadProgressDialog::cancelRequested, m_loader, &ProfileLoader::cancel);
    connect(m_loader, &ProfileLoader::progressChanged, this,
        [this](quint64, const QString &stage, quint64 done, quint64 total) {
            m_progress->setProgress(stage, done, total);
            statusBar()->showMessage(stage);
        });
    connect(m_loader, &ProfileLoader::loaded, this, &MainWindow::onLoaded);
    connect(m_loader, &ProfileLoader::cancelled, this, &MainWindow::onCancelled);

    createDocks();
    createMenus();
    createToolBar();
    m_counts = new QLabel(this);
    statusBar()->addPermanentWidget(m_counts);
    statusBar()->showMessage(tr("No profile open"));

    connect(m_timeline, &timeline::TimelineView::eventSelected, this, &MainWindow::onEventSelected);
    connect(m_timeline, &timeline::TimelineView::rangeSelected, this, &MainWindow::onRangeSelected);
    connect(m_timeline, &timeline::TimelineView::rangeCleared, m_rangeStats,
        &timeline::RangeStatsPanel::clear);
    connect(
        m_timeline, &timeline::TimelineView::searchChanged, this, &MainWindow::updateSearchLabel);
    connect(
        m_timeline, &timeline::TimelineView::shortcutsRequested, this, &MainWindow::showShortcuts);
    connect(m_details, &timeline::DetailsPane::jumpRequested, this,
        [this](const timeline::EventKey &e) { m_timeline->selectEvent(e, true); });
    m_welcome->setRecent(recentPaths());
    // The layout a first launch (and View › Reset Layout) shows; then the one kept. With
    // nothing open the docks stay low, under the welcome page; a profile gives them room.
    resize(defaultlayout::windowSize(screen()->availableGeometry().size()));
    resizeDocks({m_detailsDock}, {200}, Qt::Vertical);
    m_defaultState = saveState();
    m_layoutRestored = settings::restoreWindowLayout(*this) && settings::keptLayoutHadProfile();
}

void MainWindow::resetLayout()
{
    settings::clearWindowLayout();
    m_layoutRestored = false;
    restoreState(m_defaultState);
    if (!isMaximized() && !isFullScreen())
        resize(defaultlayout::windowSize(screen()->availableGeometry().size()));
    if (m_centre->currentWidget() == m_welcome)
        resizeDocks({m_detailsDock}, {200}, Qt::Vertical);
    else // once the restored docks and their tab bar are laid out
        QTimer::singleShot(0, this, &MainWindow::giveDocksRoom);
}

int MainWindow::bottomPanelNeed() const
{
    int need = 0;
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        if (dock->isFloating() || dockWidgetArea(dock) != Qt::BottomDockWidgetArea
            || !dock->widget())
            continue;
        // A panel in a scroll area would scroll below its minimum: what it needs is its own
        // minimum height, not the area's.
        QWidget *content = dock->widget();
        int contentNeed = content->minimumSizeHint().height();
        if (auto *area = qobject_cast<QScrollArea *>(content); area && area->widget())
            contentNeed = area->widget()->minimumSizeHint().height() + 2 * area->frameWidth();
        // The dock's own title bar and frame around its widget.
        const int chrome = std::max(
            0, dock->minimumSizeHint().height() - std::max(0, content->minimumSizeHint().height()));
        need = std::max(need, contentNeed + chrome);
    }
    // The tab bar of the tabbed docks sits outside the dock widgets.
    QTabBar probe;
    probe.addTab(QStringLiteral("Steps"));
    return need + probe.sizeHint().height();
}

void MainWindow::giveDocksRoom()
{
    const int target = defaultlayout::bottomDockHeight(height(), bottomPanelNeed());
    resizeDocks({m_detailsDock}, {target}, Qt::Vertical);
    // resizeDocks sizes the tab group, and whether its tab bar counts depends on the state
    // the layout came from (a first launch or View › Reset Layout's restored one): measure
    // the dock of the current tab (the others keep the height of their last layout) and
    // make up the difference.
    if (layout())
        layout()->activate();
    for (QTabBar *tabs : findChildren<QTabBar *>(Qt::FindDirectChildrenOnly)) {
        if (!tabs->isVisible() || tabs->currentIndex() < 0)
            continue;
        const QString title = tabs->tabText(tabs->currentIndex());
        for (QDockWidget *dock : findChildren<QDockWidget *>()) {
            if (dock->windowTitle() != title || dock->isFloating()
                || dockWidgetArea(dock) != Qt::BottomDockWidgetArea)
                continue;
            if (dock->height() != target) {
                resizeDocks({dock}, {2 * target - dock->height()}, Qt::Vertical);
                if (layout())
                    layout()->activate();
            }
            return;
        }
    }
}

MainWindow::~MainWindow() = default;

QDockWidget *MainWindow::addPanelDock(
    const QString &title, QWidget *panel, const QString &objectName)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(panel);
    dock->setAllowedAreas(Qt::AllDockWidgetAreas);
    QDockWidget *first = nullptr;
    for (QDockWidget *d : findChildren<QDockWidget *>()) {
        if (d != dock && dockWidgetArea(d) == Qt::BottomDockWidgetArea) {
            first = d;
            break;
        }
    }
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    if (first)
        tabifyDockWidget(first, dock);
    if (m_viewMenu)
        m_viewMenu->addAction(dock->toggleViewAction());
    return dock;
}

void MainWindow::openPath(const QString &path)
{
    openPathWith(path, {});
}

void MainWindow::openPathWith(const QString &path, const import::LoadOptions &options)
{
    emit openRequested(path);
    m_loadingPath = path;
    m_loader->start(path, options);
    m_progress->begin(path);
    m_progressDelay->start();
    statusBar()->showMessage(tr("Loading %1…").arg(path));
}

void MainWindow::onLoaded(quint64, const LoadedProfile &profile)
{
    m_progressDelay->stop();
    m_progress->hide();
    // What the load reported, then what the analysis noted (`summary`'s analysis_notes): a
    // disagreement with the profiler's step table is never silent in the window either.
    model::LoadReport shown = profile.session->report;
    if (profile.analysis)
        shown.merge(profile.analysis->notes);
    m_report->setReport(shown);
    if (profile.refused) {
        // Nothing was read: keep what is shown and ask what to open instead.
        statusBar()->showMessage(
            tr("%1 was not opened: it would not fit in memory (see Diagnostics).")
                .arg(profile.path));
        askWhatToOpen(this, profile.path, *profile.refused, profile.options,
            [this, path = profile.path](
                const import::LoadOptions &options) { openPathWith(path, options); });
        emit loadFinished(false);
        return;
    }
    if (!profile.session->hasContent()) {
        // Keep what was shown; say why nothing could be opened.
        const QString why =
            tr("Nothing usable was found in %1 (see Diagnostics).").arg(profile.path);
        statusBar()->showMessage(why);
        if (!m_profile.session)
            m_welcome->setMessage(why);
        m_reportDock->show();
        m_reportDock->raise();
        emit loadFinished(false);
        return;
    }
    m_profile = profile;
    restoreDocksAfterCompare();
    if (m_rawClocks && m_rawClocks->isChecked())
        m_profile.timeline = timeline::TimelineModel::withClocks(m_profile.timeline, false);
    rememberRecent(profile.path);
    m_welcome->setMessage({});
    m_timeline->setModel(m_profile.timeline);
    m_details->setModel(m_profile.timeline);
    m_rangeStats->clear();
    const bool memoryOnly = profile.session->memoryOnly();
    if (!m_profile.timeline->hasTimeline()) {
        // Nothing to draw on a time axis: say so instead of an empty "-4 ns … 6 ns" ruler.
        m_noTimeline->setText(memoryOnly
                ? tr("%1 holds memory records only, no trace events: see the Memory panel.")
                      .arg(QFileInfo(profile.path).fileName())
                : (!profile.session->trainingLogs.empty()
                        ? tr("%1 holds no trace events, so there is no timeline; its "
                             "training logs are in the Training panel.")
                        : tr("%1 holds no trace events and no steps, so there is no "
                             "timeline; what it holds is in the panels below."))
                      .arg(QFileInfo(profile.path).fileName()));
        m_centre->setCurrentWidget(m_noTimeline);
    } else {
        // First profile: each panel gets the room it needs to be read, the timeline the rest
        // (a kept layout is the user's own and stays). Measured once the timeline shows and
        // the layouts have settled, so the Steps panel's KPI strip (hidden then) does not
        // count.
        const bool first = m_centre->currentWidget() != m_timeline;
        m_centre->setCurrentWidget(m_timeline);
        if (first && !m_layoutRestored) {
            QTimer::singleShot(0, this, &MainWindow::giveDocksRoom);
            // That room shows the step breakdown, not an empty Details pane ("Click an
            // event…"); clicking an event raises Details (onEventSelected).
            if (auto *steps = findChild<QDockWidget *>(QStringLiteral("stepsDock"));
                steps && steps->isVisible())
                steps->raise();
        }
        m_timeline->setFocus();
    }
    setWindowTitle(QFileInfo(profile.path).fileName() + QStringLiteral(" — StepScope"));
    m_counts->setText(statusText());
    statusBar()->showMessage(
        tr("Loaded %1 in %2 s").arg(profile.path).arg(profile.elapsedMs / 1000.0, 0, 'f', 1), 8000);
    if (profile.session->report.count(model::Severity::Error) > 0)
        m_reportDock->raise();
    if (memoryOnly) {
        // A memory-only profile: its content is in the Memory panel, not on an empty timeline.
        if (auto *memory = findChild<QDockWidget *>(QStringLiteral("memoryDock"))) {
            memory->show();
            memory->raise();
            resizeDocks({memory}, {height() * 2 / 3}, Qt::Vertical);
        }
        statusBar()->showMessage(
            tr("%1 holds memory records only: see the Memory panel.").arg(profile.path));
    }
    // The load's analysis goes to the Steps panel here (docs/architecture.md, "host wait,
    // from the file to the pixel") and to the other panels with sessionChanged, which they
    // read m_profile.analysis on.
    m_steps->setAnalysis(m_profile.session, m_profile.analysis);
    emit sessionChanged(profile.session);
    emit loadFinished(true);
}

void MainWindow::onCancelled(quint64)
{
    m_progressDelay->stop();
    m_progress->hide();
    statusBar()->showMessage(tr("Loading cancelled"), 5000);
    emit loadFinished(false);
}

QString MainWindow::statusText() const
{
    if (!m_profile.session)
        return {};
    const model::Session &s = *m_profile.session;
    std::size_t steps = 0;
    for (std::size_t i = 0; i < s.traces.size(); ++i)
        steps = std::max(steps, m_profile.timeline->steps(static_cast<int>(i)).size());
    // "1 rank", never "1 rank(s)" or "1 steps"; digits grouped as the panels group them.
    const auto count = [](std::size_t n, const QString &one, const QString &many) {
        return countText(static_cast<long long>(n), one, many);
    };
    QString text;
    if (s.traces.empty() && !s.trainingLogs.empty()) {
        // Training logs alone: their runs and points, as the Training panel counts them, not
        // "0 ranks · 0 events · 0 steps".
        const std::vector<analysis::TrainingRun> runs = analysis::trainingRuns(s);
        std::size_t points = 0;
        for (const analysis::TrainingRun &run : runs)
            points += analysis::loggedPoints(run);
        text = QStringLiteral("%1 · %2 · %3")
                   .arg(QString::fromStdString(s.format),
                       count(runs.size(), tr("training run"), tr("training runs")),
                       count(points, tr("point"), tr("points")));
    } else {
        text = QStringLiteral("%1 · %2 · %3 · %4")
                   .arg(QString::fromStdString(s.format),
                       count(s.traces.size(), tr("rank"), tr("ranks")),
                       count(s.eventCount(), tr("event"), tr("events")),
                       count(steps, tr("step"), tr("steps")));
    }
    if (!m_profile.options.ranks.empty()) // a subset: say so where the rank count is read
        text += tr(" (--ranks %1)")
                    .arg(QString::fromStdString(import::formatRankList(m_profile.options.ranks)));
    // As many as the Diagnostics panel lists: the load's and the analysis' notes.
    const model::LoadReport *notes = m_profile.analysis ? &m_profile.analysis->notes : nullptr;
    const auto warnings = s.report.count(model::Severity::Warning)
        + (notes ? notes->count(model::Severity::Warning) : 0);
    const auto errors =
        s.report.count(model::Severity::Error) + (notes ? notes->count(model::Severity::Error) : 0);
    if (warnings || errors)
        text += QStringLiteral(" · %1, %2")
                    .arg(count(warnings, tr("warning"), tr("warnings")),
                        count(errors, tr("error"), tr("errors")));
    return text;
}

void MainWindow::onEventSelected(const timeline::EventKey &event)
{
    m_details->showEvent(event);
    if (event.isValid() && m_detailsDock->isVisible() && m_raiseDetails)
        m_detailsDock->raise();
}

void MainWindow::onRangeSelected(qint64 t0, qint64 t1)
{
    if (!m_profile.timeline)
        return;
    // The title reads as the ruler does, from its origin (never epoch time).
    const std::int64_t origin = m_timeline->viewState().rulerOriginNs;
    m_rangeStats->setStats(t0 - origin, t1 - origin,
        timeline::computeRangeStats(*m_profile.timeline, t0, t1, m_timeline->viewState().hidden));
    m_rangeDock->show();
    m_rangeDock->raise();
}

int MainWindow::traceIndexOfRank(int rank) const
{
    if (!m_profile.session)
        return -1;
    const auto &traces = m_profile.session->traces;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        if (traces[i]->rank == rank)
            return static_cast<int>(i);
    }
    return -1;
}

void MainWindow::showRankTime(int rank, qint64 startNs, qint64 endNs)
{
    const int i = traceIndexOfRank(rank);
    if (!m_profile.timeline || i < 0)
        return;
    const std::int64_t offset = m_profile.timeline->offsetNs(i);
    std::int64_t t0 = startNs + offset;
    std::int64_t t1 = endNs + offset;
    // A rank without trace events (a step table only): the span its step lane is drawn over.
    if (const auto &lane = m_profile.timeline->stepSegments(i); endNs <= startNs && !lane.empty()) {
        t0 = lane.front().startNs;
        t1 = lane.back().endNs;
    }
    t1 = std::max<std::int64_t>(t1, t0 + 1000);
    m_timeline->fitRange(t0, t1);
    m_timeline->setRange(std::make_pair(t0, t1));
}

void MainWindow::showRankEvent(int rank, model::EventRef event)
{
    const int i = traceIndexOfRank(rank);
    if (!m_profile.timeline || m_centre->currentWidget() != m_timeline || i < 0
        || event.track.value()
            >= m_profile.session->traces[static_cast<std::size_t>(i)]->tracks.size())
        return;
    const timeline::EventKey key {i, static_cast<int>(event.track.value()), event.index};
    // The panel that asked stays on top (the user goes down its list); Details follows.
    m_raiseDetails = false;
    m_timeline->selectEvent(key, true);
    m_raiseDetails = true;
    // The event in the middle third of the view, as its neighbours give it context.
    const std::int64_t t0 = m_profile.timeline->startOf(key);
    const std::int64_t t1 = std::max(m_profile.timeline->endOf(key), t0 + 1000);
    m_timeline->fitRange(t0 - (t1 - t0), t1 + (t1 - t0));
}

void MainWindow::updateKpis()
{
    if (!m_profile.session || !m_profile.analysis)
        return;
    m_kpis->setKpis(m_profile.analysis->kpis);
    m_kpis->setVisible(m_centre->currentWidget() == m_timeline);
}

void MainWindow::chooseCompare()
{
    QString before;
    QString after;
    if (compare::CompareDialog::getPair(this, &before, &after, m_profile.path))
        openCompare(before, after);
}

void MainWindow::openCompare(const QString &beforePath, const QString &afterPath,
    std::optional<std::int32_t> beforeRank, std::optional<std::int32_t> afterRank)
{
    if (m_compare) {
        m_centre->removeWidget(m_compare);
        m_compare->deleteLater();
    }
    auto *view = compare::openComparePair(beforePath, afterPath, m_centre, {beforeRank, afterRank});
    connect(view, &compare::CompareView::loadFinished, this, &MainWindow::compareFinished);
    m_compare = view;
    m_centre->addWidget(m_compare);
    m_centre->setCurrentWidget(m_compare);
    // The compare view has its own tables; the docks hold the single run's panels (View
    // shows any of them again).
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        if (!dock->toggleViewAction()->isChecked()) // shown, its tab raised or not
            continue;
        dock->hide();
        m_docksHiddenForCompare.append(dock);
    }
    setWindowTitle(tr("%1 → %2 — StepScope")
                       .arg(QFileInfo(beforePath).fileName(), QFileInfo(afterPath).fileName()));
    statusBar()->showMessage(tr("Comparing %1 with %2").arg(beforePath, afterPath));
    rememberRecentCompare(beforePath, afterPath);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString dropped = url.toLocalFile();
        event->acceptProposedAction();
        if (m_profile.session && dropped != m_profile.path) {
            QMessageBox ask(QMessageBox::Question, tr("Open or compare"),
                tr("%1 is open. Compare %2 with it, or open %2 instead?")
                    .arg(QFileInfo(m_profile.path).fileName(), QFileInfo(dropped).fileName()),
                QMessageBox::NoButton, this);
            QPushButton *compare =
                ask.addButton(tr("Compare with current"), QMessageBox::AcceptRole);
            ask.addButton(tr("Open instead"), QMessageBox::RejectRole);
            ask.exec();
            if (ask.clickedButton() == compare) {
                openCompare(m_profile.path, dropped);
                return;
            }
        }
        openPath(dropped);
        return;
    }
}

void MainWindow::restoreDocksAfterCompare()
{
    for (const QPointer<QDockWidget> &dock : std::as_const(m_docksHiddenForCompare))
        if (dock)
            dock->show();
    m_docksHiddenForCompare.clear();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_loader->cancel();
    restoreDocksAfterCompare(); // the kept layout is the single-run one
    settings::saveWindowLayout(*this, m_centre->currentWidget() != m_welcome);
    QMainWindow::closeEvent(event);
}

} // namespace stepscope::ui
