// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "memorypanel.h"

#include "analysis/units.h"
#include "memorypanel_p.h"
#include "tableitems.h"
#include "ui/charts/barchart.h"
#include "ui/charts/timechart.h"
#include "ui/palette.h"
#include "ui/timeline/axisbreaks.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSet>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepscope::ui {

using namespace memorydetail;
using analysis::MemoryGroup;

MemoryPanel::MemoryPanel(QWidget *parent)
    : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(2, 2, 2, 2);
    auto *bar = new QHBoxLayout();
    bar->addWidget(new QLabel(tr("Rank:"), this));
    m_rankBox = new QComboBox(this);
    bar->addWidget(m_rankBox);
    m_componentLabel = new QLabel(tr("Allocator:"), this);
    bar->addWidget(m_componentLabel);
    m_componentBox = new QComboBox(this);
    m_componentBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    bar->addWidget(m_componentBox);
    bar->addStretch(1);
    outer->addLayout(bar);
    connect(m_rankBox, &QComboBox::activated, this,
        [this](int i) { setRank(m_rankBox->itemData(i).toInt()); });
    connect(m_componentBox, &QComboBox::activated, this, [this](int) {
        rebuildCurves();
        alignTimeBase();
    });

    m_stack = new QStackedWidget(this);
    outer->addWidget(m_stack, 1);
    m_message = createMessageLabel(m_stack);
    m_stack->addWidget(m_message);

    auto *hsplit = new QSplitter(Qt::Horizontal, m_stack);
    auto *left = new QSplitter(Qt::Vertical, hsplit);
    m_columns = hsplit;
    m_left = left;
    m_curveStack = new QStackedWidget(left);
    m_curveNote = createMessageLabel(m_curveStack);
    m_curveChart = new TimeChart(m_curveStack);
    m_curveChart->setValueUnit(ValueUnit::Bytes);
    m_curveChart->setValueAxisTitle(tr("Memory"));
    m_curveStack->addWidget(m_curveNote);
    m_curveStack->addWidget(m_curveChart);
    connect(m_curveChart, &TimeChart::timeClicked, this, [this](qint64 t) {
        const model::Trace *tr = trace();
        if (!tr || m_curveIndices.empty())
            return;
        // The interval during which the value under the cursor held.
        const auto &ts = tr->memory.curves[m_curveIndices.front()].timestampsNs;
        auto it = std::upper_bound(ts.begin(), ts.end(), static_cast<std::int64_t>(t));
        if (it == ts.begin())
            return;
        const auto k = static_cast<std::size_t>(it - ts.begin()) - 1;
        const std::int64_t end = k + 1 < ts.size() ? ts[k + 1] : ts[k];
        emit timeRequested(m_rank, ts[k], end);
    });

    m_groupStack = new QStackedWidget(left);
    m_groupNote = createMessageLabel(m_groupStack);
    m_groupChart = new TimeChart(m_groupStack);
    m_groupChart->setValueUnit(ValueUnit::Bytes);
    m_groupChart->setValueAxisTitle(tr("Memory"));
    m_groupStack->addWidget(m_groupNote);
    m_groupStack->addWidget(m_groupChart);
    m_groupStack->installEventFilter(this); // fitCategoryNote at its new width
    connect(m_groupChart, &TimeChart::timeClicked, this, [this](qint64 t) {
        const auto &ts = groupTimeline().timestampsNs;
        auto it = std::upper_bound(ts.begin(), ts.end(), static_cast<std::int64_t>(t));
        if (it == ts.begin())
            return;
        const auto k = static_cast<std::size_t>(it - ts.begin()) - 1;
        emit timeRequested(m_rank, ts[k], k + 1 < ts.size() ? ts[k + 1] : ts[k]);
    });

    auto *right = new QSplitter(Qt::Vertical, hsplit);
    m_right = right;
    auto *peakBox = new QWidget(right);
    auto *peakLayout = new QVBoxLayout(peakBox);
    peakLayout->setContentsMargins(0, 0, 0, 0);
    m_peakChart = new BarChart(peakBox);
    m_peakChart->setValueUnit(ValueUnit::Bytes);
    m_peakChart->setValueAxisTitle(tr("At peak"));
    m_peakChart->setLegendAlignment(Qt::AlignBottom); // two sets: room for the bars instead
    m_peakNote = new QLabel(peakBox);
    m_peakNote->setWordWrap(true);
    m_peakNote->setTextFormat(Qt::RichText);
    connect(m_peakNote, &QLabel::linkActivated, this, [this] { emit runConfigRequested(); });
    peakLayout->addWidget(m_peakChart, 1);
    peakLayout->addWidget(m_peakNote);

    auto *tableBox = new QWidget(right);
    auto *tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    m_allocationNote = createMessageLabel(tableBox); // text set per rank (rebuildAllocations)
    m_allocationSource = new QLabel(tableBox);
    m_allocationSource->setWordWrap(true);
    m_allocationSource->setTextFormat(Qt::RichText);
    m_model = new QStandardItemModel(this);
    m_table = createTableView(m_model, tableBox);
    m_table->setTextElideMode(Qt::ElideLeft);
    tableLayout->addWidget(m_allocationNote);
    tableLayout->addWidget(m_allocationSource);
    tableLayout->addWidget(m_table, 1);
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex &index) {
        const QModelIndex first = m_model->index(index.row(), 0);
        emit timeRequested(first.data(RankRole).toInt(), first.data(StartRole).toLongLong(),
            first.data(EndRole).toLongLong());
    });
    hsplit->setSizes({3000, 2000}); // scaled to the real width: 60 % for the time charts
    right->setSizes({1000, 1000});
    // The two time charts share one time axis: zooming one zooms the other.
    connect(m_curveChart, &TimeChart::timeWindowChanged, m_groupChart,
        [this](qint64 s, qint64 e) { m_groupChart->setTimeWindow(s, e); });
    connect(m_groupChart, &TimeChart::timeWindowChanged, m_curveChart,
        [this](qint64 s, qint64 e) { m_curveChart->setTimeWindow(s, e); });
    connect(m_curveChart, &TimeChart::timeWindowReset, m_groupChart,
        [this] { m_groupChart->resetTimeWindow(); });
    connect(m_groupChart, &TimeChart::timeWindowReset, m_curveChart,
        [this] { m_curveChart->resetTimeWindow(); });
    m_stack->addWidget(hsplit);
    setAnalysis(nullptr, nullptr);
}

void MemoryPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    arrange();
}

bool MemoryPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_groupStack && event->type() == QEvent::Resize)
        fitCategoryNote();
    return QWidget::eventFilter(watched, event);
}

void MemoryPanel::fitCategoryNote()
{
    // Stacked under the device curve, a note saying the profile has no categories takes the
    // height its text needs and the curve the rest: half the height each left the curve a
    // plot of a few dozen pixels, its ticks and axis title cut to "…".
    int most = QWIDGETSIZE_MAX;
    if (!m_sideBySide && m_groupStack->currentIndex() == 0)
        most = std::max(m_groupNote->heightForWidth(m_groupStack->width()),
            m_groupNote->minimumSizeHint().height());
    if (m_groupStack->maximumHeight() != most)
        m_groupStack->setMaximumHeight(most);
}

void MemoryPanel::arrange()
{
    // In a dock too short for two charts above each other (each would keep a plot of a few
    // dozen pixels, its ticks and axis titles cut to "…" by Qt Charts), the four parts stand
    // side by side, each the dock's full height; a tall dock keeps two columns of two.
    constexpr int StackedFromHeight = 460;
    constexpr int MinColumnWidth = 250;
    const bool sideBySide = height() < StackedFromHeight && width() >= 4 * MinColumnWidth;
    if (sideBySide == m_sideBySide) {
        fitCategoryNote();
        return;
    }
    m_sideBySide = sideBySide;
    const Qt::Orientation inColumn = sideBySide ? Qt::Horizontal : Qt::Vertical;
    m_left->setOrientation(inColumn);
    m_right->setOrientation(inColumn);
    // Side by side: the device curve 20 % of the width, the category stack 26 % (its six
    // legend entries in a column at its right, where a row of them was cut to "Para…"), the
    // peak bars 23 % (less cuts their labels), the table 31 % (at 20 % its op column left no
    // room for the times). Stacked: 60 % for the time charts, halves in height.
    m_left->setSizes(sideBySide ? QList<int> {2000, 2600} : QList<int> {1000, 1000});
    m_right->setSizes(sideBySide ? QList<int> {2300, 3100} : QList<int> {1000, 1000});
    m_columns->setSizes(sideBySide ? QList<int> {4600, 5400} : QList<int> {3000, 2000});
    m_groupChart->setLegendAlignment(sideBySide ? Qt::AlignRight : Qt::AlignBottom);
    fitCategoryNote();
}

MemoryPanel::~MemoryPanel() = default;

const model::Trace *MemoryPanel::trace() const
{
    return m_session ? m_session->traceForRank(m_rank) : nullptr;
}

const analysis::MemoryGroupTimeline &MemoryPanel::groupTimeline() const
{
    static const analysis::MemoryGroupTimeline none;
    return m_summary.groups ? *m_summary.groups : none;
}

