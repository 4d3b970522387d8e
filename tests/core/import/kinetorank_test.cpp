// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// detect::kinetoRank: the plain-search replacement of the distributedInfo regex finds what
// the regex `"distributedInfo"\s*:\s*\{[^}]*?"rank"\s*:\s*(\d+)` found.
#include "import/detect/kinetorank.h"

#include <gtest/gtest.h>

#include <string>

using stepscope::import::detect::kinetoRank;

TEST(KinetoRank, FindsTheRankAsTheRegexDid)
{
    EXPECT_EQ(
        kinetoRank(R"({"distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8}})"), 3);
    EXPECT_EQ(kinetoRank("{\"distributedInfo\"\n:\t{\"rank\" :\n 12}}"), 12);
    // The first "rank" followed by digits inside the braces counts.
    EXPECT_EQ(kinetoRank(R"({"distributedInfo": {"rank": "x", "rank": 5}})"), 5);
    // A later distributedInfo when the first has none.
    EXPECT_EQ(kinetoRank(R"({"distributedInfo": 1, "x": {"distributedInfo": {"rank": 7}}})"), 7);
}

TEST(KinetoRank, NoRankInsideTheBracesIsMinusOne)
{
    EXPECT_EQ(kinetoRank(""), -1);
    EXPECT_EQ(kinetoRank(R"({"traceEvents": []})"), -1);
    EXPECT_EQ(kinetoRank(R"({"distributedInfo": {"world_size": 2}, "rank": 4})"), -1);
    EXPECT_EQ(kinetoRank(R"({"distributedInfo": {"rank": -1}})"), -1);
    EXPECT_EQ(kinetoRank(R"({"distributedInfo": {"rank": 99999999999999999999}})"), -1);
    EXPECT_EQ(kinetoRank(R"({"distributedInfo": {"rank": )"), -1); // cut
}
