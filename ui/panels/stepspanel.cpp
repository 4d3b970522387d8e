// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "stepspanel.h"

#include "analysis/memorycategories.h"
#include "analysis/metricdefinitions.h"
#include "analysis/units.h"
#include "analysis/warmup.h"
#include "tableitems.h"
#include "ui/charts/barchart.h"
#include "ui/kpistrip.h"
#include "ui/palette.h"
#include "ui/text.h"
#include "ui/wrappingdelegate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace stepscope::ui {

namespace {

using analysis::SegmentKind;

/// The table's columns: Step, Rank, Start, Duration, then one per segment kind.
constexpr int FirstKindColumn = 4;

QString duration(std::int64_t ns)
{
    return QString::fromStdString(analysis::formatDuration(ns));
}

/// The profiler's own step time: the sum of its categories that partition the step,
/// Preparing + Computing + Communication(Not Overlapped) + Free (steps.h tableStepNs; the
/// Bubble is the receive part of Communication(Not Overlapped): adding it counted it twice,
/// a 235 ms marker over MindInsight's 178 ms steps), or the file's own step total where it
/// gives only that. The Overlap Analysis lanes cover the device span, not the step: none.
std::optional<double> referenceStepUs(const analysis::StepBreakdown &b)
{
    if (!b.reference || b.reference->source == "Overlap Analysis")
        return std::nullopt;
    // A file that gives only the step's total (MindInsight's step_trace_raw without its
    // cluster split): that total.
    for (const auto &c : b.reference->categories)
        if (c.key == "step")
            return c.referenceUs;
    double sum = 0;
    bool any = false;
    for (const auto &c : b.reference->categories) {
        if (c.key == "compute" || c.key == "comm_exposed" || c.key == "free"
            || c.key == "preparing") {
            sum += c.referenceUs;
            any = true;
        }
    }
    return any ? std::optional<double>(sum) : std::nullopt;
}

constexpr int StepIdRole = Qt::UserRole + 20;

/// The Start cell: from the first step shown (formatStartOffset), or "—" where no timeline
/// measured the start (StepBreakdown::startMeasured). It sorts by the laid-out start, which
/// keeps a rank's steps in their order.
QStandardItem *startItem(const analysis::StepBreakdown &b, std::int64_t firstStart,
    std::int64_t lastStart, std::int64_t minGap)
{
    if (!b.startMeasured) {
        auto *item = numberItem(QStringLiteral("—"), static_cast<double>(b.startNs));
        item->setToolTip(QObject::tr("Not measured: no timeline holds this step. Its figures "
                                     "come from the profiler's step table alone."));
        return item;
    }
    const QString text = formatStartOffset(b.startNs - firstStart, lastStart - firstStart, minGap);
    auto *item = numberItem(text, static_cast<double>(b.startNs));
    item->setToolTip(QObject::tr("%1 after the first step shown; %2 after the trace's origin")
                         .arg(text, duration(b.startNs)));
    return item;
}

} // namespace

