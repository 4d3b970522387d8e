// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "tableitems.h"

#include <QHeaderView>
#include <QStandardItemModel>
#include <QTableView>

namespace stepscope::ui {

QStandardItem *numberItem(const QString &text, double sortValue)
{
    auto *item = new QStandardItem(text);
    item->setData(sortValue, SortRole);
    item->setData(QVariant(int(Qt::AlignRight | Qt::AlignVCenter)), Qt::TextAlignmentRole);
    item->setEditable(false);
    return item;
}

QStandardItem *textItem(const QString &text)
{
    auto *item = new QStandardItem(text);
    item->setData(text, SortRole);
    item->setEditable(false);
    item->setToolTip(text);
    return item;
}

void setRowTime(QStandardItem *first, int rank, std::int64_t startNs, std::int64_t endNs)
{
    first->setData(rank, RankRole);
    first->setData(static_cast<qlonglong>(startNs), StartRole);
    first->setData(static_cast<qlonglong>(endNs), EndRole);
}

QTableView *createTableView(QStandardItemModel *model, QWidget *parent)
{
    model->setSortRole(SortRole);
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->setVisible(false);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setTextElideMode(Qt::ElideMiddle);
    return view;
}

QLabel *createMessageLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    label->setMargin(12);
    return label;
}

QString countText(long long n, const QString &one, const QString &many)
{
    return QStringLiteral("%L1 %2").arg(n).arg(n == 1 ? one : many);
}

} // namespace stepscope::ui
