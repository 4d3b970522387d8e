// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The format-agnostic trace-event reader: phases, exact times, flows, metadata order,
// malformed input (written by the test into a temp dir), gzip, cancel, parallel = serial.
#include "chrometrace_testutil.h"
#include "import/chrometrace/tracereader.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

using namespace stepscope;
namespace ct = stepscope::import::chrometrace;
namespace fs = std::filesystem;

namespace {

struct Result : testsupport::Loaded
{
    ct::TopLevel top;
};

/// testsupport::load with the plain dialect, keeping the file's top level.
Result read(const fs::path &file, unsigned threads = 0, util::Progress *progress = nullptr)
{
    Result r;
    testsupport::PlainDialect dialect;
    static_cast<testsupport::Loaded &>(r) = testsupport::load(
        [&](const fs::path &f, const import::ImportContext &ctx, model::TraceBuilder &out) {
            return ct::readTraceFile(f, dialect, ctx, out, &r.top);
        },
        file, threads, true, progress);
    return r;
}

class ChromeTraceReader : public testsupport::TempDirTest
{
};

const model::Diagnostic *findDiagnostic(const model::LoadReport &report, const std::string &part)
{
    for (const model::Diagnostic &d : report.diagnostics()) {
        if (d.message.find(part) != std::string::npos)
            return &d;
    }
    return nullptr;
}

std::string event(int i, const char *extra = "")
{
    return "{\"ph\":\"X\",\"name\":\"op" + std::to_string(i) + "\",\"pid\":1,\"tid\":2,\"ts\":"
        + std::to_string(1000 + i * 10) + ",\"dur\":5" + extra + "}";
}

/// A multi-chunk file (> 3 chunks of 4 MiB): nested X, B/E pairs and flows on two threads.
std::string bigTrace(int n)
{
    std::string s = "{\"traceEvents\":[\n";
    for (int i = 0; i < n; ++i) {
        const std::string ts = std::to_string(1000000 + i * 100) + "." + std::to_string(i % 1000);
        s += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"step" + std::to_string(i % 97)
            + "\",\"pid\":7,\"tid\":8,\"ts\":" + ts
            + ",\"dur\":90,\"args\":{\"k\":" + std::to_string(i) + "}},\n";
        s += "{\"ph\":\"B\",\"name\":\"b\",\"pid\":7,\"tid\":9,\"ts\":" + ts + "},\n";
        s += "{\"ph\":\"s\",\"cat\":\"ac2g\",\"id\":" + std::to_string(i)
            + ",\"pid\":7,\"tid\":8,\"ts\":" + ts + "},\n";
        s += "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"ac2g\",\"id\":" + std::to_string(i)
            + ",\"pid\":7,\"tid\":9,\"ts\":" + std::to_string(1000000 + i * 100 + 10) + "},\n";
        s += "{\"ph\":\"E\",\"pid\":7,\"tid\":9,\"ts\":" + std::to_string(1000000 + i * 100 + 50)
            + "},\n";
    }
    s += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":7,\"args\":{\"name\":\"GPU worker\"}}]}";
    return s;
}

} // namespace