StepsPanel::StepsPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack);
    m_message = createMessageLabel(m_stack);
    m_stack->addWidget(m_message);

    auto *content = new QWidget(m_stack);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(2, 2, 2, 2);
    m_kpiStrip = new KpiStrip(content);
    connect(m_kpiStrip, &KpiStrip::runConfigRequested, this, &StepsPanel::runConfigRequested);
    layout->addWidget(m_kpiStrip);

    auto *bar = new QHBoxLayout();
    bar->addWidget(new QLabel(tr("Rank:"), content));
    m_rankBox = new QComboBox(content);
    bar->addWidget(m_rankBox);
    m_summary = new QLabel(content);
    bar->addWidget(m_summary, 1);
    layout->addLayout(bar);
    connect(m_rankBox, &QComboBox::activated, this,
        [this](int index) { setRank(m_rankBox->itemData(index).toInt()); });

    auto *vsplit = new QSplitter(Qt::Vertical, content);
    auto *hsplit = new QSplitter(Qt::Horizontal, vsplit);
    m_chart = new BarChart(hsplit);
    m_chart->setValueUnit(ValueUnit::Duration);
    m_chart->setValueAxisTitle(tr("Step time"));
    m_chart->setCategoryAxisTitle(tr("Step"));
    m_chart->setMinimumHeight(220);
    connect(m_chart, &BarChart::barClicked, this, [this](int category, int) {
        if (category >= 0 && static_cast<std::size_t>(category) < m_rankSteps.size())
            emitStep(*m_rankSteps[static_cast<std::size_t>(category)]);
    });
    m_bottleneckList = new QTreeWidget(hsplit);
    m_bottleneckList->setHeaderLabels({tr("Bottleneck"), tr("Share")});
    m_bottleneckList->setRootIsDecorated(false);
    m_bottleneckList->setItemsExpandable(false); // the evidence stays under its finding
    // The evidence sentence wraps rather than ending in "…" (a picture has no tooltip).
    wrapColumn(m_bottleneckList, 0);
    connect(m_bottleneckList, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) {
        const QVariant v = item->data(0, StepIdRole);
        if (!v.isValid())
            return;
        const auto index = v.toULongLong();
        if (index < m_analysis->bottlenecks.size()) {
            const auto &bn = m_analysis->bottlenecks[index];
            for (const auto &b : m_analysis->breakdowns)
                if (b.rank == bn.rank && b.step == bn.step) {
                    emitStep(b);
                    return;
                }
        }
    });
    hsplit->setSizes({3000, 2000}); // scaled to the real width

    m_model = new QStandardItemModel(this);
    m_table = createTableView(m_model, vsplit);
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex &index) {
        const QModelIndex first = m_model->index(index.row(), 0);
        const int rank = first.data(RankRole).toInt();
        emit timeRequested(
            rank, first.data(StartRole).toLongLong(), first.data(EndRole).toLongLong());
    });
    vsplit->setSizes({3000, 2000});
    layout->addWidget(vsplit, 1);
    m_stack->addWidget(content);
    setSession(nullptr);
}

StepsPanel::~StepsPanel() = default;

void StepsPanel::setSession(std::shared_ptr<const model::Session> session)
{
    std::shared_ptr<const analysis::SessionAnalysis> analysed;
    if (session)
        analysed = std::make_shared<const analysis::SessionAnalysis>(
            analysis::analyzeSession(*session, m_config));
    setAnalysis(std::move(session), std::move(analysed));
}

void StepsPanel::setAnalysis(std::shared_ptr<const model::Session> session,
    std::shared_ptr<const analysis::SessionAnalysis> analysed)
{
    m_session = std::move(session);
    m_analysis = analysed && m_session ? std::move(analysed)
                                       : std::make_shared<const analysis::SessionAnalysis>();
    m_config = m_analysis->config;
    m_rankBox->clear();
    if (!m_session || m_session->traces.empty()) {
        m_message->setText(tr("<h3>No profile</h3><p>Open a profile folder to see the time "
                              "of each training step broken down by where it went.</p>"));
        m_stack->setCurrentIndex(0);
        m_kpiStrip->clear();
        return;
    }
    for (const auto &trace : m_session->traces)
        m_rankBox->addItem(tr("rank %1").arg(trace->rank), trace->rank);
    const auto &breakdowns = m_analysis->breakdowns;
    if (breakdowns.empty()) {
        m_message->setText(
            tr("<h3>No steps</h3><p>This profile has no device activity to break down into "
               "steps.</p><p>Record a few steps with the device timeline on: in PyTorch, "
               "<code>torch.profiler.profile(activities=[ProfilerActivity.CPU, "
               "ProfilerActivity.CUDA], schedule=torch.profiler.schedule(wait=1, warmup=1, "
               "active=3))</code> and call <code>prof.step()</code> after every step; with "
               "torch_npu, <code>torch_npu.profiler.profile(...)</code> with "
               "<code>ProfilerActivity.NPU</code>.</p>"));
        m_stack->setCurrentIndex(0);
        m_kpiStrip->clear();
        return;
    }
    m_kinds.clear();
    for (SegmentKind kind : segmentKinds()) {
        const bool any = kind == SegmentKind::Compute
            || std::any_of(breakdowns.begin(), breakdowns.end(),
                [kind](const auto &b) { return b.segmentNs(kind) != 0; });
        if (any)
            m_kinds.push_back(kind);
    }
    m_stack->setCurrentIndex(1);
    showKpis();
    m_rank = m_session->traces.front()->rank;
    rebuildRank();
}

void StepsPanel::setRunConfig(const analysis::RunConfig &config)
{
    m_config = config;
    if (!m_session || m_analysis->breakdowns.empty())
        return;
    m_analysis = std::make_shared<const analysis::SessionAnalysis>(
        analysis::withRunConfig(*m_analysis, *m_session, config));
    showKpis();
}

