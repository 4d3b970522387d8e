// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "compareview.h"

#include "analysis/units.h"
#include "deltatable.h"
#include "lossplot.h"
#include "rankdeltas.h"
#include "ui/charts/barchart.h"
#include "ui/kpistrip.h"
#include "ui/timeline/timelineview.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace stepscope::ui::compare {

namespace {

QString dur(std::int64_t ns)
{
    return QString::fromStdString(analysis::formatDuration(ns));
}

QTableWidget *makeTable(const QString &name)
{
    auto *t = new QTableWidget;
    t->setObjectName(name);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    return t;
}

QToolButton *makeToggle(const QString &text, const QString &tip, bool checked)
{
    auto *b = new QToolButton;
    b->setText(text);
    b->setToolTip(tip);
    b->setCheckable(true);
    b->setChecked(checked);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return b;
}

} // namespace

CompareView::CompareView(QWidget *parent)
    : QWidget(parent)
    , m_loss(std::make_unique<LossOverlay>())
{
    setObjectName(QStringLiteral("compareView"));
    buildUi();
}

CompareView::~CompareView() = default;

void CompareView::buildUi()
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);
    m_message = new QLabel(this);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->hide();
    outer->addWidget(m_message);

    m_body = new QWidget(this);
    outer->addWidget(m_body, 1);
    auto *body = new QVBoxLayout(m_body);
    body->setContentsMargins(0, 0, 0, 0);
    body->setSpacing(2);

    // Pairing bar: pickers, automatic pairing, lock, overlay.
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 2);
    m_beforePicker = new QComboBox;
    m_beforePicker->setObjectName(QStringLiteral("beforeStepPicker"));
    m_beforePicker->setToolTip(tr("Step of \"before\" to align (overrides the automatic pairing)"));
    m_afterPicker = new QComboBox;
    m_afterPicker->setObjectName(QStringLiteral("afterStepPicker"));
    m_afterPicker->setToolTip(tr("Step of \"after\" to align (overrides the automatic pairing)"));
    m_beforeRankPicker = new QComboBox;
    m_beforeRankPicker->setObjectName(QStringLiteral("beforeRankPicker"));
    m_beforeRankPicker->setToolTip(tr("Rank of \"before\" to compare (default: its slowest rank)"));
    m_afterRankPicker = new QComboBox;
    m_afterRankPicker->setObjectName(QStringLiteral("afterRankPicker"));
    m_afterRankPicker->setToolTip(tr("Rank of \"after\" to compare (default: its slowest rank)"));
    for (QComboBox *picker : {m_beforePicker, m_afterPicker, m_beforeRankPicker, m_afterRankPicker})
        picker->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_autoButton = new QToolButton;
    m_autoButton->setText(tr("Auto pairing"));
    m_autoButton->setToolTip(tr("Pair equal step numbers when both runs have them, else by order"));
    m_pairingLabel = new QLabel;
    m_lockButton = makeToggle(tr("Lock zoom"), tr("Zoom and pan both timelines together"), true);
    m_lockButton->setObjectName(QStringLiteral("lockButton"));
    m_overlayButton = makeToggle(tr("Overlay"), tr("Draw both step lanes on one axis"), false);
    m_overlayButton->setObjectName(QStringLiteral("overlayButton"));
    auto *fit = new QToolButton;
    fit->setText(tr("Fit aligned step"));
    bar->addWidget(new QLabel(tr("Before rank")));
    bar->addWidget(m_beforeRankPicker);
    bar->addWidget(new QLabel(tr("↔ after rank")));
    bar->addWidget(m_afterRankPicker);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("Before step")));
    bar->addWidget(m_beforePicker);
    bar->addWidget(new QLabel(tr("↔ after step")));
    bar->addWidget(m_afterPicker);
    bar->addWidget(m_autoButton);
    bar->addWidget(m_pairingLabel, 1);
    bar->addWidget(fit);
    bar->addWidget(m_lockButton);
    bar->addWidget(m_overlayButton);
    body->addLayout(bar);

    m_kpis = new KpiStrip;
    // before → after (Δ) for every KPI is wider than most windows: scroll sideways.
    auto *kpiScroll = new QScrollArea;
    kpiScroll->setWidget(m_kpis);
    kpiScroll->setWidgetResizable(true);
    kpiScroll->setFrameShape(QFrame::NoFrame);
    kpiScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    kpiScroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    kpiScroll->setFixedHeight(m_kpis->sizeHint().height() + 14);
    body->addWidget(kpiScroll);

    // Centre: before, strip, after.
    auto *centre = new QWidget;
    auto *cl = new QVBoxLayout(centre);
    cl->setContentsMargins(0, 0, 0, 0);
    cl->setSpacing(0);
    m_beforeCaption = new QLabel;
    m_afterCaption = new QLabel;
    for (QLabel *l : {m_beforeCaption, m_afterCaption}) {
        l->setContentsMargins(6, 2, 6, 2);
        QFont f = l->font();
        f.setBold(true);
        l->setFont(f);
    }
    m_beforeView = new timeline::TimelineView;
    m_beforeView->setObjectName(QStringLiteral("beforeTimeline"));
    m_afterView = new timeline::TimelineView;
    m_afterView->setObjectName(QStringLiteral("afterTimeline"));
    m_strip = new CompareStrip;
    for (auto *view : {m_beforeView, m_afterView})
        view->setMinimumHeight(120);
    cl->addWidget(m_beforeCaption);
    cl->addWidget(m_beforeView, 1);
    cl->addWidget(m_strip);
    cl->addWidget(m_afterCaption);
    cl->addWidget(m_afterView, 1);
    cl->addStretch(0); // takes the room of the hidden timelines in overlay mode

    // Bottom tabs.
    m_tabs = new QTabWidget;
    m_deltaTable = makeTable(QStringLiteral("deltaTable"));
    m_kernelTable = makeTable(QStringLiteral("kernelDeltaTable"));
    m_hostOpTable = makeTable(QStringLiteral("hostOpDeltaTable"));
    m_stepBars = new BarChart;
    m_stepBars->setObjectName(QStringLiteral("pairedStepBars"));
    auto *lossTab = new QWidget;
    auto *ll = new QVBoxLayout(lossTab);
    ll->setContentsMargins(4, 4, 4, 4);
    auto *lossBar = new QHBoxLayout;
    auto *addBefore = new QPushButton(tr("Before log…"));
    auto *addAfter = new QPushButton(tr("After log…"));
    m_lossSources = new QLabel;
    m_lossSources->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lossSources->setWordWrap(true);
    m_lossSources->setSizePolicy(
        QSizePolicy::Ignored, QSizePolicy::Preferred); // long paths must not widen the window
    lossBar->addWidget(addBefore);
    lossBar->addWidget(addAfter);
    lossBar->addWidget(m_lossSources, 1);
    ll->addLayout(lossBar);
    auto *lossSplit = new QSplitter(Qt::Horizontal);
    m_lossPlot = new LossPlot;
    m_crossCheckTable = makeTable(QStringLiteral("crossCheckTable"));
    lossSplit->addWidget(m_lossPlot);
    lossSplit->addWidget(m_crossCheckTable);
    lossSplit->setStretchFactor(0, 1);
    lossSplit->setStretchFactor(1, 1);
    ll->addWidget(lossSplit, 1);
    m_tabs->addTab(m_deltaTable, tr("Δ table"));
    m_tabs->addTab(m_stepBars, tr("Steps"));
    m_tabs->addTab(m_kernelTable, tr("Kernels"));
    m_tabs->addTab(m_hostOpTable, tr("Host ops"));
    m_tabs->addTab(lossTab, tr("Loss"));
    m_rankPane = new RankDeltaPane;
    m_rankTab = m_tabs->addTab(m_rankPane, tr("Ranks"));
    m_tabs->setTabVisible(m_rankTab, false);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(centre);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({700, 260});
    body->addWidget(split, 1);

    connect(
        m_beforeView, &timeline::TimelineView::viewChanged, this, [this] { onViewChanged(false); });
    connect(
        m_afterView, &timeline::TimelineView::viewChanged, this, [this] { onViewChanged(true); });
    connect(m_beforePicker, &QComboBox::currentIndexChanged, this, [this] { onPickerChanged(); });
    connect(m_afterPicker, &QComboBox::currentIndexChanged, this, [this] { onPickerChanged(); });
    connect(m_beforeRankPicker, &QComboBox::currentIndexChanged, this,
        [this] { onRankPickerChanged(); });
    connect(m_afterRankPicker, &QComboBox::currentIndexChanged, this,
        [this] { onRankPickerChanged(); });
    connect(m_rankPane, &RankDeltaPane::rankActivated, this, [this](std::int32_t rank) {
        setRanks({rank, rank});
    });
    connect(m_autoButton, &QToolButton::clicked, this, [this] { setAnchor(std::nullopt); });
    connect(m_lockButton, &QToolButton::toggled, this, &CompareView::setLocked);
    connect(m_overlayButton, &QToolButton::toggled, this, &CompareView::setOverlay);
    connect(fit, &QToolButton::clicked, this, &CompareView::fitAlignedStep);
    // The strip steers "before" (and, locked, "after" follows): overlay mode hides both views.
    connect(m_strip, &CompareStrip::zoomRequested, this,
        [this](double x, double f) { m_beforeView->zoomAt(x, f); });
    connect(m_strip, &CompareStrip::panRequested, this,
        [this](double dx) { m_beforeView->panByPx(dx); });
    connect(addBefore, &QPushButton::clicked, this, [this] { addLogClicked(false); });
    connect(addAfter, &QPushButton::clicked, this, [this] { addLogClicked(true); });
}

