// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "memorybars.h"

#include "ui/charts/barchart.h"
#include "util/text.h"

#include <QCoreApplication>

#include <limits>
#include <string_view>

namespace stepscope::ui::compare {

namespace {

/// The row's label without its suffix (" at peak", " peak"): the chart's title says it.
QString categoryOf(const analysis::DeltaRow &row, std::string_view suffix)
{
    std::string_view label = row.label;
    if (label.size() > suffix.size() && label.substr(label.size() - suffix.size()) == suffix)
        label.remove_suffix(suffix.size());
    return QString::fromUtf8(label.data(), static_cast<qsizetype>(label.size()));
}

QString tr(const char *text)
{
    return QCoreApplication::translate("MemoryBars", text);
}

} // namespace

MemoryBars memoryBars(const std::vector<analysis::DeltaRow> &rows)
{
    struct Tier
    {
        std::string_view prefix;
        std::string_view suffix;
        const char *title;
    };
    // In order of preference; a tier is used when it has a bar.
    static const Tier tiers[] = {
        {"memory.", " at peak", "Memory at the peak by category"},
        {"memory_peak.", " peak", "Peak of each memory category"},
        {"memory_peak_", "", "Peak memory"},
    };
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const Tier &tier : tiers) {
        MemoryBars bars;
        for (const analysis::DeltaRow &row : rows) {
            if (!util::startsWith(row.key, tier.prefix))
                continue;
            const bool any = (row.before && *row.before > 0) || (row.after && *row.after > 0);
            if (!any)
                continue;
            bars.categories << categoryOf(row, tier.suffix);
            bars.before << row.before.value_or(nan);
            bars.after << row.after.value_or(nan);
        }
        if (!bars.empty()) {
            bars.title = tr(tier.title);
            return bars;
        }
    }
    return {};
}

void fillMemoryChart(BarChart &chart, const MemoryBars &bars, const QString &beforeName,
    const QString &afterName, Theme theme)
{
    BarSetData before {tr("before: %1").arg(beforeName), beforeColor(theme), bars.before};
    BarSetData after {tr("after: %1").arg(afterName), afterColor(theme), bars.after};
    chart.setTitle(bars.title);
    chart.setValueUnit(ValueUnit::Bytes);
    chart.setValueAxisTitle(tr("Memory"));
    chart.setCategoryAxisTitle(QString());
    chart.setLegendAlignment(Qt::AlignBottom);
    chart.setData(bars.categories, {before, after}, BarChart::Mode::Grouped);
}

} // namespace stepscope::ui::compare
