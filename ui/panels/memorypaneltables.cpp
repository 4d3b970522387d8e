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
    QList<BarSetData> sets;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (m_summary.hasGroups) {
        BarSetData measured {m_summary.groupsInferred ? tr("measured at peak (categories inferred)")
                                                      : tr("measured at peak"),
            memoryCurveColor(MemoryCurve::Allocated), {}};
        for (MemoryGroup g : analysis::AllMemoryGroups)
            measured.values.append(
                static_cast<double>(m_summary.byGroupAtPeak[static_cast<std::size_t>(g)]));
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
        sets.append(estimate);
        note = tr("Estimate: %1").arg(QString::fromStdString(e.rule).toHtmlEscaped());
    } else {
        note = tr("No model-state estimate: <a href=\"runconfig\">set the number of parameters "
                  "(and precision, optimizer) in the run config</a>.");
    }
    if (!m_summary.hasGroups)
        note.prepend(tr("The profile gives no categories at the peak. "));
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
    const auto [captureStart, captureEnd0] = t->extent();
    std::int64_t captureEnd = captureEnd0;
    for (const auto &a : t->memory.allocations)
        captureEnd = std::max({captureEnd, a.allocatedNs, a.releasedNs});
    std::int64_t stepNs = captureEnd - captureStart;
    if (!t->steps.empty()) {
        std::int64_t sum = 0;
        for (const auto &s : t->steps)
            sum += s.durationNs();
        stepNs = sum / static_cast<std::int64_t>(t->steps.size());
    }
    m_model->setRowCount(0);
    for (const auto &a : t->memory.allocations) {
        QList<QStandardItem *> items;
        const bool released = a.releasedNs >= 0;
        const std::int64_t end = released ? a.releasedNs : captureEnd;
        auto *op = textItem(QString::fromStdString(a.op));
        setRowTime(op, m_rank, a.allocatedNs, std::max(end, a.allocatedNs));
        items.append(op);
        auto *size = numberItem(QString::fromStdString(analysis::formatBytes(a.sizeBytes)),
            static_cast<double>(a.sizeBytes));
        size->setToolTip(tr("%L1 B").arg(static_cast<qlonglong>(a.sizeBytes)));
        items.append(size);
        items.append(numberItem(QString::fromStdString(analysis::formatDuration(a.allocatedNs)),
            static_cast<double>(a.allocatedNs)));
        items.append(released
                ? numberItem(QString::fromStdString(analysis::formatDuration(a.releasedNs)),
                    static_cast<double>(a.releasedNs))
                : numberItem(tr("still alive"), std::numeric_limits<double>::max()));
        const std::int64_t life = end - a.allocatedNs;
        items.append(numberItem(QString::fromStdString(analysis::formatDuration(life))
                + (released ? QString() : QStringLiteral("+")),
            static_cast<double>(life)));
        // The profiler's category when it gave one, else the documented inference rule.
        const bool given = a.category != model::MemoryCategory::Unknown || a.categoryInferred;
        const MemoryGroup g = given
            ? analysis::memoryGroupOf(a.category)
            : analysis::inferAllocationGroup(a, captureStart, captureEnd, stepNs);
        const bool inferred = !given || a.categoryInferred;
        auto *cat =
            textItem(qs(analysis::memoryGroupName(g)) + (inferred ? tr(" (inferred)") : QString()));
        cat->setData(QColor(groupColor(g)), Qt::DecorationRole);
        items.append(cat);
        m_model->appendRow(items);
    }
    const bool any = !t->memory.allocations.empty();
    const std::size_t events = t->memory.allocatorEvents.size();
    m_allocationNote->setText(events > 0
            // Not "no records": the chart by category was built from exactly these.
            ? tr("<h3>Allocations not listed</h3><p>This rank's %L1 allocator events "
                 "(<code>[memory]</code> events with an address) are paired by address into "
                 "allocations for the chart by category. This table lists the allocation "
                 "records a profiler writes itself (Ascend <code>operator_memory.csv</code>); "
                 "listing the paired ones here is not done yet.</p>")
                  .arg(static_cast<qulonglong>(events))
            : tr("<h3>No allocation records</h3><p>The profile has memory totals but no "
                 "per-allocation lifetimes. Ascend writes them to <code>operator_memory.csv</code> "
                 "with <code>profile_memory=True</code>; PyTorch traces recorded with "
                 "<code>profile_memory=True</code> carry them as <code>[memory]</code> "
                 "events.</p>"));
    m_allocationNote->setVisible(!any);
    m_table->setVisible(any);
    m_table->resizeColumnsToContents();
    m_table->sortByColumn(1, Qt::DescendingOrder);
}

} // namespace stepscope::ui