void CompareView::setMessage(const QString &text)
{
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    m_body->setVisible(text.isEmpty());
}

void CompareView::setData(std::shared_ptr<const CompareData> data)
{
    m_data = std::move(data);
    m_selection = {};
    setMessage(QString());
    if (!m_data)
        return;
    m_beforeCaption->setToolTip(m_data->before.profile.path);
    m_afterCaption->setToolTip(m_data->after.profile.path);
    m_syncing = true;
    m_beforeView->setModel(m_data->before.profile.timeline);
    m_afterView->setModel(m_data->after.profile.timeline);
    for (auto [view, model] : {std::pair(m_beforeView, m_data->before.profile.timeline.get()),
             std::pair(m_afterView, m_data->after.profile.timeline.get())}) {
        if (model)
            for (const QString &key : hostOnlyProcessKeys(*model))
                view->setCollapsed(key, true);
    }
    m_syncing = false;
    m_kpis->setComparison(
        m_data->before.analysis->kpis, m_data->after.analysis->kpis, m_data->comparison.kpiRows);
    updateKpiScope();
    m_beforeLog = m_data->before.logs.empty() ? nullptr : m_data->before.logs.front();
    m_afterLog = m_data->after.logs.empty() ? nullptr : m_data->after.logs.front();
    updateLoss();
    updateRanks();
    rebuildPairing();
}

