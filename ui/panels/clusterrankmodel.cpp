// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clusterrankmodel.h"

#include "analysis/units.h"
#include "ui/palette.h"
#include "ui/text.h"

#include <QBrush>
#include <QStringList>

namespace stepscope::ui::cluster {

namespace {

analysis::ClusterMetric categoryAt(int k)
{
    return static_cast<analysis::ClusterMetric>(k + 1);
}

} // namespace

QString stageName(const analysis::ClusterAnalysis &cluster, std::int32_t index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= cluster.stages.size())
        return {};
    const auto &ranks = cluster.stages[static_cast<std::size_t>(index)].ranks;
    if (ranks.empty())
        return QStringLiteral("stage %1").arg(index);
    return QStringLiteral("stage %1 (%2–%3)").arg(index).arg(ranks.front()).arg(ranks.back());
}

QString reasonText(analysis::StragglerReason reason)
{
    switch (reason) {
    case analysis::StragglerReason::SlowCompute:
        return QStringLiteral("slow compute");
    case analysis::StragglerReason::CommunicationWait:
        return QStringLiteral("waiting in communication");
    case analysis::StragglerReason::PipelineBubble:
        return QStringLiteral("pipeline bubble");
    case analysis::StragglerReason::FreeTime:
        return QStringLiteral("free time");
    case analysis::StragglerReason::None:
        break;
    }
    return {};
}

QString rankList(const std::vector<std::int32_t> &ranks)
{
    QStringList out;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        // Runs of consecutive ranks as "a–b".
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        if (j > i + 1)
            out << QStringLiteral("%1–%2").arg(ranks[i]).arg(ranks[j]);
        else {
            out << QString::number(ranks[i]);
            if (j == i + 1)
                out << QString::number(ranks[j]);
        }
        i = j;
    }
    return out.join(QStringLiteral(", "));
}

RankTableModel::RankTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RankTableModel::setCluster(
    std::shared_ptr<const void> owner, const analysis::ClusterAnalysis *cluster)
{
    beginResetModel();
    m_owner = std::move(owner);
    m_cluster = cluster;
    endResetModel();
}

int RankTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_cluster ? 0 : static_cast<int>(m_cluster->ranks.size());
}

int RankTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_cluster ? 0 : ColumnCount;
}

QVariant RankTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Rank:
        return tr("Rank");
    case Stage:
        return tr("Stage");
    case Steps:
        return tr("Steps");
    case Mean:
        return tr("Mean step");
    case Median:
        return tr("Median step");
    case Max:
        return tr("Max step");
    case DeviationColumn:
        return tr("Δ median");
    case StragglerColumn:
        return tr("Straggler steps");
    case ReasonColumn:
        return tr("Reason");
    case TimelineColumn:
        return tr("Timeline");
    default:
        break;
    }
    const int k = section - FirstCategory;
    if (k >= 0 && k < CategoryCount) {
        const std::string_view name = analysis::clusterMetricName(categoryAt(k));
        return QString(
            QString::fromUtf8(name.data(), static_cast<int>(name.size())) + tr(" (mean)"));
    }
    return {};
}

QVariant RankTableModel::data(const QModelIndex &index, int role) const
{
    if (!m_cluster || !index.isValid() || index.row() >= rowCount())
        return {};
    const analysis::ClusterRankRow &row = m_cluster->ranks[static_cast<std::size_t>(index.row())];
    if (role == RankRole)
        return row.rank;
    const int c = index.column();
    const int k = c - FirstCategory;
    const bool category = k >= 0 && k < CategoryCount;
    if (role == SortRole) {
        switch (c) {
        case Rank:
            return row.rank;
        case Stage:
            return row.stage;
        case Steps:
            return static_cast<qlonglong>(row.stepCount);
        case Mean:
            return static_cast<qlonglong>(row.stepMeanNs);
        case Median:
            return static_cast<qlonglong>(row.stepMedianNs);
        case Max:
            return static_cast<qlonglong>(row.stepMaxNs);
        case DeviationColumn:
            return row.deviationFraction;
        case StragglerColumn:
            return static_cast<qlonglong>(row.stragglerSteps);
        case ReasonColumn:
            return reasonText(row.reason);
        case TimelineColumn:
            return row.hasTimeline ? 1 : 0;
        default:
            break;
        }
        if (category)
            return static_cast<qlonglong>(row.meanNs[static_cast<std::size_t>(k + 1)]);
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return c == Stage || c >= ReasonColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole
        && ((c == DeviationColumn && row.deviationFraction > 0.05)
            || (c == StragglerColumn && row.stragglerSteps > 0)))
        return QBrush(worseColor(currentTheme()));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const bool none = row.stepCount == 0;
    switch (c) {
    case Rank:
        return QString::number(row.rank);
    case Stage:
        return stageName(*m_cluster, row.stage);
    case Steps:
        return QString::number(row.stepCount);
    case Mean:
        return none ? QStringLiteral("—") : durText(row.stepMeanNs);
    case Median:
        return none ? QStringLiteral("—") : durText(row.stepMedianNs);
    case Max:
        return none ? QStringLiteral("—") : durText(row.stepMaxNs);
    case DeviationColumn:
        return none ? QStringLiteral("—")
                    : QStringLiteral("%1%2 %")
                          .arg(row.deviationFraction > 0 ? QStringLiteral("+") : QString())
                          .arg(row.deviationFraction * 100, 0, 'f', 1);
    case StragglerColumn:
        return row.stragglerSteps ? QString::number(row.stragglerSteps) : QString();
    case ReasonColumn:
        return reasonText(row.reason);
    case TimelineColumn:
        return row.hasTimeline ? tr("loaded") : tr("table only");
    default:
        break;
    }
    if (category)
        return none ? QStringLiteral("—") : durText(row.meanNs[static_cast<std::size_t>(k + 1)]);
    return {};
}

} // namespace stepscope::ui::cluster
