// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "comparedialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>

namespace stepscope::ui::compare {

CompareDialog::CompareDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("compareDialog"));
    setWindowTitle(tr("Compare two runs"));
    auto *grid = new QGridLayout(this);
    m_before = new QLineEdit;
    m_before->setObjectName(QStringLiteral("beforePath"));
    m_before->setPlaceholderText(tr("profile folder of the baseline run"));
    m_after = new QLineEdit;
    m_after->setObjectName(QStringLiteral("afterPath"));
    m_after->setPlaceholderText(tr("profile folder of the changed run"));
    auto *browseBefore = new QPushButton(tr("Browse…"));
    auto *browseAfter = new QPushButton(tr("Browse…"));
    auto *swap = new QToolButton;
    swap->setText(tr("Swap"));
    swap->setToolTip(tr("Exchange before and after"));
    grid->addWidget(new QLabel(tr("Before:")), 0, 0);
    grid->addWidget(m_before, 0, 1);
    grid->addWidget(browseBefore, 0, 2);
    grid->addWidget(swap, 0, 3, 2, 1);
    grid->addWidget(new QLabel(tr("After:")), 1, 0);
    grid->addWidget(m_after, 1, 1);
    grid->addWidget(browseAfter, 1, 2);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
    grid->addWidget(m_buttons, 2, 0, 1, 4);
    grid->setColumnMinimumWidth(1, 420);

    connect(browseBefore, &QPushButton::clicked, this, [this] { browse(m_before); });
    connect(browseAfter, &QPushButton::clicked, this, [this] { browse(m_after); });
    connect(swap, &QToolButton::clicked, this, [this] { setPaths(afterPath(), beforePath()); });
    connect(m_before, &QLineEdit::textChanged, this, &CompareDialog::validate);
    connect(m_after, &QLineEdit::textChanged, this, &CompareDialog::validate);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    validate();
}

QString CompareDialog::beforePath() const
{
    return m_before->text().trimmed();
}

QString CompareDialog::afterPath() const
{
    return m_after->text().trimmed();
}

void CompareDialog::setPaths(const QString &before, const QString &after)
{
    m_before->setText(before);
    m_after->setText(after);
    validate();
}

bool CompareDialog::isAcceptable(QString *why) const
{
    auto fail = [why](const QString &m) {
        if (why)
            *why = m;
        return false;
    };
    if (beforePath().isEmpty() || afterPath().isEmpty())
        return fail(tr("Pick a profile for both runs."));
    if (!QFileInfo::exists(beforePath()))
        return fail(tr("%1 does not exist.").arg(beforePath()));
    if (!QFileInfo::exists(afterPath()))
        return fail(tr("%1 does not exist.").arg(afterPath()));
    if (QFileInfo(beforePath()).canonicalFilePath() == QFileInfo(afterPath()).canonicalFilePath())
        return fail(tr("Before and after are the same profile."));
    return true;
}

void CompareDialog::validate()
{
    QString why;
    const bool ok = isAcceptable(&why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
    m_buttons->button(QDialogButtonBox::Ok)->setToolTip(ok ? QString() : why);
}

void CompareDialog::browse(QLineEdit *edit)
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Profile folder"), edit->text());
    if (!dir.isEmpty())
        edit->setText(dir);
}

bool CompareDialog::getPair(
    QWidget *parent, QString *before, QString *after, const QString &initialBefore)
{
    CompareDialog dialog(parent);
    dialog.setPaths(initialBefore, QString());
    if (dialog.exec() != QDialog::Accepted)
        return false;
    *before = dialog.beforePath();
    *after = dialog.afterPath();
    return true;
}

} // namespace stepscope::ui::compare