void MemoryPanel::setAnalysis(std::shared_ptr<const model::Session> session,
    std::shared_ptr<const analysis::SessionAnalysis> analysis,
    std::map<int, std::int64_t> zeroByRank)
{
    m_session = std::move(session);
    m_analysis = std::move(analysis);
    m_zeroByRank = std::move(zeroByRank);
    m_rankBox->clear();
    if (m_session)
        for (const auto &t : m_session->traces)
            m_rankBox->addItem(tr("rank %1").arg(t->rank), t->rank);
    m_rank = m_session && !m_session->traces.empty() ? m_session->traces.front()->rank : 0;
    // Start on the first rank that has memory data.
    if (m_session)
        for (const auto &t : m_session->traces)
            if (!t->memory.empty()) {
                m_rank = t->rank;
                break;
            }
    setRank(m_rank);
}

void MemoryPanel::setRunConfig(const analysis::RunConfig &config)
{
    m_config = config;
    if (trace())
        rebuildPeak();
}

void MemoryPanel::setTimeZeros(std::map<int, std::int64_t> zeroByRank)
{
    m_zeroByRank = std::move(zeroByRank);
    rebuildRank();
}

std::int64_t MemoryPanel::memoryStartNs() const
{
    const model::Trace *t = trace();
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    if (t)
        for (const auto &c : t->memory.curves)
            if (!c.timestampsNs.empty())
                first = std::min(first, c.timestampsNs.front());
    if (!groupTimeline().timestampsNs.empty())
        first = std::min(first, groupTimeline().timestampsNs.front());
    if (m_summary.allocations)
        for (const analysis::ListedAllocation &row : m_summary.allocations->listed)
            first = std::min(first, row.allocation.allocatedNs);
    return first == std::numeric_limits<std::int64_t>::max() ? 0 : first;
}

void MemoryPanel::setRank(int rank)
{
    m_rank = rank;
    const int index = m_rankBox->findData(rank);
    if (index >= 0)
        m_rankBox->setCurrentIndex(index);
    rebuildRank();
}

bool MemoryPanel::showsMessage() const
{
    return m_stack->currentIndex() == 0;
}

QString MemoryPanel::messageText() const
{
    return m_message->text();
}

QString MemoryPanel::curveNote() const
{
    return m_curveStack->currentIndex() == 0 ? m_curveNote->text() : QString();
}

QString MemoryPanel::categoryNote() const
{
    return m_groupStack->currentIndex() == 0 ? m_groupNote->text() : QString();
}

QString MemoryPanel::allocationNote() const
{
    return m_table->isVisibleTo(this) ? QString() : m_allocationNote->text();
}

QString MemoryPanel::peakNote() const
{
    return m_peakNote->text();
}

QString MemoryPanel::allocationSource() const
{
    return m_allocationSource->isVisibleTo(this) ? m_allocationSource->text() : QString();
}

QString MemoryPanel::currentComponent() const
{
    return m_componentBox->currentText();
}

QStringList MemoryPanel::components() const
{
    QStringList out;
    for (int i = 0; i < m_componentBox->count(); ++i)
        out.append(m_componentBox->itemText(i));
    return out;
}

void MemoryPanel::setComponent(const QString &component)
{
    const int i = m_componentBox->findText(component);
    if (i >= 0)
        m_componentBox->setCurrentIndex(i);
    rebuildCurves();
    alignTimeBase();
}

