// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "deltatable.h"

#include "analysis/units.h"

#include <QHeaderView>
#include <QTableWidget>

#include <cmath>

namespace stepscope::ui::compare {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString sideLabel(const CompareSide &side, std::size_t index)
{
    return index < side.breakdowns.size() ? QString::number(side.breakdowns[index].step)
                                          : QStringLiteral("?");
}

std::vector<analysis::DeltaRow> bottleneckRows(const CompareData &data)
{
    std::vector<analysis::DeltaRow> rows;
    const auto &bb = data.before.analysis.bottlenecks;
    const auto &ba = data.after.analysis.bottlenecks;
    for (int k = 0; k < analysis::BottleneckKindCount; ++k) {
        const auto kind = static_cast<analysis::BottleneckKind>(k);
        std::optional<double> b;
        std::optional<double> a;
        bool firstBefore = false;
        bool firstAfter = false;
        for (std::size_t i = 0; i < bb.size(); ++i)
            if (bb[i].kind == kind) {
                b = bb[i].share;
                firstBefore = i == 0;
            }
        for (std::size_t i = 0; i < ba.size(); ++i)
            if (ba[i].kind == kind) {
                a = ba[i].share;
                firstAfter = i == 0;
            }
        if (!b && !a)
            continue;
        std::string label(analysis::bottleneckKindName(kind));
        if (firstBefore)
            label += " (first before)";
        if (firstAfter)
            label += " (first after)";
        // Compute efficiency is 1 − MFU or the compute share: no direction for the latter.
        const auto better = kind == analysis::BottleneckKind::ComputeEfficiency
            ? analysis::Better::Neither
            : analysis::Better::Lower;
        rows.push_back(
            analysis::makeDeltaRow("bottleneck." + std::string(analysis::bottleneckKindKey(kind)),
                label, "fraction", b, a, better));
    }
    return rows;
}

std::vector<analysis::DeltaRow> memoryRows(const CompareData &data)
{
    std::vector<analysis::DeltaRow> rows;
    const auto &mb = data.before.analysis.memory;
    const auto &ma = data.after.analysis.memory;
    if (mb.empty() && ma.empty())
        return rows;
    const analysis::MemorySummary *b = mb.empty() ? nullptr : &mb.front();
    const analysis::MemorySummary *a = ma.empty() ? nullptr : &ma.front();
    auto opt = [](const std::optional<std::int64_t> &v) -> std::optional<double> {
        return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
    };
    rows.push_back(analysis::makeDeltaRow("memory.peak_allocated", "Peak allocated", "bytes",
        b ? opt(b->peakAllocatedBytes) : std::nullopt,
        a ? opt(a->peakAllocatedBytes) : std::nullopt, analysis::Better::Lower));
    rows.push_back(analysis::makeDeltaRow("memory.peak_reserved", "Peak reserved", "bytes",
        b ? opt(b->peakReservedBytes) : std::nullopt, a ? opt(a->peakReservedBytes) : std::nullopt,
        analysis::Better::Lower));
    for (int g = 0; g < analysis::MemoryGroupCount; ++g) {
        const auto group = static_cast<analysis::MemoryGroup>(g);
        auto at = [g](const analysis::MemorySummary *s) -> std::optional<double> {
            if (!s || !s->hasGroups)
                return std::nullopt;
            return static_cast<double>(s->byGroupAtPeak[static_cast<std::size_t>(g)]);
        };
        if (!at(b) && !at(a))
            continue;
        rows.push_back(
            analysis::makeDeltaRow("memory." + std::string(analysis::memoryGroupKey(group)),
                std::string(analysis::memoryGroupName(group)) + " at peak", "bytes", at(b), at(a),
                analysis::Better::Lower));
    }
    return rows;
}

} // namespace

std::vector<DeltaSection> deltaSections(
    const CompareData &data, const analysis::StepPairing &pairing, const AlignedPair &aligned)
{
    std::vector<DeltaSection> out;
    out.push_back({QStringLiteral("KPIs"),
        analysis::kpiDeltaRows(data.before.analysis.kpis, data.after.analysis.kpis)});
    if (!pairing.pairs.empty()) {
        out.push_back({QStringLiteral("Mean of %1 paired steps (%2)")
                           .arg(pairing.pairs.size())
                           .arg(qs(std::string(analysis::pairingModeName(pairing.mode)))),
            analysis::meanStepDeltaRows(data.before.breakdowns, data.after.breakdowns, pairing)});
    }
    if (aligned.valid && aligned.pair.beforeIndex < data.before.breakdowns.size()
        && aligned.pair.afterIndex < data.after.breakdowns.size()) {
        out.push_back({QStringLiteral("Aligned step %1 ↔ %2")
                           .arg(sideLabel(data.before, aligned.pair.beforeIndex),
                               sideLabel(data.after, aligned.pair.afterIndex)),
            analysis::stepDeltaRows(data.before.breakdowns[aligned.pair.beforeIndex],
                data.after.breakdowns[aligned.pair.afterIndex])});
    }
    if (auto rows = bottleneckRows(data); !rows.empty())
        out.push_back({QStringLiteral("Bottlenecks (share of step time)"), std::move(rows)});
    if (auto rows = memoryRows(data); !rows.empty())
        out.push_back({QStringLiteral("Memory peak"), std::move(rows)});
    return out;
}

