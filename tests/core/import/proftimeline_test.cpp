// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// CANN PROF_*/device_N timeline: counts and wall-clock steps checked by hand with python3
// (json with Decimal; wall ns = collectionTimeBegin*1000 + ts*1000 - clockMonotonicRaw).
#include "chrometrace_testutil.h"
#include "import/cann/proftimeline.h"

#include <gtest/gtest.h>

using namespace stepscope;
using model::TrackKind;

namespace {
const char *Root = "mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev/";

testsupport::Loaded loadDevice(const std::string &rel)
{
    return testsupport::load(import::cann::readProfDevice, testsupport::dataPath(Root + rel));
}

struct Golden
{
    const char *dir;
    std::int32_t rank;
    std::uint64_t hostEvents, deviceEvents, syntheticEvents;
    std::int64_t step1Ns, step1Dur, step10Ns, step10Dur;
};
} // namespace

TEST(ProfTimeline, BothDevicesGoldenCountsAndWallClockSteps)
{
    // python3 over timeline/msprof_*.json: X per lane; Ascend Hardware streams -> device
    // (4900, 6 streams), Step Trace thread + Overlap Analysis -> synthetic (40 + 2504 / 2512,
    // 5 lanes), HCCL -> communication group (3380, 5 lanes), CANN -> host (14 / 9, 2 lanes).
    const Golden golden[] = {
        {"PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0", 0, 14, 4900, 2544,
            1692340080258570860, 47587810, 1692340080600373130, 16329380},
        {"PROF_000001_20230818142704567_GQFAMHBKGODKJMLA/device_1", 1, 9, 4900, 2552,
            1692340080248627730, 57532960, 1692340080600402160, 16256890},
    };
    for (const Golden &g : golden) {
        SCOPED_TRACE(g.dir);
        auto r = loadDevice(g.dir);
        ASSERT_TRUE(r.ok) << r.report.toText();
        EXPECT_EQ(r.trace.checkInvariants(), "");
        EXPECT_EQ(r.report.count(model::Severity::Error), 0u) << r.report.toText();
        EXPECT_EQ(r.trace.rank, g.rank);
        EXPECT_EQ(r.trace.metadata.format, "cann-prof");
        const auto kinds = testsupport::byKind(r.trace);
        auto k = [&kinds](TrackKind kind) { return kinds[static_cast<int>(kind)]; };
        EXPECT_EQ(k(TrackKind::HostThread).tracks, 2u);
        EXPECT_EQ(k(TrackKind::HostThread).events, g.hostEvents);
        EXPECT_EQ(k(TrackKind::DeviceStream).tracks, 6u);
        EXPECT_EQ(k(TrackKind::DeviceStream).events, g.deviceEvents);
        EXPECT_EQ(k(TrackKind::Synthetic).tracks, 5u);
        EXPECT_EQ(k(TrackKind::Synthetic).events, g.syntheticEvents);
        EXPECT_EQ(k(TrackKind::CommunicationGroup).tracks, 5u);
        EXPECT_EQ(k(TrackKind::CommunicationGroup).events, 3380u);
        for (const model::Track &t : r.trace.tracks)
            EXPECT_EQ(t.info().rank, g.rank);
        ASSERT_EQ(r.trace.steps.size(), 10u);
        for (std::size_t i = 0; i < 10; ++i)
            EXPECT_EQ(r.trace.steps[i].number, static_cast<std::int64_t>(i + 1));
        EXPECT_EQ(r.trace.originNs + r.trace.steps[0].startNs, g.step1Ns);
        EXPECT_EQ(r.trace.steps[0].durationNs(), g.step1Dur);
        EXPECT_EQ(r.trace.originNs + r.trace.steps[9].startNs, g.step10Ns);
        EXPECT_EQ(r.trace.steps[9].durationNs(), g.step10Dur);
        // Origin = collectionTimeBegin: every event is after it (iterations start ~55.9 s later).
        EXPECT_GT(r.trace.extent().first, 55'000'000'000);
    }
}

TEST(ProfTimeline, TaskTypeCategories)
{
    // python3, device 0: AI_CORE 1370 + AI_CPU 20 -> Compute; MEMCPY_ASYNC 290 -> Memcpy.
    auto r = loadDevice("PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0");
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Compute), 1390u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Memcpy), 290u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Runtime), 14u);
}

TEST(ProfTimeline, MissingFolderContentIsReported)
{
    const auto dir = std::filesystem::temp_directory_path() / "stepscope_prof_empty" / "device_3";
    std::filesystem::create_directories(dir);
    auto r = testsupport::load(import::cann::readProfDevice, dir);
    EXPECT_FALSE(r.ok);
    EXPECT_GE(r.report.count(model::Severity::Error), 1u);
    std::filesystem::remove_all(dir.parent_path());
}
