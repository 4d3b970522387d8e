// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "mainwindow.h"

#include "aboutdialog.h"
#include "compare/comparedialog.h"
#include "compare/compareloader.h"
#include "compare/compareview.h"
#include "export/imageexport.h"
#include "kpistrip.h"
#include "loading/loadprogressdialog.h"
#include "loading/loadreportview.h"
#include "panels/clusterpanel.h"
#include "panels/communicationpanel.h"
#include "panels/memorypanel.h"
#include "panels/stepspanel.h"
#include "panels/trainingpanel.h"
#include "runconfigdialog.h"
#include "timeline/detailspane.h"
#include "timeline/geometrybuilder.h"
#include "timeline/keybindings.h"
#include "timeline/rangestatistics.h"
#include "timeline/rangestatspanel.h"
#include "timeline/timelineview.h"
#include "welcomepage.h"
#include "windowsettings.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace stepscope::ui {

namespace {

constexpr int MaxRecent = 10;
const QString RecentKey = QStringLiteral("recentPaths");

/// Enter / Shift+Enter in the search box: next / previous match.
class SearchKeys : public QObject
{
public:
    SearchKeys(QObject *parent, std::function<void(bool)> step)
        : QObject(parent)
        , m_step(std::move(step))
    {
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::KeyPress) {
            auto *key = static_cast<QKeyEvent *>(event);
            if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
                m_step(!(key->modifiers() & Qt::ShiftModifier));
                return true;
            }
        }
        return QObject::eventFilter(watched, event);
    }

private:
    std::function<void(bool)> m_step;
};

} // namespace

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
    connect(m_centre, &QStackedWidget::currentChanged, this,
        [this] { m_kpis->setVisible(m_centre->currentWidget() == m_timeline); });
    connect(m_welcome, &WelcomePage::openFolderClicked, this, &MainWindow::chooseFolder);
    connect(m_welcome, &WelcomePage::openFileClicked, this, &MainWindow::chooseFile);
    connect(m_welcome, &WelcomePage::openRecentClicked, this, &MainWindow::openPath);

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
    // The layout a first launch (and View › Reset Layout) shows; then the one kept.
    resize(1280, 800);
    resizeDocks({m_detailsDock}, {200}, Qt::Vertical);
    m_defaultState = saveState();
    settings::restoreWindowLayout(*this);
}