QString formatDeltaValue(const std::string &unit, double value, bool isDelta)
{
    if (!std::isfinite(value))
        return QStringLiteral("—");
    const QString sign = isDelta ? (value > 0 ? QStringLiteral("+")
                                 : value < 0  ? QStringLiteral("−")
                                              : QString())
                                 : QString();
    const double v = isDelta ? std::fabs(value) : value;
    if (unit == "us")
        return sign
            + qs(analysis::formatDuration(static_cast<std::int64_t>(std::llround(v * 1000.0))));
    if (unit == "ns")
        return sign + qs(analysis::formatDuration(static_cast<std::int64_t>(std::llround(v))));
    if (unit == "fraction") {
        if (isDelta)
            return sign + QString::number(v * 100.0, 'f', 1) + QStringLiteral(" pp");
        return qs(analysis::formatShare(v));
    }
    if (unit == "bytes")
        return sign + qs(analysis::formatBytes(static_cast<std::int64_t>(std::llround(v))));
    QString out = sign + qs(analysis::formatSignificant(v));
    if (!unit.empty())
        out += QLatin1Char(' ') + qs(unit);
    return out;
}

QString rowLabel(const analysis::DeltaRow &row)
{
    static const std::vector<std::pair<std::string, QString>> names = {
        {"step_time_mean_us", QStringLiteral("Step time (mean)")},
        {"step_time_median_us", QStringLiteral("Step time (median)")},
        {"step_time_p90_us", QStringLiteral("Step time (p90)")},
        {"samples_per_s", QStringLiteral("Samples/s")},
        {"tokens_per_s", QStringLiteral("Tokens/s")},
        {"mfu", QStringLiteral("MFU")},
        {"comm_share", QStringLiteral("Communication share")},
        {"data_wait_share", QStringLiteral("Data-wait share")},
        {"memory_peak_allocated_bytes", QStringLiteral("Memory peak (allocated)")},
        {"memory_peak_reserved_bytes", QStringLiteral("Memory peak (reserved)")},
    };
    for (const auto &[key, label] : names)
        if (row.key == key)
            return label;
    return qs(row.label);
}

QColor verdictColor(analysis::Verdict verdict, Theme theme)
{
    const bool dark = theme == Theme::Dark;
    switch (verdict) {
    case analysis::Verdict::Improved:
        return dark ? QColor(0x5c, 0xd6, 0x7a) : QColor(0x1a, 0x7f, 0x37);
    case analysis::Verdict::Regressed:
        return dark ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
    default:
        return {};
    }
}

void fillDeltaTable(QTableWidget *table, const std::vector<DeltaSection> &sections)
{
    table->clear();
    table->setColumnCount(DeltaColumnCount);
    table->setHorizontalHeaderLabels({QStringLiteral("Metric"), QStringLiteral("Before"),
        QStringLiteral("After"), QStringLiteral("Δ"), QStringLiteral("%")});
    int count = 0;
    for (const auto &s : sections)
        count += 1 + static_cast<int>(s.rows.size());
    table->setRowCount(count);
    const Theme theme = currentTheme();
    int r = 0;
    auto cell = [&](int row, int col, const QString &text) {
        auto *item = new QTableWidgetItem(text);
        item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        if (col > 0)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table->setItem(row, col, item);
        return item;
    };
    for (const auto &section : sections) {
        auto *title = cell(r, 0, section.title);
        QFont f = title->font();
        f.setBold(true);
        title->setFont(f);
        table->setSpan(r, 0, 1, DeltaColumnCount);
        ++r;
        for (const auto &row : section.rows) {
            auto *metric = cell(r, 0, rowLabel(row));
            metric->setData(Qt::UserRole, qs(row.key));
            metric->setToolTip(
                QStringLiteral("%1 — %2 is better")
                    .arg(qs(row.key),
                        row.better == analysis::Better::Lower        ? QStringLiteral("lower")
                            : row.better == analysis::Better::Higher ? QStringLiteral("higher")
                                                                     : QStringLiteral("neither")));
            cell(r, 1, row.before ? formatDeltaValue(row.unit, *row.before) : QStringLiteral("—"));
            cell(r, 2, row.after ? formatDeltaValue(row.unit, *row.after) : QStringLiteral("—"));
            auto *d = cell(r, 3,
                row.delta ? formatDeltaValue(row.unit, *row.delta, true) : QStringLiteral("—"));
            auto *p = cell(r, 4,
                row.percent ? QStringLiteral("%1%2 %")
                                  .arg(*row.percent > 0      ? QStringLiteral("+")
                                          : *row.percent < 0 ? QStringLiteral("−")
                                                             : QString())
                                  .arg(std::fabs(*row.percent), 0, 'f', 1)
                            : QStringLiteral("—"));
            const QColor c = verdictColor(row.verdict, theme);
            if (c.isValid()) {
                d->setForeground(c);
                p->setForeground(c);
                QColor bg = c;
                bg.setAlpha(40);
                d->setBackground(bg);
                p->setBackground(bg);
            }
            const QString verdict = qs(std::string(analysis::verdictName(row.verdict)));
            d->setToolTip(verdict);
            p->setToolTip(verdict);
            ++r;
        }
    }
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < DeltaColumnCount; ++c)
        table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    table->verticalHeader()->setVisible(false);
}

