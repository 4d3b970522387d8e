// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clusterpanel.h"

#include "analysis/units.h"
#include "clusterheatmap.h"
#include "clusterrankmodel.h"
#include "tableitems.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace stepscope::ui {

namespace {

QString dur(double ns)
{
    if (std::isnan(ns))
        return QStringLiteral("—");
    return QString::fromStdString(analysis::formatDuration(std::llround(ns)));
}

QString rankList(const std::vector<std::int32_t> &ranks)
{
    QStringList out;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        // Runs of consecutive ranks as "a–b".
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
            ++j;
        out << (j > i + 1 ? QStringLiteral("%1–%2").arg(ranks[i]).arg(ranks[j])
                          : QString::number(ranks[i]));
        if (j == i + 1)
            out << QString::number(ranks[j]);
        i = j;
    }
    return out.join(QStringLiteral(", "));
}

void setHeaders(QStandardItemModel *model, const QStringList &headers)
{
    model->clear();
    model->setHorizontalHeaderLabels(headers);
}

} // namespace

ClusterPanel::ClusterPanel(QWidget *parent)
    : QWidget(parent)
    , m_data(std::make_shared<cluster::ClusterData>())
{
    setObjectName(QStringLiteral("clusterPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("clusterSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    auto *left = new QWidget(splitter);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    auto *pick = new QHBoxLayout;
    pick->addWidget(new QLabel(tr("Heat map of:"), left));
    m_metric = new QComboBox(left);
    m_metric->setObjectName(QStringLiteral("clusterMetric"));
    pick->addWidget(m_metric, 1);
    leftLayout->addLayout(pick);
    m_heatMap = new ClusterHeatMap(left);
    leftLayout->addWidget(m_heatMap, 1);
    connect(
        m_metric, qOverload<int>(&QComboBox::currentIndexChanged), this, &ClusterPanel::showMetric);
    connect(m_heatMap, &ClusterHeatMap::cellActivated, this,
        [this](int row, int) { activateRank(m_heatMap->rankOfRow(row)); });

    m_tabs = new QTabWidget(splitter);
    m_rankModel = new cluster::RankTableModel(this);
    m_rankProxy = new QSortFilterProxyModel(this);
    m_rankProxy->setSourceModel(m_rankModel);
    m_rankProxy->setSortRole(cluster::RankTableModel::SortRole);
    m_rankTable = new QTableView(m_tabs);
    m_rankTable->setObjectName(QStringLiteral("clusterRankTable"));
    m_rankTable->setModel(m_rankProxy);
    m_rankTable->setSortingEnabled(true);
    m_rankTable->sortByColumn(0, Qt::AscendingOrder);
    m_rankTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rankTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_rankTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_rankTable->setAlternatingRowColors(true);
    m_rankTable->setWordWrap(false);
    m_rankTable->verticalHeader()->setVisible(false);
    // Uniform rows: the view never measures 10,000 rows.
    m_rankTable->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_rankTable->verticalHeader()->setDefaultSectionSize(m_rankTable->fontMetrics().height() + 6);
    m_rankTable->horizontalHeader()->setHighlightSections(false);
    m_rankTable->horizontalHeader()->setStretchLastSection(true);
    connect(m_rankTable, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        activateRank(index.data(cluster::RankTableModel::RankRole).toInt());
    });
    m_tabs->addTab(m_rankTable, tr("Ranks"));

    auto addTable = [this](QStandardItemModel *&model, const QString &title, const char *name) {
        model = new QStandardItemModel(this);
        QTableView *view = createTableView(model, m_tabs);
        view->setObjectName(QString::fromLatin1(name));
        connect(view, &QTableView::doubleClicked, this, [this, model](const QModelIndex &index) {
            const QVariant rank = model->index(index.row(), 0).data(RankRole);
            if (rank.isValid() && rank.toInt() >= 0)
                activateRank(rank.toInt());
        });
        m_tabs->addTab(view, title);
    };
    addTable(m_stragglers, tr("Stragglers"), "clusterStragglers");
    addTable(m_stages, tr("Pipeline stages"), "clusterStages");
    addTable(m_groups, tr("Communication groups"), "clusterGroups");
    splitter->addWidget(left);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);
    setSession(nullptr);
}

