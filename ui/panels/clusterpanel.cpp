// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "clusterpanel.h"

#include "analysis/units.h"
#include "clustergroups.h"
#include "clusterheatmap.h"
#include "clusterrankmodel.h"
#include "stepspanel.h"
#include "tableitems.h"
#include "ui/text.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
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

QString percent(double f)
{
    return QStringLiteral("%1 %").arg(f * 100, 0, 'f', 1);
}

QString metricName(int index)
{
    const std::string_view n =
        analysis::clusterMetricName(static_cast<analysis::ClusterMetric>(index));
    return QString::fromUtf8(n.data(), static_cast<int>(n.size()));
}

const analysis::ClusterAnalysis &emptyCluster()
{
    static const analysis::ClusterAnalysis Empty;
    return Empty;
}

} // namespace

ClusterPanel::ClusterPanel(QWidget *parent)
    : QWidget(parent)
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
    for (int i = 0; i < analysis::ClusterMetricCount; ++i)
        m_metric->addItem(metricName(i));
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
    m_groups = new ClusterGroupsView(m_tabs);
    connect(m_groups, &ClusterGroupsView::rankActivated, this, &ClusterPanel::activateRank);
    m_tabs->addTab(m_groups, tr("Communication groups"));
    splitter->addWidget(left);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({1000, 1000}); // half and half, whatever the heat map's size hint
    layout->addWidget(splitter, 1);
    setSession(nullptr);
}

ClusterPanel::~ClusterPanel() = default;

const analysis::ClusterAnalysis &ClusterPanel::cluster() const
{
    return m_shown ? m_shown->cluster : emptyCluster();
}

void ClusterPanel::setProfilePath(const QString &path)
{
    m_path = path;
    m_foldersScanned = false;
    m_folders.clear();
}

void ClusterPanel::setSession(std::shared_ptr<const model::Session> session)
{
    m_session = std::move(session);
    if (!m_session)
        m_shown.reset();
    else if (m_analysis)
        m_shown = m_analysis;
    else
        m_shown = std::make_shared<const analysis::SessionAnalysis>(
            analysis::analyzeSession(*m_session, analysis::RunConfig {}));
    fillSummary();
    showMetric(std::max(0, m_metric->currentIndex()));
    const analysis::ClusterAnalysis *c = m_shown ? &m_shown->cluster : nullptr;
    m_rankModel->setCluster(m_shown, c);
    m_rankTable->resizeColumnsToContents();
    m_groups->setCluster(m_shown, c);
    fillTables();
    // Where a many-rank user starts: a cluster table or eight ranks and more bring the panel
    // to the front of its dock area (unless there are errors: the Diagnostics come first).
    if (c && m_session && m_session->report.count(model::Severity::Error) == 0
        && (c->rankCount >= 8 || !m_session->clusterSteps.empty())) {
        if (auto *dock = qobject_cast<QDockWidget *>(parentWidget()))
            dock->raise();
    }
}

