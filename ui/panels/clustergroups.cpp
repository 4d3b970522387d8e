// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clustergroups.h"

#include "analysis/units.h"
#include "clusterrankmodel.h"
#include "tableitems.h"
#include "ui/text.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace stepscope::ui {

namespace {

/// Milliseconds as written in the files, shown in adaptive units ("13.6 ms", "1.62 µs").
QString ms(double v)
{
    return qs(analysis::formatDuration(std::llround(v * 1e6)));
}

QString gbps(double v)
{
    return qs(analysis::formatSignificant(v)) + QStringLiteral(" GB/s");
}

/// MB as written (10^6 bytes), in binary units like the rest of the application.
QString mb(double v)
{
    return qs(analysis::formatBytes(std::llround(v * 1e6)));
}

QString share(double f)
{
    return qs(analysis::formatShare(f));
}

QStandardItem *rankItem(std::int32_t rank)
{
    return numberItem(rank >= 0 ? QString::number(rank) : QStringLiteral("—"), rank);
}

} // namespace

ClusterGroupsView::ClusterGroupsView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("clusterGroups"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_groups = new QStandardItemModel(this);
    m_groupView = createTableView(m_groups, splitter);
    m_groupView->setObjectName(QStringLiteral("clusterGroupTable"));
    auto *detail = new QWidget(splitter);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(detail);
    m_title->setObjectName(QStringLiteral("clusterGroupTitle"));
    m_title->setWordWrap(true);
    detailLayout->addWidget(m_title);
    m_links = new QStandardItemModel(this);
    m_linkView = createTableView(m_links, detail);
    m_linkView->setObjectName(QStringLiteral("clusterGroupLinks"));
    detailLayout->addWidget(m_linkView, 1);
    m_collectives = new QStandardItemModel(this);
    m_collectiveView = createTableView(m_collectives, detail);
    m_collectiveView->setObjectName(QStringLiteral("clusterGroupCollectives"));
    detailLayout->addWidget(m_collectiveView, 2);
    // Small minimums: the panel shares its dock area with the others, whose default height
    // must not grow because of this tab.
    for (QTableView *view : {m_groupView, m_linkView, m_collectiveView})
        view->setMinimumHeight(view->fontMetrics().height() * 2);
    splitter->addWidget(m_groupView);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter);

    connect(m_groupView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (current.isValid())
                showGroup(m_groups->index(current.row(), 0).data(GroupRole).toInt());
        });
    for (QTableView *view : {m_groupView, m_linkView, m_collectiveView}) {
        connect(view, &QTableView::doubleClicked, this, [this, view](const QModelIndex &index) {
            const QVariant rank = view->model()->index(index.row(), 0).data(RankRole);
            if (rank.isValid() && rank.toInt() >= 0)
                emit rankActivated(rank.toInt());
        });
    }
    setCluster(nullptr, nullptr);
}

void ClusterGroupsView::setCluster(
    std::shared_ptr<const void> owner, const analysis::ClusterAnalysis *cluster)
{
    m_owner = std::move(owner);
    m_cluster = cluster;
    m_groups->clear();
    m_groups->setHorizontalHeaderLabels({tr("Group"), tr("Ranks"), tr("Kind"), tr("Elapse"),
        tr("Wait"), tr("Transit"), tr("Wait share"), tr("Slowest rank"), tr("Its transit"),
        tr("Slowest link"), tr("Transport"), tr("Bandwidth")});
    m_groups->setHeaderData(7, Qt::Horizontal,
        tr("The member with the largest summed transit time: it moves data slowly, the others "
           "wait for it."),
        Qt::ToolTipRole);
    m_groups->setHeaderData(9, Qt::Horizontal,
        tr("Lowest bandwidth with data moved (LOCAL excluded) between two members, from the "
           "communication matrix."),
        Qt::ToolTipRole);
    if (m_cluster) {
        for (std::size_t i = 0; i < m_cluster->groups.size(); ++i) {
            const analysis::CommGroupSummary &g = m_cluster->groups[i];
            QStandardItem *first = textItem(QString::fromStdString(g.group));
            first->setData(static_cast<int>(i), GroupRole);
            first->setData(g.slowestRank, RankRole);
            const double moving = g.waitMs + g.transitMs;
            const bool link = g.slowestLinkBandwidthGBps.has_value();
            m_groups->appendRow({first, textItem(cluster::rankList(g.ranks)),
                textItem(g.p2p ? tr("point-to-point") : tr("collective")),
                numberItem(ms(g.elapseMs), g.elapseMs), numberItem(ms(g.waitMs), g.waitMs),
                numberItem(ms(g.transitMs), g.transitMs),
                numberItem(
                    share(moving > 0 ? g.waitMs / moving : 0), moving > 0 ? g.waitMs / moving : 0),
                rankItem(g.slowestRank),
                numberItem(ms(g.slowestRankTransitMs), g.slowestRankTransitMs),
                textItem(link
                        ? QStringLiteral("%1 → %2").arg(*g.slowestLinkSrc).arg(*g.slowestLinkDst)
                        : QStringLiteral("—")),
                textItem(QString::fromStdString(g.slowestLinkTransport)),
                numberItem(link ? gbps(*g.slowestLinkBandwidthGBps) : QStringLiteral("—"),
                    link ? *g.slowestLinkBandwidthGBps : -1.0)});
        }
    }
    m_groupView->resizeColumnsToContents();
    showGroup(m_cluster && !m_cluster->groups.empty() ? 0 : -1);
    if (m_groups->rowCount() > 0)
        m_groupView->selectRow(0);
}

