// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "welcomepage.h"

#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace stepscope::ui {

WelcomePage::WelcomePage(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("welcomePage"));
    auto *layout = new QVBoxLayout(this);
    // The page shares the centre's stack with the timeline: its long format list must not
    // become the centre's minimum height (the docks would get less once a profile is open).
    layout->setSizeConstraint(QLayout::SetNoConstraint);
    layout->addStretch(2);
    auto *title = new QLabel(tr("<h1>StepScope</h1>"), this);
    title->setAlignment(Qt::AlignCenter);
    QString formats;
    for (const QString &line : formatsRead())
        formats += QStringLiteral("<li>%1</li>").arg(line);
    auto *hint = new QLabel(
        tr("Open a profiler output folder to see where each training step's time went.<br>"
           "<b>File › Open Folder…</b> (Ctrl+O), or drop a profile folder or file here.")
            + QStringLiteral("<p align=\"left\">") + tr("StepScope reads:")
            + QStringLiteral("</p><ul align=\"left\">%1</ul>").arg(formats),
        this);
    hint->setObjectName(QStringLiteral("welcomeHint"));
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    auto *openFolder = new QPushButton(tr("Open Folder…"), this);
    auto *openFile = new QPushButton(tr("Open File…"), this);
    connect(openFolder, &QPushButton::clicked, this, &WelcomePage::openFolderClicked);
    connect(openFile, &QPushButton::clicked, this, &WelcomePage::openFileClicked);
    m_demo = new QPushButton(tr("Open the Demo Comparison"), this);
    m_demo->setObjectName(QStringLiteral("demoButton"));
    m_demo->setToolTip(tr("Two ResNet-50 runs, before and after moving data loading to "
                          "worker processes"));
    m_demo->hide();
    connect(m_demo, &QPushButton::clicked, this, [this] {
        emit openCompareClicked(QDir(m_demoDir).filePath(QStringLiteral("resnet50_num_workers_0")),
            QDir(m_demoDir).filePath(QStringLiteral("resnet50_num_workers_4")));
    });
    layout->addWidget(title);
    layout->addWidget(hint);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(openFolder);
    buttons->addWidget(openFile);
    buttons->addWidget(m_demo);
    buttons->addStretch();
    layout->addLayout(buttons);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("welcomeMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->hide();
    layout->addWidget(m_message);
    m_recentTitle = new QLabel(tr("<b>Recent</b>"), this);
    m_recentTitle->setAlignment(Qt::AlignCenter);
    m_recent = new QListWidget(this);
    m_recent->setObjectName(QStringLiteral("recentList"));
    m_recent->setMaximumWidth(700);
    m_recent->setMaximumHeight(160);
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        emit openRecentClicked(item->data(Qt::UserRole).toString());
    });
    auto *recentRow = new QHBoxLayout;
    recentRow->addStretch();
    recentRow->addWidget(m_recent, 3);
    recentRow->addStretch();
    layout->addWidget(m_recentTitle);
    layout->addLayout(recentRow);
    layout->addStretch(3);
    setRecent({});
}

QSize WelcomePage::minimumSizeHint() const
{
    return {200, 120};
}

QStringList WelcomePage::formatsRead()
{
    // One line per import::detect::Format (docs/formats.md §1), in that order.
    return {
        tr("Ascend PyTorch / MindSpore profiler folders (rank folders with "
           "ASCEND_PROFILER_OUTPUT/, loose trace_view.json, kernel_details.csv and "
           "step_trace_time.csv, cluster_analysis_output/)"),
        tr("Ascend SQLite databases (ascend_pytorch_profiler_*.db, analysis.db, msprof_*.db)"),
        tr("MindSpore / MindInsight legacy profiler folders and CANN PROF_* device folders"),
        tr("PyTorch Kineto traces and any other Chrome trace-event file, plain or gzipped, "
           "found by its content whatever its name"),
        tr("PyTorch memory exports (export_memory_timeline, _raw)"),
        tr("Nsight Systems SQLite exports (nsys export --type sqlite)"),
        tr("Training logs: MindSpore, MindFormers, Megatron / MindSpeed, DeepSpeed, "
           "trainer_state.json, golden values, metrics CSV, torchtitan"),
        tr("JAX .xplane.pb: recognised and named, not read yet"),
    };
}

void WelcomePage::setRecent(const QStringList &paths)
{
    m_recent->clear();
    for (const QString &p : paths) {
        auto *item = new QListWidgetItem(p, m_recent);
        item->setData(Qt::UserRole, p);
        item->setToolTip(p);
    }
    m_recent->setVisible(!paths.isEmpty());
    m_recentTitle->setVisible(!paths.isEmpty());
}

void WelcomePage::setDemoDir(const QString &dir)
{
    const QDir demo(dir);
    const bool usable = !dir.isEmpty() && demo.exists(QStringLiteral("resnet50_num_workers_0"))
        && demo.exists(QStringLiteral("resnet50_num_workers_4"));
    m_demoDir = usable ? dir : QString();
    m_demo->setVisible(usable);
}

void WelcomePage::setMessage(const QString &message)
{
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
}

} // namespace stepscope::ui
