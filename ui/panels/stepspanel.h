// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/analysissummary.h"
#include "model/session.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QStackedWidget;
class QStandardItemModel;
class QTableView;
class QTreeWidget;

namespace stepscope::ui {

class BarChart;
class KpiStrip;

/// The Steps panel (issue 6, item 1): the KPI strip, a stacked bar per step of the selected
/// rank (compute, exposed / overlapped communication, host wait, data loading, launch gaps,
/// other idle, bubble, preparing; the profiler's own step time as a marker when present), the
/// bottleneck ranking with its evidence lines, and a sortable table with every number.
///
/// All numbers come from the load's analysis::SessionAnalysis (breakdowns, KPIs,
/// bottlenecks: computed once, off the GUI thread); the panel only draws them. Clicking a bar, a
/// table row or a bottleneck emits timeRequested with that step's time range. GUI thread only.
class StepsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit StepsPanel(QWidget *parent = nullptr);
    ~StepsPanel() override;

    /// Shows `analysis` of `session` (the loader's; null session: the "no profile" page).
    void setAnalysis(std::shared_ptr<const model::Session> session,
        std::shared_ptr<const analysis::SessionAnalysis> analysis);
    /// For callers without a loader (export, tests): analyses `session` with the current
    /// run config, then setAnalysis.
    void setSession(std::shared_ptr<const model::Session> session);
    /// The KPIs and bottlenecks for a new run config (analysis::withRunConfig: no new
    /// breakdown pass).
    void setRunConfig(const analysis::RunConfig &config);
    /// Shows the bars and table of `rank` (one of the session's ranks).
    void setRank(int rank);

    int currentRank() const;
    const std::vector<analysis::StepBreakdown> &breakdowns() const
    {
        return m_analysis->breakdowns;
    }
    const analysis::Kpis &kpis() const { return m_analysis->kpis; }
    const std::vector<analysis::Bottleneck> &bottlenecks() const { return m_analysis->bottlenecks; }
    const std::shared_ptr<const analysis::SessionAnalysis> &analysis() const { return m_analysis; }
    /// Segment kinds drawn as bar sets, bottom to top (kinds with time in some step).
    const std::vector<analysis::SegmentKind> &shownKinds() const { return m_kinds; }

    BarChart *chart() const { return m_chart; }
    KpiStrip *kpiStrip() const { return m_kpiStrip; }
    QTableView *table() const { return m_table; }
    /// The line beside the rank picker ("1,200 steps, mean 2.00 ms").
    QString summaryText() const;
    QStandardItemModel *tableModel() const { return m_model; }
    QTreeWidget *bottleneckList() const { return m_bottleneckList; }
    /// True when the panel shows its "no data" message instead of charts.
    bool showsMessage() const;
    QString messageText() const;

signals:
    void timeRequested(int rank, qint64 startNs, qint64 endNs);
    /// A KPI lacking an input was clicked: open the run-config dialog.
    void runConfigRequested();

private:
    void showKpis();
    void rebuildRank();
    void fillTable(const std::vector<const analysis::StepBreakdown *> &rows);
    void fillBottlenecks();
    void emitStep(const analysis::StepBreakdown &b);

    std::shared_ptr<const model::Session> m_session;
    analysis::RunConfig m_config;
    std::shared_ptr<const analysis::SessionAnalysis> m_analysis =
        std::make_shared<const analysis::SessionAnalysis>(); // never null
    std::vector<analysis::SegmentKind> m_kinds;
    std::vector<const analysis::StepBreakdown *> m_rankSteps;
    int m_rank = 0;

    QStackedWidget *m_stack = nullptr;
    QLabel *m_message = nullptr;
    KpiStrip *m_kpiStrip = nullptr;
    QComboBox *m_rankBox = nullptr;
    QLabel *m_summary = nullptr;
    BarChart *m_chart = nullptr;
    QTreeWidget *m_bottleneckList = nullptr;
    QStandardItemModel *m_model = nullptr;
    QTableView *m_table = nullptr;
};

/// A step's number as shown: "–" for a step without an id (imported as -1).
QString stepLabel(std::int64_t step);
/// The tooltip of such a step.
QString noStepIdTip();

/// A step's start from the first step shown ("150 ms"): the unit of `spanNs` (first to last
/// start), with the decimals that tell starts `minGapNs` apart. Tested in panels_steps_test.
QString formatStartOffset(std::int64_t offsetNs, std::int64_t spanNs, std::int64_t minGapNs);

} // namespace stepscope::ui
