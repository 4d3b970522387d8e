// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "kernelspanel.h"

#include "analysis/units.h"
#include "tableitems.h"
#include "ui/palette.h"
#include "ui/text.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace stepscope::ui {

namespace {

enum Column { Name, Category, Count, Total, Share, Mean, Median, Min, Max, StdDev, ColumnCount };

/// The row's index into KernelSummary::top, on its first cell.
constexpr int TopIndexRole = Qt::UserRole + 20;

QString duration(double ns)
{
    return qs(analysis::formatDuration(std::llround(ns)));
}

const QString HowToRecord = QStringLiteral(
    "<p>Kernels are the device's own timeline: CUDA kernels, memcpys and memsets in PyTorch "
    "traces recorded with <code>ProfilerActivity.CUDA</code> and in Nsight Systems exports; "
    "AI Core, AI Vector Core and HCCL tasks in Ascend profiles (<code>kernel_details.csv</code>, "
    "the <code>Ascend Hardware</code> lanes of <code>trace_view.json</code>).</p>");

} // namespace

/// The table's rows through the name filter (Qt's fixed-string filter on the name column) and
/// the category filter; sorting as the model.
class KernelFilter : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setCategory(const QString &category)
    {
        m_category = category;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex &parent) const override
    {
        return QSortFilterProxyModel::filterAcceptsRow(row, parent)
            && (m_category.isEmpty()
                || sourceModel()->index(row, Category, parent).data().toString() == m_category);
    }

private:
    QString m_category;
};

KernelsPanel::KernelsPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(2, 2, 2, 2);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);
    m_message = createMessageLabel(m_stack);
    m_stack->addWidget(m_message);

    auto *page = new QWidget(m_stack);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *bar = new QHBoxLayout();
    bar->addWidget(new QLabel(tr("Rank:"), page));
    m_rankBox = new QComboBox(page);
    bar->addWidget(m_rankBox);
    bar->addWidget(new QLabel(tr("Step:"), page));
    m_stepBox = new QComboBox(page);
    m_stepBox->setObjectName(QStringLiteral("kernelStep"));
    m_stepBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(m_stepBox);
    m_groupLabel = new QLabel(tr("Group by:"), page);
    bar->addWidget(m_groupLabel);
    m_groupBox = new QComboBox(page);
    m_groupLabel->setBuddy(m_groupBox);
    m_groupBox->setObjectName(QStringLiteral("kernelGrouping"));
    m_groupBox->addItem(tr("name"), static_cast<int>(Grouping::Name));
    m_groupBox->addItem(
        tr("op type (the profiler's op_statistic.csv)"), static_cast<int>(Grouping::OpType));
    bar->addWidget(m_groupBox);
    m_filter = new QLineEdit(page);
    m_filter->setObjectName(QStringLiteral("kernelFilter"));
    m_filter->setPlaceholderText(tr("Filter names"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(m_filter->fontMetrics().averageCharWidth() * 36);
    bar->addWidget(m_filter);
    m_categoryLabel = new QLabel(tr("Category:"), page);
    bar->addWidget(m_categoryLabel);
    m_categoryBox = new QComboBox(page);
    m_categoryBox->setObjectName(QStringLiteral("kernelCategory"));
    m_categoryBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_categoryLabel->setBuddy(m_categoryBox);
    bar->addWidget(m_categoryBox);
    m_headline = new QLabel(page);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar->addWidget(m_headline, 1);
    layout->addLayout(bar);
    m_model = new QStandardItemModel(this);
    m_table = createTableView(m_model, page);
    m_table->setObjectName(QStringLiteral("kernelTable"));
    // The name filter is Qt's: a proxy between the model and the view, sorting as the model.
    m_proxy = new KernelFilter(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_proxy->setFilterKeyColumn(Name);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setModel(m_proxy);
    m_table->horizontalHeader()->setStretchLastSection(false);
    layout->addWidget(m_table, 1);
    m_stack->addWidget(page);

    connect(m_rankBox, &QComboBox::activated, this,
        [this](int i) { setRank(m_rankBox->itemData(i).toInt()); });
    connect(m_stepBox, &QComboBox::activated, this, [this](int i) {
        const QVariant v = m_stepBox->itemData(i);
        setStep(v.isValid() ? std::optional<std::int64_t>(v.toLongLong()) : std::nullopt);
    });
    connect(m_groupBox, &QComboBox::activated, this,
        [this](int i) { setGrouping(static_cast<Grouping>(m_groupBox->itemData(i).toInt())); });
    connect(m_filter, &QLineEdit::textChanged, m_proxy, [this](const QString &text) {
        m_proxy->setFilterFixedString(text.trimmed());
        showHeadline();
    });
    connect(m_categoryBox, &QComboBox::activated, this,
        [this](int i) { setCategoryFilter(m_categoryBox->itemData(i).toString()); });
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex &index) {
        const QModelIndex first = m_model->index(m_proxy->mapToSource(index).row(), Name);
        const QVariant k = first.data(TopIndexRole);
        if (!m_summary || !k.isValid() || k.toULongLong() >= m_summary->top.size())
            return;
        emit eventRequested(m_rank, m_summary->top[k.toULongLong()].second.longest);
    });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        const QModelIndex first = m_model->index(m_proxy->mapToSource(index).row(), Name);
        emit searchRequested(first.data().toString());
    });
    setAnalysis(nullptr, nullptr);
}