/*
 * With several ranks the KPIs cover each whole run (the step time is the slowest rank's),
 * while the lanes, the step picker and the step rows show the compared ranks: the strip
 * says so, as the Δ table's "KPIs (whole runs, all ranks)" section does.
 */
void CompareView::updateKpiScope()
{
    const analysis::RunComparison &c = m_data->comparison;
    if (c.beforeRanks.size() <= 1 && c.afterRanks.size() <= 1) {
        m_kpis->setScope({});
        return;
    }
    m_kpis->setScope(tr("Whole runs, all ranks:"),
        tr("These KPIs are computed over all ranks of each run (%1 and %2 ranks; the step time "
           "is the slowest rank's). The lanes, the step picker and the step rows below compare "
           "rank %3 of before with rank %4 of after.")
            .arg(c.beforeRanks.size())
            .arg(c.afterRanks.size())
            .arg(c.beforeRank)
            .arg(c.afterRank));
}

void CompareView::setRanks(CompareRanks ranks)
{
    if (!m_data)
        return;
    m_data = m_data->withRanks(ranks);
    m_selection = {};
    updateKpiScope();
    updateRanks();
    rebuildPairing();
}

void CompareView::updateRanks()
{
    const analysis::RunComparison &c = m_data->comparison;
    m_beforeCaption->setText(
        tr("Before: %1 · %2")
            .arg(m_data->before.name(), QString::fromStdString(analysis::rankCaption(c, false))));
    m_afterCaption->setText(
        tr("After: %1 · %2")
            .arg(m_data->after.name(), QString::fromStdString(analysis::rankCaption(c, true))));
    m_updatingPickers = true;
    const auto fill = [](QComboBox *box, const CompareSide &side,
                          const std::vector<std::int32_t> &ranks, std::int32_t current) {
        box->clear();
        const std::int32_t slowest =
            analysis::defaultCompareRank(*side.profile.session, side.analysis->breakdowns);
        for (std::int32_t r : ranks)
            box->addItem(r == slowest ? tr("rank %1 (slowest)").arg(r) : tr("rank %1").arg(r),
                QVariant::fromValue<qint32>(r));
        box->setCurrentIndex(std::max(0, box->findData(QVariant::fromValue<qint32>(current))));
        box->setEnabled(ranks.size() > 1);
    };
    fill(m_beforeRankPicker, m_data->before, c.beforeRanks, c.beforeRank);
    fill(m_afterRankPicker, m_data->after, c.afterRanks, c.afterRank);
    m_updatingPickers = false;
    // Each timeline opens on the compared rank: the other ranks fold to their step lane.
    for (auto [view, side] :
        {std::pair(m_beforeView, &m_data->before), std::pair(m_afterView, &m_data->after)}) {
        if (!side->profile.timeline || side->profile.session->traces.size() < 2)
            continue;
        const std::int32_t rank = side == &m_data->before ? c.beforeRank : c.afterRank;
        for (const timeline::Lane &lane : side->profile.timeline->lanes())
            if (lane.kind == timeline::LaneKind::Rank)
                view->setCollapsed(lane.key, lane.rank != rank);
    }
    m_rankPane->setComparison(c);
    m_tabs->setTabVisible(m_rankTab, c.bothClusters());
}

