// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "memoryprompt.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace stepscope::ui {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("stepscope::ui::MemoryPrompt", text);
}

QString bytes(std::uint64_t n)
{
    return QString::fromStdString(import::formatBudgetBytes(n));
}

} // namespace

QMessageBox *askWhatToOpen(QWidget *parent, const QString &path, const import::MemoryBudget &budget,
    const import::LoadOptions &asked, std::function<void(const import::LoadOptions &)> choose)
{
    auto *box = new QMessageBox(parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("memoryBudgetPrompt"));
    box->setIcon(QMessageBox::Warning);
    box->setWindowTitle(tr("Not Enough Memory"));
    box->setText(tr("Opening %1 needs about %2 of memory; %3 is available.")
                     .arg(QFileInfo(path).fileName(), bytes(budget.needBytes()),
                         bytes(budget.availableBytes)));
    const std::vector<std::int32_t> fit = budget.ranksThatFit();
    QPushButton *subset = nullptr;
    const QString anywayNote =
        tr("Opened anyway, the system may stop StepScope when memory runs out.");
    if (budget.ranks.size() > 1 && !fit.empty()) {
        const bool one = fit.size() == 1;
        box->setInformativeText(
            (one ? tr("%1 of its %2 ranks fits (about %3): open it, or open everything. %4")
                 : tr("%1 of its %2 ranks fit (about %3): open those, or open everything. %4"))
                .arg(fit.size())
                .arg(budget.ranks.size())
                .arg(bytes(budget.needBytesOfFirst(fit.size())), anywayNote));
        const QString list = QString::fromStdString(import::formatRankList(fit));
        subset = box->addButton(one ? tr("Open Rank %1").arg(list) : tr("Open Ranks %1").arg(list),
            QMessageBox::AcceptRole);
    } else if (budget.ranks.size() > 1) {
        box->setInformativeText(tr("Not even its first rank fits alone (about %1). %2")
                                    .arg(bytes(budget.ranks.front().peakBytes), anywayNote));
    } else if (budget.ranks.size() == 1) {
        box->setInformativeText(
            tr("It is a single rank: free memory first, or open it anyway. %1").arg(anywayNote));
    } else {
        box->setInformativeText(tr("It has no ranks to choose from (training logs or a cluster "
                                   "summary alone): free memory first, or open it anyway. %1")
                                    .arg(anywayNote));
    }
    QPushButton *anyway = box->addButton(tr("Open Anyway"), QMessageBox::DestructiveRole);
    QPushButton *cancel = box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(subset != nullptr ? subset : cancel);
    box->setEscapeButton(cancel);
    QObject::connect(box, &QMessageBox::buttonClicked, box,
        [subset, anyway, fit, asked, choose = std::move(choose)](QAbstractButton *clicked) {
            import::LoadOptions options = asked;
            if (clicked == subset && subset != nullptr) {
                options.ranks = fit;
                choose(options);
            } else if (clicked == anyway) {
                options.checkMemory = false;
                choose(options);
            }
        });
    box->open();
    return box;
}

} // namespace stepscope::ui
