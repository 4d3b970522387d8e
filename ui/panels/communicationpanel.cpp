// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "communicationpanel.h"

#include "analysis/units.h"
#include "clusterrankmodel.h"
#include "tableitems.h"
#include "ui/charts/elide.h"
#include "ui/charts/heatmap.h"
#include "util/text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepscope::ui {

namespace {

// Shown in a side note about 42 characters wide: no <code> word may be longer (a word
// without a break is cut at the note's edge).
const QString HowToCollect = QStringLiteral(
    "<p>Communication shows up when the job runs on several devices and the profiler records "
    "the device timeline: NCCL/HCCL kernels in PyTorch traces "
    "(<code>ProfilerActivity.CUDA</code>), and on Ascend the <code>communication.json</code> and "
    "<code>communication_matrix.json</code> files that torch_npu writes when its "
    "<code>experimental_config</code> sets <code>profiler_level</code> to "
    "<code>ProfilerLevel.Level1</code> or higher. For the matrix of all ranks, run "
    "msprof-analyze's <code>cluster_analysis</code> over the rank folders.</p>");

QString us(double v)
{
    return QString::fromStdString(analysis::formatDuration(std::llround(v * 1000.0)));
}

} // namespace

QString formatBandwidth(double gbPerSecond)
{
    return QString::fromStdString(analysis::formatBandwidth(gbPerSecond));
}

QString formatMegabytes(double mb)
{
    return QString::fromStdString(analysis::formatMegabytes(mb));
}

CommunicationPanel::CommunicationPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(2, 2, 2, 2);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);
    m_message = createMessageLabel(m_stack);
    m_stack->addWidget(m_message);

    auto *split = new QSplitter(Qt::Horizontal, m_stack);
    m_model = new QStandardItemModel(this);
    m_table = createTableView(m_model, split);
    connect(m_table, &QTableView::clicked, this,
        [this](const QModelIndex &index) { rowClicked(index.row()); });

    auto *right = new QWidget(split);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout();
    bar->addWidget(new QLabel(tr("Matrix:"), right));
    m_metricBox = new QComboBox(right);
    m_metricBox->addItem(tr("transit size"), static_cast<int>(MatrixMetric::SizeMb));
    m_metricBox->addItem(tr("transit time"), static_cast<int>(MatrixMetric::TimeMs));
    m_metricBox->addItem(tr("bandwidth"), static_cast<int>(MatrixMetric::Bandwidth));
    bar->addWidget(m_metricBox);
    bar->addStretch(1);
    rightLayout->addLayout(bar);
    // On a line of its own: beside the combo box the matrix pane's width cut it short.
    m_extentNote = new ElidedLabel(right);
    m_extentNote->setVisible(false);
    rightLayout->addWidget(m_extentNote);
    connect(m_metricBox, &QComboBox::activated, this, [this](int i) {
        setMatrixMetric(static_cast<MatrixMetric>(m_metricBox->itemData(i).toInt()));
    });
    m_matrixStack = new QStackedWidget(right);
    m_matrixNote = createMessageLabel(m_matrixStack);
    m_heatMap = new HeatMap(m_matrixStack);
    m_heatMap->setAxisTitles(tr("from rank"), tr("to rank"));
    m_heatMap->setEmptyText(tr("no traffic recorded"));
    m_matrixStack->addWidget(m_matrixNote);
    m_matrixStack->addWidget(m_heatMap);
    rightLayout->addWidget(m_matrixStack, 1);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    m_matrixPane = right;
    m_stack->addWidget(split);
    setAnalysis(nullptr, nullptr);
}

CommunicationPanel::~CommunicationPanel() = default;

void CommunicationPanel::setAnalysis(std::shared_ptr<const model::Session> session,
    std::shared_ptr<const analysis::SessionAnalysis> analysis)
{
    m_session = std::move(session);
    m_rows.clear();
    m_matrix = {};
    if (!m_session || m_session->traces.empty()) {
        m_message->setText(tr("<h3>No profile</h3><p>Open a profile folder to see its "
                              "collectives and the traffic between ranks.</p>"));
        m_stack->setCurrentIndex(0);
        return;
    }
    if (analysis) {
        m_rows = analysis->collectives;
        m_matrix = analysis->matrix;
    }
    if (m_rows.empty() && m_matrix.cells.empty()) {
        m_message->setText(tr("<h3>No communication</h3><p>This profile has no collective "
                              "or point-to-point operations and no communication matrix.</p>")
            + HowToCollect);
        m_stack->setCurrentIndex(0);
        return;
    }
    m_stack->setCurrentIndex(1);
    fillTable();
    fillMatrix();
}

bool CommunicationPanel::showsMessage() const
{
    return m_stack->currentIndex() == 0;
}

