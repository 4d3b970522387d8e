// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "rangestatistics.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;

namespace stepscope::ui::timeline {

/// The range statistics table (per-name total, count, share of the range), sortable by any
/// column, copyable as tab-separated text (Ctrl+C or the Copy button).
class RangeStatsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit RangeStatsPanel(QWidget *parent = nullptr);

    /// `t0` and `t1` as the ruler reads them (from its origin), for the title.
    void setStats(std::int64_t t0, std::int64_t t1, std::vector<RangeStat> stats);
    void clear();
    QTableWidget *table() const { return m_table; }
    QString title() const;
    /// The table as tab-separated text with a header line (what Copy puts on the clipboard).
    QString toTsv() const;

private:
    QLabel *m_title = nullptr;
    QTableWidget *m_table = nullptr;
};

} // namespace stepscope::ui::timeline