void StepsPanel::showKpis()
{
    m_kpiStrip->setKpis(m_analysis->kpis);
    fillBottlenecks();
}

void StepsPanel::setRank(int rank)
{
    m_rank = rank;
    const int index = m_rankBox->findData(rank);
    if (index >= 0)
        m_rankBox->setCurrentIndex(index);
    rebuildRank();
}

int StepsPanel::currentRank() const
{
    return m_rank;
}

bool StepsPanel::showsMessage() const
{
    return m_stack->currentIndex() == 0;
}

QString StepsPanel::messageText() const
{
    return m_message->text();
}

void StepsPanel::rebuildRank()
{
    m_rankSteps.clear();
    for (const auto &b : m_analysis->breakdowns)
        if (b.rank == m_rank)
            m_rankSteps.push_back(&b);
    QStringList categories;
    QList<BarSetData> sets;
    for (SegmentKind kind : m_kinds)
        sets.append({segmentName(kind), segmentColor(kind), {}});
    // An untraced step's time is no measurement: its own bar, not Preparing's yellow.
    const bool anyUntraced = std::any_of(
        m_rankSteps.begin(), m_rankSteps.end(), [](const auto *b) { return b->untraced; });
    if (anyUntraced)
        sets.append({tr("Outside the device timeline"), untracedColor(currentTheme()), {}});
    QList<double> markers;
    bool anyMarker = false;
    std::int64_t total = 0;
    for (const auto *b : m_rankSteps) {
        categories.append(stepLabel(b->step));
        for (std::size_t k = 0; k < m_kinds.size(); ++k)
            sets[static_cast<qsizetype>(k)].values.append(
                b->untraced ? 0.0 : static_cast<double>(b->segmentNs(m_kinds[k])));
        if (anyUntraced)
            sets.back().values.append(b->untraced ? static_cast<double>(b->durationNs()) : 0.0);
        const auto ref = referenceStepUs(*b);
        markers.append(ref ? *ref * 1000.0 : std::numeric_limits<double>::quiet_NaN());
        anyMarker = anyMarker || ref.has_value();
        total += b->durationNs();
    }
    m_chart->setTitle(tr("Step breakdown, rank %1").arg(m_rank));
    m_chart->setData(categories, sets, BarChart::Mode::Stacked);
    if (anyMarker)
        m_chart->setMarkers(
            tr("Profiler's step time"), referenceMarkerColor(currentTheme()), markers);
    QString summary = m_rankSteps.empty()
        ? tr("no steps on this rank")
        : tr("%1, mean %2")
              .arg(countText(static_cast<long long>(m_rankSteps.size()), tr("step"), tr("steps")))
              .arg(duration(total / static_cast<std::int64_t>(m_rankSteps.size())));
    // The KPIs leave a warm-up step out: the rank's mean without it too, so the two agree.
    std::int64_t steadyNs = 0;
    std::int64_t steady = 0;
    for (const auto *b : m_rankSteps)
        if (!b->warmUp) {
            steadyNs += b->durationNs();
            ++steady;
        }
    if (steady > 0 && steady < static_cast<std::int64_t>(m_rankSteps.size()))
        summary += tr(" (%1 without the warm-up step)").arg(duration(steadyNs / steady));
    m_summary->setText(summary);
    fillTable(m_rankSteps);
}

QString StepsPanel::summaryText() const
{
    return m_summary->text();
}

QString stepLabel(std::int64_t step)
{
    // Profiler tables without a step id (mstt's cluster_step_trace_time.csv leaves the Step
    // column empty) are imported as step -1: not a number the profiler wrote.
    return step < 0 ? QStringLiteral("–") : QString::number(step);
}

QString noStepIdTip()
{
    return QObject::tr("The profiler's step table gives no step id for this row (its Step "
                       "column is empty), so the step has no number.");
}

