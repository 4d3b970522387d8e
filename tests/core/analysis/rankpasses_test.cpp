// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// analysis::runRankPasses: each rank's passes on a few threads give what one thread gives,
// in rank order, and stop on a cancel.
#include "analysis/rankpasses.h"
#include "import/loader.h"

#include <gtest/gtest.h>

#include <string>

using namespace stepscope;

namespace {

std::shared_ptr<const model::Session> load(const std::string &relative)
{
    util::Progress progress;
    return import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/" + relative, progress).session;
}

TEST(RankPasses, SeveralThreadsGiveWhatOneGivesInRankOrder)
{
    // Four ranks, each with notes of its own (tests/tools/check_mindspore_cluster_analyse.py).
    const auto session = load("mindspore_legacy/mindinsight-cluster-pp-4rank");
    ASSERT_TRUE(session);
    ASSERT_EQ(session->traces.size(), 4u);
    const auto one = analysis::runRankPasses(*session, {}, nullptr, 1);
    const auto four = analysis::runRankPasses(*session, {}, nullptr, 4);
    ASSERT_EQ(one.size(), 4u);
    ASSERT_EQ(four.size(), 4u);
    for (std::size_t r = 0; r < one.size(); ++r) {
        ASSERT_EQ(one[r].breakdowns.size(), four[r].breakdowns.size()) << r;
        ASSERT_FALSE(one[r].breakdowns.empty()) << r;
        for (std::size_t s = 0; s < one[r].breakdowns.size(); ++s) {
            const analysis::StepBreakdown &a = one[r].breakdowns[s];
            const analysis::StepBreakdown &b = four[r].breakdowns[s];
            EXPECT_EQ(a.rank, session->traces[r]->rank);
            EXPECT_EQ(b.rank, a.rank);
            EXPECT_EQ(b.step, a.step);
            EXPECT_EQ(b.computeNs, a.computeNs);
            EXPECT_EQ(b.commExposedNs, a.commExposedNs);
            EXPECT_EQ(b.freeNs, a.freeNs);
        }
        EXPECT_EQ(one[r].lanes.size(), four[r].lanes.size()) << r;
        EXPECT_EQ(one[r].kernels.has_value(), four[r].kernels.has_value()) << r;
        EXPECT_EQ(one[r].notes.toText(), four[r].notes.toText()) << r;
    }
}

TEST(RankPasses, ACancelStopsThemAndSaysSo)
{
    const auto session = load("mindspore_legacy/mindinsight-cluster-pp-4rank");
    ASSERT_TRUE(session);
    util::CancelToken cancel;
    cancel.cancel();
    EXPECT_THROW(analysis::runRankPasses(*session, {}, &cancel, 4), util::Cancelled);
    EXPECT_THROW(analysis::runRankPasses(*session, {}, &cancel, 1), util::Cancelled);
}

} // namespace