TEST_F(ChromeTraceReader, ObjectFormKeysPhasesAndLateMetadata)
{
    const auto f = write("t.json", R"({"schemaVersion": 1, "traceEvents": [
        {"ph":"X","cat":"cpu_op","name":"outer","pid":"25738","tid":"25738","ts":100,"dur":50},
        {"ph":"X","cat":"cpu_op","name":"inner","pid":25738,"tid":25738,"ts":110,"dur":10},
        {"ph":"B","name":"open","pid":25738,"tid":1,"ts":120},
        {"ph":"B","name":"never closed","pid":25738,"tid":1,"ts":125},
        {"ph":"E","name":"open","pid":25738,"tid":1,"ts":130},
        {"ph":"i","name":"thread instant","pid":25738,"tid":25738,"ts":140,"s":"t"},
        {"ph":"i","name":"global","pid":25738,"tid":25738,"ts":141,"s":"g"},
        {"ph":"I","name":"process","pid":25738,"ts":142,"s":"p"},
        {"ph":"C","name":"freq","pid":25738,"ts":150,"args":{"MHz":".75","b":"246.","c":"+10.5","d":"050","bad":"1.5e"}},
        {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":115,"dur":3},
        {"ph":"P","name":"sample","pid":1,"ts":1},
        {"ph":"M","name":"process_name","pid":0,"args":{"name":"GPU 0"}},
        {"ph":"M","name":"thread_name","pid":25738,"tid":"25738","args":{"name":"main"}}
    ], "baseTimeNanoseconds": 5, "distributedInfo": {"rank": 3}})");
    auto r = read(f);
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_TRUE(r.top.objectForm);
    EXPECT_EQ(r.top.keys["schemaVersion"], 1);
    EXPECT_EQ(r.top.keys["distributedInfo"]["rank"], 3);
    EXPECT_EQ(r.top.counts.complete, 3u);
    EXPECT_EQ(r.top.counts.begin, 2u);
    EXPECT_EQ(r.top.counts.end, 1u);
    EXPECT_EQ(r.top.counts.instant, 3u);
    EXPECT_EQ(r.top.counts.counter, 1u);
    EXPECT_EQ(r.top.counts.other, 1u);
    // 3 X + 2 slices from B (one unfinished) + 3 instants.
    EXPECT_EQ(r.trace.eventCount(), 8u);
    EXPECT_EQ(r.trace.checkInvariants(), "");
    // String and int pid/tid are one thread; late metadata names it and the GPU process.
    int mainThreads = 0;
    bool sawDevice = false;
    bool sawUnfinished = false;
    for (const model::Track &t : r.trace.tracks) {
        if (t.info().processId == "25738" && t.info().threadId == "25738") {
            ++mainThreads;
            EXPECT_EQ(t.info().threadName, "main");
            EXPECT_EQ(t.size(), 3u); // outer, inner, thread instant
            EXPECT_EQ(t.rowCount(), 2u); // inner nests in outer
        }
        if (t.info().processId == "0") {
            sawDevice = true;
            EXPECT_EQ(t.info().kind, model::TrackKind::DeviceStream);
            EXPECT_EQ(t.info().processName, "GPU 0");
        }
        if (t.info().processId.empty()) {
            EXPECT_EQ(t.info().threadId, ""); // global instants
        }
        for (std::uint32_t i = 0; i < t.size(); ++i)
            sawUnfinished = sawUnfinished || t.isUnfinished(i);
    }
    EXPECT_EQ(mainThreads, 1);
    EXPECT_TRUE(sawDevice);
    EXPECT_TRUE(sawUnfinished);
    // Counters: 4 numeric strings accepted, "1.5e" rejected with a diagnostic.
    EXPECT_EQ(r.trace.counters.size(), 4u);
    EXPECT_EQ(r.top.counts.counterPoints, 4u);
    EXPECT_NE(findDiagnostic(r.report, "counter value is not a number"), nullptr);
    double sum = 0;
    for (const auto &c : r.trace.counters)
        sum += c.values.at(0);
    EXPECT_DOUBLE_EQ(sum, 0.75 + 246 + 10.5 + 50);
}

TEST_F(ChromeTraceReader, StringTimestampsAreExactNanoseconds)
{
    // 1736412474730415.308 us has 19 significant digits in ns: a double would be off.
    const auto f = write("trace_view.json", R"([
        {"name":"Conv2D1","pid":3254508960,"tid":2,"ts":"1736412474730415.308","dur":311.64625,"ph":"X"},
        {"name":"freq","pid":1,"tid":0,"ts":"1736405444092247","ph":"C","args":{"MHz":1800}}
    ])");
    auto r = read(f);
    ASSERT_TRUE(r.ok) << r.report.toText();
    ASSERT_EQ(r.trace.eventCount(), 1u);
    const model::Track *t = nullptr;
    for (const model::Track &track : r.trace.tracks)
        t = track.size() ? &track : t;
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(r.trace.originNs + t->start(0), 1736412474730415308);
    EXPECT_EQ(t->duration(0), 311646); // 311.64625 us rounds half away from zero
    ASSERT_EQ(r.trace.counters.size(), 1u);
    EXPECT_EQ(r.trace.originNs + r.trace.counters[0].timestampsNs[0], 1736405444092247000);
}