ClusterPanel::~ClusterPanel() = default;

void ClusterPanel::setProfilePath(const QString &path)
{
    m_path = path;
    m_foldersScanned = false;
    m_folders.clear();
}

void ClusterPanel::setSession(std::shared_ptr<const model::Session> session)
{
    m_session = std::move(session);
    m_data = m_session ? std::make_shared<cluster::ClusterData>(
                 cluster::buildClusterData(*m_session, m_path, m_analysis.get()))
                       : std::make_shared<cluster::ClusterData>();
    const cluster::ClusterData &d = *m_data;
    if (d.empty())
        m_summary->setText(tr("No ranks: open a profile folder, a cluster folder or "
                              "cluster_analysis_output/."));
    else
        m_summary->setText(tr("<b>%1 ranks × %2 steps</b> · from %3 · %4 straggler cell(s) · "
                              "%5 pipeline stage(s) · %6 communication group(s). Double-click a "
                              "rank to open its timeline.")
                               .arg(d.ranks.size())
                               .arg(d.steps.size())
                               .arg(d.source.toHtmlEscaped())
                               .arg(d.stragglers.size())
                               .arg(d.stages.size())
                               .arg(d.groups.size()));
    {
        const QSignalBlocker block(m_metric);
        const int keep = std::max(0, m_metric->currentIndex());
        m_metric->clear();
        for (const QString &name : d.metricNames())
            m_metric->addItem(name);
        m_metric->setCurrentIndex(std::min(keep, m_metric->count() - 1));
    }
    showMetric(std::max(0, m_metric->currentIndex()));
    m_rankModel->setClusterData(m_data);
    m_rankTable->resizeColumnsToContents();
    fillTables();
}

void ClusterPanel::showMetric(int index)
{
    const cluster::ClusterData &d = *m_data;
    const auto names = d.metricNames();
    if (index < 0 || static_cast<std::size_t>(index) >= d.cells.size()) {
        m_heatMap->setMatrix({}, {}, {}, names.front(), {});
        return;
    }
    m_heatMap->setMatrix(d.ranks, d.steps, d.cells[static_cast<std::size_t>(index)],
        names[static_cast<std::size_t>(index)], [](double ns) { return dur(ns); });
}

void ClusterPanel::fillTables()
{
    const cluster::ClusterData &d = *m_data;
    setHeaders(m_stragglers,
        {tr("Rank"), tr("Step"), tr("Step time"), tr("Limit"), tr("Over by"), tr("Reason")});
    for (const cluster::Straggler &s : d.stragglers) {
        QStandardItem *first = numberItem(QString::number(s.rank), s.rank);
        first->setData(s.rank, RankRole);
        m_stragglers->appendRow(
            {first, numberItem(QString::number(s.step), static_cast<double>(s.step)),
                numberItem(dur(s.stepNs), s.stepNs), numberItem(dur(s.thresholdNs), s.thresholdNs),
                numberItem(dur(s.stepNs - s.thresholdNs), s.stepNs - s.thresholdNs),
                textItem(s.reason)});
    }
    m_stragglers->setHeaderData(5, Qt::Horizontal, d.stragglerRule, Qt::ToolTipRole);

    setHeaders(m_stages,
        {tr("Stage"), tr("Ranks"), tr("Step (mean)"), tr("Bubble (mean)"), tr("Bubble share")});
    for (const cluster::Stage &s : d.stages) {
        QStandardItem *first = textItem(s.name);
        first->setData(s.ranks.empty() ? -1 : s.ranks.front(), RankRole);
        const double share = s.stepNs > 0 ? s.bubbleNs / s.stepNs : 0;
        m_stages->appendRow({first, textItem(rankList(s.ranks)),
            numberItem(dur(s.stepNs), s.stepNs), numberItem(dur(s.bubbleNs), s.bubbleNs),
            numberItem(QStringLiteral("%1 %").arg(share * 100, 0, 'f', 1), share)});
    }

    setHeaders(m_groups,
        {tr("Group"), tr("Kind"), tr("Ranks"), tr("Slowest rank"), tr("Its time"),
            tr("Slowest link"), tr("Transport"), tr("Bandwidth"), tr("Collective"), tr("Elapse"),
            tr("Wait"), tr("Transit")});
    for (const cluster::Group &g : d.groups) {
        auto addRow = [&](const cluster::GroupCollective *c) {
            QStandardItem *first = textItem(g.name);
            const std::int32_t rank = c && c->slowestRank >= 0 ? c->slowestRank : g.slowestRank;
            first->setData(rank, RankRole);
            QList<QStandardItem *> row {first, textItem(g.kind), textItem(rankList(g.ranks)),
                numberItem(c ? QString::number(c->slowestRank) : QString::number(g.slowestRank),
                    c ? c->slowestRank : g.slowestRank),
                numberItem(
                    QStringLiteral("%1 ms").arg(g.slowestRankMs, 0, 'f', 3), g.slowestRankMs),
                textItem(g.slowestLink), textItem(g.slowestTransport),
                numberItem(g.slowestLinkGbps >= 0
                        ? QStringLiteral("%1 GB/s").arg(g.slowestLinkGbps, 0, 'f', 2)
                        : QStringLiteral("—"),
                    g.slowestLinkGbps)};
            if (c)
                row << textItem(c->name)
                    << numberItem(QStringLiteral("%1 ms").arg(c->elapseMs, 0, 'f', 3), c->elapseMs)
                    << numberItem(QStringLiteral("%1 ms").arg(c->waitMs, 0, 'f', 3), c->waitMs)
                    << numberItem(
                           QStringLiteral("%1 ms").arg(c->transitMs, 0, 'f', 3), c->transitMs);
            m_groups->appendRow(row);
        };
        if (g.collectives.empty())
            addRow(nullptr);
        for (const cluster::GroupCollective &c : g.collectives)
            addRow(&c);
    }
    for (int i = 1; i < m_tabs->count(); ++i)
        if (auto *view = qobject_cast<QTableView *>(m_tabs->widget(i)))
            view->resizeColumnsToContents();
}

