// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "rangestatspanel.h"

#include "analysis/units.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace stepscope::ui::timeline {

namespace {

/// A cell that shows formatted text but sorts by a number.
class NumberItem : public QTableWidgetItem
{
public:
    NumberItem(const QString &text, double value)
        : QTableWidgetItem(text)
        , m_value(value)
    {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        if (const auto *n = dynamic_cast<const NumberItem *>(&other))
            return m_value < n->m_value;
        return QTableWidgetItem::operator<(other);
    }

private:
    double m_value;
};

} // namespace

RangeStatsPanel::RangeStatsPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("rangeStatsPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *top = new QHBoxLayout;
    m_title = new QLabel(
        tr("Shift+drag on the timeline (or click a step) to select a time range."), this);
    auto *copy = new QPushButton(tr("Copy"), this);
    top->addWidget(m_title, 1);
    top->addWidget(copy);
    layout->addLayout(top);
    m_table = new QTableWidget(0, 7, this);
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Rank"), tr("Category"), tr("Self"),
        tr("Total"), tr("Count"), tr("Share")});
    m_table->horizontalHeaderItem(3)->setToolTip(
        tr("Time in the range when this was the innermost event (its children excluded)"));
    m_table->horizontalHeaderItem(4)->setToolTip(
        tr("Summed durations in the range, children included"));
    m_table->horizontalHeaderItem(6)->setToolTip(
        tr("Self time ÷ (range length × the rank's lanes it ran on): at most 100 %"));
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSortingEnabled(true);
    layout->addWidget(m_table);
    auto copyAll = [this] { QApplication::clipboard()->setText(toTsv()); };
    connect(copy, &QPushButton::clicked, this, copyAll);
    auto *copyAction = new QAction(tr("Copy"), m_table);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copyAction, &QAction::triggered, this, copyAll);
    m_table->addAction(copyAction);
}

void RangeStatsPanel::clear()
{
    m_table->setRowCount(0);
    m_title->setText(tr("No range selected."));
}

QString RangeStatsPanel::title() const
{
    return m_title->text();
}

void RangeStatsPanel::setStats(std::int64_t t0, std::int64_t t1, std::vector<RangeStat> stats)
{
    const auto fmt = [](std::int64_t ns) {
        return QString::fromStdString(analysis::formatDuration(ns));
    };
    m_title->setText(
        tr("Range %1 – %2 (%3), %4 names").arg(fmt(t0), fmt(t1), fmt(t1 - t0)).arg(stats.size()));
    m_table->setSortingEnabled(false);
    m_table->setRowCount(static_cast<int>(stats.size()));
    for (int r = 0; r < static_cast<int>(stats.size()); ++r) {
        const RangeStat &s = stats[static_cast<std::size_t>(r)];
        auto *name = new QTableWidgetItem(s.name);
        name->setToolTip(s.name);
        m_table->setItem(r, 0, name);
        m_table->setItem(r, 1, new NumberItem(QString::number(s.rank), s.rank));
        m_table->setItem(
            r, 2, new QTableWidgetItem(QString::fromUtf8(model::categoryName(s.category).data())));
        m_table->setItem(r, 3, new NumberItem(fmt(s.selfNs), static_cast<double>(s.selfNs)));
        m_table->setItem(r, 4, new NumberItem(fmt(s.totalNs), static_cast<double>(s.totalNs)));
        m_table->setItem(
            r, 5, new NumberItem(QString::number(s.count), static_cast<double>(s.count)));
        auto *share =
            new NumberItem(QString::fromStdString(analysis::formatShare(s.share)), s.share);
        if (s.lanes > 1)
            share->setToolTip(tr("of %1 lanes' time").arg(s.lanes));
        m_table->setItem(r, 6, share);
    }
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(3, Qt::DescendingOrder);
}

QString RangeStatsPanel::toTsv() const
{
    QString out;
    for (int c = 0; c < m_table->columnCount(); ++c)
        out += (c ? QStringLiteral("\t") : QString()) + m_table->horizontalHeaderItem(c)->text();
    out += QLatin1Char('\n');
    for (int r = 0; r < m_table->rowCount(); ++r) {
        for (int c = 0; c < m_table->columnCount(); ++c) {
            const QTableWidgetItem *item = m_table->item(r, c);
            out += (c ? QStringLiteral("\t") : QString()) + (item ? item->text() : QString());
        }
        out += QLatin1Char('\n');
    }
    return out;
}

} // namespace stepscope::ui::timeline