KernelsPanel::~KernelsPanel() = default;

void KernelsPanel::setAnalysis(std::shared_ptr<const model::Session> session,
    std::shared_ptr<const analysis::SessionAnalysis> analysis)
{
    m_session = std::move(session);
    m_analysis = std::move(analysis);
    m_rankBox->clear();
    if (m_analysis)
        for (const analysis::KernelSummary &k : m_analysis->kernels)
            m_rankBox->addItem(tr("rank %1").arg(k.rank), k.rank);
    m_rank = m_analysis && !m_analysis->kernels.empty() ? m_analysis->kernels.front().rank : 0;
    setRank(m_rank);
}

void KernelsPanel::setRank(int rank)
{
    m_rank = rank;
    const int index = m_rankBox->findData(rank);
    if (index >= 0)
        m_rankBox->setCurrentIndex(index);
    m_step.reset();
    fillSteps();
    rebuild();
}

void KernelsPanel::fillSteps()
{
    m_stepBox->clear();
    m_stepBox->addItem(tr("all"));
    if (m_analysis)
        for (const analysis::StepBreakdown &b : analysis::breakdownsOfRank(*m_analysis, m_rank))
            m_stepBox->addItem(QString::number(b.step), static_cast<qlonglong>(b.step));
}

void KernelsPanel::setStep(std::optional<std::int64_t> step)
{
    const int index = step ? m_stepBox->findData(static_cast<qlonglong>(*step)) : 0;
    m_step = index > 0 ? step : std::nullopt;
    m_stepBox->setCurrentIndex(std::max(0, index));
    rebuild();
}

void KernelsPanel::setFilter(const QString &text)
{
    m_filter->setText(text); // the proxy follows textChanged
}

void KernelsPanel::setCategoryFilter(const QString &category)
{
    const int index = category.isEmpty() ? 0 : m_categoryBox->findData(category);
    m_categoryBox->setCurrentIndex(std::max(0, index));
    m_proxy->setCategory(index > 0 ? category : QString());
    showHeadline();
}

void KernelsPanel::setGrouping(Grouping grouping)
{
    m_grouping = grouping;
    rebuild();
}

bool KernelsPanel::hasOpTypes() const
{
    return m_summary && !m_summary->opTypes.empty();
}

QString KernelsPanel::headline() const
{
    return showsMessage() ? QString() : m_headline->text();
}

bool KernelsPanel::showsMessage() const
{
    return m_stack->currentIndex() == 0;
}

QString KernelsPanel::messageText() const
{
    return m_message->text();
}

