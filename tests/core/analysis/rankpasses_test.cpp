// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// analysis::runRankPasses: each rank's passes on a few threads give what one thread gives,
// in rank order, and stop on a cancel.
#include "analysis/rankpasses.h"
#include "analysis/steps.h"
#include "import/loader.h"
#include "memoryevents_testutil.h"
#include "sample_testutil.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace stepscope;

namespace {

using testsupport::loadSample;

TEST(RankPasses, SeveralThreadsGiveWhatOneGivesInRankOrder)
{
    // Four ranks, each with notes of its own (tests/tools/check_mindspore_cluster_analyse.py).
    const auto session = loadSample("mindspore_legacy/mindinsight-cluster-pp-4rank");
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

TEST(RankPasses, OneRanksPassesAtOnceNoteWhatTheyNoteOneAfterTheOther)
{
    // One rank whose step detection notes a partial last step and whose memory pass notes
    // frees that match no allocation. Its passes run at once now; what they note must read
    // as when one thread ran them in order, steps first.
    constexpr std::int64_t MiB = 1 << 20;
    using testsupport::MemoryEvent;
    auto trace = std::make_shared<model::Trace>(testsupport::memoryEventTrace(
        {MemoryEvent {0, 0x1000, 8 * MiB, 8 * MiB}, MemoryEvent {10, 0x9001, -4 * MiB, 4 * MiB},
            MemoryEvent {20, 0x9002, -4 * MiB, 0}},
        {{0, 1000, "ProfilerStep#1"}, {1000, 1000, "ProfilerStep#2"},
            {2000, 50, "ProfilerStep#3"}}));
    model::Session session;
    session.traces.push_back(trace);

    model::LoadReport inOrder;
    analysis::detectSteps(*trace, &inOrder);
    const analysis::BreakdownPass pass = analysis::computeBreakdownPass(*trace, &inOrder);
    const analysis::MemorySummary memory = analysis::summarizeMemory(*trace, {}, &inOrder);
    const std::string text = inOrder.toText();
    const auto step = text.find("ProfilerStep#3");
    const auto frees = text.find("frees match no allocation");
    ASSERT_NE(step, std::string::npos) << text;
    ASSERT_NE(frees, std::string::npos) << text;
    ASSERT_LT(step, frees) << text;

    // A rank of more events than this runs its passes one after the other (memory).
    for (const std::uint64_t atOnceUpTo : {std::uint64_t {1}, analysis::PassesAtOnceUpToEvents}) {
        for (const unsigned threads : {1u, 2u, 4u}) {
            SCOPED_TRACE(atOnceUpTo);
            const auto passes = analysis::runRankPasses(session, {}, nullptr, threads, atOnceUpTo);
            ASSERT_EQ(passes.size(), 1u);
            EXPECT_EQ(passes[0].notes.toText(), text) << threads;
            EXPECT_EQ(passes[0].breakdowns.size(), pass.steps.size()) << threads;
            ASSERT_TRUE(passes[0].memory) << threads;
            EXPECT_EQ(passes[0].memory->peakAllocatedBytes, memory.peakAllocatedBytes) << threads;
        }
    }
}

TEST(RankPasses, ACancelStopsThemAndSaysSo)
{
    const auto session = loadSample("mindspore_legacy/mindinsight-cluster-pp-4rank");
    ASSERT_TRUE(session);
    util::CancelToken cancel;
    cancel.cancel();
    EXPECT_THROW(analysis::runRankPasses(*session, {}, &cancel, 4), util::Cancelled);
    EXPECT_THROW(analysis::runRankPasses(*session, {}, &cancel, 1), util::Cancelled);
}

} // namespace
