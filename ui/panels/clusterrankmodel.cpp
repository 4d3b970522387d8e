// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clusterrankmodel.h"

#include "analysis/units.h"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace stepscope::ui::cluster {

namespace {

// Fixed columns before the categories, and after.
enum Fixed { Rank, StageCol, Steps, Mean, Median, Max, FixedCount };

QString dur(double ns)
{
    if (std::isnan(ns))
        return QStringLiteral("—");
    return QString::fromStdString(analysis::formatDuration(std::llround(ns)));
}

} // namespace

RankTableModel::RankTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RankTableModel::setClusterData(std::shared_ptr<const ClusterData> data)
{
    beginResetModel();
    m_data = std::move(data);
    endResetModel();
}

int RankTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_data ? 0 : static_cast<int>(m_data->rows.size());
}

int RankTableModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_data)
        return 0;
    return FixedCount + static_cast<int>(m_data->categories.size()) + 3;
}

int RankTableModel::deviationColumn() const
{
    return FixedCount + (m_data ? static_cast<int>(m_data->categories.size()) : 0);
}

QVariant RankTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || !m_data)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Rank:
        return tr("Rank");
    case StageCol:
        return tr("Stage");
    case Steps:
        return tr("Steps");
    case Mean:
        return tr("Mean step");
    case Median:
        return tr("Median step");
    case Max:
        return tr("Max step");
    default:
        break;
    }
    const int k = section - FixedCount;
    if (k < static_cast<int>(m_data->categories.size()))
        return QString(m_data->categories[static_cast<std::size_t>(k)] + tr(" (mean)"));
    switch (section - deviationColumn()) {
    case 0:
        return tr("Δ median");
    case 1:
        return tr("Straggler");
    default:
        return tr("Timeline");
    }
}

QVariant RankTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_data || !index.isValid())
        return {};
    const RankRow &row = m_data->rows[static_cast<std::size_t>(index.row())];
    if (role == RankRole)
        return row.rank;
    const int c = index.column();
    const int k = c - FixedCount;
    const int tail = c - deviationColumn();
    if (role == SortRole) {
        switch (c) {
        case Rank:
            return row.rank;
        case StageCol:
            return row.stage;
        case Steps:
            return static_cast<qlonglong>(row.steps);
        case Mean:
            return row.meanNs;
        case Median:
            return row.medianNs;
        case Max:
            return row.maxNs;
        default:
            break;
        }
        if (k >= 0 && k < static_cast<int>(row.categoryMeanNs.size()))
            return std::isnan(row.categoryMeanNs[static_cast<std::size_t>(k)])
                ? -1.0
                : row.categoryMeanNs[static_cast<std::size_t>(k)];
        if (tail == 0)
            return row.deviation;
        if (tail == 1)
            return row.straggler ? 1 : 0;
        return row.traceIndex >= 0 ? 1 : 0;
    }
    if (role == Qt::TextAlignmentRole)
        return c == StageCol || tail >= 1 ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                          : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && tail == 0 && row.deviation > 0.05)
        return QBrush(QColor(0xb2, 0x18, 0x2b));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (c) {
    case Rank:
        return QString::number(row.rank);
    case StageCol:
        return row.stage;
    case Steps:
        return QString::number(row.steps);
    case Mean:
        return row.steps ? dur(row.meanNs) : QStringLiteral("—");
    case Median:
        return row.steps ? dur(row.medianNs) : QStringLiteral("—");
    case Max:
        return row.steps ? dur(row.maxNs) : QStringLiteral("—");
    default:
        break;
    }
    if (k >= 0 && k < static_cast<int>(row.categoryMeanNs.size()))
        return dur(row.categoryMeanNs[static_cast<std::size_t>(k)]);
    if (tail == 0)
        return QStringLiteral("%1%2 %")
            .arg(row.deviation > 0 ? QStringLiteral("+") : QString())
            .arg(row.deviation * 100, 0, 'f', 1);
    if (tail == 1)
        return row.straggler ? tr("yes") : QString();
    return row.traceIndex >= 0 ? tr("loaded") : QString();
}

} // namespace stepscope::ui::cluster
