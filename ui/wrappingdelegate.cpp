// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "wrappingdelegate.h"

#include <QHeaderView>
#include <QTreeView>

#include <algorithm>

namespace stepscope::ui {

WrappingDelegate::WrappingDelegate(int column, QObject *parent)
    : QStyledItemDelegate(parent)
    , m_column(column)
{
}

QSize WrappingDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const auto *tree = qobject_cast<const QTreeView *>(option.widget);
    if (!tree || index.column() != m_column)
        return QStyledItemDelegate::sizeHint(option, index);
    int depth = 0; // a child's text starts one indentation further right
    for (QModelIndex up = index.parent(); up.isValid(); up = up.parent())
        ++depth;
    const bool spanned =
        index.column() == 0 && tree->isFirstColumnSpanned(index.row(), index.parent());
    const int width = spanned ? tree->viewport()->width() - depth * tree->indentation()
                              : tree->columnWidth(m_column);
    QStyleOptionViewItem sized = option;
    sized.rect = QRect(0, 0, std::max(1, width), option.fontMetrics.height());
    return QStyledItemDelegate::sizeHint(sized, index);
}

void wrapColumn(QTreeView *tree, int column)
{
    tree->setWordWrap(true);
    tree->setItemDelegate(new WrappingDelegate(column, tree));
    // At once, not on a timer: an exported picture is rendered without an event loop.
    QObject::connect(tree->header(), &QHeaderView::sectionResized, tree,
        [tree, column](int section, int oldSize, int newSize) {
            if (section == column && oldSize != newSize)
                tree->doItemsLayout();
        });
}

} // namespace stepscope::ui