void KernelsPanel::rebuild()
{
    m_model->clear();
    m_summary = m_analysis ? analysis::kernelsOfRank(*m_analysis, m_rank) : nullptr;
    if (!m_session || !m_analysis) {
        m_message->setText(tr("<h3>No profile</h3><p>Open a profile to see its device kernels "
                              "by name.</p>"));
        m_stack->setCurrentIndex(0);
        return;
    }
    if (!m_summary) {
        m_message->setText(tr("<h3>No device kernels</h3><p>The profile recorded no kernels, "
                              "memcpys or memsets on a device.</p>")
            + HowToRecord);
        m_stack->setCurrentIndex(0);
        return;
    }
    m_stack->setCurrentIndex(1);
    // The profiler's table only where the rank has one; only it where the trace has no kernels.
    m_groupBox->setVisible(hasOpTypes());
    m_groupLabel->setVisible(hasOpTypes());
    const Grouping shown = !hasOpTypes() ? Grouping::Name
        : m_summary->count == 0          ? Grouping::OpType
                                         : m_grouping;
    // One step's kernels: those that start in it, summarised here (the profiler's table by op
    // type covers the whole run, so it has no steps).
    m_stepBox->setEnabled(shown == Grouping::Name && m_stepBox->count() > 1);
    if (m_step && shown == Grouping::Name) {
        const model::Trace *trace = m_session->traceForRank(m_rank);
        for (const analysis::StepBreakdown &b : analysis::breakdownsOfRank(*m_analysis, m_rank)) {
            if (b.step == *m_step && trace) {
                m_stepSummary = analysis::summarizeKernels(
                    *trace, analysis::MaxListedKernels, std::make_pair(b.startNs, b.endNs));
                m_stepSummary.rank = m_rank;
                m_summary = &m_stepSummary;
                break;
            }
        }
    }
    const analysis::KernelSummary &k = *m_summary;
    m_groupBox->setCurrentIndex(m_groupBox->findData(static_cast<int>(shown)));
    m_categoryBox->setVisible(shown == Grouping::Name);
    m_categoryLabel->setVisible(shown == Grouping::Name);
    m_showsOpTypes = shown == Grouping::OpType;
    if (m_showsOpTypes) {
        m_proxy->setCategory({});
        fillOpTypes(k);
    } else {
        fillCategories(k);
        fillNames(k);
    }
    showHeadline();
    // Names and types run to hundreds of characters (templates): the first column takes the
    // width the figures leave, elided in the middle; the tooltip has the whole name. (Set once
    // the header has its sections.)
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Stretch);
    m_table->sortByColumn(Total, Qt::DescendingOrder);
}

void KernelsPanel::fillNames(const analysis::KernelSummary &k)
{
    m_model->setHorizontalHeaderLabels({tr("Name"), tr("Category"), tr("Count"), tr("Total"),
        tr("Share"), tr("Mean"), tr("Median"), tr("Min"), tr("Max"), tr("StdDev")});
    m_model->horizontalHeaderItem(Share)->setToolTip(
        (m_summary == &m_stepSummary
                ? tr("The name's total over all of the rank's kernel time in the step")
                : tr("The name's total over all of the rank's kernel time"))
        + tr(" (concurrent kernels each count)"));
    m_model->horizontalHeaderItem(Median)->setToolTip(
        tr("The middle duration; with an even count, the mean of the two middle ones (as nsys "
           "stats' Med)"));
    m_model->horizontalHeaderItem(StdDev)->setToolTip(
        tr("Sample standard deviation of the durations (0 for one kernel)"));
    for (std::size_t i = 0; i < k.top.size(); ++i) {
        const auto &[name, s] = k.top[i];
        QList<QStandardItem *> row;
        auto *nameItem = textItem(qs(name));
        nameItem->setToolTip(tr("%1<br>Click: the longest one on the timeline. Double-click: "
                                "search for every one (Enter, Shift+Enter)")
                                 .arg(qs(name).toHtmlEscaped()));
        nameItem->setData(static_cast<qulonglong>(i), TopIndexRole);
        row.append(nameItem);
        auto *category = textItem(qs(model::categoryName(s.category)));
        category->setData(categoryColor(s.category), Qt::DecorationRole);
        row.append(category);
        row.append(numberItem(QStringLiteral("%L1").arg(s.count), static_cast<double>(s.count)));
        row.append(
            numberItem(duration(static_cast<double>(s.totalNs)), static_cast<double>(s.totalNs)));
        row.append(numberItem(qs(analysis::formatShare(s.share)), s.share));
        row.append(numberItem(duration(s.meanNs), s.meanNs));
        row.append(numberItem(duration(s.medianNs), s.medianNs));
        row.append(
            numberItem(duration(static_cast<double>(s.minNs)), static_cast<double>(s.minNs)));
        row.append(
            numberItem(duration(static_cast<double>(s.maxNs)), static_cast<double>(s.maxNs)));
        row.append(numberItem(duration(s.stddevNs), s.stddevNs));
        m_model->appendRow(row);
    }
    QString line = tr("%1, %2, %3 of kernel time on rank %4")
                       .arg(countText(static_cast<long long>(k.nameCount), tr("name"), tr("names")),
                           countText(k.count, tr("kernel"), tr("kernels")),
                           qs(analysis::formatDuration(k.totalNs)))
                       .arg(m_rank);
    line += m_summary == &m_stepSummary && m_step
        ? tr(" in step %1 (the kernels that start in it).").arg(*m_step)
        : QStringLiteral(".");
    if (k.top.size() < k.nameCount)
        line += tr(" Listed: the %L1 largest in total.").arg(static_cast<qulonglong>(k.top.size()));
    m_wholeHeadline = line;
}