void MainWindow::resetLayout()
{
    settings::clearWindowLayout();
    restoreState(m_defaultState);
    if (!isMaximized() && !isFullScreen())
        resize(1280, 800);
    resizeDocks({m_detailsDock}, {std::max(160, height() / 4)}, Qt::Vertical);
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks()
{
    m_details = new timeline::DetailsPane(this);
    m_rangeStats = new timeline::RangeStatsPanel(this);
    m_report = new LoadReportView(this);
    m_detailsDock = addPanelDock(tr("Details"), m_details, QStringLiteral("detailsDock"));
    m_rangeDock = addPanelDock(tr("Range stats"), m_rangeStats, QStringLiteral("rangeStatsDock"));
    // The analysis panels (DESIGN.md bottom tabs): Steps reads the load's analysis (onLoaded
    // hands it over), the others compute from the session themselves; all ask the timeline to
    // show a time range of a rank (trace-origin-relative ns).
    auto *steps = m_steps = new StepsPanel(this);
    auto *memory = new MemoryPanel(this);
    auto *communication = new CommunicationPanel(this);
    // In scroll areas: their charts' minimum heights would otherwise squeeze the timeline.
    auto scrolled = [this](QWidget *panel) {
        auto *area = new QScrollArea(this);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        area->setWidget(panel);
        return area;
    };
    addPanelDock(tr("Steps"), scrolled(steps), QStringLiteral("stepsDock"));
    addPanelDock(tr("Memory"), scrolled(memory), QStringLiteral("memoryDock"));
    addPanelDock(tr("Communication"), scrolled(communication), QStringLiteral("communicationDock"));
    connect(this, &MainWindow::sessionChanged, memory, &MemoryPanel::setSession);
    connect(this, &MainWindow::sessionChanged, communication, &CommunicationPanel::setSession);
    connect(steps, &StepsPanel::timeRequested, this, &MainWindow::showRankTime);
    // KPIs that need a run config offer to fill it in; the answer goes to both panels.
    const auto editRunConfig = [this, steps, memory] {
        // Without a stepscope.json, the dialog starts from the values last entered.
        analysis::RunConfig start = m_runConfig;
        if (start.source.empty() && !start.parameters && !start.globalBatchSize
            && !start.peakFlops) {
            model::LoadReport ignored;
            const std::string last = settings::runConfigDefaults();
            if (!last.empty())
                start = analysis::parseRunConfig(last, std::string(), &ignored);
        }
        RunConfigDialog dialog(start, this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        m_runConfig = dialog.config();
        settings::setRunConfigDefaults(dialog.toJson());
        if (dialog.saveBesideProfile() && !m_profile.path.isEmpty()) {
            const QFileInfo info(m_profile.path);
            const QString dir = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
            QFile file(QDir(dir).filePath(QStringLiteral("stepscope.json")));
            if (!file.open(QIODevice::WriteOnly)
                || file.write(QByteArray::fromStdString(dialog.toJson())) < 0)
                QMessageBox::warning(
                    this, tr("Run config"), tr("Cannot write %1").arg(file.fileName()));
        }
        if (m_profile.session && m_profile.analysis) {
            // KPIs and bottlenecks only: the breakdowns do not depend on the config.
            m_profile.analysis = std::make_shared<const analysis::SessionAnalysis>(
                analysis::withRunConfig(*m_profile.analysis, *m_profile.session, m_runConfig));
            steps->setAnalysis(m_profile.session, m_profile.analysis);
        }
        memory->setRunConfig(m_runConfig);
        updateKpis();
    };
    connect(m_kpis, &KpiStrip::runConfigRequested, this, editRunConfig);
    connect(steps, &StepsPanel::runConfigRequested, this, editRunConfig);
    connect(memory, &MemoryPanel::runConfigRequested, this, editRunConfig);
    // The loader read the stepscope.json beside the profile into the analysis' config.
    connect(this, &MainWindow::sessionChanged, this, [this, memory] {
        m_runConfig = m_profile.analysis ? m_profile.analysis->config : analysis::RunConfig {};
        if (!m_runConfig.source.empty())
            memory->setRunConfig(m_runConfig);
        updateKpis();
    });
    connect(memory, &MemoryPanel::timeRequested, this, &MainWindow::showRankTime);
    connect(communication, &CommunicationPanel::timeRequested, this, &MainWindow::showRankTime);
    createClusterDock();
    auto *training = new TrainingPanel(this);
    QDockWidget *trainingDock =
        addPanelDock(tr("Training"), scrolled(training), QStringLiteral("trainingDock"));
    connect(
        this, &MainWindow::sessionChanged, training, [this, training, trainingDock](auto session) {
            training->setSession(session);
            if (session && session->traces.empty() && !session->trainingLogs.empty()) {
                trainingDock->raise(); // logs opened alone: the panel is the view
                resizeDocks({trainingDock}, {height() * 3 / 4}, Qt::Vertical);
            }
        });
    m_reportDock = addPanelDock(tr("Diagnostics"), m_report, QStringLiteral("diagnosticsDock"));
    m_detailsDock->raise();
}

/// The Cluster panel (issue 11): a loaded rank opens in the timeline, a rank whose folder is
/// on disk but not loaded opens in a window of its own, only when asked.
void MainWindow::createClusterDock()
{
    auto *cluster = new ClusterPanel(this);
    addPanelDock(tr("Cluster"), cluster, QStringLiteral("clusterDock"));
    connect(this, &MainWindow::sessionChanged, cluster,
        [this, cluster](std::shared_ptr<const model::Session> session) {
            cluster->setProfilePath(m_profile.path);
            cluster->setAnalysis(m_profile.analysis);
            cluster->setSession(std::move(session));
        });
    connect(cluster, &ClusterPanel::timeRequested, this, &MainWindow::showRankTime);
    connect(cluster, &ClusterPanel::message, this,
        [this](const QString &text) { statusBar()->showMessage(text, 8000); });
    connect(cluster, &ClusterPanel::rankFolderRequested, this, [](int, const QString &folder) {
        auto *window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
        window->openPath(folder);
    });
}

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

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *openFolder = file->addAction(tr("Open &Folder…"), this, &MainWindow::chooseFolder);
    openFolder->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open F&ile…"), this, &MainWindow::chooseFile);
    file->addAction(tr("&Compare…"), this, &MainWindow::chooseCompare);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    updateRecentMenu();
    file->addSeparator();
    QAction *exportView = file->addAction(tr("&Export View…"), this, &MainWindow::exportView);
    exportView->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+E")));
    QAction *copyImage = file->addAction(tr("&Copy View Image"), this, &MainWindow::copyViewImage);
    copyImage->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+C")));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(tr("Fit &All"), m_timeline, &timeline::TimelineView::fitAll);
    m_viewMenu->addAction(tr("&Undo Zoom"), m_timeline, &timeline::TimelineView::undoZoom);
    m_viewMenu->addAction(
        tr("Show &Hidden Lanes"), m_timeline, &timeline::TimelineView::showAllLanes);
    // Ranks are aligned by their clock offsets where the evidence is strong (issue 11 item 5).
    m_rawClocks = m_viewMenu->addAction(tr("&Raw Clocks"));
    m_rawClocks->setObjectName(QStringLiteral("rawClocksAction"));
    m_rawClocks->setCheckable(true);
    m_rawClocks->setToolTip(tr("Show each rank on its own clock, without the offsets estimated "
                               "from matched collectives"));
    connect(m_rawClocks, &QAction::toggled, this, [this](bool raw) {
        if (!m_profile.timeline)
            return;
        m_profile.timeline = timeline::TimelineModel::withClocks(m_profile.timeline, !raw);
        m_timeline->setClockVariant(m_profile.timeline);
        m_details->setModel(m_profile.timeline);
    });
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
    m_viewMenu->addSeparator();
    // Every panel, so that a closed or torn-off dock can come back; docks added later
    // through addPanelDock() append theirs.
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_viewMenu->addAction(dock->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts\t?"), this, &MainWindow::showShortcuts);
    help->addAction(tr("&About StepScope"), this, [this] { showAboutDialog(this); });
}

void MainWindow::createToolBar()
{
    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->addAction(tr("Open"), this, &MainWindow::chooseFolder);
    bar->addAction(tr("Compare"), this, &MainWindow::chooseCompare);
    bar->addSeparator();
    m_search = new QLineEdit(bar);
    m_search->setObjectName(QStringLiteral("searchBox"));
    m_search->setPlaceholderText(tr("Search names (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(320);
    bar->addWidget(m_search);
    auto *previous = bar->addAction(tr("◀"), m_timeline, &timeline::TimelineView::previousMatch);
    previous->setToolTip(tr("Previous match (Shift+Enter)"));
    auto *next = bar->addAction(tr("▶"), m_timeline, &timeline::TimelineView::nextMatch);
    next->setToolTip(tr("Next match (Enter)"));
    m_searchLabel = new QLabel(bar);
    m_searchLabel->setObjectName(QStringLiteral("searchLabel"));
    bar->addWidget(m_searchLabel);
    auto *focusSearch = new QAction(this);
    focusSearch->setShortcut(QKeySequence::Find);
    connect(focusSearch, &QAction::triggered, this, [this] {
        m_search->setFocus(Qt::ShortcutFocusReason);
        m_search->selectAll();
    });
    addAction(focusSearch);
    // Searching 10 M names takes a moment: wait until typing pauses.
    auto *debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    connect(m_search, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(
        debounce, &QTimer::timeout, this, [this] { m_timeline->setSearchText(m_search->text()); });
    m_search->installEventFilter(new SearchKeys(this, [this, debounce](bool forward) {
        if (debounce->isActive()) {
            debounce->stop();
            m_timeline->setSearchText(m_search->text());
        }
        if (forward)
            m_timeline->nextMatch();
        else
            m_timeline->previousMatch();
    }));
}

void MainWindow::updateSearchLabel(int count, int current)
{
    if (m_search->text().isEmpty())
        m_searchLabel->clear();
    else if (count == 0)
        m_searchLabel->setText(tr(" no match"));
    else if (current < 0)
        m_searchLabel->setText(tr(" %1 matches").arg(count));
    else
        m_searchLabel->setText(tr(" %1 of %2").arg(current + 1).arg(count));
}

void MainWindow::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Open profile folder"), settings::lastFolder(QStringLiteral("open")));
    if (!dir.isEmpty()) {
        settings::setLastFolder(QStringLiteral("open"), QFileInfo(dir).absolutePath());
        openPath(dir);
    }
}

void MainWindow::chooseFile()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Open profile file"),
        settings::lastFolder(QStringLiteral("open")),
        tr("Profiles (*.json *.json.gz *.raw.gz *.csv *.pt.trace.json *.pickle);;All files (*)"));
    if (!file.isEmpty()) {
        settings::setLastFolder(QStringLiteral("open"), file);
        openPath(file);
    }
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
    m_compare = compare::openComparePair(beforePath, afterPath, m_centre, {beforeRank, afterRank});
    m_centre->addWidget(m_compare);
    m_centre->setCurrentWidget(m_compare);
    setWindowTitle(tr("%1 → %2 — StepScope")
                       .arg(QFileInfo(beforePath).fileName(), QFileInfo(afterPath).fileName()));
    statusBar()->showMessage(tr("Comparing %1 with %2").arg(beforePath, afterPath));
}

void MainWindow::openPath(const QString &path)
{
    emit openRequested(path);
    m_loadingPath = path;
    m_loader->start(path);
    m_progress->begin(path);
    m_progressDelay->start();
    statusBar()->showMessage(tr("Loading %1…").arg(path));
}

void MainWindow::onLoaded(quint64, const LoadedProfile &profile)
{
    m_progressDelay->stop();
    m_progress->hide();
    m_report->setReport(profile.session->report);
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
    if (m_rawClocks && m_rawClocks->isChecked())
        m_profile.timeline = timeline::TimelineModel::withClocks(m_profile.timeline, false);
    rememberRecent(profile.path);
    m_welcome->setMessage({});
    m_timeline->setModel(m_profile.timeline);
    m_details->setModel(m_profile.timeline);
    m_rangeStats->clear();
    const auto &traces = profile.session->traces;
    const bool memoryOnly = profile.session->eventCount() == 0
        && std::any_of(
            traces.begin(), traces.end(), [](const auto &t) { return !t->memory.empty(); });
    bool anySteps = false;
    for (std::size_t i = 0; i < traces.size(); ++i)
        anySteps = anySteps || !m_profile.timeline->steps(static_cast<int>(i)).empty();
    if (profile.session->eventCount() == 0 && !anySteps) {
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
        if (m_centre->currentWidget()
            != m_timeline) // first profile: the timeline gets most of the height
            resizeDocks({m_detailsDock}, {std::max(160, height() / 4)}, Qt::Vertical);
        m_centre->setCurrentWidget(m_timeline);
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
    // The one hand-over of the load's analysis to the Steps panel (docs/architecture.md,
    // "host wait, from the file to the pixel").
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
    const QLocale locale(QLocale::English);
    QString text = QStringLiteral("%1 · %2 rank(s) · %3 events · %4 steps")
                       .arg(QString::fromStdString(s.format))
                       .arg(s.traces.size())
                       .arg(locale.toString(static_cast<qulonglong>(s.eventCount())))
                       .arg(steps);
    const auto warnings = s.report.count(model::Severity::Warning);
    const auto errors = s.report.count(model::Severity::Error);
    if (warnings || errors)
        text += QStringLiteral(" · %1 warnings, %2 errors").arg(warnings).arg(errors);
    return text;
}

void MainWindow::onEventSelected(const timeline::EventKey &event)
{
    m_details->showEvent(event);
    if (event.isValid() && m_detailsDock->isVisible())
        m_detailsDock->raise();
}

void MainWindow::onRangeSelected(qint64 t0, qint64 t1)
{
    if (!m_profile.timeline)
        return;
    m_rangeStats->setStats(t0, t1,
        timeline::computeRangeStats(*m_profile.timeline, t0, t1, m_timeline->viewState().hidden));
    m_rangeDock->show();
    m_rangeDock->raise();
}

void MainWindow::showRankTime(int rank, qint64 startNs, qint64 endNs)
{
    if (!m_profile.timeline)
        return;
    const auto &traces = m_profile.session->traces;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        if (traces[i]->rank != rank)
            continue;
        const std::int64_t offset = m_profile.timeline->offsetNs(static_cast<int>(i));
        const std::int64_t t0 = startNs + offset;
        const std::int64_t t1 = std::max<std::int64_t>(endNs + offset, t0 + 1000);
        m_timeline->fitRange(t0, t1);
        m_timeline->setRange(std::make_pair(t0, t1));
        return;
    }
}

QStringList MainWindow::recentPaths()
{
    return QSettings().value(RecentKey).toStringList();
}

void MainWindow::rememberRecent(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = recentPaths();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > MaxRecent)
        list.removeLast();
    QSettings().setValue(RecentKey, list);
    m_welcome->setRecent(list);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList list = recentPaths();
    for (const QString &p : list)
        m_recentMenu->addAction(p, this, [this, p] { openPath(p); });
    m_recentMenu->setEnabled(!list.isEmpty());
}

void MainWindow::showShortcuts()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(timeline::shortcutHelpHtml());
    box.exec();
}

