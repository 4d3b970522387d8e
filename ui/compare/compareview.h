// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "comparedata.h"
#include "comparestrip.h"
#include "deltastrip.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTableWidget;
class QToolButton;

namespace stepscope::ui {
class BarChart;
class KpiStrip;
namespace timeline {
class TimelineView;
}
} // namespace stepscope::ui

namespace stepscope::ui::compare {

class LossPlot;
class RankDeltaPane;

/// Compare mode (DESIGN.md "Compare mode"): "before" above "after", each a TimelineView of
/// its own session with its own lane headers and step lane; both rulers measure from the
/// aligned step's start; zoom and pan locked together (toggle); step pickers on each side
/// override the automatic pairing; an overlay mode draws both step lanes on one axis; delta
/// strips show, per step-lane category, where "after" spends more (red) or less (green)
/// time in the aligned step. Above: the KPI strip before → after. Below: tabs Δ table,
/// Steps (paired bars), Kernels, Host ops and Loss.
///
/// Reads an immutable CompareData; the pairing override, aligned pair, lock and overlay are
/// this widget's own state. GUI thread only.
class CompareView : public QWidget
{
    Q_OBJECT

public:
    explicit CompareView(QWidget *parent = nullptr);
    ~CompareView() override;

    void setData(std::shared_ptr<const CompareData> data);
    const std::shared_ptr<const CompareData> &data() const { return m_data; }
    /// A message in place of the views (loading, failure).
    void setMessage(const QString &text);

    // State.
    bool isLocked() const { return m_locked; }
    void setLocked(bool locked);
    bool isOverlay() const { return m_overlay; }
    void setOverlay(bool overlay);
    /// Overrides the pairing: before step `beforeStep` with after step `afterStep` (numbers);
    /// empty = automatic. The anchored pair becomes the aligned pair.
    void setAnchor(std::optional<analysis::ManualAnchor> anchor);
    std::optional<analysis::ManualAnchor> anchor() const { return m_selection.anchor; }
    /// Compares other ranks (empty side: that run's slowest rank): CompareData::withRanks,
    /// then the pickers, captions, Ranks tab and pairing follow; the automatic pairing.
    void setRanks(CompareRanks ranks);
    /// Aligns pair `index` of the current pairing (clamped) and fits both timelines to it.
    void setPairIndex(std::size_t index);
    /// Aligns the previous (-1) or next (+1) pair: [ and ] in either timeline. Each side moves
    /// to its own step of the pair, not by the other side's step length.
    void stepPair(int direction);
    const analysis::StepPairing &pairing() const { return m_pairing; }
    /// The comparison shown: CompareData's, or compareRuns around the picked anchor.
    const analysis::RunComparison &comparison() const { return m_comparison; }
    const AlignedPair &aligned() const { return m_aligned; }
    /// Fits both timelines to the aligned pair (the longer of the two steps, plus a margin).
    void fitAlignedStep();

    // Training logs (the Loss tab): replaces one side's log (nullptr clears it).
    void setLossLog(bool afterSide, std::shared_ptr<const model::TrainingLog> log);
    const LossOverlay &lossOverlay() const;

    // Parts (tests, export, the main window's menus).
    timeline::TimelineView *beforeView() const { return m_beforeView; }
    timeline::TimelineView *afterView() const { return m_afterView; }
    CompareStrip *strip() const { return m_strip; }
    KpiStrip *kpiStrip() const { return m_kpis; }
    QTableWidget *deltaTable() const { return m_deltaTable; }
    QTableWidget *kernelTable() const { return m_kernelTable; }
    QTableWidget *hostOpTable() const { return m_hostOpTable; }
    QTableWidget *crossCheckTable() const { return m_crossCheckTable; }
    BarChart *stepBars() const { return m_stepBars; }
    /// The Memory tab's chart (memorybars.h; the tab is hidden when neither run records memory).
    BarChart *memoryBars() const { return m_memoryBars; }
    LossPlot *lossPlot() const { return m_lossPlot; }
    QTabWidget *tabs() const { return m_tabs; }
    QComboBox *beforePicker() const { return m_beforePicker; }
    QComboBox *afterPicker() const { return m_afterPicker; }
    QComboBox *beforeRankPicker() const { return m_beforeRankPicker; }
    QComboBox *afterRankPicker() const { return m_afterRankPicker; }
    /// The Ranks tab (both runs clusters; hidden otherwise).
    RankDeltaPane *rankPane() const { return m_rankPane; }
    QLabel *beforeCaption() const { return m_beforeCaption; }
    QLabel *afterCaption() const { return m_afterCaption; }

signals:
    void pairingChanged();
    /// The load openComparePair started ended: the pair is shown (`ok`), or the message says
    /// why it is not.
    void loadFinished(bool ok);

private:
    void buildUi();
    void rebuildPairing();
    void updatePickers();
    void updateRanks();
    void updateKpiScope();
    void onRankPickerChanged();
    void updateTables();
    void updateStepBars();
    void updateMemoryBars();
    void updateStrip();
    void updateLoss();
    void onViewChanged(bool fromAfter);
    void onPickerChanged();
    void addLogClicked(bool afterSide);

    std::shared_ptr<const CompareData> m_data;
    CompareSelection m_selection;
    analysis::RunComparison m_comparison;
    analysis::StepPairing m_pairing;
    AlignedPair m_aligned;
    LogRun m_beforeLog;
    LogRun m_afterLog;
    std::unique_ptr<LossOverlay> m_loss;
    bool m_locked = true;
    bool m_overlay = false;
    bool m_syncing = false;
    bool m_updatingPickers = false;

    QLabel *m_message = nullptr;
    QWidget *m_body = nullptr;
    /// Hidden when two training logs are compared alone: nothing there to show.
    QWidget *m_pairingBar = nullptr; ///< rank and step pickers, lock, overlay
    QWidget *m_kpiScroll = nullptr; ///< around m_kpis
    QWidget *m_timelines = nullptr; ///< captions, timelines and strip
    KpiStrip *m_kpis = nullptr;
    QComboBox *m_beforePicker = nullptr;
    QComboBox *m_afterPicker = nullptr;
    QComboBox *m_beforeRankPicker = nullptr;
    QComboBox *m_afterRankPicker = nullptr;
    RankDeltaPane *m_rankPane = nullptr;
    int m_rankTab = -1;
    QLabel *m_pairingLabel = nullptr;
    QToolButton *m_autoButton = nullptr;
    QToolButton *m_lockButton = nullptr;
    QToolButton *m_overlayButton = nullptr;
    QLabel *m_beforeCaption = nullptr;
    QLabel *m_afterCaption = nullptr;
    timeline::TimelineView *m_beforeView = nullptr;
    timeline::TimelineView *m_afterView = nullptr;
    CompareStrip *m_strip = nullptr;
    QTabWidget *m_tabs = nullptr;
    int m_lossTab = -1;
    QTableWidget *m_deltaTable = nullptr;
    QTableWidget *m_kernelTable = nullptr;
    QTableWidget *m_hostOpTable = nullptr;
    QTableWidget *m_crossCheckTable = nullptr;
    BarChart *m_stepBars = nullptr;
    BarChart *m_memoryBars = nullptr;
    int m_memoryTab = -1;
    LossPlot *m_lossPlot = nullptr;
    QLabel *m_lossSources = nullptr;
};

} // namespace stepscope::ui::compare
