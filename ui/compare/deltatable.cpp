// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "deltatable.h"

#include "analysis/compareoutput.h"
#include "analysis/units.h"
#include "ui/text.h"

#include <QHeaderView>
#include <QTableWidget>

#include <cmath>

namespace stepscope::ui::compare {

std::vector<DeltaSection> deltaSections(
    const analysis::RunComparison &c, const AlignedPair &aligned)
{
    std::vector<DeltaSection> out;
    // With several ranks the KPIs cover each whole run, the step rows the compared ranks.
    const bool ranks = c.anyCluster();
    const QString which = ranks
        ? QStringLiteral(", rank %1 ↔ rank %2").arg(c.beforeRank).arg(c.afterRank)
        : QString();
    out.push_back({ranks ? QStringLiteral("KPIs (whole runs, all ranks)") : QStringLiteral("KPIs"),
        c.kpiRows});
    if (!c.pairing.pairs.empty()) {
        out.push_back({QStringLiteral("Mean of %1 paired steps (%2)")
                           .arg(c.pairing.pairs.size())
                           .arg(qs(std::string(analysis::pairingModeName(c.pairing.mode))))
                + which,
            c.meanStepRows});
    }
    if (aligned.valid) {
        for (std::size_t i = 0; i < c.pairing.pairs.size() && i < c.pairRows.size(); ++i) {
            const analysis::StepPair &p = c.pairing.pairs[i];
            if (p.beforeIndex != aligned.pair.beforeIndex
                || p.afterIndex != aligned.pair.afterIndex)
                continue;
            out.push_back(
                {QStringLiteral("Aligned step %1 ↔ %2").arg(p.beforeStep).arg(p.afterStep) + which,
                    c.pairRows[i]});
            break;
        }
    }
    if (!c.bottleneckRows.empty())
        out.push_back({QStringLiteral("Bottlenecks (share of step time)"), c.bottleneckRows});
    if (!c.memoryRows.empty())
        out.push_back({QStringLiteral("Memory peak"), c.memoryRows});
    return out;
}

QString formatDeltaValue(const std::string &unit, double value, bool isDelta)
{
    return qs(analysis::formatRowValue(unit, value, isDelta));
}

QString rowLabel(const analysis::DeltaRow &row)
{
    return qs(analysis::rowTitle(row));
}

QColor verdictColor(analysis::Verdict verdict, Theme theme)
{
    switch (verdict) {
    case analysis::Verdict::Improved:
        return betterColor(theme);
    case analysis::Verdict::Regressed:
        return worseColor(theme);
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
                row.percent ? qs(analysis::formatRowPercent(*row.percent)) : QStringLiteral("—"));
            const QColor c = verdictColor(row.verdict, theme);
            if (c.isValid()) {
                d->setForeground(c);
                p->setForeground(c);
                QColor bg = c;
                bg.setAlpha(40);
                d->setBackground(bg);
                p->setBackground(bg);
            }
            const QString verdict = qs(std::string(analysis::verdictText(row)));
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

void fillNameDeltaTable(
    QTableWidget *table, const analysis::NameDeltaTable &deltas, bool perPairedStep)
{
    table->clear();
    const QStringList headers = {QStringLiteral("Name"), QStringLiteral("Count before"),
        QStringLiteral("Count after"), QStringLiteral("Total before"),
        QStringLiteral("Total after"),
        perPairedStep ? QStringLiteral("Δ per step") : QStringLiteral("Δ total"),
        QStringLiteral("Mean before"), QStringLiteral("Mean after"),
        QStringLiteral("Median before"), QStringLiteral("Median after"),
        QStringLiteral("Share before"), QStringLiteral("Share after")};
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
    // A side without the name shows a dash; durations of one instance to the ns.
    const auto time = [](bool absent, double ns) {
        return absent ? QStringLiteral("—") : qs(analysis::formatDuration(std::llround(ns)));
    };
    auto row = [&](const analysis::NameDelta &n) {
        const QStringList texts = {
            qs(n.name),
            n.onlyAfter ? QStringLiteral("—") : QStringLiteral("%L1").arg(n.before.count),
            n.onlyBefore ? QStringLiteral("—") : QStringLiteral("%L1").arg(n.after.count),
            n.onlyAfter ? QStringLiteral("—") : qs(analysis::formatDuration(n.before.totalNs)),
            n.onlyBefore ? QStringLiteral("—") : qs(analysis::formatDuration(n.after.totalNs)),
            formatDeltaValue("ns", n.deltaTotalNs, true),
            time(n.onlyAfter, n.before.meanNs),
            time(n.onlyBefore, n.after.meanNs),
            qs(analysis::formatMedian(n.before)),
            qs(analysis::formatMedian(n.after)),
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
    // As `stepscope compare --markdown` says it: what the counts and totals cover.
    title(QStringLiteral("Top %1 by |Δ| (of %2 / %3 names): counts and totals %4")
              .arg(deltas.top.size())
              .arg(deltas.nameCountBefore)
              .arg(deltas.nameCountAfter)
              .arg(perPairedStep ? QStringLiteral("over the paired steps, Δ per paired step")
                                 : QStringLiteral("over the whole traces")));
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
