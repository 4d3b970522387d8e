// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "loadreportview.h"

#include "ui/wrappingdelegate.h"

#include <QHeaderView>
#include <QPainter>

#include <algorithm>

namespace stepscope::ui {

namespace {

enum Column { SeverityColumn, FileColumn, PositionColumn, MessageColumn, CountColumn };

/// A row that sorts its severity by weight (errors above warnings above information, when
/// sorted descending as the view opens), and report order among equals.
class Row : public QTreeWidgetItem
{
public:
    explicit Row(model::Severity severity)
    {
        setText(SeverityColumn, QString::fromUtf8(model::severityName(severity).data()));
        setData(SeverityColumn, Qt::UserRole, static_cast<int>(severity));
    }
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const int column = treeWidget() ? treeWidget()->sortColumn() : SeverityColumn;
        if (column == SeverityColumn)
            return data(column, Qt::UserRole).toInt() < other.data(column, Qt::UserRole).toInt();
        return QTreeWidgetItem::operator<(other);
    }
};

/// One diagnostic's row (a top-level row, or a row under its group).
QTreeWidgetItem *diagnosticItem(const model::Diagnostic &d)
{
    auto *item = new Row(d.severity);
    item->setText(FileColumn, QString::fromStdString(d.file));
    item->setToolTip(FileColumn, item->text(FileColumn));
    item->setText(PositionColumn, LoadReportView::position(d));
    item->setText(MessageColumn, QString::fromStdString(d.message));
    item->setToolTip(MessageColumn, item->text(MessageColumn));
    item->setData(CountColumn, Qt::DisplayRole, static_cast<qulonglong>(d.count));
    return item;
}

/// A group's row: its first member's message, how many more say the same, and the members
/// under it.
QTreeWidgetItem *groupItem(
    const std::vector<model::Diagnostic> &diags, const model::DiagnosticGroup &group)
{
    const model::Diagnostic &first = diags[group.members.front()];
    auto *item = new Row(first.severity);
    QStringList files;
    for (std::size_t m : group.members) {
        const QString file = QString::fromStdString(diags[m].file);
        if (files.isEmpty() || files.back() != file)
            files.push_back(file);
        item->addChild(diagnosticItem(diags[m]));
    }
    item->setText(FileColumn,
        group.files > 1 ? LoadReportView::tr("%1 files").arg(group.files)
                        : QString::fromStdString(first.file));
    constexpr int Shown = 12;
    item->setToolTip(FileColumn,
        files.mid(0, Shown).join(QLatin1Char('\n'))
            + (files.size() > Shown ? QStringLiteral("\n…") : QString()));
    item->setText(MessageColumn,
        LoadReportView::tr("%1 (and %2 more like it: expand the row to see each)")
            .arg(QString::fromStdString(first.message))
            .arg(group.members.size() - 1));
    item->setToolTip(MessageColumn, item->text(MessageColumn));
    item->setData(CountColumn, Qt::DisplayRole, static_cast<qulonglong>(group.count));
    return item;
}

} // namespace

LoadReportView::LoadReportView(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("loadReportView"));
    setColumnCount(5);
    setHeaderLabels({tr("Severity"), tr("File"), tr("Line / offset"), tr("Message"), tr("Count")});
    // The message takes the width left; the short columns fit their contents; a long path
    // is elided in the middle (its tooltip is whole) and messages wrap instead of being cut.
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(MessageColumn, QHeaderView::Stretch);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setTextElideMode(Qt::ElideMiddle);
    wrapColumn(this, MessageColumn);
    header()->setSortIndicator(SeverityColumn, Qt::DescendingOrder); // errors first
}

QString LoadReportView::emptyText() const
{
    return m_loaded ? tr("No diagnostics: every file read without a warning or an error.")
                    : tr("No diagnostics yet: open a profile to see what its load reports.");
}

void LoadReportView::paintEvent(QPaintEvent *event)
{
    QTreeWidget::paintEvent(event);
    if (topLevelItemCount() > 0)
        return;
    QPainter p(viewport());
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(viewport()->rect().adjusted(8, 8, -8, -8),
        Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, emptyText());
}

void LoadReportView::resizeEvent(QResizeEvent *event)
{
    QTreeWidget::resizeEvent(event);
    fitColumns();
}

void LoadReportView::fitColumns()
{
    for (int c : {SeverityColumn, PositionColumn, CountColumn, FileColumn})
        resizeColumnToContents(c);
    const int fileMax = std::max(80, viewport()->width() / 5);
    if (columnWidth(FileColumn) > fileMax)
        setColumnWidth(FileColumn, fileMax);
    doItemsLayout(); // rows take the height of their wrapped message at the new width
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
    clear();
    const auto &diags = report.diagnostics();
    QList<QTreeWidgetItem *> rows;
    for (const model::DiagnosticGroup &g : model::groupDiagnostics(diags))
        rows.push_back(
            g.members.size() == 1 ? diagnosticItem(diags[g.members.front()]) : groupItem(diags, g));
    addTopLevelItems(rows);
    setSortingEnabled(true);
    m_loaded = true;
    fitColumns();
    viewport()->update();
}

} // namespace stepscope::ui