void ClusterPanel::fillSummary()
{
    const analysis::ClusterAnalysis &c = cluster();
    if (c.rankCount == 0) {
        m_summary->setText(tr("No ranks with steps: open a profile folder, a cluster folder or "
                              "cluster_analysis_output/."));
        return;
    }
    const analysis::ClusterShares &s = c.shares;
    const double step = static_cast<double>(std::max<std::int64_t>(1, s.stepNs));
    // Without stage membership in the files the count is unknown, not zero: a pipeline
    // bubble (receive waits) can be measured while no file says which ranks form a stage.
    const QString stages = c.stages.empty() ? tr("pipeline stages not named in the files")
                                            : countText(static_cast<long long>(c.stages.size()),
                                                tr("pipeline stage"), tr("pipeline stages"));
    // A sampled or trimmed capture of a larger job: its figures are of these ranks only.
    QString world;
    if (c.missingRankCount > 0)
        world = tr(" of a world of %1 (<b>%2 not in the files</b>: %3)")
                    .arg(c.worldSize)
                    .arg(countText(c.missingRankCount, tr("rank"), tr("ranks")),
                        QString::fromStdString(analysis::rankRunsText(c.missingRanks)));
    // An exported picture cannot be clicked: it leaves out how to open a rank.
    const QString hint =
        m_interactive ? tr(" Double-click a rank to open its timeline.") : QString();
    m_summary->setText(
        tr("<b>%1 × %2</b> (%3 with a timeline)%13 · from %4 · over all ranks: "
           "<b>communication %5</b> of the step time (exposed, pipeline bubble not counted), "
           "<b>pipeline bubble %6</b> beside it (%7 if the bubble is counted as "
           "communication), compute %8, free %9 · %10 · %11 · %12.%14")
            .arg(countText(c.rankCount, tr("rank"), tr("ranks")),
                countText(static_cast<long long>(c.matrix.steps.size()), tr("step"), tr("steps")))
            .arg(c.timelineRanks)
            .arg(QString::fromStdString(c.stepSource).toHtmlEscaped())
            .arg(percent(s.commShare), percent(s.bubbleShare), percent(s.commShareWithBubble),
                percent(static_cast<double>(s.computeNs) / step),
                percent(static_cast<double>(s.freeNs) / step))
            .arg(countText(static_cast<long long>(c.stragglers.size()), tr("straggler cell"),
                     tr("straggler cells")),
                stages,
                countText(static_cast<long long>(c.groups.size()), tr("communication group"),
                    tr("communication groups")))
            .arg(world, hint));
    m_summary->setToolTip(
        tr("Communication share = Σ communication not overlapped, bubble excluded / Σ step time "
           "over every rank and step (docs/metrics.md, \"Cluster communication share\"); the "
           "same figure as the KPI strip."));
}

void ClusterPanel::showMetric(int index)
{
    const analysis::ClusterAnalysis &c = cluster();
    if (index < 0 || index >= analysis::ClusterMetricCount)
        index = 0;
    const auto &cells = c.matrix.cellsNs[static_cast<std::size_t>(index)];
    std::vector<double> values(cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i)
        values[i] = cells[i] < 0 ? std::nan("") : static_cast<double>(cells[i]);
    m_heatMap->setMatrix(c.matrix.ranks, c.matrix.steps, std::move(values), metricName(index),
        [](double ns) { return durText(std::llround(ns)); });
    std::vector<std::pair<int, int>> marked;
    marked.reserve(c.stragglers.size());
    for (const analysis::Straggler &st : c.stragglers)
        marked.emplace_back(static_cast<int>(c.matrix.rankIndexOf(st.rank)),
            static_cast<int>(c.matrix.stepIndexOf(st.step)));
    m_heatMap->setMarkers(std::move(marked), tr("straggler in its stage"));
}

