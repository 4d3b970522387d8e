// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// MindSpore legacy timeline_display files: counts checked by hand with python3 (json).
#include "chrometrace_testutil.h"
#include "import/mindspore/timelinedisplay.h"

#include <gtest/gtest.h>

using namespace stepscope;
using model::TrackKind;

namespace {
testsupport::Loaded loadTimeline(const std::string &rel)
{
    return testsupport::load(
        import::mindspore::readTimelineDisplay, testsupport::dataPath("mindspore_legacy/" + rel));
}
} // namespace

TEST(TimelineDisplay, WidedeepRunHasDeviceAndReduceLanes)
{
    // python3: 2817 pid-1 events on 11 streams, 3542 pid-10000 events on 11 reduce lanes
    // (322 steps x 11); first ts 0.0 (relative file); rank from the file-name suffix.
    auto r = loadTimeline("mindinsight-widedeep-run1/timeline_display_1.json");
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.trace.checkInvariants(), "");
    const auto kinds = testsupport::byKind(r.trace);
    EXPECT_EQ(kinds[static_cast<int>(TrackKind::DeviceStream)].tracks, 11u);
    EXPECT_EQ(kinds[static_cast<int>(TrackKind::DeviceStream)].events, 2817u);
    EXPECT_EQ(kinds[static_cast<int>(TrackKind::Synthetic)].tracks, 11u);
    EXPECT_EQ(kinds[static_cast<int>(TrackKind::Synthetic)].events, 3542u);
    EXPECT_EQ(r.trace.rank, 1);
    EXPECT_EQ(r.trace.metadata.format, "mindspore-legacy");
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Annotation), 3542u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Compute), 2817u);
    EXPECT_EQ(r.report.count(model::Severity::Warning), 0u) << r.report.toText();
}

TEST(TimelineDisplay, AscendAndGpuVariantsWithStringTids)
{
    // ascend_timeline_display_0: pid 9000 InitData + GetNext (tid "0"), pid 1 AssignAdd
    // (tid "519"). gpu_timeline_display_0: pid 0, tids "Ops" and "17".
    auto a = loadTimeline("mindinsight-profiler-dir-with-PROF-2dev/ascend_timeline_display_0.json");
    ASSERT_TRUE(a.ok) << a.report.toText();
    EXPECT_EQ(a.trace.tracks.size(), 2u);
    EXPECT_EQ(a.trace.eventCount(), 3u);
    EXPECT_EQ(testsupport::categoryCount(a.trace, model::Category::DataLoading), 2u);
    EXPECT_EQ(a.trace.rank, 0);
    auto g = loadTimeline("mindinsight-profiler-dir-with-PROF-2dev/gpu_timeline_display_0.json");
    ASSERT_TRUE(g.ok) << g.report.toText();
    EXPECT_EQ(g.trace.tracks.size(), 2u);
    EXPECT_EQ(g.trace.eventCount(), 2u);
    // ts 1600695893269618.2 us (a JSON number) lands at the exact ns.
    EXPECT_EQ(g.trace.originNs, 1600695893269618200);
}
