// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QWidget>

namespace stepscope::ui {

/// Shown while no profile is open: says how to open one (DESIGN.md "The main window").
class WelcomePage : public QWidget
{
    Q_OBJECT

public:
    explicit WelcomePage(QWidget *parent = nullptr);

signals:
    void openFolderClicked();
    void openFileClicked();
};

} // namespace stepscope::ui
