// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The compact event-id table: per track and id kind a dense column (4 bytes per event) or a
// list, or one list for both kinds, whichever is smallest; ids exact whatever their size; lookups
// by event; the builder's remap and sort into it.
#include "model/eventids.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

using namespace stepscope::model;

namespace {

EventRef ref(std::uint32_t track, std::uint32_t index)
{
    return EventRef {TrackId(track), index};
}

std::vector<EventIds> all(const EventIdTable &table)
{
    std::vector<EventIds> out;
    table.forEach([&](const EventIds &e) { out.push_back(e); });
    return out;
}

void expectSame(const std::vector<EventIds> &got, const std::vector<EventIds> &want)
{
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(got[i].event, want[i].event);
        EXPECT_EQ(got[i].correlation, want[i].correlation);
        EXPECT_EQ(got[i].externalId, want[i].externalId);
    }
}

/// find() gives each appended event its own ids.
void expectFindsEach(const EventIdTable &table, const std::vector<EventIds> &in)
{
    for (const EventIds &e : in) {
        const auto found = table.find(e.event);
        ASSERT_TRUE(found);
        EXPECT_EQ(found->correlation, e.correlation);
        EXPECT_EQ(found->externalId, e.externalId);
    }
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
    // Before and after compact(): track 0 stays sparse (3 of 8 events), track 1 becomes dense,
    // track 2 (one event at index 9) sparse.
    for (const bool compacted : {false, true}) {
        SCOPED_TRACE(compacted);
        EventIdTable table;
        for (const EventIds &e : in)
            ASSERT_TRUE(table.append(e));
        if (compacted)
            table.compact();
        ASSERT_EQ(table.size(), in.size());
        expectSame(all(table), in);
        ASSERT_NO_FATAL_FAILURE(expectFindsEach(table, in));
        EXPECT_FALSE(table.find(ref(0, 1)));
        EXPECT_FALSE(table.find(ref(1, 2)));
        EXPECT_FALSE(table.find(ref(2, 8)));
        EXPECT_FALSE(table.find(ref(3, 0)));
        // Out of order or repeated: refused, nothing added.
        EXPECT_FALSE(table.append({ref(2, 9), 1, 1}));
        EXPECT_FALSE(table.append({ref(0, 5), 1, 1}));
        EXPECT_EQ(table.size(), in.size());
    }
}

TEST(EventIdTable, EachIdKindTakesItsSmallerLayout)
{
    // A host track where every event has an External id and every third a correlation (a
    // Kineto CPU thread: operators, and launches among them), and a device track with
    // correlations only (a kernel stream). The External ids are a dense column (4 bytes per
    // event), the correlations of the host track a list (8 bytes per launch), those of the
    // device track dense.
    const std::uint32_t n = 9000;
    EventIdTable table;
    std::vector<EventIds> in;
    for (std::uint32_t i = 0; i < n; ++i)
        in.push_back({ref(0, i), i % 3 == 0 ? std::int64_t {i} : -1, std::int64_t {i} * 7});
    for (std::uint32_t i = 0; i < n; ++i)
        in.push_back({ref(1, i), std::int64_t {i}, -1});
    for (const EventIds &e : in)
        ASSERT_TRUE(table.append(e));
    table.compact();
    const std::size_t columns = 4u * n + 8u * (n / 3) + 4u * n;
    ASSERT_GE(table.memoryBytes(), columns);
    EXPECT_LT(table.memoryBytes() - columns, 512u) << table.memoryBytes(); // the headers alone
    expectSame(all(table), in);
    EXPECT_EQ(table.find(ref(0, 8999))->externalId, 62993);
    EXPECT_EQ(table.find(ref(0, 8999))->correlation, -1); // 8999 % 3 != 0
    EXPECT_EQ(table.find(ref(0, 8997))->correlation, 8997);
    EXPECT_EQ(table.find(ref(1, 5))->externalId, -1);
}

