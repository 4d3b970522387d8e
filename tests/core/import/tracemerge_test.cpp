// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/tracemerge.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

namespace stepscope::import {
namespace {

model::TrackInfo stream(const std::string &tid)
{
    model::TrackInfo info;
    info.kind = model::TrackKind::DeviceStream;
    info.processId = "1";
    info.threadId = tid;
    return info;
}

/// A trace with origin `origin`, one track `tid` holding a parent and a child with a flow
/// between them, one step and one counter point.
model::Trace part(std::int64_t origin, const std::string &tid, const std::string &name)
{
    model::TraceBuilder b;
    b.trace().originNs = origin;
    const model::TrackId t = b.addTrack(stream(tid));
    const auto a = b.track(t).add(
        100, 50, b.intern(name), model::Category::Compute, b.trace().args.add(R"({"n":1})"));
    const auto c = b.track(t).add(110, 10, b.intern(name + ".child"), model::Category::Memcpy);
    b.addFlow({t, a}, {t, c}, b.intern("flow"));
    b.trace().steps.push_back(model::Step {7, 100, 150});
    model::CounterSeries series;
    series.process = "p";
    series.name = "freq";
    series.key = "MHz";
    series.timestampsNs = {100};
    series.values = {1.5};
    b.trace().counters.push_back(series);
    b.trace().metadata.sourceFiles.push_back(name + ".json");
    return b.finish().trace;
}

TEST(TraceMergeTest, SingleSameClockPartIsReturnedAsIs)
{
    std::vector<TracePart> parts;
    parts.push_back(TracePart {part(1000, "7", "a"), true});
    const model::Trace t = mergeTraces(std::move(parts), 3);
    EXPECT_EQ(t.rank, 3);
    EXPECT_EQ(t.metadata.rank, 3);
    EXPECT_EQ(t.originNs, 1000);
    EXPECT_EQ(t.eventCount(), 2u);
}

TEST(TraceMergeTest, SameClockPartsKeepAbsoluteTimesAndShareTracks)
{
    std::vector<TracePart> parts;
    parts.push_back(TracePart {part(5000, "7", "late"), true});
    parts.push_back(TracePart {part(1000, "7", "early"), true});
    parts.push_back(TracePart {part(1000, "8", "other"), true});
    const model::Trace t = mergeTraces(std::move(parts), 0);
    EXPECT_EQ(t.checkInvariants(), "");
    EXPECT_EQ(t.originNs, 1000); // earliest origin
    ASSERT_EQ(t.tracks.size(), 2u); // tid 7 twice -> one track
    EXPECT_EQ(t.eventCount(), 6u);
    const model::Track &t7 = t.tracks[0];
    EXPECT_EQ(t7.info().threadId, "7");
    ASSERT_EQ(t7.size(), 4u);
    // "late" was at 5000 + 100 absolute: 4100 after the merged origin.
    bool sawLate = false;
    for (std::uint32_t i = 0; i < t7.size(); ++i) {
        if (t.strings.view(t7.name(i)) == "late") {
            EXPECT_EQ(t7.start(i), 4100);
            EXPECT_EQ(t.args.text(t7.args(i)), R"({"n":1})");
            sawLate = true;
        }
    }
    EXPECT_TRUE(sawLate);
    // Flows follow their events; steps and counters are shifted and merged.
    ASSERT_EQ(t.flows.size(), 3u);
    for (const model::Flow &f : t.flows) {
        const model::Track &from = t.track(f.from.track);
        const model::Track &to = t.track(f.to.track);
        EXPECT_EQ(std::string(t.strings.view(to.name(f.to.index))),
            std::string(t.strings.view(from.name(f.from.index))) + ".child");
        EXPECT_EQ(t.strings.view(f.category), "flow");
    }
    ASSERT_EQ(t.steps.size(), 3u);
    EXPECT_EQ(t.steps.front().startNs, 100);
    EXPECT_EQ(t.steps.back().startNs, 4100);
    ASSERT_EQ(t.counters.size(), 1u); // same (process, name, key)
    EXPECT_EQ(t.counters[0].timestampsNs, (std::vector<std::int64_t> {100, 100, 4100}));
    EXPECT_EQ(t.metadata.sourceFiles.size(), 3u);
}

TEST(TraceMergeTest, UnrelatedClockIsAlignedByItsFirstEvent)
{
    std::vector<TracePart> parts;
    parts.push_back(TracePart {part(1'000'000'000, "7", "wall"), true});
    parts.push_back(TracePart {part(450, "9", "ticks"), false});
    const model::Trace t = mergeTraces(std::move(parts), 0);
    EXPECT_EQ(t.originNs, 1'000'000'000);
    ASSERT_EQ(t.tracks.size(), 2u);
    // Both parts' first events start at 100 after the merged origin.
    EXPECT_EQ(t.tracks[0].start(0), 100);
    EXPECT_EQ(t.tracks[1].start(0), 100);
    EXPECT_EQ(t.tracks[1].info().threadId, "9");
}

TEST(TraceMergeTest, MemoryTimelinesOfConsecutiveCapturesContinue)
{
    model::Trace a;
    a.originNs = 0;
    a.memory.categories.timestampsNs = {10, 20};
    for (auto &s : a.memory.categories.bytes)
        s = {1, 2};
    model::Trace b;
    b.originNs = 100;
    b.memory.categories.timestampsNs = {0, 5};
    for (auto &s : b.memory.categories.bytes)
        s = {3, 4};
    b.memory.allocations.push_back(model::Allocation {"op", 64, 1, -1});
    std::vector<TracePart> parts;
    parts.push_back(TracePart {std::move(a), true});
    parts.push_back(TracePart {std::move(b), true});
    const model::Trace t = mergeTraces(std::move(parts), 0);
    EXPECT_EQ(t.memory.categories.timestampsNs, (std::vector<std::int64_t> {10, 20, 100, 105}));
    EXPECT_EQ(t.memory.categories.bytes[3], (std::vector<std::int64_t> {1, 2, 3, 4}));
    ASSERT_EQ(t.memory.allocations.size(), 1u);
    EXPECT_EQ(t.memory.allocations[0].allocatedNs, 101);
    EXPECT_EQ(t.memory.allocations[0].releasedNs, -1);
}

} // namespace
} // namespace stepscope::import