void fillNameDeltaTable(QTableWidget *table, const analysis::NameDeltaTable &deltas)
{
    table->clear();
    const QStringList headers = {QStringLiteral("Name"), QStringLiteral("Count before"),
        QStringLiteral("Count after"), QStringLiteral("Total before"),
        QStringLiteral("Total after"), QStringLiteral("Δ total"), QStringLiteral("Mean before"),
        QStringLiteral("Mean after"), QStringLiteral("Share before"),
        QStringLiteral("Share after")};
    table->setColumnCount(static_cast<int>(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    const int rows = 3
        + static_cast<int>(deltas.top.size() + deltas.onlyBefore.size() + deltas.onlyAfter.size());
    table->setRowCount(rows);
    const Theme theme = currentTheme();
    int r = 0;
    auto title = [&](const QString &text) {
        auto *item = new QTableWidgetItem(text);
        QFont f = item->font();
        f.setBold(true);
        item->setFont(f);
        item->setFlags(Qt::ItemIsEnabled);
        table->setItem(r, 0, item);
        table->setSpan(r, 0, 1, static_cast<int>(headers.size()));
        ++r;
    };
    auto row = [&](const analysis::NameDelta &n) {
        const QStringList texts = {
            qs(n.name),
            n.onlyAfter ? QStringLiteral("—") : QString::number(n.before.count),
            n.onlyBefore ? QStringLiteral("—") : QString::number(n.after.count),
            n.onlyAfter ? QStringLiteral("—") : qs(analysis::formatDuration(n.before.totalNs)),
            n.onlyBefore ? QStringLiteral("—") : qs(analysis::formatDuration(n.after.totalNs)),
            formatDeltaValue("ns", n.deltaTotalNs, true),
            n.onlyAfter ? QStringLiteral("—")
                        : qs(analysis::formatDuration(std::llround(n.before.meanNs))),
            n.onlyBefore ? QStringLiteral("—")
                         : qs(analysis::formatDuration(std::llround(n.after.meanNs))),
            n.onlyAfter ? QStringLiteral("—") : qs(analysis::formatShare(n.before.share)),
            n.onlyBefore ? QStringLiteral("—") : qs(analysis::formatShare(n.after.share)),
        };
        for (int c = 0; c < texts.size(); ++c) {
            auto *item = new QTableWidgetItem(texts[c]);
            item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
            if (c > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == 0)
                item->setToolTip(qs(n.name));
            if (c == 5) {
                // Kernel time: less is better (the same work done faster or not at all).
                const QColor col = verdictColor(n.deltaTotalNs < 0 ? analysis::Verdict::Improved
                        : n.deltaTotalNs > 0                       ? analysis::Verdict::Regressed
                                                                   : analysis::Verdict::Unchanged,
                    theme);
                if (col.isValid())
                    item->setForeground(col);
            }
            table->setItem(r, c, item);
        }
        ++r;
    };
    title(QStringLiteral("Top %1 by |Δ total| per profiled step (of %2 / %3 names)")
              .arg(deltas.top.size())
              .arg(deltas.nameCountBefore)
              .arg(deltas.nameCountAfter));
    for (const auto &n : deltas.top)
        row(n);
    title(QStringLiteral("Only in before (%1)").arg(deltas.onlyBefore.size()));
    for (const auto &n : deltas.onlyBefore)
        row(n);
    title(QStringLiteral("Only in after (%1)").arg(deltas.onlyAfter.size()));
    for (const auto &n : deltas.onlyAfter)
        row(n);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int c = 1; c < headers.size(); ++c)
        table->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    table->verticalHeader()->setVisible(false);
}

} // namespace stepscope::ui::compare
