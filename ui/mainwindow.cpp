// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "mainwindow.h"

#include "welcomepage.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QKeySequence>
#include <QMenuBar>
#include <QStackedWidget>
#include <QStatusBar>

namespace stepscope::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("StepScope"));
    m_centre = new QStackedWidget(this);
    m_welcome = new WelcomePage(m_centre);
    m_centre->addWidget(m_welcome);
    setCentralWidget(m_centre);
    connect(m_welcome, &WelcomePage::openFolderClicked, this, &MainWindow::chooseFolder);
    connect(m_welcome, &WelcomePage::openFileClicked, this, &MainWindow::chooseFile);
    createMenus();
    statusBar()->showMessage(tr("No profile open"));
    resize(1280, 800);
}

MainWindow::~MainWindow() = default;

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *openFolder = file->addAction(tr("Open &Folder…"), this, &MainWindow::chooseFolder);
    openFolder->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open F&ile…"), this, &MainWindow::chooseFile);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open profile folder"));
    if (!dir.isEmpty())
        emit openRequested(dir);
}

void MainWindow::chooseFile()
{
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Open profile file"), QString(),
        tr("Profiles (*.json *.json.gz *.raw.gz *.csv);;All files (*)"));
    if (!file.isEmpty())
        emit openRequested(file);
}

} // namespace stepscope::ui
