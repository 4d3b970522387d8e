// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "loadprogressdialog.h"

#include "analysis/units.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace stepscope::ui {

LoadProgressDialog::LoadProgressDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("loadProgressDialog"));
    setWindowTitle(tr("Opening profile"));
    setModal(false);
    auto *layout = new QVBoxLayout(this);
    m_path = new QLabel(this);
    m_path->setWordWrap(true);
    m_stage = new QLabel(this);
    m_stage->setObjectName(QStringLiteral("loadStage"));
    m_bytes = new QLabel(this);
    m_bytes->setObjectName(QStringLiteral("loadBytes"));
    m_bar = new QProgressBar(this);
    m_bar->setRange(0, 1000);
    auto *buttons = new QDialogButtonBox(this);
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("loadCancel"));
    connect(m_cancel, &QPushButton::clicked, this, &LoadProgressDialog::cancelRequested);
    layout->addWidget(m_path);
    layout->addWidget(m_stage);
    layout->addWidget(m_bar);
    layout->addWidget(m_bytes);
    layout->addWidget(buttons);
    setMinimumWidth(460);
}

void LoadProgressDialog::begin(const QString &path)
{
    m_clock.start();
    m_path->setText(tr("<b>%1</b>").arg(path.toHtmlEscaped()));
    m_stage->setText(tr("Starting…"));
    m_bytes->clear();
    m_bar->setRange(0, 1000);
    m_bar->setValue(0);
}

void LoadProgressDialog::setProgress(const QString &stage, quint64 done, quint64 total)
{
    m_stage->setText(stage);
    if (total == 0 && done == 0) {
        m_bar->setRange(0, 0); // Qt's busy indicator
        m_bytes->clear();
        return;
    }
    m_bar->setRange(0, 1000);
    if (total > 0)
        m_bar->setValue(static_cast<int>(std::min<quint64>(1000, done * 1000 / total)));
    QString text = formatBytesDone(done, total);
    const QString left = formatTimeLeft(m_clock.isValid() ? m_clock.elapsed() : 0, done, total);
    if (!left.isEmpty())
        text += QStringLiteral(" — ") + left;
    m_bytes->setText(text);
}

QString LoadProgressDialog::stageText() const
{
    return m_stage->text();
}

QString LoadProgressDialog::bytesText() const
{
    return m_bytes->text();
}

bool LoadProgressDialog::isBusy() const
{
    return m_bar->maximum() == 0;
}

QString LoadProgressDialog::formatBytesDone(quint64 done, quint64 total)
{
    const auto b = [](quint64 v) {
        return QString::fromStdString(analysis::formatBytes(static_cast<std::int64_t>(v)));
    };
    if (total == 0)
        return b(done);
    return tr("%1 of %2").arg(b(done), b(total));
}

QString LoadProgressDialog::formatTimeLeft(qint64 elapsedMs, quint64 done, quint64 total)
{
    if (total == 0 || done == 0 || done >= total || elapsedMs < 500)
        return {};
    const double rate = static_cast<double>(done) / static_cast<double>(elapsedMs);
    const double leftMs = static_cast<double>(total - done) / rate;
    const auto seconds = static_cast<qint64>(std::ceil(leftMs / 1000.0));
    if (seconds < 60)
        return tr("about %1 s left").arg(std::max<qint64>(1, seconds));
    return tr("about %1 min left").arg((seconds + 59) / 60);
}

void LoadProgressDialog::reject()
{
    emit cancelRequested(); // Escape / close button = Cancel
}

} // namespace stepscope::ui
