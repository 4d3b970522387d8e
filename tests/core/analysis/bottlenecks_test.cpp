// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/bottlenecks.h"

#include <gtest/gtest.h>

using namespace stepscope;

namespace {

analysis::StepBreakdown step(std::int32_t rank, std::int64_t n, std::int64_t dur, std::int64_t data,
    std::int64_t comm, std::int64_t host)
{
    analysis::StepBreakdown b;
    b.rank = rank;
    b.step = n;
    b.startNs = 0;
    b.endNs = dur;
    b.dataLoadingNs = data;
    b.commExposedNs = comm;
    b.hostWaitNs = host;
    b.computeNs = dur - data - comm - host;
    return b;
}

} // namespace

TEST(Bottlenecks, OrderedByShareWithEvidenceNamingStepAndRank)
{
    const std::vector<analysis::StepBreakdown> steps = {
        step(0, 5, 100'000'000, 40'000'000, 10'000'000, 5'000'000),
        step(1, 5, 100'000'000, 10'000'000, 30'000'000, 5'000'000),
    };
    const auto list = analysis::rankBottlenecks(steps);
    ASSERT_EQ(list.size(), 3u); // no bubble, no MFU, no memory capacity
    EXPECT_EQ(list[0].kind, analysis::BottleneckKind::DataLoading);
    EXPECT_DOUBLE_EQ(list[0].share, 0.25);
    EXPECT_EQ(list[0].rank, 0);
    EXPECT_EQ(list[0].evidence,
        "Step 5 on rank 0: 40.0 ms of 100 ms (40.0 %) with the device idle waiting for input data "
        "(a DataLoader on the host, or a step trace's iteration interval).");
    EXPECT_EQ(list[1].kind, analysis::BottleneckKind::ExposedCommunication);
    EXPECT_DOUBLE_EQ(list[1].share, 0.2);
    EXPECT_EQ(list[1].rank, 1);
    EXPECT_EQ(list[2].kind, analysis::BottleneckKind::HostBound);
    EXPECT_EQ(analysis::bottleneckKindKey(list[2].kind), "host_bound");
}

TEST(Bottlenecks, ComputeEfficiencyNeedsMfuAndMemoryPressureNeedsCapacity)
{
    const std::vector<analysis::StepBreakdown> steps = {step(0, 1, 100, 0, 0, 0)};
    analysis::Kpis kpis;
    kpis.items.push_back(analysis::Kpi {"mfu", 0.4, "fraction", {}});
    std::vector<analysis::MemorySummary> memory(1);
    memory[0].peakReservedBytes = 95;
    memory[0].deviceMemoryBytes = 100;
    const auto list = analysis::rankBottlenecks(steps, &memory, &kpis);
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].kind, analysis::BottleneckKind::MemoryPressure);
    EXPECT_DOUBLE_EQ(list[0].share, 0.95);
    EXPECT_EQ(list[1].kind, analysis::BottleneckKind::ComputeEfficiency);
    EXPECT_DOUBLE_EQ(list[1].share, 0.6);
    memory[0].peakReservedBytes = 50; // far from the capacity: not a bottleneck
    EXPECT_EQ(analysis::rankBottlenecks(steps, &memory, &kpis).size(), 1u);
}

TEST(Bottlenecks, DeviceIdleIsAFindingOfItsOwnWhenItDominates)
{
    // The issue-15 case: the device idle 89 % of the step, host wait explaining 0.1 % of the
    // step; "Host / launch bound 0.1 %" alone hid the idle device.
    analysis::StepBreakdown s = step(0, 3, 100'000'000, 0, 0, 100'000);
    s.otherIdleNs = 88'900'000;
    s.freeNs = s.hostWaitNs + s.otherIdleNs; // 89 ms
    s.computeNs = s.durationNs() - s.freeNs; // 11 ms
    const auto list = analysis::rankBottlenecks({s});
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].kind, analysis::BottleneckKind::DeviceIdle);
    EXPECT_EQ(analysis::bottleneckKindKey(list[0].kind), "device_idle");
    EXPECT_DOUBLE_EQ(list[0].share, 0.89);
    // 0.1 ms of 89 ms idle is explained by the host: 0.1 %.
    EXPECT_EQ(list[0].evidence,
        "Step 3 on rank 0: 89.0 ms of 100 ms (89.0 %) with the device idle. Host wait, data "
        "loading and launch gaps explain 0.1 % of the idle time; the rest is idle with nothing "
        "recorded on the host.");
    EXPECT_EQ(list[1].kind, analysis::BottleneckKind::HostBound);
    EXPECT_DOUBLE_EQ(list[1].share, 0.001);

    // Idle below half the step time that the host explains is no finding of its own: the
    // host-bound finding says it.
    analysis::StepBreakdown hostBound = step(0, 4, 100'000'000, 0, 0, 44'000'000);
    hostBound.otherIdleNs = 5'000'000;
    hostBound.freeNs = hostBound.hostWaitNs + hostBound.otherIdleNs; // 49 %
    hostBound.computeNs = hostBound.durationNs() - hostBound.freeNs;
    for (const auto &b : analysis::rankBottlenecks({hostBound}))
        EXPECT_NE(b.kind, analysis::BottleneckKind::DeviceIdle);
}