TEST_F(ChromeTraceReader, FlowIdsKeptAsTextBindToEnclosingAndNextSlices)
{
    // Ids > 2^53 differ only in the last digit; a double would merge them.
    const auto f = write("flows.json", R"([
        {"ph":"X","name":"launch1","pid":1,"tid":1,"ts":10,"dur":10},
        {"ph":"X","name":"launch2","pid":1,"tid":1,"ts":30,"dur":10},
        {"ph":"X","name":"kernel1","pid":2,"tid":7,"ts":100,"dur":5},
        {"ph":"X","name":"kernel2","pid":2,"tid":7,"ts":200,"dur":5},
        {"ph":"f","bp":"e","cat":"async_npu","id":1736412474730415308,"pid":2,"tid":7,"ts":100},
        {"ph":"s","cat":"async_npu","id":1736412474730415308,"pid":1,"tid":1,"ts":12},
        {"ph":"s","cat":"async_npu","id":1736412474730415309,"pid":1,"tid":1,"ts":32},
        {"ph":"f","cat":"async_npu","id":1736412474730415309,"pid":2,"tid":7,"ts":150},
        {"ph":"s","cat":"HostToDevice","id":"40006882869110636543","pid":1,"tid":1,"ts":15},
        {"ph":"f","bp":"e","cat":"HostToDevice","id":"40006882869110636543","pid":2,"tid":7,"ts":101},
        {"ph":"f","bp":"e","cat":"HostToDevice","id":"40006882869110636544","pid":2,"tid":7,"ts":201},
        {"ph":"s","cat":"x","id":1,"pid":9,"tid":9,"ts":1}
    ])");
    auto r = read(f);
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.top.counts.flowPoints, 8u);
    ASSERT_EQ(r.trace.flows.size(), 3u);
    auto name = [&](model::EventRef e) {
        return std::string(r.trace.strings.view(r.trace.track(e.track).name(e.index)));
    };
    EXPECT_EQ(name(r.trace.flows[0].from), "launch1");
    EXPECT_EQ(name(r.trace.flows[0].to), "kernel1");
    EXPECT_EQ(name(r.trace.flows[1].from), "launch1"); // HostToDevice, string id
    EXPECT_EQ(name(r.trace.flows[1].to), "kernel1");
    EXPECT_EQ(name(r.trace.flows[2].from), "launch2"); // f without bp: next slice
    EXPECT_EQ(name(r.trace.flows[2].to), "kernel2");
    EXPECT_NE(findDiagnostic(r.report, "1 flow point lies on no event of its thread"), nullptr);
    EXPECT_NE(findDiagnostic(r.report, "without a matching start"), nullptr);
}

TEST_F(ChromeTraceReader, FlowsLinkWhenTheFinishComesFirstInFileOrTime)
{
    // Every `f`/`t` is written before its `s` (Kineto writes them so). Id 7: the `f` is
    // also stamped 1 us before its `s` (Ascend host/device clock skew). Id 8: one `s`
    // feeds two `f`. Id 9: s -> t -> f chain written backwards. Id 10: `f` without `s`.
    const auto f = write("reversed.json", R"([
        {"ph":"f","bp":"e","cat":"ac2g","id":5,"pid":2,"tid":7,"ts":100},
        {"ph":"f","bp":"e","cat":"HostToDevice","id":"7","pid":2,"tid":7,"ts":201},
        {"ph":"f","bp":"e","cat":"ac2g","id":8,"pid":2,"tid":7,"ts":301},
        {"ph":"f","cat":"ac2g","id":9,"pid":2,"tid":7,"ts":390},
        {"ph":"t","cat":"ac2g","id":9,"pid":3,"tid":3,"ts":55},
        {"ph":"f","bp":"e","cat":"ac2g","id":10,"pid":2,"tid":7,"ts":102},
        {"ph":"X","name":"kernel5","pid":2,"tid":7,"ts":100,"dur":5},
        {"ph":"X","name":"kernel7","pid":2,"tid":7,"ts":200,"dur":5},
        {"ph":"X","name":"kernel8","pid":2,"tid":7,"ts":300,"dur":5},
        {"ph":"X","name":"kernel9","pid":2,"tid":7,"ts":400,"dur":5},
        {"ph":"X","name":"launch5","pid":1,"tid":1,"ts":10,"dur":5},
        {"ph":"X","name":"launch7","pid":1,"tid":1,"ts":200,"dur":5},
        {"ph":"X","name":"launch8","pid":1,"tid":1,"ts":30,"dur":5},
        {"ph":"X","name":"launch9","pid":1,"tid":1,"ts":40,"dur":5},
        {"ph":"X","name":"step9","pid":3,"tid":3,"ts":50,"dur":10},
        {"ph":"f","bp":"e","cat":"ac2g","id":8,"pid":2,"tid":7,"ts":302},
        {"ph":"s","cat":"ac2g","id":5,"pid":1,"tid":1,"ts":11},
        {"ph":"s","cat":"HostToDevice","id":"7","pid":1,"tid":1,"ts":202},
        {"ph":"s","cat":"ac2g","id":8,"pid":1,"tid":1,"ts":31},
        {"ph":"s","cat":"ac2g","id":9,"pid":1,"tid":1,"ts":41}
    ])");
    for (unsigned threads : {1u, 2u}) {
        SCOPED_TRACE(threads);
        auto r = read(f, threads);
        ASSERT_TRUE(r.ok) << r.report.toText();
        EXPECT_EQ(r.top.counts.flowPoints, 11u);
        auto name = [&](model::EventRef e) {
            return std::string(r.trace.strings.view(r.trace.track(e.track).name(e.index)));
        };
        std::vector<std::string> flows;
        for (const model::Flow &fl : r.trace.flows)
            flows.push_back(name(fl.from) + ">" + name(fl.to));
        // In time order of the receiving end.
        EXPECT_EQ(flows,
            (std::vector<std::string> {"launch9>step9", "launch5>kernel5", "launch7>kernel7",
                "launch8>kernel8", "launch8>kernel8", "step9>kernel9"}));
        EXPECT_NE(findDiagnostic(r.report, "1 flow end stamped before its start"), nullptr);
        EXPECT_NE(findDiagnostic(r.report, "without a matching start"), nullptr);
    }
}

