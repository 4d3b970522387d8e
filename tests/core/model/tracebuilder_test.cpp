// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "model/session.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

using namespace stepscope::model;

TEST(TraceBuilder, FlowsFollowEventsThroughSorting)
{
    TraceBuilder b;
    TrackInfo host;
    host.threadId = "1";
    TrackInfo device;
    device.kind = TrackKind::DeviceStream;
    device.threadId = "7";
    const TrackId h = b.addTrack(host);
    const TrackId d = b.addTrack(device);
    const StringId launch = b.intern("cudaLaunchKernel");
    const StringId kernel = b.intern("gemm");
    // Added out of order on purpose.
    const auto l2 = b.track(h).add(200, 5, launch, Category::Runtime);
    const auto l1 = b.track(h).add(100, 5, launch, Category::Runtime);
    const auto k1 = b.track(d).add(150, 30, kernel, Category::Compute);
    const auto k2 = b.track(d).add(250, 30, kernel, Category::Compute);
    const StringId ac2g = b.intern("ac2g");
    b.addFlow({h, l1}, {d, k1}, ac2g);
    b.addFlow({h, l2}, {d, k2}, ac2g);
    auto r = b.finish();
    const Trace &t = r.trace;
    EXPECT_EQ(t.checkInvariants(), "");
    ASSERT_EQ(t.flows.size(), 2u);
    for (const Flow &f : t.flows) {
        const Track &from = t.track(f.from.track);
        const Track &to = t.track(f.to.track);
        EXPECT_EQ(t.strings.view(from.name(f.from.index)), "cudaLaunchKernel");
        EXPECT_EQ(t.strings.view(to.name(f.to.index)), "gemm");
        EXPECT_LT(from.start(f.from.index), to.start(f.to.index));
        EXPECT_EQ(t.strings.view(f.category), "ac2g");
    }
    // Launch at 100 feeds the kernel at 150, launch at 200 the kernel at 250.
    EXPECT_EQ(t.track(t.flows[0].from.track).start(t.flows[0].from.index) + 50,
        t.track(t.flows[0].to.track).start(t.flows[0].to.index));
    EXPECT_EQ(t.eventCount(), 4u);
    EXPECT_EQ(t.extent(), std::make_pair(std::int64_t {100}, std::int64_t {280}));
}

TEST(TraceBuilder, DropsEmptyTracksAndSortsSteps)
{
    TraceBuilder b;
    b.addTrack(TrackInfo {});
    const TrackId used = b.addTrack(TrackInfo {});
    b.track(used).add(0, 1, b.intern("x"), Category::Other);
    b.trace().steps.push_back(Step {6, 500, 900});
    b.trace().steps.push_back(Step {5, 0, 500});
    b.trace().counters.push_back(CounterSeries {"HBM", "Read", "MB/s", {30, 10, 20}, {3, 1, 2}});
    auto r = b.finish();
    EXPECT_EQ(r.trace.tracks.size(), 1u);
    ASSERT_EQ(r.trace.steps.size(), 2u);
    EXPECT_EQ(r.trace.steps[0].number, 5);
    EXPECT_EQ(r.trace.counters[0].timestampsNs, (std::vector<std::int64_t> {10, 20, 30}));
    EXPECT_EQ(r.trace.counters[0].values, (std::vector<double> {1, 2, 3}));
    EXPECT_EQ(r.trace.checkInvariants(), "");
}

TEST(Session, OriginIsTheEarliestTrace)
{
    Session s;
    auto a = std::make_shared<Trace>();
    a->rank = 1;
    a->originNs = 2000;
    auto b = std::make_shared<Trace>();
    b->rank = 0;
    b->originNs = 1000;
    s.traces = {b, a};
    EXPECT_EQ(s.originNs(), 1000);
    EXPECT_EQ(s.traceForRank(1), a.get());
    EXPECT_EQ(s.traceForRank(3), nullptr);
    EXPECT_FALSE(s.hasContent());
}