QString formatStartOffset(std::int64_t offsetNs, std::int64_t spanNs, std::int64_t minGapNs)
{
    struct Unit
    {
        double ns;
        const char *name;
    };
    static constexpr Unit Units[] = {{1, "ns"}, {1e3, "µs"}, {1e6, "ms"}, {1e9, "s"}};
    std::size_t u = 0;
    while (u + 1 < std::size(Units) && static_cast<double>(spanNs) >= Units[u + 1].ns)
        ++u;
    // Three significant digits of the latest start (DESIGN.md), and two of the closest two
    // starts' gap, so that neighbours differ by more than the rounding: at most 6 decimals.
    const auto digits = [&](std::int64_t ns, double atLeast) {
        int d = 0;
        while (
            ns > 0 && d < 6 && static_cast<double>(ns) / Units[u].ns * std::pow(10.0, d) < atLeast)
            ++d;
        return d;
    };
    const int decimals = std::max(digits(spanNs, 100.0), digits(minGapNs, 10.0));
    return QStringLiteral("%1 %2")
        .arg(static_cast<double>(offsetNs) / Units[u].ns, 0, 'f', decimals)
        .arg(QString::fromUtf8(Units[u].name));
}

void StepsPanel::fillTable(const std::vector<const analysis::StepBreakdown *> &rows)
{
    m_model->clear();
    QStringList headers = {tr("Step"), tr("Rank"), tr("Start"), tr("Duration")};
    // The table's figures are the summary's: Compute whole (overlapped communication
    // included, as the profiler's Computing); the chart above stacks the lane's segments.
    for (SegmentKind kind : segmentKinds())
        headers.append(figureName(kind));
    headers.append(tr("Free (idle)"));
    // The profiler's own columns, in the order first seen.
    std::vector<std::string> refColumns;
    for (const auto *b : rows)
        if (b->reference)
            for (const auto &c : b->reference->categories)
                if (std::find(refColumns.begin(), refColumns.end(), c.column) == refColumns.end())
                    refColumns.push_back(c.column);
    for (const auto &c : refColumns)
        headers.append(tr("%1 (profiler)").arg(QString::fromStdString(c)));
    if (!refColumns.empty())
        headers.append(tr("Within 1 %"));
    m_model->setHorizontalHeaderLabels(headers);
    // Each figure's header says what it holds (docs/metrics.md's definitions).
    const auto defineHeader = [this](int column, std::string_view key) {
        const analysis::MetricDefinition *d = analysis::metricDefinition(key);
        if (auto *h = m_model->horizontalHeaderItem(column); h && d)
            h->setToolTip(qs(d->text));
    };
    defineHeader(0, "step");
    int column = FirstKindColumn;
    for (SegmentKind kind : segmentKinds())
        defineHeader(column++, analysis::segmentKindKey(kind));
    defineHeader(column, "free");
    // Starts from the first step shown, at a resolution that tells neighbouring steps apart
    // (six steps 470 s into a trace are not all "470 s").
    std::vector<std::int64_t> starts;
    for (const auto *b : rows)
        if (b->startMeasured)
            starts.push_back(b->startNs);
    std::sort(starts.begin(), starts.end());
    const std::int64_t firstStart = starts.empty() ? 0 : starts.front();
    const std::int64_t lastStart = starts.empty() ? 0 : starts.back();
    std::int64_t minGap = 0;
    for (std::size_t i = 1; i < starts.size(); ++i)
        if (starts[i] > starts[i - 1])
            minGap = minGap == 0 ? starts[i] - starts[i - 1]
                                 : std::min(minGap, starts[i] - starts[i - 1]);
    if (auto *h = m_model->horizontalHeaderItem(2))
        h->setToolTip(tr("Start, from the first step shown (the tooltip adds the time from the "
                         "trace's origin)"));

    for (const auto *b : rows) {
        QList<QStandardItem *> items;
        auto *first = numberItem(stepLabel(b->step), static_cast<double>(b->step));
        if (b->step < 0)
            first->setToolTip(noStepIdTip());
        if (b->warmUp) {
            first->setText(tr("%1 · warm-up").arg(first->text()));
            first->setToolTip(
                tr("A warm-up step: over %1 times the median of this rank's other steps (graph "
                   "compilation, first allocations, communicator set-up). Its figures here are "
                   "as measured; the KPIs and the bottlenecks leave it out.")
                    .arg(static_cast<int>(analysis::WarmUpFactor)));
        }
        setRowTime(first, b->rank, b->startNs, b->endNs);
        items.append(first);
        items.append(numberItem(QString::number(b->rank), b->rank));
        items.append(startItem(*b, firstStart, lastStart, minGap));
        auto *length = numberItem(duration(b->durationNs()), static_cast<double>(b->durationNs()));
        if (b->partlyTraced) {
            length->setBackground(untracedColor(currentTheme()));
            length->setToolTip(tr("Partly outside the device timeline: the capture of the device "
                                  "stopped or started inside this step, so its idle time outside "
                                  "the timeline is no measurement. Findings and shares leave "
                                  "the step out."));
        }
        items.append(length);
        for (SegmentKind kind : segmentKinds()) {
            const std::int64_t ns = b->figureNs(kind);
            auto *item = numberItem(duration(ns), static_cast<double>(ns));
            if (b->durationNs() > 0)
                item->setToolTip(
                    tr("%1 = %2 ns (%3 of the step)")
                        .arg(figureName(kind))
                        .arg(ns)
                        .arg(QString::fromStdString(analysis::formatShare(
                            static_cast<double>(ns) / static_cast<double>(b->durationNs())))));
            const bool freePart = kind == SegmentKind::HostWait || kind == SegmentKind::DataLoading
                || kind == SegmentKind::LaunchGap || kind == SegmentKind::OtherIdle;
            if (freePart && !b->freePartsKnown()) {
                item->setText(QStringLiteral("—"));
                item->setToolTip(tr("Not measured: no timeline holds this step, so its free "
                                    "time (the profiler's table) cannot be split into host "
                                    "wait, data loading, launch gaps and other idle."));
            }
            if (b->untraced && kind == SegmentKind::Preparing) {
                item->setBackground(untracedColor(currentTheme()));
                item->setToolTip(tr("Outside the device timeline: the profile recorded no "
                                    "device task in this step, so this is its whole time, not "
                                    "a measured wait. Findings and shares leave the step out."));
            }
            items.append(item);
        }
        items.append(numberItem(duration(b->freeNs), static_cast<double>(b->freeNs)));
        for (const auto &col : refColumns) {
            const analysis::ReferenceCategory *rc = nullptr;
            if (b->reference)
                for (const auto &c : b->reference->categories)
                    if (c.column == col)
                        rc = &c;
            if (!rc) {
                items.append(numberItem(QString(), -1));
                continue;
            }
            auto *item =
                numberItem(duration(std::llround(rc->referenceUs * 1000.0)), rc->referenceUs);
            item->setToolTip(
                tr("%1: profiler %2 µs, ours %3 µs, difference %4 µs (%5)")
                    .arg(QString::fromStdString(rc->column))
                    .arg(rc->referenceUs, 0, 'f', 2)
                    .arg(rc->oursUs, 0, 'f', 2)
                    .arg(rc->differenceUs, 0, 'f', 2)
                    .arg(QString::fromStdString(analysis::formatShare(rc->relativeDifference))));
            items.append(item);
        }
        if (!refColumns.empty())
            items.append(textItem(!b->reference     ? QString()
                    : b->reference->withinTolerance ? tr("yes")
                                                    : tr("no")));
        m_model->appendRow(items);
    }
    m_table->resizeColumnsToContents();
}

