// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/analysissummary.h"
#include "analysis/kpis.h"
#include "analysis/memorycategories.h"
#include "model/session.h"

#include <QWidget>

#include <map>
#include <memory>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QSplitter;
class QStackedWidget;
class QStandardItemModel;
class QTableView;

namespace stepscope::ui {

class BarChart;
class TimeChart;

/// The Memory panel (issue 6, item 2), for one rank at a time:
/// - memory over time: allocated / reserved / active of one allocator component (PTA, GE, a
///   CUDA device...), the allocated peak marked;
/// - the category stack over time (MemorySummary::groups: PyTorch's categories, or
///   inferred ones from Ascend operator_memory.csv; HCCL memory as communication buffers), its
///   peak marked;
/// - the peak broken down by category (bars), beside the run-config estimate of model state;
/// - a sortable allocation table (op, size, allocated at, released at, lifetime, category).
/// Parts the profile lacks say so and how to collect them. Clicking a memory point or an
/// allocation emits timeRequested. GUI thread only.
class MemoryPanel : public QWidget
{
    Q_OBJECT
public:
    explicit MemoryPanel(QWidget *parent = nullptr);
    ~MemoryPanel() override;

    /// The profile and the load's analysis of it: the panel shows the analysis' memory
    /// summaries (MemorySummary, with their group series) and computes none itself.
    /// `zeroByRank`: as setTimeZeros.
    void setAnalysis(std::shared_ptr<const model::Session> session,
        std::shared_ptr<const analysis::SessionAnalysis> analysis,
        std::map<int, std::int64_t> zeroByRank = {});
    void setRunConfig(const analysis::RunConfig &config);
    /// The time the timeline's ruler calls 0, per rank, in that rank's trace time: the charts'
    /// time axes and the table's times count from it, so a time read here is the time on the
    /// ruler. A rank without one (no timeline shown) counts from its first memory record.
    void setTimeZeros(std::map<int, std::int64_t> zeroByRank);
    /// The current rank's zero of the shown times (trace time).
    std::int64_t timeZero() const { return m_timeZero; }
    void setRank(int rank);
    /// Selects the allocator component of the curve chart ("PTA", "GE", ...).
    void setComponent(const QString &component);

    int currentRank() const { return m_rank; }
    QString currentComponent() const;
    QStringList components() const;
    /// The shown rank's group series (empty when it has none).
    const analysis::MemoryGroupTimeline &groupTimeline() const;
    const analysis::MemorySummary &summary() const { return m_summary; }

    TimeChart *curveChart() const { return m_curveChart; }
    TimeChart *categoryChart() const { return m_groupChart; }
    BarChart *peakChart() const { return m_peakChart; }
    QTableView *allocationTable() const { return m_table; }
    QStandardItemModel *allocationModel() const { return m_model; }
    bool showsMessage() const;
    QString messageText() const;
    /// Texts shown in place of a part the profile lacks (empty when the part is shown).
    QString curveNote() const;
    QString categoryNote() const;
    QString allocationNote() const;
    /// The sentences under the peak-by-category chart.
    QString peakNote() const;
    /// The line above the allocation table: where its rows come from (empty when hidden).
    QString allocationSource() const;
    /// The four parts side by side (a short, wide dock) rather than in two columns of two.
    bool sideBySide() const { return m_sideBySide; }

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void timeRequested(int rank, qint64 startNs, qint64 endNs);
    void runConfigRequested();

private:
    const model::Trace *trace() const;
    void rebuildRank();
    void rebuildCurves();
    std::int64_t memoryStartNs() const;
    /// The empty stretches the charts draw short, for data spanning `extentNs`.
    std::vector<std::pair<std::int64_t, std::int64_t>> captureGaps(std::int64_t extentNs) const;
    void alignTimeBase();
    void rebuildGroups();
    void rebuildPeak();
    void rebuildAllocations();
    void arrange();
    void fitCategoryNote();

    std::shared_ptr<const model::Session> m_session;
    std::shared_ptr<const analysis::SessionAnalysis> m_analysis;
    analysis::RunConfig m_config;
    int m_rank = 0;
    analysis::MemorySummary m_summary;
    std::map<int, std::int64_t> m_zeroByRank;
    std::int64_t m_timeZero = 0;
    std::vector<std::size_t> m_curveIndices; // curves of the chosen component

    QComboBox *m_rankBox = nullptr;
    QLabel *m_componentLabel = nullptr;
    QComboBox *m_componentBox = nullptr;
    QStackedWidget *m_stack = nullptr;
    QLabel *m_message = nullptr;
    QSplitter *m_columns = nullptr; ///< the time charts | the peak chart and the table
    QSplitter *m_left = nullptr; ///< the two time charts
    QSplitter *m_right = nullptr; ///< the peak chart, the allocation table
    bool m_sideBySide = false;
    QStackedWidget *m_curveStack = nullptr;
    QLabel *m_curveNote = nullptr;
    TimeChart *m_curveChart = nullptr;
    QStackedWidget *m_groupStack = nullptr;
    QLabel *m_groupNote = nullptr;
    TimeChart *m_groupChart = nullptr;
    BarChart *m_peakChart = nullptr;
    QLabel *m_peakNote = nullptr;
    QLabel *m_allocationNote = nullptr;
    QLabel *m_allocationSource = nullptr; ///< where the listed allocations come from
    QStandardItemModel *m_model = nullptr;
    QTableView *m_table = nullptr;
};

} // namespace stepscope::ui
