// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "model/loadreport.h"

#include <gtest/gtest.h>

using namespace stepscope::model;

TEST(LoadReport, RepeatsAreCountedNotRepeated)
{
    LoadReport r;
    for (int line = 10; line < 1010; ++line)
        r.add(Severity::Warning, "kernel_details.csv", "`Duration(us)` is not a number", line);
    r.add(Severity::Error, "trace_view.json", "the event array is cut off", 0, 4096);
    ASSERT_EQ(r.diagnostics().size(), 2u);
    const Diagnostic &d = r.diagnostics()[0];
    EXPECT_EQ(d.count, 1000u);
    EXPECT_EQ(d.line, 10); // the first occurrence
    EXPECT_EQ(r.count(Severity::Warning), 1000u);
    EXPECT_EQ(r.count(Severity::Error), 1u);
    const std::string text = r.toText();
    EXPECT_NE(text.find("kernel_details.csv:10: `Duration(us)` is not a number (1000 times)"),
        std::string::npos);
    EXPECT_NE(text.find("trace_view.json at byte 4096"), std::string::npos);
}

TEST(LoadReport, MergeKeepsFirstPositionsAndAddsCounts)
{
    LoadReport a;
    a.add(Severity::Warning, "f", "m", 3);
    LoadReport b;
    b.add(Severity::Warning, "f", "m", 1);
    b.add(Severity::Warning, "f", "m", 2);
    b.add(Severity::Info, "f", "m", 2); // another severity is another problem
    a.merge(b);
    ASSERT_EQ(a.diagnostics().size(), 2u);
    EXPECT_EQ(a.diagnostics()[0].count, 3u);
    EXPECT_EQ(a.diagnostics()[0].line, 3);
}
