// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "loadreportview.h"

#include <QHeaderView>
#include <QPainter>

#include <algorithm>

namespace stepscope::ui {

LoadReportView::LoadReportView(QWidget *parent)
    : QTableWidget(0, 5, parent)
{
    setObjectName(QStringLiteral("loadReportView"));
    setHorizontalHeaderLabels(
        {tr("Severity"), tr("File"), tr("Line / offset"), tr("Message"), tr("Count")});
    // The message takes the width left; the short columns fit their contents; a long path
    // is elided in the middle (its tooltip is whole) and messages wrap instead of being cut.
    horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setTextElideMode(Qt::ElideMiddle);
    setWordWrap(true);
}

QString LoadReportView::emptyText() const
{
    return m_loaded ? tr("No diagnostics: every file read without a warning or an error.")
                    : tr("No diagnostics yet: open a profile to see what its load reports.");
}

void LoadReportView::paintEvent(QPaintEvent *event)
{
    QTableWidget::paintEvent(event);
    if (rowCount() > 0)
        return;
    QPainter p(viewport());
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(viewport()->rect().adjusted(8, 8, -8, -8),
        Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, emptyText());
}

void LoadReportView::resizeEvent(QResizeEvent *event)
{
    QTableWidget::resizeEvent(event);
    fitColumns();
}

void LoadReportView::fitColumns()
{
    for (int c : {0, 2, 4})
        resizeColumnToContents(c);
    resizeColumnToContents(1);
    const int fileMax = std::max(80, viewport()->width() / 5);
    if (columnWidth(1) > fileMax)
        setColumnWidth(1, fileMax);
    resizeRowsToContents();
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
        auto *file = new QTableWidgetItem(QString::fromStdString(d.file));
        file->setToolTip(file->text());
        setItem(r, 1, file);
        setItem(r, 2, new QTableWidgetItem(position(d)));
        auto *message = new QTableWidgetItem(QString::fromStdString(d.message));
        message->setToolTip(message->text());
        setItem(r, 3, message);
        auto *count = new QTableWidgetItem;
        count->setData(Qt::DisplayRole, static_cast<qulonglong>(d.count));
        setItem(r, 4, count);
    }
    setSortingEnabled(true);
    m_loaded = true;
    fitColumns();
    viewport()->update();
}

} // namespace stepscope::ui
