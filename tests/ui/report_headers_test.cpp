// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Issue 15, r6 pass of the compare report in Chromium: the Runs table's headers read
// "forma t" and "step s" (cells may wrap anywhere, so the table squeezed the one-word
// headers to their last letter). Header cells keep their words whole; data cells still wrap.
// Its first sentence read "12 step pair(s)": counts are written in words.

#include "compare_testsupport.h"
#include "ui/report/comparereport.h"
#include "ui/report/report.h"

#include <gtest/gtest.h>

using namespace stepscope::ui;

TEST(ReportHeaders, HeaderWordsAreNeverBrokenDataCellsStillWrap)
{
    Report r;
    r.title = QStringLiteral("t");
    ReportSection s;
    s.title = QStringLiteral("Runs");
    ReportTable t;
    t.header = {QStringLiteral("run"), QStringLiteral("format"), QStringLiteral("steps")};
    t.rows.push_back({QStringLiteral("before"), QStringLiteral("kineto"), QStringLiteral("12")});
    s.tables.push_back(t);
    r.sections.push_back(s);
    const QString html = reportHtml(r);
    EXPECT_TRUE(html.contains(QStringLiteral("th{background:#f0f0f0;overflow-wrap:normal}")));
    EXPECT_TRUE(html.contains(QStringLiteral("overflow-wrap:anywhere"))); // td: long paths
}

TEST(ReportHeaders, CountsAreWordsNotPluralMarks)
{
    const Report report = buildCompareReport(stepscope::testsupport::demoPair(), QSize(800, 400));
    ASSERT_FALSE(report.sections.empty());
    ASSERT_FALSE(report.sections.front().paragraphs.isEmpty());
    const QString first = report.sections.front().paragraphs.front();
    EXPECT_TRUE(first.contains(QStringLiteral("12 step pairs, paired"))) << first.toStdString();
    for (const ReportSection &s : report.sections)
        for (const QString &p : s.paragraphs)
            EXPECT_FALSE(p.contains(QStringLiteral("(s)"))) << p.toStdString();
}
