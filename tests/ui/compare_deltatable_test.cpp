// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "compare_testsupport.h"
#include "ui/compare/deltatable.h"

#include <gtest/gtest.h>

#include <QTableWidget>

using namespace stepscope;
using ui::compare::DeltaColumn;

namespace {

int rowOfKey(const QTableWidget &t, const QString &key)
{
    for (int r = 0; r < t.rowCount(); ++r)
        if (t.item(r, 0) && t.item(r, 0)->data(Qt::UserRole).toString() == key)
            return r;
    return -1;
}

QColor deltaColour(const QTableWidget &t, int row)
{
    return t.item(row, static_cast<int>(DeltaColumn::Delta))->foreground().color();
}

} // namespace

TEST(CompareDeltaTable, ColoursFollowTheBetterDirection)
{
    // Lower step time is better, higher MFU is better: same sign of delta, opposite colour.
    ui::compare::DeltaSection s;
    s.title = QStringLiteral("t");
    s.rows.push_back(analysis::makeDeltaRow(
        "step_time_mean_us", "step", "us", 150000.0, 120000.0, analysis::Better::Lower));
    s.rows.push_back(
        analysis::makeDeltaRow("mfu", "mfu", "fraction", 0.40, 0.30, analysis::Better::Higher));
    s.rows.push_back(analysis::makeDeltaRow(
        "segment.compute", "c", "us", 100.0, 80.0, analysis::Better::Neither));
    s.rows.push_back(analysis::makeDeltaRow(
        "comm_share", "comm", "fraction", 0.2, 0.2001, analysis::Better::Lower));
    QTableWidget t;
    ui::compare::fillDeltaTable(&t, {s});
    ASSERT_EQ(t.rowCount(), 5);
    const QColor green = ui::compare::verdictColor(analysis::Verdict::Improved, ui::currentTheme());
    const QColor red = ui::compare::verdictColor(analysis::Verdict::Regressed, ui::currentTheme());
    EXPECT_EQ(deltaColour(t, rowOfKey(t, QStringLiteral("step_time_mean_us"))), green);
    EXPECT_EQ(deltaColour(t, rowOfKey(t, QStringLiteral("mfu"))), red);
    EXPECT_NE(
        deltaColour(t, rowOfKey(t, QStringLiteral("segment.compute"))), green); // no direction
    EXPECT_NE(deltaColour(t, rowOfKey(t, QStringLiteral("segment.compute"))), red);
    EXPECT_NE(deltaColour(t, rowOfKey(t, QStringLiteral("comm_share"))), red); // within tolerance
    const int step = rowOfKey(t, QStringLiteral("step_time_mean_us"));
    EXPECT_EQ(
        t.item(step, static_cast<int>(DeltaColumn::Before))->text(), QStringLiteral("150 ms"));
    EXPECT_EQ(
        t.item(step, static_cast<int>(DeltaColumn::Delta))->text(), QStringLiteral("−30.0 ms"));
    EXPECT_EQ(
        t.item(step, static_cast<int>(DeltaColumn::Percent))->text(), QStringLiteral("−20.0 %"));
    const int mfu = rowOfKey(t, QStringLiteral("mfu"));
    EXPECT_EQ(
        t.item(mfu, static_cast<int>(DeltaColumn::Delta))->text(), QStringLiteral("−10.0 pp"));
}

TEST(CompareDeltaTable, DemoPairStepTimeFallsAndDataLoadingCollapses)
{
    const auto data = testsupport::demoPair();
    const auto pairing = data->pairing(std::nullopt);
    const auto aligned = ui::compare::alignedPair(*data, pairing, {});
    const auto sections = ui::compare::deltaSections(data->comparison, aligned);
    QTableWidget t;
    ui::compare::fillDeltaTable(&t, sections);
    const QColor green = ui::compare::verdictColor(analysis::Verdict::Improved, ui::currentTheme());

    // KPIs from the analysis: data wait 355 596 of 1 048 976 us (0 workers, steps 5-10)...
    // over all twelve profiled steps here, so only the direction and colour are pinned.
    const int wait = rowOfKey(t, QStringLiteral("data_wait_share"));
    ASSERT_GE(wait, 0);
    EXPECT_EQ(deltaColour(t, wait), green);
    const int step = rowOfKey(t, QStringLiteral("step_time_mean_us"));
    ASSERT_GE(step, 0);
    EXPECT_EQ(deltaColour(t, step), green);
    // The aligned pair (step 6): 173 992 us -> 123 884 us.
    bool found = false;
    for (const auto &s : sections) {
        if (!s.title.startsWith(QStringLiteral("Aligned step")))
            continue;
        for (const auto &r : s.rows) {
            if (r.key == "step_time_us") {
                found = true;
                EXPECT_DOUBLE_EQ(*r.before, 173992.0);
                EXPECT_DOUBLE_EQ(*r.after, 123884.0);
                EXPECT_EQ(r.verdict, analysis::Verdict::Improved);
            }
        }
    }
    EXPECT_TRUE(found);
    // Data loading is the first bottleneck of "before" only.
    const int dl = rowOfKey(t, QStringLiteral("bottleneck.data_loading"));
    ASSERT_GE(dl, 0);
    EXPECT_TRUE(t.item(dl, 0)->text().contains(QStringLiteral("first before")));
    EXPECT_FALSE(t.item(dl, 0)->text().contains(QStringLiteral("first after")));
    EXPECT_EQ(deltaColour(t, dl), green);
}
