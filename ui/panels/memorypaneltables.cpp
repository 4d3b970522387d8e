// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Memory panel's peak-by-category chart and its allocation table (split from
// memorypanel.cpp along that seam).
#include "memorypanel.h"
#include "memorypanel_p.h"
#include "tableitems.h"
#include "ui/charts/barchart.h"

#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>

#include <algorithm>
#include <cmath>
#include <limits>

namespace stepscope::ui {

using namespace memorydetail;
using analysis::MemoryGroup;

void MemoryPanel::rebuildPeak()
{
    const model::Trace *t = trace();
    if (!t)
        return;
    analysis::applyRunConfig(m_summary, m_config);
    QStringList categories;
    for (MemoryGroup g : analysis::AllMemoryGroups)
        categories.append(qs(analysis::memoryGroupName(g)));
    // The allocator's peak that no record holds: the bars then add up to it.
    const bool notInCategories = m_summary.hasGroups && m_summary.notInCategoriesBytes;
    if (notInCategories)
        categories.append(tr("In no record"));
    QList<BarSetData> sets;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (m_summary.hasGroups) {
        BarSetData measured {m_summary.groupsInferred ? tr("measured at peak (categories inferred)")
                                                      : tr("measured at peak"),
            memoryCurveColor(MemoryCurve::Allocated), {}};
        for (MemoryGroup g : analysis::AllMemoryGroups)
            measured.values.append(
                static_cast<double>(m_summary.byGroupAtPeak[static_cast<std::size_t>(g)]));
        if (notInCategories)
            measured.values.append(static_cast<double>(*m_summary.notInCategoriesBytes));
        sets.append(measured);
    }
    QString note;
    if (m_summary.estimate) {
        const auto &e = *m_summary.estimate;
        BarSetData estimate {tr("run-config estimate"), estimateColor(), {}};
        for (MemoryGroup g : analysis::AllMemoryGroups) {
            double v = nan;
            if (g == MemoryGroup::Parameters)
                v = static_cast<double>(e.weightsBytes + e.masterWeightsBytes);
            else if (g == MemoryGroup::Gradients)
                v = static_cast<double>(e.gradientsBytes);
            else if (g == MemoryGroup::OptimizerState)
                v = static_cast<double>(e.optimizerStateBytes);
            estimate.values.append(v);
        }
        if (notInCategories)
            estimate.values.append(nan);
        sets.append(estimate);
        note = tr("Estimate: %1").arg(QString::fromStdString(e.rule).toHtmlEscaped());
    } else {
        note = tr("No model-state estimate: <a href=\"runconfig\">set the number of parameters "
                  "(and precision, optimizer) in the run config</a>.");
    }
    if (!m_summary.hasGroups)
        note.prepend(tr("The profile gives no categories at the peak. "));
    if (!m_summary.categoriesDisagree.empty())
        note.prepend(
            tr("<b>The categories do not add up to the allocator.</b> %1. ")
                .arg(QString::fromStdString(m_summary.categoriesDisagree).toHtmlEscaped()));
    QStringList peaks;
    if (m_summary.peakAllocatedBytes)
        peaks.append(
            tr("peak allocated %1")
                .arg(QString::fromStdString(analysis::formatBytes(*m_summary.peakAllocatedBytes))));
    if (m_summary.peakReservedBytes)
        peaks.append(
            tr("peak reserved %1")
                .arg(QString::fromStdString(analysis::formatBytes(*m_summary.peakReservedBytes))));
    if (!peaks.isEmpty())
        note.prepend(peaks.join(QStringLiteral(", ")) + QStringLiteral(". "));
    m_peakChart->setTitle(tr("Memory at the peak by category, rank %1").arg(m_rank));
    // Only the categories with a bar: seven mostly empty slots leave each label ~30 px.
    for (int c = static_cast<int>(categories.size()) - 1; c >= 0; --c) {
        const bool any = std::any_of(sets.begin(), sets.end(), [c](const BarSetData &set) {
            const double v = set.values.value(c, std::nan(""));
            return !std::isnan(v) && v > 0;
        });
        if (any || categories.size() == 1)
            continue;
        categories.removeAt(c);
        for (BarSetData &set : sets)
            set.values.removeAt(c);
    }
    m_peakChart->setData(categories, sets, BarChart::Mode::Grouped);
    // Nothing to draw: the sentence says what is missing, no empty axes.
    bool anyBar = false;
    for (const BarSetData &set : sets)
        for (double v : set.values)
            anyBar = anyBar || (!std::isnan(v) && v > 0);
    m_peakChart->setVisible(anyBar);
    if (!anyBar)
        note.prepend(tr("<b>No memory by category at the peak.</b> "));
    m_peakNote->setText(note);
}

void MemoryPanel::rebuildAllocations()
{
    const model::Trace *t = trace();
    m_model->clear();
    m_model->setHorizontalHeaderLabels({tr("Op"), tr("Size"), tr("Allocated at"), tr("Released at"),
        tr("Lifetime"), tr("Category")});
    if (!t)
        return;
    // The allocations and groups the chart by category sums (analysis::groupAllocations, the
    // largest of them): the profiler's records, else the pairs of the [memory] events.
    const analysis::AllocationGroups *grouped = m_summary.allocations.get();
    static const std::vector<analysis::ListedAllocation> none;
    const std::vector<analysis::ListedAllocation> &list = grouped ? grouped->listed : none;
    // An allocation never released is alive to the end of the trace (or of the records).
    const std::int64_t captureEnd =
        grouped ? std::max(t->extent().second, grouped->captureEndNs) : 0;
    m_model->setRowCount(0);
    for (const analysis::ListedAllocation &row : list) {
        const model::Allocation &a = row.allocation;
        QList<QStandardItem *> items;
        const bool released = a.releasedNs >= 0;
        const std::int64_t end = released ? a.releasedNs : captureEnd;
        auto *op = textItem(QString::fromStdString(a.op));
        op->setToolTip(op->text());
        setRowTime(op, m_rank, a.allocatedNs, std::max(end, a.allocatedNs));
        items.append(op);
        auto *size = numberItem(QString::fromStdString(analysis::formatBytes(a.sizeBytes)),
            static_cast<double>(a.sizeBytes));
        size->setToolTip(tr("%L1 B").arg(static_cast<qlonglong>(a.sizeBytes)));
        items.append(size);
        // Times from the panel's zero, the timeline ruler's (sorted by the same figure).
        const auto shown = [this](std::int64_t ns) {
            return numberItem(QString::fromStdString(analysis::formatDuration(ns - m_timeZero)),
                static_cast<double>(ns - m_timeZero));
        };
        items.append(shown(a.allocatedNs));
        items.append(released ? shown(a.releasedNs)
                              : numberItem(tr("still alive"), std::numeric_limits<double>::max()));
        const std::int64_t life = std::max<std::int64_t>(end - a.allocatedNs, 0);
        items.append(numberItem(QString::fromStdString(analysis::formatDuration(life))
                + (released ? QString() : QStringLiteral("+")),
            static_cast<double>(life)));
        const MemoryGroup g = row.group;
        auto *cat = textItem(
            qs(analysis::memoryGroupName(g)) + (row.inferred ? tr(" (inferred)") : QString()));
        cat->setData(QColor(groupColor(g)), Qt::DecorationRole);
        items.append(cat);
        m_model->appendRow(items);
    }
    const bool any = !list.empty();
    QString source;
    if (grouped && grouped->fromEvents)
        source = tr("%L1 allocations paired by address from this rank's %L2 device-memory "
                    "<code>[memory]</code> events; an op is the chain of host ranges around the "
                    "allocation.")
                     .arg(static_cast<qulonglong>(grouped->count))
                     .arg(static_cast<qulonglong>(t->memory.allocatorEvents.size()));
    else if (grouped)
        source = tr("%L1 allocation records written by the profiler.")
                     .arg(static_cast<qulonglong>(grouped->count));
    if (grouped && list.size() < grouped->count)
        source += tr(" Listed: the %L1 largest.").arg(static_cast<qulonglong>(list.size()));
    m_allocationSource->setText(source);
    m_allocationSource->setVisible(any);
    m_allocationNote->setText(
        tr("<h3>No allocation records</h3><p>The profile has memory totals but no "
           "per-allocation lifetimes. Ascend writes them to <code>operator_memory.csv</code> "
           "with <code>profile_memory=True</code>; PyTorch traces recorded with "
           "<code>profile_memory=True</code> carry them as <code>[memory]</code> "
           "events (with an <code>Addr</code>; 2021 traces write none).</p>"));
    m_allocationNote->setVisible(!any);
    m_table->setVisible(any);
    const QString from = m_zeroByRank.count(m_rank) != 0
        ? tr("the time on the timeline's ruler")
        : tr("the time from this rank's first memory record");
    m_model->horizontalHeaderItem(2)->setToolTip(tr("When the block was allocated: %1").arg(from));
    m_model->horizontalHeaderItem(3)->setToolTip(tr("When the block was freed: %1").arg(from));
    m_table->resizeColumnsToContents();
    // Op chains run to hundreds of characters: a capped column, elided on the left so that the
    // innermost op (the chain's end) stays in view; the tooltip has it whole.
    const int opWidth = m_table->fontMetrics().averageCharWidth() * 40;
    if (m_table->columnWidth(0) > opWidth)
        m_table->setColumnWidth(0, opWidth);
    m_table->sortByColumn(1, Qt::DescendingOrder);
}

} // namespace stepscope::ui
