// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "rankdeltas.h"

#include "deltatable.h"
#include "ui/panels/clusterheatmap.h"
#include "ui/panels/tableitems.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <array>
#include <optional>
#include <string_view>

namespace stepscope::ui::compare {

namespace {

/// A table cell that sorts by its number (text as shown).
class NumberItem : public QTableWidgetItem
{
public:
    bool operator<(const QTableWidgetItem &other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

QTableWidgetItem *sortable(const QString &text, double value, QColor tone = {})
{
    auto *item = new NumberItem;
    item->setData(Qt::DisplayRole, text);
    item->setData(Qt::UserRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    if (tone.isValid())
        item->setForeground(tone);
    return item;
}

std::optional<double> deltaOf(const std::vector<analysis::DeltaRow> &rows, std::string_view key)
{
    for (const analysis::DeltaRow &r : rows)
        if (r.key == key)
            return r.delta;
    return std::nullopt;
}

constexpr std::array<std::string_view, 4> FreeKeys = {
    "segment.host_wait", "segment.data_loading", "segment.launch_gap", "segment.other_idle"};

} // namespace

RankDeltaPane::RankDeltaPane(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("rankDeltaPane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_caption = new QLabel(this);
    m_caption->setWordWrap(true);
    layout->addWidget(m_caption);
    auto *split = new QSplitter(Qt::Horizontal, this);
    m_heatMap = new ClusterHeatMap(split);
    m_heatMap->setObjectName(QStringLiteral("rankDeltaHeatMap"));
    m_heatMap->setDiverging(true);
    m_table = new QTableWidget(split);
    m_table->setObjectName(QStringLiteral("rankDeltaTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    split->addWidget(m_heatMap);
    split->addWidget(m_table);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    connect(m_heatMap, &ClusterHeatMap::cellActivated, this,
        [this](int row, int) { emit rankActivated(m_heatMap->rankOfRow(row)); });
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (QTableWidgetItem *item = m_table->item(row, 0))
            emit rankActivated(static_cast<std::int32_t>(item->data(Qt::UserRole).toInt()));
    });
}

void RankDeltaPane::setComparison(const analysis::RunComparison &c)
{
    const analysis::RankStepDeltas &m = c.rankSteps;
    QString text =
        tr("%1 in both runs; step time after − before, mean over each "
           "rank's paired steps. Double-click a rank to compare it.")
            .arg(countText(static_cast<long long>(c.rankDeltas.size()), tr("rank"), tr("ranks")));
    if (!c.onlyBeforeRanks.empty() || !c.onlyAfterRanks.empty())
        text += tr(" %1 only before, %2 only after (not shown).")
                    .arg(countText(
                        static_cast<long long>(c.onlyBeforeRanks.size()), tr("rank"), tr("ranks")))
                    .arg(c.onlyAfterRanks.size());
    m_caption->setText(text);
    m_heatMap->setMatrix(m.ranks, m.steps, m.deltaUs, tr("Δ step time (after − before)"),
        [](double us) { return formatDeltaValue("us", us, true); });

    const QStringList header = {tr("Rank"), tr("Before"), tr("After"), tr("Δ"), tr("Δ %"),
        tr("Δ compute"), tr("Δ comm. exposed"), tr("Δ free"), tr("Δ bubble"), tr("Δ preparing")};
    m_table->setSortingEnabled(false);
    m_table->clear();
    m_table->setColumnCount(static_cast<int>(header.size()));
    m_table->setHorizontalHeaderLabels(header);
    m_table->setRowCount(static_cast<int>(c.rankDeltas.size()));
    const Theme theme = currentTheme();
    for (int row = 0; row < static_cast<int>(c.rankDeltas.size()); ++row) {
        const analysis::RankDelta &d = c.rankDeltas[static_cast<std::size_t>(row)];
        auto *rank = sortable(QString::number(d.rank), d.rank);
        m_table->setItem(row, 0, rank);
        if (d.rows.empty())
            continue;
        const analysis::DeltaRow &step = d.rows.front();
        const QColor tone = verdictColor(step.verdict, theme);
        const auto cell = [](const std::optional<double> &v, bool delta) {
            return v ? sortable(formatDeltaValue("us", *v, delta), *v)
                     : sortable(QStringLiteral("—"), 0);
        };
        m_table->setItem(row, 1, cell(step.before, false));
        m_table->setItem(row, 2, cell(step.after, false));
        m_table->setItem(row, 3,
            step.delta ? sortable(formatDeltaValue("us", *step.delta, true), *step.delta, tone)
                       : sortable(QStringLiteral("—"), 0));
        m_table->setItem(row, 4,
            step.percent
                ? sortable(QString::fromStdString(analysis::formatRowPercent(*step.percent)),
                    *step.percent, tone)
                : sortable(QStringLiteral("—"), 0));
        m_table->setItem(row, 5, cell(deltaOf(d.rows, "segment.compute"), true));
        m_table->setItem(row, 6, cell(deltaOf(d.rows, "segment.comm_exposed"), true));
        std::optional<double> free;
        for (std::string_view key : FreeKeys)
            if (const auto v = deltaOf(d.rows, key))
                free = free.value_or(0) + *v;
        m_table->setItem(row, 7, cell(free, true));
        m_table->setItem(row, 8, cell(deltaOf(d.rows, "segment.bubble"), true));
        m_table->setItem(row, 9, cell(deltaOf(d.rows, "segment.preparing"), true));
    }
    m_table->setSortingEnabled(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

} // namespace stepscope::ui::compare
