// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QStyledItemDelegate>

class QTreeView;

namespace stepscope::ui {

/// Gives the style a column's width when a tree asks a row's height: a tree view asks without
/// it, so the style would not wrap the text and the row would keep one line, elided. A row
/// whose first column spans the row wraps at the viewport's width, less its indentation. The
/// other columns keep their natural width, which resizeColumnToContents reads.
class WrappingDelegate : public QStyledItemDelegate
{
public:
    WrappingDelegate(int column, QObject *parent);
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

private:
    int m_column;
};

/// Word wrap on for `tree` with a WrappingDelegate for `column`, and the rows laid out again
/// whenever that column changes width (a tree keeps its rows' heights otherwise).
void wrapColumn(QTreeView *tree, int column);

} // namespace stepscope::ui