void CompareView::onRankPickerChanged()
{
    if (m_updatingPickers || !m_data || m_beforeRankPicker->currentIndex() < 0
        || m_afterRankPicker->currentIndex() < 0)
        return;
    const analysis::RunComparison &c = m_data->comparison;
    const auto picked = [](QComboBox *box, std::int32_t current, analysis::RankChoice choice,
                            std::optional<std::int32_t> asked) -> std::optional<std::int32_t> {
        const auto r = static_cast<std::int32_t>(box->currentData().toInt());
        // Left on the default: stay "slowest".
        if (r == current && choice == analysis::RankChoice::Slowest && !asked)
            return std::nullopt;
        return r;
    };
    const CompareRanks ranks {
        picked(m_beforeRankPicker, c.beforeRank, c.beforeRankChoice, m_data->ranks.before),
        picked(m_afterRankPicker, c.afterRank, c.afterRankChoice, m_data->ranks.after)};
    if (ranks.before == m_data->ranks.before && ranks.after == m_data->ranks.after)
        return;
    setRanks(ranks);
}

void CompareView::setLocked(bool locked)
{
    m_locked = locked;
    if (m_lockButton->isChecked() != locked)
        m_lockButton->setChecked(locked);
    if (locked)
        onViewChanged(false); // the after side follows before again
}

void CompareView::setOverlay(bool overlay)
{
    m_overlay = overlay;
    if (m_overlayButton->isChecked() != overlay)
        m_overlayButton->setChecked(overlay);
    // Overlay replaces the two step lanes' separate pictures by one axis in the strip.
    m_beforeView->setVisible(!overlay);
    m_afterView->setVisible(!overlay);
    m_beforeCaption->setVisible(!overlay);
    m_afterCaption->setVisible(!overlay);
    updateStrip();
}

void CompareView::setAnchor(std::optional<analysis::ManualAnchor> anchor)
{
    m_selection.anchor = anchor;
    m_selection.pairIndex.reset();
    rebuildPairing();
}

void CompareView::setPairIndex(std::size_t index)
{
    m_selection.pairIndex =
        m_pairing.pairs.empty() ? 0 : std::min(index, m_pairing.pairs.size() - 1);
    // (An explicit index from here on: moving along the pairs keeps the anchor's offset.)
    m_aligned = m_data ? alignedPair(*m_data, m_pairing, m_selection) : AlignedPair {};
    updatePickers();
    updateTables();
    m_beforeView->setRulerOrigin(m_aligned.beforeStartNs);
    m_afterView->setRulerOrigin(m_aligned.afterStartNs);
    fitAlignedStep();
    emit pairingChanged();
}

