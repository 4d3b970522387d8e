// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The compact event-id table: 16 bytes per event, ids exact whatever their size, lookups by
// event, and the builder's remap and sort into it.
#include "model/eventids.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

using namespace stepscope::model;

namespace {

EventRef ref(std::uint32_t track, std::uint32_t index)
{
    return EventRef {TrackId(track), index};
}

TEST(EventIdTable, IdsOfAnySizeComeBackExactly)
{
    constexpr std::int64_t Min = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t Max = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t Int32Min = std::numeric_limits<std::int32_t>::min();
    const std::vector<EventIds> in = {
        {ref(0, 0), 0, -1},
        {ref(0, 3), 2147483647, 2147483648},
        {ref(0, 7), Int32Min, Int32Min + 1},
        {ref(1, 0), Min, Max},
        {ref(1, 1), -2, -1},
        {ref(2, 9), 123456789012345, 5},
    };
    EventIdTable table;
    for (const EventIds &e : in)
        ASSERT_TRUE(table.append(e));
    ASSERT_EQ(table.size(), in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(table[i].event, in[i].event);
        EXPECT_EQ(table[i].correlation, in[i].correlation);
        EXPECT_EQ(table[i].externalId, in[i].externalId);
        const auto found = table.find(in[i].event);
        ASSERT_TRUE(found);
        EXPECT_EQ(found->correlation, in[i].correlation);
        EXPECT_EQ(found->externalId, in[i].externalId);
    }
    EXPECT_FALSE(table.find(ref(0, 1)));
    EXPECT_FALSE(table.find(ref(3, 0)));
    // Out of order or repeated: refused, nothing added.
    EXPECT_FALSE(table.append({ref(2, 9), 1, 1}));
    EXPECT_FALSE(table.append({ref(0, 5), 1, 1}));
    EXPECT_EQ(table.size(), in.size());
}

TEST(EventIdTable, SixteenBytesPerEventWhenIdsFitInt32)
{
    EventIdTable table;
    const std::uint32_t n = 10000;
    table.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i)
        ASSERT_TRUE(table.append({ref(i / 100, i % 100), i, static_cast<std::int64_t>(i) * 7}));
    EXPECT_EQ(table.memoryBytes(), 16u * n);
    EXPECT_EQ(table[9999].externalId, 69993);
}

TEST(EventIdTable, TheBuilderRemapsSortsAndKeepsTheFirstIdsOfAnEvent)
{
    TraceBuilder b;
    const TrackId t = b.addTrack(TrackInfo {});
    // Added out of time order: provisional index 0 ends up last.
    const std::uint32_t late = b.track(t).add(500, 10, StringId(), Category::Compute, ArgsId());
    const std::uint32_t early = b.track(t).add(100, 10, StringId(), Category::Compute, ArgsId());
    b.addEventIds({EventRef {t, late}, 1, 5000000000});
    b.addEventIds({EventRef {t, early}, 2, -1});
    b.addEventIds({EventRef {t, early}, 3, -1}); // a second list for the same event
    const Trace trace = b.finish().trace;
    ASSERT_EQ(trace.eventIds.size(), 2u);
    EXPECT_EQ(trace.checkInvariants(), "");
    EXPECT_EQ(trace.idsOf(ref(0, 0))->correlation, 2);
    EXPECT_EQ(trace.idsOf(ref(0, 1))->correlation, 1);
    EXPECT_EQ(trace.idsOf(ref(0, 1))->externalId, 5000000000);
}

} // namespace