TEST_F(ChromeTraceReader, FlowsLinkAcrossChunksWhateverTheirOrder)
{
    // All `f` in the first chunk(s), all `s` in the last: the pairing waits for the file.
    const int n = 40000;
    std::string s = "{\"traceEvents\":[\n";
    for (int i = 0; i < n; ++i) {
        s += "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":"
            + std::to_string(1000000000000000000LL + i)
            + ",\"pid\":2,\"tid\":7,\"ts\":" + std::to_string(1000000 + i * 100 + 50) + "},\n";
    }
    for (int i = 0; i < n; ++i) {
        const std::string ts = std::to_string(1000000 + i * 100);
        s += "{\"ph\":\"X\",\"name\":\"launch\",\"pid\":1,\"tid\":1,\"ts\":" + ts
            + ",\"dur\":10},\n{\"ph\":\"X\",\"name\":\"kernel\",\"pid\":2,\"tid\":7,\"ts\":"
            + std::to_string(1000000 + i * 100 + 50) + ",\"dur\":20},\n";
    }
    for (int i = 0; i < n; ++i) {
        s += "{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":"
            + std::to_string(1000000000000000000LL + i)
            + ",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(1000000 + i * 100 + 5) + "},\n";
    }
    s += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,\"args\":{\"name\":\"GPU 0\"}}]}";
    const auto f = write("reversed_big.json", s);
    auto one = read(f, 1);
    auto two = read(f, 2);
    ASSERT_TRUE(one.ok) << one.report.toText();
    EXPECT_GE(one.top.counts.chunks, 3u);
    ASSERT_EQ(one.trace.flows.size(), static_cast<std::size_t>(n));
    ASSERT_EQ(two.trace.flows.size(), static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < one.trace.flows.size(); ++i) {
        const model::Flow &a = one.trace.flows[i];
        const model::Flow &b = two.trace.flows[i];
        // Launch i feeds kernel i (both tracks sorted by start).
        ASSERT_EQ(a.from.index, i);
        ASSERT_EQ(a.to.index, i);
        ASSERT_TRUE(a.from == b.from && a.to == b.to);
        ASSERT_NE(a.from.track, a.to.track);
    }
    EXPECT_EQ(one.report.toText(), two.report.toText());
}

TEST_F(ChromeTraceReader, TruncatedFileKeepsCompleteEventsAndSaysWhere)
{
    std::string text = "{\"traceEvents\":[" + event(0) + "," + event(1) + "," + event(2) + ",";
    const std::size_t cut = text.size();
    text += event(3).substr(0, 20);
    auto r = read(write("cut.json", text));
    ASSERT_TRUE(r.ok);
    EXPECT_TRUE(r.top.truncated);
    EXPECT_EQ(r.trace.eventCount(), 3u);
    const model::Diagnostic *d = findDiagnostic(r.report, "ends inside an event");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->offset, static_cast<std::int64_t>(cut));
    EXPECT_EQ(d->file, "cut.json");

    // An array never closed after a whole event.
    auto r2 = read(write("open.json", "[" + event(0) + ",\n" + event(1) + ",\n"));
    ASSERT_TRUE(r2.ok);
    EXPECT_EQ(r2.trace.eventCount(), 2u);
    EXPECT_NE(findDiagnostic(r2.report, "never closed"), nullptr);
}

