// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace stepscope::ui {

/// Shown while no profile is open: says how to open one, lists recent profiles, and accepts
/// dropped folders and files through the main window (DESIGN.md "The main window").
class WelcomePage : public QWidget
{
    Q_OBJECT

public:
    explicit WelcomePage(QWidget *parent = nullptr);

    /// The formats the hint lists, one line each (every import::detect::Format).
    static QStringList formatsRead();
    QSize minimumSizeHint() const override;
    void setRecent(const QStringList &paths);
    /// A line under the buttons (e.g. why the last load found nothing); empty hides it.
    void setMessage(const QString &message);
    /// The bundled demo (two ResNet-50 runs, before and after a data-loader fix): a button
    /// opens their comparison. Empty, or a folder without both runs, hides it.
    void setDemoDir(const QString &dir);

signals:
    void openFolderClicked();
    void openFileClicked();
    void openRecentClicked(const QString &path);
    void openCompareClicked(const QString &before, const QString &after);

private:
    QListWidget *m_recent = nullptr;
    QLabel *m_recentTitle = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_demo = nullptr;
    QString m_demoDir;
};

} // namespace stepscope::ui
