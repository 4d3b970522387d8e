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

TEST(LoadReport, ANumberIsOneMarkInAMessagesShape)
{
    EXPECT_EQ(messageShape("rank 12: peaks at 24.0 GiB, 1,024 frees in step 3."),
        "rank #: peaks at # GiB, # frees in step #.");
    EXPECT_EQ(messageShape("rank12.pt.trace.json"), "rank#.pt.trace.json");
    EXPECT_EQ(messageShape("no number, here."), "no number, here.");
    EXPECT_EQ(messageShape("7"), "#");
}

TEST(LoadReport, AProblemOfEveryRankIsOneGroupAndTheRestStandApart)
{
    LoadReport r;
    r.add(Severity::Warning, "cluster_step_trace_time.csv", "a row is cut off", 4);
    for (int rank = 0; rank < 1000; ++rank) {
        const std::string file = "rank" + std::to_string(rank) + ".pt.trace.json";
        r.add(Severity::Info, file, std::to_string(rank % 7 + 1) + " flow points not linked");
        r.add(Severity::Warning, "[memory] events",
            "rank " + std::to_string(rank) + ": " + std::to_string(200 + rank)
                + " frees match no allocation");
        if (rank < 2) // two ranks of three or fewer: each stays on its own line
            r.add(Severity::Info, file, "15 events overlap a neighbour");
    }
    r.add(Severity::Info, "rank5.pt.trace.json", "6 flow points not linked"); // a repeat
    ASSERT_EQ(r.diagnostics().size(), 2003u);

    const std::vector<DiagnosticGroup> groups = groupDiagnostics(r.diagnostics());
    ASSERT_EQ(groups.size(), 5u);
    // In the order of each group's first member: the cut row, rank 0's flows and memory,
    // then rank 0's and rank 1's overlaps apart.
    EXPECT_EQ(groups[0].members, std::vector<std::size_t>({0}));
    ASSERT_EQ(groups[1].members.size(), 1000u);
    EXPECT_EQ(groups[1].members[0], 1u);
    EXPECT_EQ(groups[1].members[999], 2001u); // 0 cut row, 1-6 ranks 0-1, 7 + 2 x 997
    EXPECT_EQ(groups[1].files, 1000u);
    // 1000 diagnostics counted once each, and rank 5's repeat
    EXPECT_EQ(groups[1].count, 1001u);
    ASSERT_EQ(groups[2].members.size(), 1000u);
    EXPECT_EQ(groups[2].files, 1u); // every one on "[memory] events"
    EXPECT_EQ(groups[3].members, std::vector<std::size_t>({3}));
    EXPECT_EQ(groups[4].members, std::vector<std::size_t>({6}));
    for (const DiagnosticGroup &g : groups)
        for (std::size_t m : g.members)
            EXPECT_EQ(messageShape(r.diagnostics()[m].message),
                messageShape(r.diagnostics()[g.members[0]].message));

    const std::string text = groupedText(r.diagnostics(), "  ");
    EXPECT_EQ(text,
        "  warning: cluster_step_trace_time.csv:4: a row is cut off\n"
        "  info: rank0.pt.trace.json: 1 flow points not linked (and 999 more like it, in 1000 "
        "files)\n"
        "  warning: [memory] events: rank 0: 200 frees match no allocation (and 999 more like "
        "it)\n"
        "  info: rank0.pt.trace.json: 15 events overlap a neighbour\n"
        "  info: rank1.pt.trace.json: 15 events overlap a neighbour\n");
}