TEST_F(ChromeTraceReader, WrongTypesDropOnlyThatEventWithItsOffset)
{
    const std::string e0 = event(0);
    const std::string bad1 = R"({"ph":"X","name":"a","pid":1,"tid":2,"ts":{"x":1},"dur":5})";
    const std::string bad2 = R"({"ph":"X","name":"b","pid":1,"tid":2,"ts":7,"dur":"abc"})";
    const std::string bad3 = R"({"ph":"X","name":"c","pid":1,"tid":2,"ts":7})";
    const std::string text = "[" + e0 + "," + bad1 + "," + bad2 + "," + bad3 + "," + event(4) + "]";
    auto r = read(write("types.json", text));
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.trace.eventCount(), 2u);
    EXPECT_EQ(r.top.counts.skipped, 3u);
    const model::Diagnostic *d1 = findDiagnostic(r.report, "`ts` must be a number, got an object");
    ASSERT_NE(d1, nullptr);
    EXPECT_EQ(d1->offset, static_cast<std::int64_t>(1 + e0.size() + 1));
    const model::Diagnostic *d2 = findDiagnostic(r.report, "`dur` is not a number");
    ASSERT_NE(d2, nullptr);
    EXPECT_EQ(d2->offset, static_cast<std::int64_t>(1 + e0.size() + 1 + bad1.size() + 1));
    EXPECT_NE(findDiagnostic(r.report, "without `dur`"), nullptr);
}

TEST_F(ChromeTraceReader, LenientJsonTrailingCommasControlCharsAndJunk)
{
    const std::string text = "[" + event(0) + ",\n"
        + R"({"ph":"X","name":"trailing","pid":1,"tid":2,"ts":50,"dur":1,"args":{"a":[1,2,],},},)"
        + "\n"
        + "{\"ph\":\"X\",\"name\":\"ctl\x01here\",\"pid\":1,\"tid\":2,\"ts\":60,\"dur\":1},\n"
        + "garbage here\n" + event(9) + ",\n]";
    auto r = read(write("lenient.json", text));
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.trace.eventCount(), 4u);
    const model::Diagnostic *d = findDiagnostic(r.report, "trailing comma");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->offset, static_cast<std::int64_t>(1 + event(0).size() + 2));
    EXPECT_NE(findDiagnostic(r.report, "raw control character"), nullptr);
    EXPECT_NE(findDiagnostic(r.report, "not an event object"), nullptr);
    bool sawCtl = false;
    for (const model::Track &t : r.trace.tracks) {
        for (std::uint32_t i = 0; i < t.size(); ++i)
            sawCtl = sawCtl || r.trace.strings.view(t.name(i)) == "ctl\x01here";
    }
    EXPECT_TRUE(sawCtl);
}

TEST_F(ChromeTraceReader, GarbageAndEmptyFilesFailWithAReason)
{
    auto empty = read(write("empty.json", ""));
    EXPECT_FALSE(empty.ok);
    EXPECT_NE(findDiagnostic(empty.report, "the file is empty"), nullptr);
    auto garbage = read(write("garbage.json", "hello world"));
    EXPECT_FALSE(garbage.ok);
    EXPECT_EQ(garbage.report.count(model::Severity::Error), 1u);
    auto noEvents = read(write("noevents.json", R"({"foo": 1})"));
    EXPECT_FALSE(noEvents.ok);
    EXPECT_NE(findDiagnostic(noEvents.report, "traceEvents"), nullptr);
    auto emptyArray = read(write("emptyarray.json", "[]"));
    EXPECT_FALSE(emptyArray.ok);
    EXPECT_NE(findDiagnostic(emptyArray.report, "no usable events"), nullptr);
    auto missing = read(m_tmp / "missing.json");
    EXPECT_FALSE(missing.ok);
}

TEST_F(ChromeTraceReader, GzipPlainAndTruncated)
{
    std::string text = "[";
    for (int i = 0; i < 20000; ++i)
        text += event(i, ",\"args\":{\"pad\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}") + ",";
    text.back() = ']';
    gzFile gz = gzopen((m_tmp / "t.json.gz").c_str(), "wb");
    gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
    gzclose(gz);
    auto full = read(m_tmp / "t.json.gz");
    ASSERT_TRUE(full.ok) << full.report.toText();
    EXPECT_EQ(full.trace.eventCount(), 20000u);

    // Cut the compressed file in half: the events before the cut load.
    const auto size = fs::file_size(m_tmp / "t.json.gz");
    fs::copy_file(m_tmp / "t.json.gz", m_tmp / "cut.json.gz");
    fs::resize_file(m_tmp / "cut.json.gz", size / 2);
    auto cut = read(m_tmp / "cut.json.gz");
    ASSERT_TRUE(cut.ok);
    EXPECT_GT(cut.trace.eventCount(), 1000u);
    EXPECT_LT(cut.trace.eventCount(), 20000u);
    EXPECT_NE(findDiagnostic(cut.report, "gzip stream is truncated"), nullptr);
    EXPECT_TRUE(cut.top.truncated);
}

