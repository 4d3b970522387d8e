// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/analysissummary.h"
#include "model/ids.h"
#include "model/session.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QStackedWidget;
class QStandardItemModel;
class QTableView;

namespace stepscope::ui {

class KernelFilter;

/// The Kernels panel (DESIGN.md's bottom tabs), for one rank at a time: the rank's device
/// kernels by name (analysis::KernelSummary, from the load's analysis: count, total, share of
/// the rank's kernel time, mean, median, min, max, standard deviation), largest total first,
/// filtered by a name fragment and by category (compute, communication, memcpy, memset), of
/// the whole run or of one step (summarised from the trace when chosen). A filtered table says
/// what its rows add up to.
/// Where the profiler wrote its own table by op type (Ascend op_statistic.csv), "Group by"
/// shows that table as written instead (KernelSummary::opTypes: the profiler's figures).
/// Clicking a row emits eventRequested with the longest instance of that name; double-clicking
/// it emits searchRequested with the name (the search then steps through every instance). A
/// profile without device kernels says so and how to record them. GUI thread only.
class KernelsPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Grouping { Name, OpType };

    explicit KernelsPanel(QWidget *parent = nullptr);
    ~KernelsPanel() override;

    /// The profile and the load's analysis of it: the table is SessionAnalysis::kernels of the
    /// chosen rank, or analysis::summarizeKernels over one of its steps.
    void setAnalysis(std::shared_ptr<const model::Session> session,
        std::shared_ptr<const analysis::SessionAnalysis> analysis);
    void setRank(int rank);
    /// Shows only the names holding `text` (any case); empty shows all.
    void setFilter(const QString &text);
    /// Shows only the kernels of this category (model::categoryName); empty shows all.
    void setCategoryFilter(const QString &category);
    /// Only the kernels that start in one step of the rank (the Steps panel's steps, the
    /// profiler's ids), or all of them (nullopt). A step the rank lacks shows all.
    void setStep(std::optional<std::int64_t> step);
    std::optional<std::int64_t> currentStep() const { return m_step; }
    /// By our name or by the profiler's op type; OpType only where the rank has that table.
    void setGrouping(Grouping grouping);
    Grouping grouping() const { return m_grouping; }
    /// Whether the shown rank has the profiler's table by op type.
    bool hasOpTypes() const;

    int currentRank() const { return m_rank; }
    /// The shown rank's summary (of the chosen step), nullptr when it has no kernels.
    const analysis::KernelSummary *summary() const { return m_summary; }
    QTableView *table() const { return m_table; }
    /// All the rows; the view shows them through the name filter (table()->model()).
    QStandardItemModel *tableModel() const { return m_model; }
    /// The line above the table (counts and totals, and those of the rows a filter leaves),
    /// empty when the message shows.
    QString headline() const;
    bool showsMessage() const;
    QString messageText() const;

signals:
    /// The longest kernel of a clicked row's name: its rank and event.
    void eventRequested(int rank, stepscope::model::EventRef event);
    /// A row's name, for the timeline's search.
    void searchRequested(const QString &name);

private:
    void rebuild();
    void fillSteps();
    void fillNames(const analysis::KernelSummary &k);
    void fillOpTypes(const analysis::KernelSummary &k);
    void fillCategories(const analysis::KernelSummary &k);
    /// The headline of the whole table, and what the filtered rows add up to.
    void showHeadline();

    std::shared_ptr<const model::Session> m_session;
    std::shared_ptr<const analysis::SessionAnalysis> m_analysis;
    const analysis::KernelSummary *m_summary = nullptr;
    /// The chosen step's kernels, summarised from the trace when a step is chosen.
    analysis::KernelSummary m_stepSummary;
    int m_rank = 0;
    std::optional<std::int64_t> m_step;
    Grouping m_grouping = Grouping::Name;
    bool m_showsOpTypes = false; ///< the profiler's op-type table is what the rows are

    QStackedWidget *m_stack = nullptr;
    QLabel *m_message = nullptr;
    QComboBox *m_rankBox = nullptr;
    QComboBox *m_stepBox = nullptr;
    QLabel *m_groupLabel = nullptr;
    QComboBox *m_groupBox = nullptr;
    QLineEdit *m_filter = nullptr;
    QLabel *m_categoryLabel = nullptr;
    QComboBox *m_categoryBox = nullptr;
    QLabel *m_headline = nullptr;
    /// The headline of the whole table, before showHeadline adds the filtered rows' sums.
    QString m_wholeHeadline;
    QStandardItemModel *m_model = nullptr;
    KernelFilter *m_proxy = nullptr;
    QTableView *m_table = nullptr;
};

} // namespace stepscope::ui
