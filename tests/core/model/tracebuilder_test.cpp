// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "model/session.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

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

namespace {

/// A random trace into `b`: tracks of events named "e<k>" (one name each), flows, event ids
/// (`perEvent` entries per event on average, some repeating an event, some without ids),
/// allocator events, steps and a counter. Returns, by event name, the ids the first entry
/// with ids gave it: what finish() must keep.
std::map<std::string, std::pair<std::int64_t, std::int64_t>> fillRandom(
    TraceBuilder &b, unsigned seed, double perEvent)
{
    std::mt19937 rng(seed);
    std::vector<std::pair<TrackId, std::uint32_t>> events;
    std::vector<std::string> names;
    for (int t = 0; t < 5; ++t) {
        TrackInfo info;
        info.threadId = std::to_string(t);
        const TrackId id = b.addTrack(info);
        const int n = t == 2 ? 0 : static_cast<int>(rng() % 1500); // track 2 stays empty
        for (int k = 0; k < n; ++k) {
            names.push_back("e" + std::to_string(names.size()));
            const std::uint32_t at = b.track(id).add(rng() % 4000, rng() % 5 == 0 ? 0 : rng() % 300,
                b.intern(names.back()), Category::Other);
            events.emplace_back(id, at);
        }
    }
    std::size_t picked = 0;
    const auto pick = [&] {
        picked = rng() % events.size();
        return events[picked];
    };
    const StringId cat = b.intern("ac2g");
    for (int f = 0; f < 400; ++f) {
        const auto [ft, fi] = pick();
        const auto [tt, ti] = pick();
        b.addFlow({ft, fi}, {tt, ti}, cat);
    }
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> first;
    const auto entries = static_cast<std::size_t>(perEvent * static_cast<double>(events.size()));
    for (std::size_t k = 0; k < entries; ++k) {
        const auto [track, index] = pick();
        EventIds ids;
        ids.event = {track, index};
        ids.correlation = rng() % 4 == 0 ? -1 : static_cast<std::int64_t>(rng() % 100000);
        ids.externalId = rng() % 4 == 0 ? -1 : static_cast<std::int64_t>(rng() % 100000);
        b.addEventIds(ids);
        if (ids.correlation == -1 && ids.externalId == -1)
            continue;
        first.emplace(names[picked], std::make_pair(ids.correlation, ids.externalId));
    }
    for (int a = 0; a < 200; ++a) {
        AllocatorEvent e;
        const auto [track, index] = pick();
        e.event = {track, index};
        e.addr = rng() % 50;
        e.bytes = static_cast<std::int64_t>(rng() % 1000) - 500;
        b.addAllocatorEvent(e);
    }
    b.trace().steps.push_back(Step {2, 2000, 4000});
    b.trace().steps.push_back(Step {1, 0, 2000});
    b.trace().counters.push_back(CounterSeries {"HBM", "Read", "MB/s", {30, 10, 20}, {3, 1, 2}});
    return first;
}

std::string nameOf(const Trace &t, EventRef e)
{
    return std::string(t.strings.view(t.track(e.track).name(e.index)));
}

} // namespace

TEST(TraceBuilder, FinishOnTwoThreadsGivesTheTraceOfOne)
{
    // Dense ids (a slot per event) and sparse ones (a sort of the entries): the first entry
    // with ids wins for each event, whichever way, on one thread or two.
    for (const double perEvent : {1.5, 0.05}) {
        for (unsigned seed = 1; seed <= 4; ++seed) {
            TraceBuilder one;
            TraceBuilder two;
            const auto expected = fillRandom(one, seed, perEvent);
            fillRandom(two, seed, perEvent);
            two.setFinishThreads(2);
            const Trace a = one.finish().trace;
            const Trace b = two.finish().trace;
            EXPECT_EQ(a.checkInvariants(), "");
            EXPECT_EQ(b.checkInvariants(), "");
            ASSERT_EQ(a.tracks.size(), 4u); // the empty one dropped
            ASSERT_EQ(b.tracks.size(), a.tracks.size());
            for (std::size_t t = 0; t < a.tracks.size(); ++t) {
                const Track &x = a.tracks[t];
                const Track &y = b.tracks[t];
                ASSERT_EQ(x.size(), y.size());
                for (std::uint32_t i = 0; i < x.size(); ++i) {
                    ASSERT_EQ(std::make_tuple(x.start(i), x.duration(i), x.name(i), x.row(i)),
                        std::make_tuple(y.start(i), y.duration(i), y.name(i), y.row(i)));
                }
            }
            ASSERT_EQ(a.flows.size(), 400u);
            ASSERT_EQ(b.flows.size(), a.flows.size());
            for (std::size_t f = 0; f < a.flows.size(); ++f) {
                EXPECT_EQ(a.flows[f].from, b.flows[f].from);
                EXPECT_EQ(a.flows[f].to, b.flows[f].to);
            }
            const auto &xa = a.memory.allocatorEvents;
            const auto &xb = b.memory.allocatorEvents;
            ASSERT_EQ(xa.size(), 200u);
            ASSERT_EQ(xb.size(), xa.size());
            for (std::size_t k = 0; k < xa.size(); ++k) {
                EXPECT_EQ(xa[k].event, xb[k].event);
                EXPECT_EQ(std::make_pair(xa[k].addr, xa[k].bytes),
                    std::make_pair(xb[k].addr, xb[k].bytes));
            }
            EXPECT_EQ(b.steps.front().number, 1);
            EXPECT_EQ(b.counters[0].timestampsNs, (std::vector<std::int64_t> {10, 20, 30}));

            // Every event's ids are its first entry's, and no event has ids it was not given.
            for (const Trace *t : {&a, &b}) {
                std::size_t withIds = 0;
                t->eventIds.forEach([&](const EventIds &ids) {
                    ++withIds;
                    const auto it = expected.find(nameOf(*t, ids.event));
                    ASSERT_NE(it, expected.end()) << nameOf(*t, ids.event);
                    EXPECT_EQ(std::make_pair(ids.correlation, ids.externalId), it->second)
                        << nameOf(*t, ids.event);
                });
                EXPECT_EQ(withIds, expected.size());
                EXPECT_GT(withIds, 0u);
            }
        }
    }
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