void ClusterPanel::fillTables()
{
    const analysis::ClusterAnalysis &c = cluster();
    m_stragglers->clear();
    m_stragglers->setHorizontalHeaderLabels(
        {tr("Rank"), tr("Stage"), tr("Step"), tr("Step time"), tr("Stage median"), tr("Limit"),
            tr("Over the median"), tr("Reason"), tr("Reason's excess")});
    const QString rule = tr("Per step and pipeline stage: a rank straggles when its step time "
                            "exceeds the stage's median by more than max(%1 × 1.4826 × MAD, "
                            "%2 % of the median); the reason is the category (compute, exposed "
                            "communication, bubble, free) with the largest excess over that "
                            "category's median in the stage (docs/metrics.md).")
                             .arg(c.stragglerK)
                             .arg(c.stragglerMinFraction * 100);
    for (const analysis::Straggler &s : c.stragglers) {
        QStandardItem *first = numberItem(QString::number(s.rank), s.rank);
        first->setData(s.rank, RankRole);
        first->setToolTip(QString::fromStdString(s.explanation));
        const analysis::ClusterRankRow *row = c.row(s.rank);
        const std::int32_t stage = row ? row->stage : -1;
        const std::int64_t limit = s.peerMedianNs + s.thresholdNs;
        QStandardItem *reason = textItem(cluster::reasonText(s.reason));
        reason->setToolTip(QString::fromStdString(s.explanation));
        m_stragglers->appendRow({first, numberItem(cluster::stageName(c, stage), stage),
            numberItem(stepLabel(s.step), static_cast<double>(s.step)),
            numberItem(durText(s.stepNs), static_cast<double>(s.stepNs)),
            numberItem(durText(s.peerMedianNs), static_cast<double>(s.peerMedianNs)),
            numberItem(durText(limit), static_cast<double>(limit)),
            numberItem(QStringLiteral("+") + durText(s.stepNs - s.peerMedianNs),
                static_cast<double>(s.stepNs - s.peerMedianNs)),
            reason,
            numberItem(QStringLiteral("+") + durText(s.reasonExcessNs),
                static_cast<double>(s.reasonExcessNs))});
    }
    for (int col = 0; col < m_stragglers->columnCount(); ++col)
        m_stragglers->setHeaderData(col, Qt::Horizontal, rule, Qt::ToolTipRole);

    m_stages->clear();
    m_stages->setHorizontalHeaderLabels(
        {tr("Stage"), tr("Ranks"), tr("Step (mean)"), tr("Bubble (mean)"), tr("Bubble (max)"),
            tr("Bubble share"), tr("Straggler cells"), tr("From")});
    for (const analysis::PipelineStage &st : c.stages) {
        QStandardItem *first = textItem(cluster::stageName(c, st.index));
        first->setData(st.ranks.empty() ? -1 : st.ranks.front(), RankRole);
        const auto stragglers = std::count_if(
            c.stragglers.begin(), c.stragglers.end(), [&](const analysis::Straggler &s) {
                const analysis::ClusterRankRow *row = c.row(s.rank);
                return row && row->stage == st.index;
            });
        m_stages->appendRow({first, textItem(cluster::rankList(st.ranks)),
            numberItem(durText(st.stepMeanNs), static_cast<double>(st.stepMeanNs)),
            numberItem(durText(st.bubbleMeanNs), static_cast<double>(st.bubbleMeanNs)),
            numberItem(durText(st.bubbleMaxNs), static_cast<double>(st.bubbleMaxNs)),
            numberItem(percent(st.bubbleShare), st.bubbleShare),
            numberItem(QString::number(stragglers), static_cast<double>(stragglers)),
            textItem(QString::fromStdString(st.source))});
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

/// True when the session already holds what `folder` has for the rank (a source file of the
/// rank's trace lies in it): opening it again would show the same thing.
bool ClusterPanel::folderLoaded(std::int32_t rank, const QString &folder) const
{
    const model::Trace *trace = m_session ? m_session->traceForRank(rank) : nullptr;
    if (!trace)
        return false;
    const QString name = QFileInfo(folder).fileName() + QLatin1Char('/');
    for (const std::string &file : trace->metadata.sourceFiles) {
        const QString f = QString::fromStdString(file);
        if (f.startsWith(name) || f.contains(QLatin1Char('/') + name))
            return true;
    }
    return false;
}

void ClusterPanel::activateRank(std::int32_t rank)
{
    const model::Trace *trace = m_session ? m_session->traceForRank(rank) : nullptr;
    const analysis::ClusterRankRow *row = cluster().row(rank);
    auto showTrace = [&] {
        std::int64_t t0 = 0;
        std::int64_t t1 = 0;
        if (!trace->steps.empty()) {
            t0 = trace->steps.front().startNs;
            t1 = trace->steps.back().endNs;
        } else {
            std::tie(t0, t1) = trace->extent();
        }
        emit timeRequested(rank, t0, t1);
    };
    if (trace && row && row->hasTimeline) {
        showTrace();
        emit message(tr("Rank %1: its timeline").arg(rank));
        return;
    }
    const QString folder = rankFolder(rank);
    if (!folder.isEmpty() && !folderLoaded(rank, folder)) {
        emit rankFolderRequested(rank, folder);
        emit message(tr("Opening rank %1 from %2").arg(rank).arg(folder));
        return;
    }
    if (trace) {
        showTrace();
        emit message(tr("Rank %1 has no trace events: its step lane is drawn from its step "
                        "table")
                         .arg(rank));
        return;
    }
    emit message(tr("Rank %1 has no profile folder here: only its row of the cluster table is "
                    "known.")
                     .arg(rank));
}

} // namespace stepscope::ui