TEST(Bottlenecks, UnexplainedIdleIsAFindingWhenItIsTheLargestLoss)
{
    // widedeep: the device idles 40 % of its traced steps with nothing recorded on the host,
    // and the only other finding was "Host / launch bound 0.1 %".
    analysis::StepBreakdown s = step(1, 13, 100'000'000, 0, 0, 100'000);
    s.otherIdleNs = 44'000'000;
    s.freeNs = s.hostWaitNs + s.otherIdleNs;
    s.computeNs = s.durationNs() - s.freeNs;
    auto list = analysis::rankBottlenecks({s});
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].kind, analysis::BottleneckKind::DeviceIdle);
    EXPECT_DOUBLE_EQ(list[0].share, 0.441);
    EXPECT_EQ(list[1].kind, analysis::BottleneckKind::HostBound);

    // Exposed communication is the larger loss: it leads, and the idle is no finding.
    s.commExposedNs = 45'000'000;
    s.computeNs = s.durationNs() - s.freeNs - s.commExposedNs;
    list = analysis::rankBottlenecks({s});
    ASSERT_FALSE(list.empty());
    EXPECT_EQ(list[0].kind, analysis::BottleneckKind::ExposedCommunication);
    for (const auto &b : list)
        EXPECT_NE(b.kind, analysis::BottleneckKind::DeviceIdle);

    // Under 10 % of step time, unexplained idle is no finding, however small the rest.
    s.commExposedNs = 0;
    s.otherIdleNs = 9'000'000;
    s.freeNs = s.hostWaitNs + s.otherIdleNs;
    s.computeNs = s.durationNs() - s.freeNs;
    for (const auto &b : analysis::rankBottlenecks({s}))
        EXPECT_NE(b.kind, analysis::BottleneckKind::DeviceIdle);
}

// A step the file gave no number (step -1) is named as such: "Step -1 on rank 1" read as a
// step id the profiler never wrote.
TEST(Bottlenecks, EvidenceNamesAStepWithoutIdAsSuch)
{
    const auto list = analysis::rankBottlenecks({step(1, -1, 100'000'000, 40'000'000, 0, 0)});
    ASSERT_FALSE(list.empty());
    EXPECT_EQ(list[0].kind, analysis::BottleneckKind::DataLoading);
    EXPECT_EQ(list[0].step, -1);
    EXPECT_EQ(list[0].evidence,
        "The step without an id on rank 1: 40.0 ms of 100 ms (40.0 %) with the device idle "
        "waiting for input data (a DataLoader on the host, or a step trace's iteration interval).");
}

// Step times summed over many (damaged) steps used to overflow int64 (UBSan: signed
// overflow); the sums are held at the limit and the shares stay between 0 and 1.
TEST(Bottlenecks, SumsBeyondInt64AreHeldAtTheLimit)
{
    const std::vector<analysis::StepBreakdown> steps = {
        step(0, 1, 6'000'000'000'000'000'000, 5'000'000'000'000'000'000, 0, 0),
        step(0, 2, 6'000'000'000'000'000'000, 5'000'000'000'000'000'000, 0, 0),
    };
    const auto list = analysis::rankBottlenecks(steps);
    ASSERT_FALSE(list.empty());
    for (const auto &b : list) {
        EXPECT_GE(b.share, 0.0);
        EXPECT_LE(b.share, 1.0);
    }
}

/// A share under 0.05 % reads "0.0 %": no finding to list ("#1 Data loading 0.0 %"). One at
/// 0.05 % and more is listed.
TEST(Bottlenecks, SharesThatReadZeroAreNotListed)
{
    const std::vector<analysis::StepBreakdown> steps = {
        step(0, 1, 100'000'000, 40'000, 50'000, 0), // data 0.04 %, comm 0.05 %
    };
    const auto list = analysis::rankBottlenecks(steps);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0].kind, analysis::BottleneckKind::ExposedCommunication);
    EXPECT_DOUBLE_EQ(list[0].share, 0.0005);
}