void MemoryPanel::rebuildRank()
{
    const model::Trace *t = trace();
    m_componentBox->clear();
    // No allocator to pick until one is found: no empty "Allocator:" picker.
    m_componentLabel->hide();
    m_componentBox->hide();
    m_summary = {};
    if (!t) {
        m_message->setText(tr("<h3>No profile</h3><p>Open a profile folder to see its device "
                              "memory over time, by category, and its allocations.</p>"));
        m_stack->setCurrentIndex(0);
        return;
    }
    if (t->memory.empty()) {
        m_message->setText(tr("<h3>No memory data on rank %1</h3><p>The profile recorded no "
                              "allocator events, memory curves or memory timeline.</p>")
                               .arg(m_rank)
            + HowToCollect);
        m_stack->setCurrentIndex(0);
        return;
    }
    m_stack->setCurrentIndex(1);
    // Components with an allocated curve first, largest peak first: the allocator users mean.
    std::vector<std::pair<std::int64_t, QString>> comps;
    for (const auto &c : t->memory.curves) {
        const QString label = curveLabel(c);
        if (std::any_of(
                comps.begin(), comps.end(), [&](const auto &p) { return p.second == label; }))
            continue;
        std::int64_t peak = -1;
        for (std::int64_t v : c.allocatedBytes)
            peak = std::max(peak, v);
        comps.emplace_back(peak, label);
    }
    std::stable_sort(
        comps.begin(), comps.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    for (const auto &c : comps)
        m_componentBox->addItem(c.second);
    // A memory timeline without allocator curves: no empty picker.
    m_componentLabel->setVisible(!comps.empty());
    m_componentBox->setVisible(!comps.empty());
    // The load's analysis of this rank (MemorySummary, its group series included);
    // rebuildPeak applies the panel's run config to it.
    const analysis::MemorySummary *summary =
        m_analysis ? analysis::memoryOfRank(*m_analysis, m_rank) : nullptr;
    m_summary = summary ? *summary : analysis::MemorySummary {};
    const auto zero = m_zeroByRank.find(m_rank);
    m_timeZero = zero != m_zeroByRank.end() ? zero->second : memoryStartNs();
    m_curveChart->setTimeOrigin(m_timeZero);
    m_groupChart->setTimeOrigin(m_timeZero);
    rebuildCurves();
    rebuildGroups();
    alignTimeBase();
    rebuildPeak();
    rebuildAllocations();
}

void MemoryPanel::alignTimeBase()
{
    // One time base for the panel: both charts span the union of what either holds, so the
    // device curve and the categories line up (and both peaks are on one axis).
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (TimeChart *c : {m_curveChart, m_groupChart}) {
        if (c->seriesCount() == 0)
            continue;
        const auto [a, b] = c->dataExtent();
        lo = std::min(lo, a);
        hi = std::max(hi, b);
    }
    if (lo > hi)
        return;
    const auto breaks = captureGaps(hi - lo);
    for (TimeChart *c : {m_curveChart, m_groupChart}) {
        c->setBreaks(breaks);
        c->setHomeWindow(lo, hi);
        c->resetTimeWindow();
    }
}

std::vector<std::pair<std::int64_t, std::int64_t>> MemoryPanel::captureGaps(
    std::int64_t extentNs) const
{
    // The timeline's rule (axisbreaks.h): an empty stretch of five median steps or more (two
    // captures 470 s apart) is drawn short; here over the points of the curves shown and of
    // the categories.
    std::vector<std::int64_t> durations;
    if (m_analysis)
        for (const analysis::StepBreakdown &b : analysis::breakdownsOfRank(*m_analysis, m_rank))
            durations.push_back(b.endNs - b.startNs);
    const std::int64_t minGap = timeline::breakThresholdNs(std::move(durations), extentNs);
    std::vector<timeline::Island> islands =
        timeline::pointIslands(groupTimeline().timestampsNs, minGap);
    if (const model::Trace *t = trace())
        for (std::size_t i : m_curveIndices) {
            const auto runs = timeline::pointIslands(t->memory.curves[i].timestampsNs, minGap);
            islands.insert(islands.end(), runs.begin(), runs.end());
        }
    std::vector<std::pair<std::int64_t, std::int64_t>> gaps;
    for (const timeline::AxisBreak &b : timeline::findBreaks(std::move(islands), minGap))
        gaps.emplace_back(b.startNs, b.endNs);
    return gaps;
}

void MemoryPanel::rebuildCurves()
{
    const model::Trace *t = trace();
    m_curveChart->clear();
    m_curveIndices.clear();
    if (!t)
        return;
    const QString component = m_componentBox->currentText();
    for (std::size_t i = 0; i < t->memory.curves.size(); ++i)
        if (curveLabel(t->memory.curves[i]) == component)
            m_curveIndices.push_back(i);
    // A profile with categories but no allocator curve (PyTorch memory timeline alone) gives
    // the whole height to the category stack.
    m_curveStack->setVisible(!m_curveIndices.empty() || groupTimeline().timestampsNs.empty());
    if (m_curveIndices.empty()) {
        m_curveNote->setText(tr("<h3>No allocator curve</h3><p>This rank has no "
                                "allocated/reserved memory over time.</p>")
            + HowToCollect);
        m_curveStack->setCurrentIndex(0);
        return;
    }
    m_curveStack->setCurrentIndex(1);
    m_curveChart->setTitle(tr("Device memory, %1, rank %2").arg(component).arg(m_rank));
    // The peak marked is allocated memory's when recorded, else reserved memory's.
    std::int64_t peak = -1;
    std::int64_t peakNs = 0;
    QString peakWhat;
    for (int pass = 0; pass < 2 && peak < 0; ++pass) {
        for (std::size_t i : m_curveIndices) {
            const model::MemoryCurve &c = t->memory.curves[i];
            const auto &values = pass == 0 ? c.allocatedBytes : c.reservedBytes;
            if (values.size() != c.timestampsNs.size())
                continue;
            for (std::size_t k = 0; k < values.size(); ++k)
                if (values[k] > peak) {
                    peak = values[k];
                    peakNs = c.timestampsNs[k];
                    peakWhat = pass == 0 ? tr("allocated") : tr("reserved");
                }
        }
    }
    QSet<QString> usedNames;
    for (std::size_t i : m_curveIndices) {
        const model::MemoryCurve &c = t->memory.curves[i];
        struct Line
        {
            const std::vector<std::int64_t> *values;
            QString name;
            QColor color;
        };
        const Line lines[] = {
            {&c.allocatedBytes, tr("allocated"), memoryCurveColor(MemoryCurve::Allocated)},
            {&c.reservedBytes, tr("reserved"), memoryCurveColor(MemoryCurve::Reserved)},
            {&c.activeBytes, tr("active"), memoryCurveColor(MemoryCurve::Active)},
        };
        for (const Line &line : lines) {
            if (line.values->size() != c.timestampsNs.size() || !anyRecorded(*line.values))
                continue;
            QString name = m_curveIndices.size() > 1
                ? QStringLiteral("%1 %2").arg(QString::fromStdString(c.device), line.name)
                : line.name;
            // Two curves of one device must not share a legend entry, and the entries say
            // what differs: the time each covers (resnet's two captures, 470 s apart), which
            // tells them apart when they do not overlap; else the record's number.
            QColor color = line.color;
            if (duplicated(i, m_curveIndices, t->memory.curves)) {
                name = QStringLiteral("%1, %2").arg(name, timeSpan(c));
                for (int k = 2; usedNames.contains(name); ++k) {
                    name = QStringLiteral("%1, %2, record %3")
                               .arg(m_curveIndices.size() > 1 ? QStringLiteral("%1 %2").arg(
                                        QString::fromStdString(c.device), line.name)
                                                              : line.name,
                                   timeSpan(c))
                               .arg(k);
                    color = color.lighter(125);
                }
            }
            usedNames.insert(name);
            m_curveChart->addLine(name, color, c.timestampsNs, toDouble(*line.values), true);
        }
    }
    if (peak >= 0)
        m_curveChart->addMarker(
            tr("peak %1 %2").arg(peakWhat, QString::fromStdString(analysis::formatBytes(peak))),
            peakMarkerColor(), peakNs, static_cast<double>(peak));
}

void MemoryPanel::rebuildGroups()
{
    m_groupChart->clear();
    const analysis::MemoryGroupTimeline &groups = groupTimeline();
    if (groups.timestampsNs.empty()) {
        m_groupNote->setText(
            tr("<h3>No memory categories</h3><p>This rank's profile does not say what its "
               "memory holds (parameters, gradients, optimizer state, activations...), and "
               "there are no per-allocation records to infer it from.</p>")
            + HowToCollect);
        m_groupStack->setCurrentIndex(0);
        fitCategoryNote();
        return;
    }
    m_groupStack->setCurrentIndex(1);
    fitCategoryNote();
    QStringList names;
    QList<QColor> colors;
    std::vector<std::vector<std::int64_t>> rows;
    for (MemoryGroup g : analysis::AllMemoryGroups) {
        const auto &bytes = groups.bytes[static_cast<std::size_t>(g)];
        if (!std::any_of(bytes.begin(), bytes.end(), [](std::int64_t b) { return b != 0; }))
            continue;
        names.append(qs(analysis::memoryGroupName(g)));
        colors.append(groupColor(g));
        rows.push_back(bytes);
    }
    m_groupChart->setTitle(groups.inferred ? tr("Memory by category (inferred from %1), rank %2")
                                                 .arg(QString::fromStdString(groups.source))
                                                 .arg(m_rank)
                                           : tr("Memory by category (%1), rank %2")
                                                 .arg(QString::fromStdString(groups.source))
                                                 .arg(m_rank));
    m_groupChart->addStack(names, colors, groups.timestampsNs, std::move(rows));
    const auto &total = groups.totalBytes;
    if (!total.empty()) {
        const auto it = std::max_element(total.begin(), total.end());
        const auto k = static_cast<std::size_t>(it - total.begin());
        m_groupChart->addMarker(
            tr("peak %1").arg(QString::fromStdString(analysis::formatBytes(*it))),
            peakMarkerColor(), groups.timestampsNs[k], static_cast<double>(*it));
    }
}

} // namespace stepscope::ui