void CompareView::rebuildPairing()
{
    if (!m_data)
        return;
    m_comparison = m_selection.anchor
        ? m_data->compare(m_selection.anchor, m_beforeLog.get(), m_afterLog.get())
        : m_data->comparison;
    m_pairing = m_comparison.pairing;
    fillNameDeltaTable(m_kernelTable, m_comparison.kernels);
    fillNameDeltaTable(m_hostOpTable, m_comparison.ops);
    const std::size_t index =
        m_selection.pairIndex.value_or(defaultPairIndex(m_pairing, m_selection.anchor));
    QString text =
        tr("%1 pairs, %2")
            .arg(m_pairing.pairs.size())
            .arg(QString::fromUtf8(analysis::pairingModeName(m_pairing.mode).data(),
                static_cast<qsizetype>(analysis::pairingModeName(m_pairing.mode).size())));
    if (m_pairing.anchorNotFound)
        text += tr(" (picked step not found: automatic pairing)");
    m_pairingLabel->setText(text);
    updateStepBars();
    setPairIndex(index);
}

void CompareView::updatePickers()
{
    if (!m_data)
        return;
    m_updatingPickers = true;
    auto fill = [](QComboBox *box, const CompareSide &side, std::int64_t current) {
        box->clear();
        for (const auto &b : side.breakdowns)
            box->addItem(QStringLiteral("%1 (%2)").arg(b.step).arg(dur(b.durationNs())),
                QVariant::fromValue<qint64>(b.step));
        const int i = box->findData(QVariant::fromValue<qint64>(current));
        box->setCurrentIndex(std::max(0, i));
    };
    fill(m_beforePicker, m_data->before, m_aligned.valid ? m_aligned.pair.beforeStep : 0);
    fill(m_afterPicker, m_data->after, m_aligned.valid ? m_aligned.pair.afterStep : 0);
    m_updatingPickers = false;
}

void CompareView::onPickerChanged()
{
    if (m_updatingPickers || !m_data || m_beforePicker->currentIndex() < 0
        || m_afterPicker->currentIndex() < 0)
        return;
    analysis::ManualAnchor a;
    a.beforeStep = m_beforePicker->currentData().toLongLong();
    a.afterStep = m_afterPicker->currentData().toLongLong();
    if (m_aligned.valid && a.beforeStep == m_aligned.pair.beforeStep
        && a.afterStep == m_aligned.pair.afterStep)
        return;
    setAnchor(a);
}

void CompareView::fitAlignedStep()
{
    if (!m_aligned.valid)
        return;
    const std::int64_t span = std::max<std::int64_t>(1, m_aligned.longestNs());
    const std::int64_t pad = std::max<std::int64_t>(1, span / 50);
    m_syncing = true;
    m_beforeView->fitRange(
        m_aligned.beforeStartNs - pad, m_aligned.beforeStartNs + span + pad, false);
    m_afterView->fitRange(m_aligned.afterStartNs - pad, m_aligned.afterStartNs + span + pad, false);
    m_syncing = false;
    onViewChanged(false); // locked: after takes before's exact window (views may differ in width)
}

void CompareView::onViewChanged(bool fromAfter)
{
    if (m_syncing)
        return;
    if (m_locked && m_aligned.valid) {
        // Both windows start at the same time relative to their aligned step, same scale.
        timeline::TimelineView *leader = fromAfter ? m_afterView : m_beforeView;
        timeline::TimelineView *follower = fromAfter ? m_beforeView : m_afterView;
        const std::int64_t leaderAnchor =
            fromAfter ? m_aligned.afterStartNs : m_aligned.beforeStartNs;
        const std::int64_t followerAnchor =
            fromAfter ? m_aligned.beforeStartNs : m_aligned.afterStartNs;
        const timeline::TimeAxis &axis = leader->viewState().axis;
        m_syncing = true;
        follower->setVisibleWindow(
            axis.startNs() - leaderAnchor + followerAnchor, axis.nsPerPixel());
        m_syncing = false;
    }
    updateStrip();
}