// Tracks of every mix of densities, each layout: what forEach and find give equals what was
// appended, before and after compact(), and after appending to a compacted track.
TEST(EventIdTable, EveryLayoutGivesBackWhatWasAppended)
{
    std::uint64_t seed = 12345;
    const auto next = [&seed]() {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::uint32_t>(seed >> 33);
    };
    const int densities[] = {0, 1, 10, 40, 50, 60, 100}; // percent of events with the id
    std::vector<EventIds> in;
    std::uint32_t track = 0;
    for (const int c : densities) {
        for (const int x : densities) {
            for (std::uint32_t i = 0; i < 300; ++i) {
                const bool hasC = static_cast<int>(next() % 100) < c;
                const bool hasX = static_cast<int>(next() % 100) < x;
                if (hasC || hasX)
                    in.push_back({ref(track, i), hasC ? std::int64_t {next()} - (1LL << 31) : -1,
                        hasX ? std::int64_t {next()} * 3 : -1});
            }
            ++track;
        }
    }
    for (const bool compactEachTrack : {false, true}) {
        SCOPED_TRACE(compactEachTrack);
        EventIdTable table;
        for (std::size_t k = 0; k < in.size(); ++k) {
            ASSERT_TRUE(table.append(in[k]));
            // Compacted in the middle of a track, then appended to again.
            if (compactEachTrack && k % 97 == 0)
                table.compact();
        }
        table.compact();
        EXPECT_EQ(table.size(), in.size());
        expectSame(all(table), in);
        ASSERT_NO_FATAL_FAILURE(expectFindsEach(table, in));
        std::size_t absent = 0;
        for (std::uint32_t t = 0; t < track; ++t) {
            for (std::uint32_t i = 0; i < 300; ++i)
                absent += table.find(ref(t, i)) ? 0 : 1;
        }
        EXPECT_EQ(absent, track * 300u - in.size());
    }
}

TEST(EventIdTable, SparseTracksStayAListAndEventsWithoutIdsAreNotKept)
{
    // One event in a hundred has ids: a dense column would cost 100 slots per entry.
    EventIdTable table;
    std::vector<EventIds> in;
    for (std::uint32_t i = 0; i < 100000; i += 100)
        in.push_back({ref(4, i), std::int64_t {i}, std::int64_t {i} + 1});
    for (const EventIds &e : in)
        ASSERT_TRUE(table.append(e));
    ASSERT_TRUE(table.append({ref(5, 0), -1, -1})); // no ids: accepted, not kept
    table.compact();
    EXPECT_EQ(table.size(), in.size());
    EXPECT_LE(table.memoryBytes(), 12u * in.size() + 512u);
    EXPECT_FALSE(table.find(ref(5, 0)));
    EXPECT_FALSE(table.find(ref(4, 150)));
    EXPECT_EQ(table.find(ref(4, 99900))->externalId, 99901);
    expectSame(all(table), in);
    EXPECT_FALSE(table.append({ref(5, 0), 1, 1})); // the event came already
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

// The builder keeps the ids it is given packed until finish(): every event gets back exactly
// its ids, whatever their size and sign and however the events and tracks interleave.
TEST(EventIdTable, TheBuilderGivesBackEveryEventsIdsExactly)
{
    std::mt19937_64 rng(11);
    TraceBuilder b;
    const TrackId tracks[3] = {
        b.addTrack(TrackInfo {}), b.addTrack(TrackInfo {}), b.addTrack(TrackInfo {})};
    constexpr std::int64_t Events = 6000;
    std::vector<std::int64_t> starts(Events); // unique: an event is known by its start
    std::iota(starts.begin(), starts.end(), 0);
    std::shuffle(starts.begin(), starts.end(), rng);
    const std::int64_t odd[] = {-7, 0, std::numeric_limits<std::int64_t>::max(),
        std::numeric_limits<std::int64_t>::min(), 5000000000, -1};
    std::vector<std::pair<std::int64_t, std::int64_t>> idsByStart(Events);
    for (std::int64_t k = 0; k < Events; ++k) {
        const TrackId t = tracks[rng() % 3];
        const std::int64_t start = starts[static_cast<std::size_t>(k)] * 10;
        const std::uint32_t index = b.track(t).add(start, 5, StringId(), Category::Compute);
        // Mostly rising ids, as in a file; some far off, some none (never both).
        const std::int64_t correlation = k % 4 == 0 ? -1 : 1000 + k;
        const std::int64_t external = k % 97 == 0 ? odd[rng() % 5] : 900000 - k;
        idsByStart[static_cast<std::size_t>(start / 10)] = {correlation, external};
        b.addEventIds({EventRef {t, index}, correlation, external});
    }
    const Trace trace = b.finish().trace;
    ASSERT_EQ(trace.eventIds.size(), static_cast<std::size_t>(Events));
    EXPECT_EQ(trace.checkInvariants(), "");
    std::size_t checked = 0;
    trace.eventIds.forEach([&](const EventIds &ids) {
        const std::int64_t start = trace.track(ids.event.track).start(ids.event.index);
        const auto &want = idsByStart.at(static_cast<std::size_t>(start / 10));
        EXPECT_EQ(ids.correlation, want.first) << start;
        EXPECT_EQ(ids.externalId, want.second) << start;
        ++checked;
    });
    EXPECT_EQ(checked, static_cast<std::size_t>(Events));
}
