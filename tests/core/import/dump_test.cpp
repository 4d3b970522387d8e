// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/dump.h"
#include "import/loader.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace stepscope::import {
namespace {

namespace fs = std::filesystem;

const fs::path Data = fs::path(STEPSCOPE_TEST_DATA);

/// A two-rank session built by hand: nesting, an unfinished event, args, a flow, a counter.
model::Session handMade()
{
    model::Session s;
    s.format = "test";
    for (std::int32_t rank = 0; rank < 2; ++rank) {
        model::TraceBuilder b;
        b.trace().rank = rank;
        b.trace().originNs = 1000 + rank * 500;
        model::TrackInfo info;
        info.kind = model::TrackKind::DeviceStream;
        info.rank = rank;
        info.processId = "3";
        info.processName = "Ascend Hardware";
        info.threadId = "7";
        info.threadName = "Stream 7";
        const model::TrackId t = b.addTrack(info);
        const auto parent = b.track(t).add(
            10, 100, b.intern("outer"), model::Category::Compute, b.trace().args.add(R"({"k":1})"));
        const auto child = b.track(t).add(20, 5, b.intern("inner"), model::Category::Memcpy);
        b.track(t).add(200, 0, b.intern("open"), model::Category::Other, {}, true);
        b.addFlow({t, parent}, {t, child}, b.intern("ac2g"));
        model::CounterSeries c;
        c.process = "AI Core Freq";
        c.name = "AI Core Freq";
        c.key = "MHz";
        c.timestampsNs = {0, 50};
        c.values = {1800.0, 1650.5};
        b.trace().counters.push_back(c);
        b.trace().steps.push_back(model::Step {5, 10, 110});
        s.traces.push_back(std::make_shared<const model::Trace>(b.finish().trace));
    }
    s.report.add(model::Severity::Warning, "x.json", "cut", 0, 42);
    return s;
}

TEST(DumpTest, EverythingInStableOrderWithAbsoluteTimes)
{
    const nlohmann::json j = dumpJson(handMade());
    EXPECT_EQ(j["origin_ns"], 1000);
    ASSERT_EQ(j["tracks"].size(), 2u);
    const nlohmann::json &t0 = j["tracks"][0];
    EXPECT_EQ(t0["rank"], 0);
    EXPECT_EQ(t0["kind"], "device_stream");
    EXPECT_EQ(t0["process"], "Ascend Hardware");
    EXPECT_EQ(t0["process_id"], "3");
    EXPECT_EQ(t0["thread"], "Stream 7");
    EXPECT_EQ(t0["thread_id"], "7");
    ASSERT_EQ(t0["events"].size(), 3u);
    // Row 0: outer, open (unfinished: dur null); row 1: inner.
    EXPECT_EQ(t0["events"][0]["name"], "outer");
    EXPECT_EQ(t0["events"][0]["ts_ns"], 1010);
    EXPECT_EQ(t0["events"][0]["dur_ns"], 100);
    EXPECT_EQ(t0["events"][0]["depth"], 0);
    EXPECT_EQ(t0["events"][0]["category"], "compute");
    EXPECT_EQ(t0["events"][0]["args"], nlohmann::json({{"k", 1}}));
    EXPECT_EQ(t0["events"][1]["name"], "open");
    EXPECT_TRUE(t0["events"][1]["dur_ns"].is_null());
    EXPECT_EQ(t0["events"][2]["name"], "inner");
    EXPECT_EQ(t0["events"][2]["depth"], 1);
    EXPECT_TRUE(t0["events"][2]["args"].is_null());
    // Rank 1's origin is 500 ns later: absolute times differ by 500.
    EXPECT_EQ(j["tracks"][1]["events"][0]["ts_ns"], 1510);
    // Flows use global track numbers: rank 1's track is track 1.
    ASSERT_EQ(j["flows"].size(), 2u);
    EXPECT_EQ(j["flows"][0]["from"], nlohmann::json({0, 0}));
    EXPECT_EQ(j["flows"][0]["to"], nlohmann::json({0, 2}));
    EXPECT_EQ(j["flows"][1]["from"], nlohmann::json({1, 0}));
    EXPECT_EQ(j["flows"][1]["category"], "ac2g");
    ASSERT_EQ(j["counters"].size(), 2u);
    EXPECT_EQ(j["counters"][0]["process"], "AI Core Freq");
    EXPECT_EQ(j["counters"][0]["name"], "AI Core Freq");
    EXPECT_EQ(j["counters"][0]["points"], nlohmann::json({{1000, 1800.0}, {1050, 1650.5}}));
    EXPECT_EQ(j["steps"][1],
        nlohmann::json({{"rank", 1}, {"step", 5}, {"start_ns", 1510}, {"end_ns", 1610}}));
    ASSERT_EQ(j["diagnostics"].size(), 1u);
    EXPECT_EQ(j["diagnostics"][0]["offset"], 42);

    const std::string text = dumpText(handMade());
    EXPECT_NE(
        text.find("track 1 rank 1 device_stream process 3 \"Ascend Hardware\""), std::string::npos)
        << text;
    EXPECT_NE(text.find("  1200 unfinished d0 other open"), std::string::npos);
    EXPECT_NE(text.find("  1010 100 d0 compute outer {\"k\":1}"), std::string::npos);
    EXPECT_NE(text.find("flow 1:0 -> 1:2 ac2g\n"), std::string::npos);
}

TEST(DumpTest, RealLegacyTimelineAndStepTraceShareTheTickClock)
{
    util::Progress progress;
    const LoadResult r = loadPath(Data / "mindspore_legacy/mindinsight-widedeep-run1", progress);
    ASSERT_TRUE(r.session);
    const nlohmann::json j = dumpJson(*r.session);
    EXPECT_EQ(j["origin_ns"], 43806841592LL * 10); // min_cycle_counter_1.txt
    // The timeline's stream_520_parallel_0 lane (ts 1383.04 us after min_cycle_counter) and
    // step_trace_raw's stream_520_parallel_0_start_point (43806979896 ticks) are one instant.
    bool found = false;
    for (const auto &track : j["tracks"]) {
        for (const auto &e : track["events"]) {
            if (e["name"] == "stream_520_parallel_0") {
                EXPECT_EQ(e["ts_ns"], 43806979896LL * 10);
                EXPECT_EQ(e["dur_ns"], 7862870LL * 10);
                found = true;
                break;
            }
        }
        if (found)
            break;
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(j.dump(),
        dumpJson(*loadPath(Data / "mindspore_legacy/mindinsight-widedeep-run1", progress).session)
            .dump());
}

} // namespace
} // namespace stepscope::import