QString CommunicationPanel::messageText() const
{
    return m_message->text();
}

QString CommunicationPanel::extentNote() const
{
    return m_extentNote->isVisibleTo(this) ? m_extentNote->fullText() : QString();
}

QString CommunicationPanel::matrixNote() const
{
    return m_matrixStack->currentIndex() == 0 ? m_matrixNote->text() : QString();
}

void CommunicationPanel::setMatrixMetric(MatrixMetric metric)
{
    m_metric = metric;
    const int i = m_metricBox->findData(static_cast<int>(metric));
    if (i >= 0)
        m_metricBox->setCurrentIndex(i);
    fillMatrix();
}

void CommunicationPanel::fillTable()
{
    m_model->clear();
    m_model->setHorizontalHeaderLabels(
        {tr("Collective"), tr("Group"), tr("Rank"), tr("Kind"), tr("Count"), tr("Total"),
            tr("Mean"), tr("Bytes"), tr("Bandwidth"), tr("Wait"), tr("Transit"), tr("Source")});
    // Their definitions (docs/metrics.md, "Communication").
    m_model->horizontalHeaderItem(7)->setToolTip(
        tr("Data the collective moved: the profiler's link sizes (MB as written, 10^6 bytes); "
           "for NCCL kernels, each message (the larger of In and Out msg nelems, times the "
           "size of dtype) summed. Empty when the data does not say it for every op."));
    m_model->horizontalHeaderItem(8)->setToolTip(
        tr("Bytes over the transfer time: the links' time, else transit, else elapsed. For "
           "NCCL kernels, their time, which includes waiting for the other ranks (algorithm "
           "bandwidth). NCCL kernels that name their group's size also give the bus bandwidth in "
           "the cell's tooltip: times 2(n-1)/n for an all-reduce, (n-1)/n for an all-gather, "
           "reduce-scatter or all-to-all."));
    const double none = -1;
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        const auto &row = m_rows[r];
        QList<QStandardItem *> items;
        auto *name = textItem(QString::fromStdString(row.name));
        name->setData(static_cast<qulonglong>(r), RankRole + 10);
        items.append(name);
        items.append(textItem(QString::fromStdString(row.group)));
        items.append(
            row.rank < 0 ? textItem(tr("all")) : numberItem(QString::number(row.rank), row.rank));
        items.append(textItem(row.p2p ? tr("p2p") : tr("collective")));
        items.append(numberItem(QString::number(row.count), static_cast<double>(row.count)));
        items.append(numberItem(us(row.totalUs), row.totalUs));
        items.append(numberItem(us(row.meanUs), row.meanUs));
        items.append(
            row.bytes ? numberItem(
                QString::fromStdString(analysis::formatBytes(std::llround(*row.bytes))), *row.bytes)
                      : numberItem(QString(), none));
        items.append(row.bandwidthGBps && *row.bandwidthGBps > 0
                ? numberItem(formatBandwidth(*row.bandwidthGBps), *row.bandwidthGBps)
                : numberItem(QString(), none));
        if (row.busBandwidthGBps)
            items.back()->setToolTip(tr("Bus bandwidth %1 (nccl-tests' busbw: the bandwidth "
                                        "scaled by the collective and its group's size)")
                                         .arg(formatBandwidth(*row.busBandwidthGBps)));
        items.append(
            row.waitUs ? numberItem(us(*row.waitUs), *row.waitUs) : numberItem(QString(), none));
        items.append(row.transitUs ? numberItem(us(*row.transitUs), *row.transitUs)
                                   : numberItem(QString(), none));
        items.append(textItem(QString::fromStdString(row.source)));
        m_model->appendRow(items);
    }
    m_table->resizeColumnsToContents();
    m_table->sortByColumn(5, Qt::DescendingOrder);
}