void ClusterGroupsView::showGroup(int index)
{
    m_shown = index;
    m_links->clear();
    m_links->setHorizontalHeaderLabels(
        {tr("Transport"), tr("Slowest link"), tr("Its bandwidth"), tr("Its size"), tr("Its time"),
            tr("Links"), tr("Group traffic"), tr("Group time"), tr("Group bandwidth")});
    m_collectives->clear();
    m_collectives->setHorizontalHeaderLabels({tr("Collective"), tr("Calls"), tr("Elapse"),
        tr("Wait"), tr("Transit"), tr("Wait share"), tr("Slowest rank")});
    m_collectives->setHeaderData(5, Qt::Horizontal,
        tr("wait / (wait + transit): time spent waiting for the other members versus moving "
           "data"),
        Qt::ToolTipRole);
    if (!m_cluster || index < 0 || static_cast<std::size_t>(index) >= m_cluster->groups.size()) {
        m_title->setText(m_cluster && m_cluster->groups.empty()
                ? tr("No communication records (cluster_communication.json or the ranks' "
                     "communication.json).")
                : QString());
        return;
    }
    const analysis::CommGroupSummary &g = m_cluster->groups[static_cast<std::size_t>(index)];
    m_title->setText(
        tr("<b>%1</b> · %2 · slowest link of each transport, then wait "
           "vs transit per collective")
            .arg(QString::fromStdString(g.group).toHtmlEscaped(),
                countText(static_cast<long long>(g.ranks.size()), tr("member"), tr("members"))));
    // One row per transport seen in the records or the matrix.
    std::vector<std::string> names;
    for (const auto &t : g.transports)
        names.push_back(t.transport);
    for (const auto &l : g.slowestLinks)
        if (std::find(names.begin(), names.end(), l.transport) == names.end())
            names.push_back(l.transport);
    std::sort(names.begin(), names.end());
    for (const std::string &name : names) {
        const auto t = std::find_if(g.transports.begin(), g.transports.end(),
            [&](const analysis::TransportStat &x) { return x.transport == name; });
        const auto l = std::find_if(g.slowestLinks.begin(), g.slowestLinks.end(),
            [&](const analysis::SlowLink &x) { return x.transport == name; });
        const bool hasT = t != g.transports.end();
        const bool hasL = l != g.slowestLinks.end();
        if (hasT && t->sizeMb <= 0 && !hasL)
            continue; // a transport the records list with nothing moved
        QStandardItem *first = textItem(QString::fromStdString(name));
        first->setData(hasL ? l->src : -1, RankRole);
        const QString none = QStringLiteral("—");
        m_links->appendRow(
            {first, textItem(hasL ? QStringLiteral("%1 → %2").arg(l->src).arg(l->dst) : none),
                numberItem(hasL ? gbps(l->bandwidthGBps) : none, hasL ? l->bandwidthGBps : -1.0),
                numberItem(hasL ? mb(l->sizeMb) : none, hasL ? l->sizeMb : -1.0),
                numberItem(hasL ? ms(l->timeMs) : none, hasL ? l->timeMs : -1.0),
                numberItem(hasL ? QString::number(l->links) : none,
                    hasL ? static_cast<double>(l->links) : -1.0),
                numberItem(hasT ? mb(t->sizeMb) : none, hasT ? t->sizeMb : -1.0),
                numberItem(hasT ? ms(t->timeMs) : none, hasT ? t->timeMs : -1.0),
                numberItem(hasT && t->bandwidthGBps ? gbps(*t->bandwidthGBps) : none,
                    hasT && t->bandwidthGBps ? *t->bandwidthGBps : -1.0)});
    }
    for (const analysis::GroupCollective &c : g.collectives) {
        QStandardItem *first = textItem(QString::fromStdString(c.name));
        first->setData(c.slowestRank, RankRole);
        m_collectives->appendRow(
            {first, numberItem(QString::number(c.calls), static_cast<double>(c.calls)),
                numberItem(ms(c.elapseMs), c.elapseMs), numberItem(ms(c.waitMs), c.waitMs),
                numberItem(ms(c.transitMs), c.transitMs),
                numberItem(share(c.waitShare), c.waitShare), rankItem(c.slowestRank)});
    }
    m_linkView->resizeColumnsToContents();
    m_collectiveView->resizeColumnsToContents();
}

} // namespace stepscope::ui