/*
 * Rank folders are found the first time they are needed, not at load: an Ascend rank folder
 * holds profiler_info_<rank>.json. Only the opened folder's children are looked at (and, when
 * the opened folder is cluster_analysis_output, its parent's).
 */
void ClusterPanel::scanRankFolders()
{
    m_foldersScanned = true;
    const QFileInfo info(m_path);
    if (!info.isDir())
        return;
    QDir root(info.absoluteFilePath());
    if (root.dirName() == QStringLiteral("cluster_analysis_output"))
        root.cdUp();
    static const QRegularExpression Info(QStringLiteral("^profiler_info_(\\d+)\\.json$"));
    for (const QFileInfo &child : root.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        for (const QString &name :
            QDir(child.absoluteFilePath())
                .entryList({QStringLiteral("profiler_info_*.json")}, QDir::Files)) {
            const QRegularExpressionMatch m = Info.match(name);
            if (m.hasMatch())
                m_folders.insert(m.captured(1).toInt(), child.absoluteFilePath());
        }
    }
}

QString ClusterPanel::rankFolder(std::int32_t rank)
{
    if (!m_foldersScanned)
        scanRankFolders();
    return m_folders.value(rank);
}

void ClusterPanel::activateRank(std::int32_t rank)
{
    const auto it = std::find_if(m_data->rows.begin(), m_data->rows.end(),
        [rank](const cluster::RankRow &r) { return r.rank == rank; });
    if (it != m_data->rows.end() && it->traceIndex >= 0 && m_session) {
        const model::Trace &trace = *m_session->traces[static_cast<std::size_t>(it->traceIndex)];
        std::int64_t t0 = 0;
        std::int64_t t1 = 0;
        if (!trace.steps.empty()) {
            t0 = trace.steps.front().startNs;
            t1 = trace.steps.back().endNs;
        } else {
            std::tie(t0, t1) = trace.extent();
        }
        emit timeRequested(rank, t0, t1);
        emit message(tr("Rank %1: its timeline").arg(rank));
        return;
    }
    const QString folder = rankFolder(rank);
    if (!folder.isEmpty()) {
        emit rankFolderRequested(rank, folder);
        emit message(tr("Opening rank %1 from %2").arg(rank).arg(folder));
        return;
    }
    emit message(tr("Rank %1 has no profile folder here: only its row of the cluster table is "
                    "known.")
                     .arg(rank));
}

} // namespace stepscope::ui
