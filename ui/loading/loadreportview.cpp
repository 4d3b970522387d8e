// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "loadreportview.h"

#include <QHeaderView>

namespace stepscope::ui {

LoadReportView::LoadReportView(QWidget *parent)
    : QTableWidget(0, 5, parent)
{
    setObjectName(QStringLiteral("loadReportView"));
    setHorizontalHeaderLabels(
        {tr("Severity"), tr("File"), tr("Line / offset"), tr("Message"), tr("Count")});
    horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setWordWrap(false);
}

QString LoadReportView::position(const model::Diagnostic &d)
{
    if (d.line > 0)
        return d.column > 0 ? QStringLiteral("%1:%2").arg(d.line).arg(d.column)
                            : QString::number(d.line);
    if (d.offset >= 0)
        return QStringLiteral("@%1").arg(d.offset);
    return {};
}

void LoadReportView::setReport(const model::LoadReport &report)
{
    setSortingEnabled(false);
    const auto &diags = report.diagnostics();
    setRowCount(static_cast<int>(diags.size()));
    for (int r = 0; r < static_cast<int>(diags.size()); ++r) {
        const model::Diagnostic &d = diags[static_cast<std::size_t>(r)];
        setItem(
            r, 0, new QTableWidgetItem(QString::fromUtf8(model::severityName(d.severity).data())));
        setItem(r, 1, new QTableWidgetItem(QString::fromStdString(d.file)));
        setItem(r, 2, new QTableWidgetItem(position(d)));
        auto *message = new QTableWidgetItem(QString::fromStdString(d.message));
        message->setToolTip(message->text());
        setItem(r, 3, message);
        auto *count = new QTableWidgetItem;
        count->setData(Qt::DisplayRole, static_cast<qulonglong>(d.count));
        setItem(r, 4, count);
    }
    setSortingEnabled(true);
    resizeColumnToContents(0);
    resizeColumnToContents(1);
}

} // namespace stepscope::ui
