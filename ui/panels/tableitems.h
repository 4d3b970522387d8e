// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <QLabel>
#include <QStandardItem>
#include <QString>

#include <cstdint>

class QTableView;
class QStandardItemModel;

namespace stepscope::ui {

/// Item roles the panels' tables use: SortRole holds the value sorted on (numbers sort as
/// numbers, not as their formatted text); the first cell of a row carries the time range the
/// row links to (rank, start, end), or RankRole < 0 when the row has no time.
enum TableRole : int {
    SortRole = Qt::UserRole + 1,
    RankRole,
    StartRole,
    EndRole,
};

/// A cell showing `text` and sorting by `sortValue`; right-aligned (numbers).
QStandardItem *numberItem(const QString &text, double sortValue);
/// A cell showing and sorting by text.
QStandardItem *textItem(const QString &text);
/// Stores the time range a row links to in its first cell.
void setRowTime(QStandardItem *first, int rank, std::int64_t startNs, std::int64_t endNs);

/// A sortable, read-only, row-selecting table view over `model` (model->setSortRole(SortRole)).
QTableView *createTableView(QStandardItemModel *model, QWidget *parent);

/// "1 rank", "4 ranks", "1,200 steps": a count with its noun in the right number (no
/// "rank(s)"), digits grouped as the locale groups them.
QString countText(long long n, const QString &one, const QString &many);

/// The message a panel shows instead of an empty chart: what the profile lacks and how to
/// collect it. Rich text, word-wrapped, selectable.
QLabel *createMessageLabel(QWidget *parent);

} // namespace stepscope::ui
