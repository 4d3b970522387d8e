// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// The bottom docks of the main window: Details, Range stats, the analysis panels (Steps,
// Memory, Communication, Kernels, Cluster, Training) and Diagnostics, and how they are wired
// to the window (sessionChanged, the run config, "show this time range", "show this event").
#include "kpistrip.h"
#include "loading/loadreportview.h"
#include "mainwindow.h"
#include "panels/clusterpanel.h"
#include "panels/communicationpanel.h"
#include "panels/kernelspanel.h"
#include "panels/memorypanel.h"
#include "panels/stepspanel.h"
#include "panels/trainingpanel.h"
#include "runconfigdialog.h"
#include "timeline/detailspane.h"
#include "timeline/rangestatspanel.h"
#include "timeline/timelineview.h"
#include "windowsettings.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMessageBox>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>

namespace stepscope::ui {

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
    auto *memory = m_memory = new MemoryPanel(this);
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
    auto *kernels = new KernelsPanel(this);
    addPanelDock(tr("Kernels"), kernels, QStringLiteral("kernelsDock"));
    // The load's analysis, computed on the loader's thread: the panels only show it.
    connect(this, &MainWindow::sessionChanged, this,
        [this, memory, communication, kernels](std::shared_ptr<const model::Session> session) {
            memory->setAnalysis(session, m_profile.analysis, rulerZeros());
            kernels->setAnalysis(session, m_profile.analysis);
            communication->setAnalysis(std::move(session), m_profile.analysis);
        });
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
    // The tool bar's and the File menu's way in (DESIGN.md: Open · Compare · Export · Run config).
    m_runConfigAction = new QAction(tr("Run &Config…"), this);
    m_runConfigAction->setObjectName(QStringLiteral("runConfigAction"));
    m_runConfigAction->setToolTip(tr("What the profile lacks for tokens/s, MFU and the memory "
                                     "estimate: parameters, batch, precision, peak FLOP/s"));
    connect(m_runConfigAction, &QAction::triggered, this, editRunConfig);
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
    connect(kernels, &KernelsPanel::eventRequested, this, &MainWindow::showRankEvent);
    // Every instance of a kernel: the search box steps through them (Enter, Shift+Enter).
    connect(kernels, &KernelsPanel::searchRequested, this, [this](const QString &name) {
        m_search->setText(name);
        m_search->setFocus(Qt::OtherFocusReason);
    });
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

std::map<int, std::int64_t> MainWindow::rulerZeros() const
{
    if (!m_profile.session || !m_profile.timeline || m_centre->currentWidget() != m_timeline)
        return {};
    return m_profile.timeline->rulerZeros();
}

} // namespace stepscope::ui