void KernelsPanel::fillOpTypes(const analysis::KernelSummary &k)
{
    // The profiler's rows as written (µs); the share is of the table's total, as its Ratio(%).
    m_model->setHorizontalHeaderLabels({tr("Op type"), tr("Core type"), tr("Count"), tr("Total"),
        tr("Share"), tr("Mean"), tr("Min"), tr("Max")});
    m_model->horizontalHeaderItem(Share)->setToolTip(
        tr("The type's total over the table's (the file's Ratio(%), to its rounding)"));
    double totalUs = 0;
    long long ops = 0;
    for (const model::OpStatistic &o : k.opTypes) {
        totalUs += o.totalUs;
        ops += o.count;
    }
    const auto us = [](double v) { return numberItem(duration(v * 1000.0), v * 1000.0); };
    for (const model::OpStatistic &o : k.opTypes) {
        QList<QStandardItem *> row;
        auto *type = textItem(qs(o.name));
        type->setToolTip(tr("%1<br>Double-click: search for the kernels whose names hold it")
                             .arg(qs(o.name).toHtmlEscaped()));
        row.append(type);
        row.append(textItem(qs(o.coreType)));
        row.append(numberItem(QStringLiteral("%L1").arg(o.count), static_cast<double>(o.count)));
        row.append(us(o.totalUs));
        const double share = totalUs > 0 ? o.totalUs / totalUs : 0;
        row.append(numberItem(qs(analysis::formatShare(share)), share));
        row.append(us(o.avgUs));
        row.append(us(o.minUs));
        row.append(us(o.maxUs));
        m_model->appendRow(row);
    }
    m_wholeHeadline = tr("%L1 op types, %L2 ops, %3 on rank %4: the profiler's table "
                         "(op_statistic.csv), as written.")
                          .arg(static_cast<qulonglong>(k.opTypes.size()))
                          .arg(ops)
                          .arg(duration(totalUs * 1000.0))
                          .arg(m_rank);
}

void KernelsPanel::fillCategories(const analysis::KernelSummary &k)
{
    // The categories the rows hold, largest total first; the choice kept when it still applies.
    const QString chosen = m_categoryBox->currentData().toString();
    std::map<QString, std::int64_t> totals;
    for (const auto &[name, s] : k.top)
        totals[qs(model::categoryName(s.category))] += s.totalNs;
    std::vector<std::pair<QString, std::int64_t>> order(totals.begin(), totals.end());
    std::stable_sort(order.begin(), order.end(),
        [](const auto &a, const auto &b) { return a.second > b.second; });
    m_categoryBox->clear();
    m_categoryBox->addItem(tr("all"));
    for (const auto &[category, total] : order)
        m_categoryBox->addItem(category, category);
    const int index = chosen.isEmpty() ? 0 : m_categoryBox->findData(chosen);
    m_categoryBox->setCurrentIndex(std::max(0, index));
    m_proxy->setCategory(index > 0 ? chosen : QString());
    m_categoryBox->setEnabled(order.size() > 1);
}

void KernelsPanel::showHeadline()
{
    QString line = m_wholeHeadline;
    const int shown = m_proxy->rowCount();
    if (shown < m_model->rowCount()) {
        // What the rows the filters leave add up to, as the table's own columns.
        double totalNs = 0;
        double share = 0;
        long long count = 0;
        for (int r = 0; r < shown; ++r) {
            count += m_proxy->index(r, Count).data(SortRole).toLongLong();
            totalNs += m_proxy->index(r, Total).data(SortRole).toDouble();
            share += m_proxy->index(r, Share).data(SortRole).toDouble();
        }
        line += tr(" Shown: %1, %2, %3 (%4).")
                    .arg(countText(shown, tr("row"), tr("rows")),
                        m_showsOpTypes ? countText(count, tr("op"), tr("ops"))
                                       : countText(count, tr("kernel"), tr("kernels")),
                        duration(totalNs), qs(analysis::formatShare(share)));
    }
    m_headline->setText(line);
}

} // namespace stepscope::ui