void CompareView::updateStrip()
{
    if (!m_data || !m_data->before.profile.timeline || !m_data->after.profile.timeline)
        return;
    StripPicture p;
    const timeline::TimeAxis &axis = m_beforeView->viewState().axis;
    p.axis = timeline::TimeAxis(
        axis.startNs() - m_aligned.beforeStartNs, axis.nsPerPixel(), axis.widthPx());
    p.beforeSegments = m_data->before.stepSegments();
    p.afterSegments = m_data->after.stepSegments();
    p.beforeAnchorNs = m_aligned.beforeStartNs;
    p.afterAnchorNs = m_aligned.afterStartNs;
    p.beforeLengthNs = m_aligned.beforeEndNs - m_aligned.beforeStartNs;
    p.afterLengthNs = m_aligned.afterEndNs - m_aligned.afterStartNs;
    if (m_aligned.valid) {
        p.strips = computeDeltaStrips(p.beforeSegments, m_aligned.beforeStartNs,
            m_aligned.beforeEndNs, p.afterSegments, m_aligned.afterStartNs, m_aligned.afterEndNs);
        p.beforeLabel = tr("before · step %1").arg(m_aligned.pair.beforeStep);
        p.afterLabel = tr("after · step %1").arg(m_aligned.pair.afterStep);
    }
    p.overlay = m_overlay;
    p.colors = m_beforeView->viewState().colors;
    p.theme = m_beforeView->viewState().theme;
    m_strip->setPicture(std::move(p));
}

void CompareView::updateTables()
{
    if (!m_data)
        return;
    fillDeltaTable(m_deltaTable, deltaSections(m_comparison, m_aligned));
}

void CompareView::updateStepBars()
{
    if (!m_data)
        return;
    QStringList categories;
    BarSetData before {tr("before"), beforeColor(currentTheme()), {}};
    BarSetData after {tr("after"), afterColor(currentTheme()), {}};
    for (const auto &pair : m_pairing.pairs) {
        categories << (pair.beforeStep == pair.afterStep
                ? QString::number(pair.beforeStep)
                : QStringLiteral("%1↔%2").arg(pair.beforeStep).arg(pair.afterStep));
        before.values << static_cast<double>(
            m_comparison.beforeSteps[pair.beforeIndex].durationNs());
        after.values << static_cast<double>(m_comparison.afterSteps[pair.afterIndex].durationNs());
    }
    m_stepBars->setTitle(tr("Paired step times"));
    m_stepBars->setValueUnit(ValueUnit::Duration);
    m_stepBars->setCategoryAxisTitle(tr("step (before↔after)"));
    m_stepBars->setData(categories, {before, after}, BarChart::Mode::Grouped);
}

void CompareView::setLossLog(bool afterSide, std::shared_ptr<const model::TrainingLog> log)
{
    (afterSide ? m_afterLog : m_beforeLog) = std::move(log);
    updateLoss();
}

const LossOverlay &CompareView::lossOverlay() const
{
    return *m_loss;
}

void CompareView::updateLoss()
{
    *m_loss = makeLossOverlay(m_beforeLog, m_afterLog);
    m_lossPlot->setOverlay(*m_loss);
    auto src = [](const QString &s) { return s.isEmpty() ? QStringLiteral("—") : s; };
    QString text =
        tr("before: %1 · after: %2").arg(src(m_loss->beforeSource), src(m_loss->afterSource));
    for (const auto &log : {m_loss->beforeLog, m_loss->afterLog})
        if (log && log->badLineCount > 0)
            text += tr(" · %1 unparsed lines in %2 (first at line %3)")
                        .arg(log->badLineCount)
                        .arg(QString::fromStdString(log->source))
                        .arg(log->issues.empty() ? 0 : log->issues.front().line);
    m_lossSources->setText(text);
    std::vector<analysis::DeltaRow> rows;
    for (const auto &c : m_loss->crossCheck) {
        analysis::DeltaRow r = c.row;
        r.label +=
            " (" + std::string(analysis::crossCheckStatisticName(c.statistic)) + ", as printed)";
        rows.push_back(std::move(r));
    }
    fillDeltaTable(
        m_crossCheckTable, {DeltaSection {tr("Logs' own figures (cross-check)"), std::move(rows)}});
    // A narrow pane: the metric names need their width more than the numbers do.
    m_crossCheckTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
}

void CompareView::addLogClicked(bool afterSide)
{
    const QString start =
        m_data ? (afterSide ? m_data->after.profile.path : m_data->before.profile.path) : QString();
    const QString file = QFileDialog::getOpenFileName(this,
        afterSide ? tr("Training log of \"after\"") : tr("Training log of \"before\""), start);
    if (file.isEmpty())
        return;
    auto log = readLog(file);
    if (!log) {
        m_lossSources->setText(tr("%1: no training-log records found").arg(file));
        return;
    }
    setLossLog(afterSide, std::move(log));
}

} // namespace stepscope::ui::compare