TEST_F(ChromeTraceReader, CancelStopsAfterTheFirstChunk)
{
    const auto f = write("big.json", bigTrace(60000));
    ASSERT_GT(fs::file_size(f), 12u << 20);
    util::CancelToken token;
    std::atomic<int> calls {0};
    util::Progress progress(
        [&](const std::string &, std::uint64_t done, std::uint64_t) {
            if (done > 0) {
                ++calls;
                token.cancel();
            }
        },
        &token);
    progress.setTotal(fs::file_size(f));
    EXPECT_THROW(read(f, 2, &progress), util::Cancelled);
    EXPECT_GE(calls.load(), 1);
    EXPECT_LT(progress.done(), fs::file_size(f));
}

TEST_F(ChromeTraceReader, ParallelEqualsSerialAcrossChunks)
{
    const auto f = write("big.json", bigTrace(60000));
    auto one = read(f, 1);
    auto two = read(f, 2);
    ASSERT_TRUE(one.ok);
    EXPECT_GE(one.top.counts.chunks, 3u);
    EXPECT_EQ(one.trace.eventCount(), 120000u);
    EXPECT_EQ(one.trace.flows.size(), 60000u);
    EXPECT_EQ(testsupport::dumpEvents(one.trace), testsupport::dumpEvents(two.trace));
    EXPECT_EQ(one.report.toText(), two.report.toText());
    for (const model::Track &t : one.trace.tracks)
        EXPECT_EQ(t.info().kind, model::TrackKind::DeviceStream); // named by the last event
}

TEST_F(ChromeTraceReader, EndEventsThatDoNotMatchAreReported)
{
    const auto f = write("be.json", R"([
        {"ph":"E","pid":1,"tid":1,"ts":5},
        {"ph":"B","name":"a","pid":1,"tid":1,"ts":10},
        {"ph":"E","name":"zzz","pid":1,"tid":1,"ts":20}
    ])");
    auto r = read(f);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.trace.eventCount(), 1u);
    EXPECT_NE(findDiagnostic(r.report, "without an open begin"), nullptr);
    const model::Diagnostic *d = findDiagnostic(r.report, "closes the open 'B'");
    ASSERT_NE(d, nullptr);
    EXPECT_GT(d->offset, 0);
}

TEST_F(ChromeTraceReader, AsyncEventsLiveOnTheirOwnLanes)
{
    // b/e pair by (cat, id) on an async lane per name, never on the thread's B/E stack;
    // an unmatched b stays open to the end of the trace.
    const auto f = write("async.json", R"([
        {"ph":"X","name":"work","pid":1,"tid":1,"ts":0,"dur":100},
        {"ph":"b","cat":"io","name":"read","id":"0x1","pid":1,"tid":1,"ts":10},
        {"ph":"b","cat":"io","name":"read","id":"0x2","pid":1,"tid":1,"ts":12},
        {"ph":"e","cat":"io","name":"read","id":"0x1","pid":1,"tid":1,"ts":30},
        {"ph":"n","cat":"io","name":"read","id":"0x2","pid":1,"tid":1,"ts":40}
    ])");
    auto r = read(f);
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.top.counts.async, 4u);
    const model::Track *async = nullptr;
    for (const model::Track &t : r.trace.tracks) {
        if (t.info().threadId == "async:read")
            async = &t;
    }
    ASSERT_NE(async, nullptr);
    EXPECT_EQ(async->info().threadName, "read");
    ASSERT_EQ(async->size(), 3u); // 0x1 [10, 30), 0x2 open from 12, the instant at 40
    std::uint32_t unfinished = 0;
    bool sawClosed = false;
    for (std::uint32_t i = 0; i < async->size(); ++i) {
        unfinished += async->isUnfinished(i) ? 1 : 0;
        sawClosed = sawClosed
            || (async->start(i) + r.trace.originNs == 10000 && async->duration(i) == 20000);
    }
    EXPECT_EQ(unfinished, 1u);
    EXPECT_TRUE(sawClosed);
}
