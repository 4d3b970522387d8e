// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// The main window's menus, tool bar (search), file choosers and recent files.
#include "aboutdialog.h"
#include "mainwindow.h"
#include "panels/memorypanel.h"
#include "timeline/detailspane.h"
#include "timeline/keybindings.h"
#include "timeline/timelineview.h"
#include "welcomepage.h"
#include "windowsettings.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPair>
#include <QSettings>
#include <QTimer>
#include <QToolBar>

#include <functional>

namespace stepscope::ui {

namespace {

constexpr int MaxRecent = 10;
const QString RecentKey = QStringLiteral("recentPaths");
const QString RecentComparesKey = QStringLiteral("recentCompares"); // [before, after] lists

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
    file->addAction(m_runConfigAction);
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
        m_memory->setTimeZeros(rulerZeros());
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
    QAction *exportView = bar->addAction(tr("Export"), this, &MainWindow::exportView);
    exportView->setToolTip(tr("Export a view or panel as PNG or SVG (Ctrl+Shift+E)"));
    QAction *runConfig = bar->addAction(tr("Run config"), m_runConfigAction, &QAction::trigger);
    runConfig->setToolTip(m_runConfigAction->toolTip());
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
    // The scan runs on a worker (TimelineView::startSearch): a new term never freezes the window.
    connect(
        debounce, &QTimer::timeout, this, [this] { m_timeline->startSearch(m_search->text()); });
    m_search->installEventFilter(new SearchKeys(this, [this, debounce](bool forward) {
        if (debounce->isActive()) {
            debounce->stop();
            m_timeline->startSearch(m_search->text());
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
    else if (count < 0)
        m_searchLabel->setText(tr(" searching…"));
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

QList<QPair<QString, QString>> MainWindow::recentCompares()
{
    QList<QPair<QString, QString>> out;
    for (const QVariant &v : QSettings().value(RecentComparesKey).toList()) {
        const QStringList pair = v.toStringList();
        if (pair.size() == 2)
            out.append({pair[0], pair[1]});
    }
    return out;
}

void MainWindow::rememberRecentCompare(const QString &beforePath, const QString &afterPath)
{
    const QPair<QString, QString> pair {
        QFileInfo(beforePath).absoluteFilePath(), QFileInfo(afterPath).absoluteFilePath()};
    QList<QPair<QString, QString>> list = recentCompares();
    list.removeAll(pair);
    list.prepend(pair);
    QVariantList stored;
    for (const auto &[before, after] : list.mid(0, MaxRecent))
        stored.append(QStringList {before, after});
    QSettings().setValue(RecentComparesKey, stored);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList list = recentPaths();
    for (const QString &p : list)
        m_recentMenu->addAction(p, this, [this, p] { openPath(p); });
    // Comparisons below the profiles, each reopened as the pair it was.
    const QList<QPair<QString, QString>> compares = recentCompares();
    if (!compares.isEmpty())
        m_recentMenu->addSection(tr("Comparisons"));
    for (const auto &[before, after] : compares)
        m_recentMenu->addAction(tr("%1 → %2").arg(before, after), this,
            [this, before = before, after = after] { openCompare(before, after); });
    m_recentMenu->setEnabled(!list.isEmpty() || !compares.isEmpty());
}

void MainWindow::showShortcuts()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("Keyboard shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(timeline::shortcutHelpHtml());
    box.exec();
}

} // namespace stepscope::ui
