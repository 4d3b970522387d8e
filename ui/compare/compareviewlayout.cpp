// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// CompareView's widgets and their layout (DESIGN.md, compare mode); the behaviour is in
// compareview.cpp.
#include "compareview.h"
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

namespace stepscope::ui::compare {

namespace {

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
    m_pairingBar = new QWidget;
    m_pairingBar->setObjectName(QStringLiteral("pairingBar"));
    auto *bar = new QHBoxLayout(m_pairingBar);
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
    m_pairingLabel->setObjectName(QStringLiteral("pairingLabel"));
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
    body->addWidget(m_pairingBar);

    m_kpis = new KpiStrip;
    // before → after (Δ) for every KPI is wider than most windows: scroll sideways.
    auto *kpiScroll = new QScrollArea;
    m_kpiScroll = kpiScroll;
    kpiScroll->setWidget(m_kpis);
    kpiScroll->setWidgetResizable(true);
    kpiScroll->setFrameShape(QFrame::NoFrame);
    kpiScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    kpiScroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    kpiScroll->setFixedHeight(m_kpis->sizeHint().height() + 14);
    body->addWidget(kpiScroll);

    // Centre: before, strip, after.
    auto *centre = new QWidget;
    centre->setObjectName(QStringLiteral("compareTimelines"));
    m_timelines = centre;
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
    for (auto *view : {m_beforeView, m_afterView}) {
        view->setMinimumHeight(80);
        view->setStepKeysForwarded(true);
        connect(view, &timeline::TimelineView::stepKeyPressed, this, &CompareView::stepPair);
    }
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
    m_memoryBars = new BarChart;
    m_memoryBars->setObjectName(QStringLiteral("memoryBars"));
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
    // The plot above its figures: the table's six columns need the tab's whole width (beside
    // the plot they were scrolled out of sight).
    auto *lossSplit = new QSplitter(Qt::Vertical);
    m_lossPlot = new LossPlot;
    m_crossCheckTable = makeTable(QStringLiteral("crossCheckTable"));
    lossSplit->addWidget(m_lossPlot);
    lossSplit->addWidget(m_crossCheckTable);
    lossSplit->setStretchFactor(0, 3);
    lossSplit->setStretchFactor(1, 1);
    ll->addWidget(lossSplit, 1);
    m_tabs->addTab(m_deltaTable, tr("Δ table"));
    m_tabs->addTab(m_stepBars, tr("Steps"));
    m_memoryTab = m_tabs->addTab(m_memoryBars, tr("Memory"));
    m_tabs->addTab(m_kernelTable, tr("Kernels"));
    m_tabs->addTab(m_hostOpTable, tr("Host ops"));
    m_lossTab = m_tabs->addTab(lossTab, tr("Loss"));
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

} // namespace stepscope::ui::compare
