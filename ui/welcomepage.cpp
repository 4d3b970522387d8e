// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "welcomepage.h"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace stepscope::ui {

WelcomePage::WelcomePage(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->addStretch(2);
    auto *title = new QLabel(tr("<h1>StepScope</h1>"), this);
    title->setAlignment(Qt::AlignCenter);
    auto *hint = new QLabel(
        tr("Open a profiler output folder to see where each training step's time went.<br>"
           "<b>File › Open Folder…</b> (Ctrl+O), or drop a profile folder or file here.<br>"
           "Ascend / MindSpore, CANN PROF_*, PyTorch Kineto (.json, .json.gz) and PyTorch "
           "memory exports are read."),
        this);
    hint->setObjectName(QStringLiteral("welcomeHint"));
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    auto *openFolder = new QPushButton(tr("Open Folder…"), this);
    auto *openFile = new QPushButton(tr("Open File…"), this);
    connect(openFolder, &QPushButton::clicked, this, &WelcomePage::openFolderClicked);
    connect(openFile, &QPushButton::clicked, this, &WelcomePage::openFileClicked);
    layout->addWidget(title);
    layout->addWidget(hint);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(openFolder);
    buttons->addWidget(openFile);
    buttons->addStretch();
    layout->addLayout(buttons);
    layout->addStretch(3);
}

} // namespace stepscope::ui
