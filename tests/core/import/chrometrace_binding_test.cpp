// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Which event each flow point binds to, on random lanes with nesting, partial overlaps, equal
// starts and zero durations, against a brute-force reading of the rules (docs/formats.md
// §8a): an `s`, or an `f` with "bp":"e", binds to the latest-starting slice of its thread that
// contains it (starts at or before, ends at or after); another `f` to the first slice that
// starts at or after it; a v2 point (`bind_id`) to the first slice with the same start and
// duration. "First" and "latest" in the order the tracks use: start, then longer first, then
// file order.
#include "chrometrace_testutil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace stepscope;

namespace {

struct Slice
{
    std::string name;
    int ts = 0;
    int dur = 0;
    int file = 0; // position in the file
};

/// The lane in track order: start, longer first, file order.
std::vector<Slice> inTrackOrder(std::vector<Slice> lane)
{
    std::stable_sort(lane.begin(), lane.end(),
        [](const Slice &a, const Slice &b) { return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur; });
    return lane;
}

std::string enclosing(const std::vector<Slice> &sorted, int ts)
{
    std::string found;
    for (const Slice &s : sorted) {
        if (s.ts <= ts && s.ts + s.dur >= ts)
            found = s.name; // the last one in track order wins
    }
    return found;
}

std::string next(const std::vector<Slice> &sorted, int ts)
{
    for (const Slice &s : sorted) {
        if (s.ts >= ts)
            return s.name;
    }
    return {};
}

std::string carrying(const std::vector<Slice> &sorted, int ts, int dur)
{
    for (const Slice &s : sorted) {
        if (s.ts == ts && s.dur == dur)
            return s.name;
    }
    return {};
}

class FlowBinding : public testsupport::TempDirTest
{
};

} // namespace

TEST_F(FlowBinding, EachPointBindsAsTheRulesSayOnRandomLanes)
{
    std::mt19937 rng(11);
    for (int round = 0; round < 30; ++round) {
        std::vector<Slice> lanes[2];
        std::string text = "[";
        int file = 0;
        const auto slice = [&](int lane, const std::string &name, int ts, int dur,
                               const std::string &extra) {
            lanes[lane].push_back({name, ts, dur, file++});
            text += R"({"ph":"X","name":")" + name + R"(","pid":1,"tid":)" + std::to_string(lane)
                + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + extra
                + "},\n";
        };
        const int events = 20 + static_cast<int>(rng() % 200);
        for (int k = 0; k < events; ++k)
            slice(static_cast<int>(rng() % 2), "x" + std::to_string(k),
                static_cast<int>(rng() % 100), static_cast<int>(rng() % 4 == 0 ? 0 : rng() % 30),
                "");
        // v2: a flow_out slice on lane 0 and a flow_in slice on lane 1 per id; equal (ts, dur)
        // on one lane bind to the first of them in track order.
        std::vector<std::pair<int, int>> v2[2];
        for (int id = 0; id < 15; ++id) {
            for (int lane = 0; lane < 2; ++lane) {
                const int ts = static_cast<int>(rng() % 100);
                const int dur = static_cast<int>(rng() % 10);
                v2[lane].emplace_back(ts, dur);
                slice(lane, "v" + std::to_string(id) + "_" + std::to_string(lane), ts, dur,
                    R"(,"bind_id":)" + std::to_string(1000 + id)
                        + (lane == 0 ? R"(,"flow_out":true)" : R"(,"flow_in":true)"));
            }
        }
        // v1: an `s` on lane 0 and an `f` on lane 1 per id, in either order in time.
        std::vector<std::pair<int, int>> points; // (s ts, f ts)
        std::vector<bool> bpE;
        for (int id = 0; id < 60; ++id) {
            points.emplace_back(static_cast<int>(rng() % 140) - 10, static_cast<int>(rng() % 140));
            bpE.push_back(rng() % 2 == 0);
            text += R"({"ph":"s","cat":"c","id":)" + std::to_string(id)
                + R"(,"pid":1,"tid":0,"ts":)" + std::to_string(points.back().first) + "},\n";
            text += R"({"ph":"f",)" + std::string(bpE.back() ? R"("bp":"e",)" : "")
                + R"("cat":"c","id":)" + std::to_string(id) + R"(,"pid":1,"tid":1,"ts":)"
                + std::to_string(points.back().second) + "},\n";
        }
        text += R"({"ph":"M","name":"thread_name","pid":1,"tid":0,"args":{"name":"t0"}}])";

        std::vector<std::pair<std::string, std::string>> expected;
        const std::vector<Slice> a = inTrackOrder(lanes[0]);
        const std::vector<Slice> b = inTrackOrder(lanes[1]);
        for (std::size_t id = 0; id < points.size(); ++id) {
            const std::string from = enclosing(a, points[id].first);
            const std::string to =
                bpE[id] ? enclosing(b, points[id].second) : next(b, points[id].second);
            if (!from.empty() && !to.empty())
                expected.emplace_back(from, to);
        }
        for (std::size_t id = 0; id < v2[0].size(); ++id) {
            const std::string from = carrying(a, v2[0][id].first, v2[0][id].second);
            const std::string to = carrying(b, v2[1][id].first, v2[1][id].second);
            expected.emplace_back(from, to);
        }

        std::sort(expected.begin(), expected.end());
        for (const unsigned threads : {1u, 2u}) {
            const auto r = testsupport::load(
                [](const std::filesystem::path &p, const import::ImportContext &ctx,
                    model::TraceBuilder &out) {
                    testsupport::PlainDialect dialect;
                    return import::chrometrace::readTraceFile(p, dialect, ctx, out);
                },
                write("flows.json", text), threads);
            ASSERT_TRUE(r.ok) << r.report.toText();
            std::vector<std::pair<std::string, std::string>> got;
            for (const model::Flow &f : r.trace.flows) {
                const auto name = [&](model::EventRef e) {
                    return std::string(r.trace.strings.view(r.trace.track(e.track).name(e.index)));
                };
                got.emplace_back(name(f.from), name(f.to));
            }
            std::sort(got.begin(), got.end());
            EXPECT_EQ(got, expected) << "round " << round << ", " << threads << " thread(s)";
        }
    }
}