void StepsPanel::fillBottlenecks()
{
    m_bottleneckList->clear();
    if (m_analysis->bottlenecks.empty()) {
        auto *item = new QTreeWidgetItem(m_bottleneckList, {tr("No bottleneck stands out")});
        item->setFirstColumnSpanned(true);
        return;
    }
    std::size_t index = 0;
    for (const auto &bn : m_analysis->bottlenecks) {
        auto *item = new QTreeWidgetItem(m_bottleneckList);
        item->setText(0,
            QStringLiteral("%1. %2").arg(index + 1).arg(qs(analysis::bottleneckKindName(bn.kind))));
        item->setText(1, QString::fromStdString(analysis::formatShare(bn.share)));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setData(0, StepIdRole, static_cast<qulonglong>(index));
        QFont bold = item->font(0);
        bold.setBold(true);
        item->setFont(0, bold);
        // Under its finding, indented by the tree, so that each wrapped line is indented too.
        auto *evidence = new QTreeWidgetItem(item);
        evidence->setText(0, QString::fromStdString(bn.evidence));
        evidence->setToolTip(0, QString::fromStdString(bn.evidence));
        evidence->setFirstColumnSpanned(true);
        evidence->setData(0, StepIdRole, static_cast<qulonglong>(index));
        ++index;
    }
    m_bottleneckList->expandAll();
    m_bottleneckList->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_bottleneckList->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_bottleneckList->header()->setStretchLastSection(false);
}

void StepsPanel::emitStep(const analysis::StepBreakdown &b)
{
    emit timeRequested(b.rank, b.startNs, b.endNs);
}

} // namespace stepscope::ui