/// What File › Export View writes: the timeline (through its geometry builder, so the file
/// matches the screen), the compare view, a panel, or the whole window.
PaintFunction MainWindow::viewPaintFunction(const QString &what) const
{
    if (what == QStringLiteral("timeline") && m_profile.timeline) {
        const auto model = m_profile.timeline;
        const timeline::ViewState state = m_timeline->viewState();
        const QFont font = m_timeline->font();
        return [model, state, font](QPainter &p, const QSize &size) {
            timeline::ViewState view = state;
            const timeline::TimelineMetrics metrics;
            view.axis.setWidth(std::max(1, size.width() - metrics.headerWidth));
            view.axis.fit(state.axis.startNs(), state.axis.endNs());
            timeline::paintTimeline(p, *model, view, size, metrics, font);
        };
    }
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        if (dock->objectName() == what && dock->widget())
            return widgetPainter(dock->widget());
    }
    if (what == QStringLiteral("compare") && m_compare)
        return widgetPainter(m_compare);
    return widgetPainter(const_cast<MainWindow *>(this));
}

void MainWindow::exportView()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Export View"));
    auto *form = new QFormLayout(&dialog);
    auto *what = new QComboBox(&dialog);
    if (m_compare && m_centre->currentWidget() == m_compare)
        what->addItem(tr("Comparison"), QStringLiteral("compare"));
    if (m_profile.timeline)
        what->addItem(tr("Timeline"), QStringLiteral("timeline"));
    for (QDockWidget *dock : findChildren<QDockWidget *>()) {
        if (dock->isVisible() && dock->widget())
            what->addItem(dock->windowTitle(), dock->objectName());
    }
    what->addItem(tr("Whole window"), QStringLiteral("window"));
    const settings::ExportDefaults defaults = settings::exportDefaults();
    auto *scale = new QComboBox(&dialog);
    scale->addItem(QStringLiteral("1×"), 1.0);
    scale->addItem(QStringLiteral("2×"), 2.0);
    scale->setCurrentIndex(defaults.scale >= 1.5 ? 1 : 0);
    auto *width = new QSpinBox(&dialog);
    auto *height = new QSpinBox(&dialog);
    width->setRange(64, 16384);
    height->setRange(64, 16384);
    const QSize current = defaults.size.isValid() ? defaults.size : m_centre->size();
    width->setValue(current.width());
    height->setValue(current.height());
    auto *size = new QHBoxLayout;
    size->addWidget(width);
    size->addWidget(new QLabel(QStringLiteral("×"), &dialog));
    size->addWidget(height);
    form->addRow(tr("View:"), what);
    form->addRow(tr("Scale:"), scale);
    form->addRow(tr("Size (px):"), size);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;

    const QString key = what->currentData().toString();
    qint64 step = -1;
    if (m_profile.timeline && key == QStringLiteral("timeline")) {
        // Name the file after the step under the centre of the view, when there is one.
        const auto &axis = m_timeline->viewState().axis;
        const qint64 middle = (axis.startNs() + axis.endNs()) / 2;
        for (const auto &s : m_profile.timeline->steps(0)) {
            if (s.startNs <= middle && middle < s.endNs)
                step = s.number;
        }
    }
    const QString profile = QFileInfo(m_profile.path).fileName();
    const bool svgDefault = defaults.format == QLatin1String("svg");
    const QString name = QDir(settings::lastFolder(QStringLiteral("export")))
                             .filePath(defaultFileName(profile, key, step,
                                 svgDefault ? ImageFormat::Svg : ImageFormat::Png));
    const QString png = tr("PNG image (*.png)");
    const QString svg = tr("SVG image (*.svg)");
    QString selectedFilter = svgDefault ? svg : png;
    const QString file = QFileDialog::getSaveFileName(this, tr("Export View"), name,
        svgDefault ? svg + QStringLiteral(";;") + png : png + QStringLiteral(";;") + svg,
        &selectedFilter);
    if (file.isEmpty())
        return;
    settings::setLastFolder(QStringLiteral("export"), file);
    ImageRequest request;
    request.path = file;
    request.size = QSize(width->value(), height->value());
    request.scale = scale->currentData().toDouble();
    request.format = file.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive)
            || selectedFilter.contains(QStringLiteral("svg"))
        ? ImageFormat::Svg
        : ImageFormat::Png;
    settings::ExportDefaults chosen;
    chosen.scale = request.scale;
    chosen.format =
        request.format == ImageFormat::Svg ? QStringLiteral("svg") : QStringLiteral("png");
    chosen.size = request.size == m_centre->size() ? QSize() : request.size;
    settings::setExportDefaults(chosen);
    QString error;
    if (!writeImage(viewPaintFunction(key), request, &error))
        QMessageBox::warning(this, tr("Export View"), error);
    else
        statusBar()->showMessage(tr("Wrote %1").arg(file), 5000);
}

void MainWindow::copyViewImage()
{
    const QString key = m_compare && m_centre->currentWidget() == m_compare
        ? QStringLiteral("compare")
        : QStringLiteral("timeline");
    QString why;
    if (!usableFontAvailable(&why)) {
        QMessageBox::warning(this, tr("Copy Image"), why);
        return;
    }
    QApplication::clipboard()->setImage(
        renderImage(viewPaintFunction(key), m_centre->size(), devicePixelRatioF()));
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

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_loader->cancel();
    settings::saveWindowLayout(*this);
    QMainWindow::closeEvent(event);
}

} // namespace stepscope::ui