void CommunicationPanel::fillMatrix()
{
    if (m_matrix.cells.empty()) {
        m_matrixNote->setText(tr("<h3>No rank-to-rank matrix</h3><p>The profile has no "
                                 "communication matrix.</p>")
            + HowToCollect);
        m_matrixStack->setCurrentIndex(0);
        m_extentNote->setVisible(false);
        // Without a matrix the explanation is a side note: the table keeps the width.
        m_matrixPane->setMaximumWidth(fontMetrics().averageCharWidth() * 42);
        return;
    }
    m_matrixPane->setMaximumWidth(QWIDGETSIZE_MAX);
    m_matrixStack->setCurrentIndex(1);
    // Rows and columns over the ranks present (ascend_db's 2-rank sample has links to the
    // eight ranks of its server): a square matrix of what was profiled, and a note naming
    // the peers left out.
    std::vector<std::int32_t> present;
    for (const auto &trace : m_session->traces)
        present.push_back(trace->rank);
    for (const auto &step : m_session->clusterSteps)
        if (step.rank >= 0)
            present.push_back(step.rank);
    // A rank whose records the files hold (it sends) is present too: one rank's
    // communication_matrix.json may list the whole group's links.
    for (const auto &cell : m_matrix.cells)
        present.push_back(cell.srcRank);
    std::sort(present.begin(), present.end());
    present.erase(std::unique(present.begin(), present.end()), present.end());
    const auto isPresent = [&present](std::int32_t r) {
        return std::binary_search(present.begin(), present.end(), r);
    };
    std::vector<std::int32_t> absent;
    std::size_t leftOut = 0;
    for (const auto &cell : m_matrix.cells) {
        if (isPresent(cell.srcRank) && isPresent(cell.dstRank))
            continue;
        ++leftOut;
        for (std::int32_t r : {cell.srcRank, cell.dstRank})
            if (!isPresent(r))
                absent.push_back(r);
    }
    std::sort(absent.begin(), absent.end());
    absent.erase(std::unique(absent.begin(), absent.end()), absent.end());
    m_extentNote->setFullText(leftOut == 0
            ? QString()
            : tr("%1 to ranks %2 (not in this profile) left out")
                  .arg(countText(static_cast<long long>(leftOut), tr("link"), tr("links")),
                      cluster::rankList(absent)));
    m_extentNote->setVisible(leftOut > 0);
    const std::vector<std::int32_t> &sources = present;
    const std::vector<std::int32_t> &targets = present;
    QStringList rowLabels;
    QStringList columnLabels;
    for (std::int32_t r : sources)
        rowLabels.append(QString::number(r));
    for (std::int32_t r : targets)
        columnLabels.append(QString::number(r));
    // The cells with traffic only: a dense matrix of 10 000 ranks is 800 MB.
    std::vector<HeatCell> cells;
    cells.reserve(m_matrix.cells.size());
    auto indexIn = [](const std::vector<std::int32_t> &v, std::int32_t rank) {
        return static_cast<int>(std::lower_bound(v.begin(), v.end(), rank) - v.begin());
    };
    for (const auto &cell : m_matrix.cells) {
        double v = cell.sizeMb;
        if (m_metric == MatrixMetric::TimeMs)
            v = cell.timeMs;
        else if (m_metric == MatrixMetric::Bandwidth)
            v = cell.bandwidthGBps ? *cell.bandwidthGBps : std::numeric_limits<double>::quiet_NaN();
        if (!isPresent(cell.srcRank) || !isPresent(cell.dstRank))
            continue;
        cells.push_back({indexIn(sources, cell.srcRank), indexIn(targets, cell.dstRank), v});
    }
    std::function<QString(double)> format;
    QString what;
    switch (m_metric) {
    case MatrixMetric::SizeMb:
        what = tr("transit size");
        format = [](double v) -> QString { return formatMegabytes(v); };
        break;
    case MatrixMetric::TimeMs:
        what = tr("transit time");
        format = [](double v) -> QString { return us(v * 1000.0); };
        break;
    case MatrixMetric::Bandwidth:
        what = tr("bandwidth");
        format = [](double v) -> QString { return formatBandwidth(v); };
        break;
    }
    m_heatMap->setTitle(
        tr("Rank-to-rank %1 (%2)").arg(what, QString::fromStdString(m_matrix.source)));
    m_heatMap->setCells(rowLabels, columnLabels, std::move(cells), format);
}

void CommunicationPanel::rowClicked(int viewRow)
{
    if (!m_session)
        return;
    const QModelIndex first = m_model->index(viewRow, 0);
    const QVariant v = first.data(RankRole + 10);
    if (!v.isValid())
        return;
    const auto r = static_cast<std::size_t>(v.toULongLong());
    if (r >= m_rows.size())
        return;
    const auto &row = m_rows[r];
    const model::Trace *trace =
        row.rank >= 0 ? m_session->traceForRank(row.rank) : m_session->traces.front().get();
    if (!trace)
        return;
    // The first communication event whose name contains the collective's name.
    const std::string needle = util::asciiLower(row.name);
    std::int64_t bestStart = std::numeric_limits<std::int64_t>::max();
    std::int64_t bestEnd = 0;
    for (const auto &track : trace->tracks)
        for (std::uint32_t i = 0; i < track.size(); ++i) {
            if (track.category(i) != model::Category::Communication || track.start(i) >= bestStart)
                continue;
            if (util::asciiLower(trace->strings.view(track.name(i))).find(needle)
                == std::string::npos)
                continue;
            bestStart = track.start(i);
            bestEnd = track.end(i);
        }
    if (bestStart != std::numeric_limits<std::int64_t>::max())
        emit timeRequested(trace->rank, bestStart, bestEnd);
}

} // namespace stepscope::ui
