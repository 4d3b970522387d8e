// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QMainWindow>

class QStackedWidget;

namespace stepscope::ui {

class WelcomePage;

/// The application window: a welcome page until a profile is open, then the timeline with
/// its docks (DESIGN.md "The main window").
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    WelcomePage *welcomePage() const { return m_welcome; }

signals:
    void openRequested(const QString &path);

private:
    void createMenus();
    void chooseFolder();
    void chooseFile();

    QStackedWidget *m_centre = nullptr;
    WelcomePage *m_welcome = nullptr;
};

} // namespace stepscope::ui
