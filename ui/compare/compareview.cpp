// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "compareview.h"

#include "analysis/units.h"
#include "deltatable.h"
#include "lossplot.h"
#include "memorybars.h"
#include "rankdeltas.h"
#include "ui/charts/barchart.h"
#include "ui/kpistrip.h"
#include "ui/panels/tableitems.h"
#include "ui/text.h"
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

CompareView::CompareView(QWidget *parent)
    : QWidget(parent)
    , m_loss(std::make_unique<LossOverlay>())
{
    setObjectName(QStringLiteral("compareView"));
    buildUi();
}

CompareView::~CompareView() = default;

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
    m_beforeLog = m_data->before.mainLog;
    m_afterLog = m_data->after.mainLog;
    updateLoss();
    updateRanks();
    rebuildPairing();
    // Two training logs and no profile: nothing for the timelines, the step and kernel tabs;
    // the loss curves are the comparison.
    const bool logsOnly = m_data->logsOnly();
    for (QWidget *w : {m_pairingBar, m_kpiScroll, m_timelines})
        w->setVisible(!logsOnly);
    setOverlay(m_overlay); // a side without a profile shows no timeline
    if (logsOnly)
        m_tabs->setCurrentIndex(m_lossTab);
}

/*
 * With several ranks the KPIs cover each whole run (the step time is the slowest rank's),
 * while the lanes, the step picker and the step rows show the compared ranks: the strip
 * says so, as the Δ table's "KPIs (whole runs, all ranks)" section does.
 */
void CompareView::updateKpiScope()
{
    const analysis::RunComparison &c = m_data->comparison;
    if (!c.anyCluster()) {
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
    // Overlay replaces the two step lanes' separate pictures by one axis in the strip. A side
    // with no profile (a training log) keeps its caption, "no profile", and no empty ruler.
    const auto hasTraces = [](const CompareSide *side) {
        return side && side->profile.session && !side->profile.session->traces.empty();
    };
    m_beforeView->setVisible(!overlay && hasTraces(m_data ? &m_data->before : nullptr));
    m_afterView->setVisible(!overlay && hasTraces(m_data ? &m_data->after : nullptr));
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

void CompareView::stepPair(int direction)
{
    if (m_pairing.pairs.empty())
        return;
    const std::size_t index = selectedPairIndex(m_pairing, m_selection);
    if ((direction < 0 && index == 0) || (direction > 0 && index + 1 >= m_pairing.pairs.size()))
        return;
    setPairIndex(direction < 0 ? index - 1 : index + 1);
}

void CompareView::rebuildPairing()
{
    if (!m_data)
        return;
    m_comparison = m_selection.anchor ? m_data->compare(m_selection.anchor, m_beforeLog, m_afterLog)
                                      : m_data->comparison;
    m_pairing = m_comparison.pairing;
    fillNameDeltaTable(m_kernelTable, m_comparison.kernels, m_comparison.perPairedStep);
    fillNameDeltaTable(m_hostOpTable, m_comparison.ops, m_comparison.perPairedStep);
    const std::size_t index = selectedPairIndex(m_pairing, m_selection);
    QString text =
        tr("%1, %2")
            .arg(countText(static_cast<long long>(m_pairing.pairs.size()), tr("pair"), tr("pairs")))
            .arg(QString::fromUtf8(analysis::pairingModeName(m_pairing.mode).data(),
                static_cast<qsizetype>(analysis::pairingModeName(m_pairing.mode).size())));
    if (m_pairing.anchorNotFound)
        text += tr(" (picked step not found: automatic pairing)");
    // A side whose steps are ours (no step markers): said beside the pairing, in full in the
    // tooltip, as the report and compare --json say it.
    QStringList notes;
    for (const std::string &note : m_comparison.stepNotes)
        notes << QString::fromStdString(note);
    if (!notes.isEmpty())
        text += tr(" · ⚠ steps not the profiler's");
    m_pairingLabel->setText(text);
    m_pairingLabel->setToolTip(notes.join(QLatin1Char('\n')));
    updateStepBars();
    updateMemoryBars();
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
            box->addItem(QStringLiteral("%1 (%2)").arg(b.step).arg(durText(b.durationNs())),
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

void CompareView::updateMemoryBars()
{
    if (!m_data)
        return;
    const MemoryBars bars = compare::memoryBars(m_comparison.memoryRows);
    fillMemoryChart(
        *m_memoryBars, bars, m_data->before.name(), m_data->after.name(), currentTheme());
    m_tabs->setTabVisible(m_memoryTab, !bars.empty());
}

void CompareView::setLossLog(bool afterSide, std::shared_ptr<const model::TrainingLog> log)
{
    // A log with several runs: the one `stepscope compare` would compare.
    (afterSide ? m_afterLog : m_beforeLog) = log ? mainLogRun({std::move(log)}) : LogRun {};
    updateLoss();
}

const LossOverlay &CompareView::lossOverlay() const
{
    return *m_loss;
}

void CompareView::updateLoss()
{
    *m_loss = makeLossOverlay(
        m_beforeLog, m_afterLog, m_data ? m_data->thresholds : analysis::TrainingThresholds {});
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
    for (const auto &c : m_loss->crossCheck)
        rows.push_back(analysis::deltaRowOf(c));
    fillDeltaTable(
        m_crossCheckTable, {DeltaSection {tr("Logs' own figures (cross-check)"), std::move(rows)}});
    // The metric names (series, rank, statistic) are long: they get their width first.
    m_crossCheckTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    // Every row in sight below the plot, up to a third of a 900 px tab.
    int height = m_crossCheckTable->horizontalHeader()->sizeHint().height()
        + 2 * m_crossCheckTable->frameWidth();
    for (int r = 0; r < m_crossCheckTable->rowCount(); ++r)
        height += m_crossCheckTable->verticalHeader()->sectionSize(r);
    m_crossCheckTable->setMinimumHeight(std::min(height, 300));
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
