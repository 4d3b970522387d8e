// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Generic Chrome trace-event files (no PyTorch, no Ascend): recognised by content whatever
// their name, and read with Perfetto's JSON-importer semantics (docs/formats.md §8a), one small
// file per semantic. Expected values are worked out by hand from the file text in each test.
#include "chrometrace_testutil.h"
#include "import/detect/detect.h"
#include "import/kineto/kinetotrace.h"
#include "import/loader.h"
#include "util/text.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

class GenericChromeTrace : public testsupport::TempDirTest
{
protected:
    testsupport::Loaded read(const std::string &text, unsigned threads = 0)
    {
        return testsupport::load(
            import::kineto::readChromeTrace, write("trace.json", text), threads);
    }
};

const model::Track *track(const model::Trace &t, const std::string &pid, const std::string &tid)
{
    for (const model::Track &k : t.tracks) {
        if (k.info().processId == pid && k.info().threadId == tid)
            return &k;
    }
    return nullptr;
}

/// "name start duration row" of every event of a track, absolute ns, in track order.
std::vector<std::string> slices(const model::Trace &t, const model::Track &k)
{
    std::vector<std::string> out;
    for (std::uint32_t i = 0; i < k.size(); ++i)
        out.push_back(std::string(t.strings.view(k.name(i))) + " "
            + std::to_string(t.originNs + k.start(i)) + " " + std::to_string(k.duration(i)) + " "
            + std::to_string(k.row(i)));
    return out;
}

std::string nameOf(const model::Trace &t, model::EventRef e)
{
    return std::string(t.strings.view(t.tracks[e.track.value()].name(e.index)));
}

bool hasDiagnostic(const model::LoadReport &report, const std::string &part)
{
    for (const model::Diagnostic &d : report.diagnostics()) {
        if (d.message.find(part) != std::string::npos)
            return true;
    }
    return false;
}

const std::string Ev = R"({"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2})";

} // namespace

TEST_F(GenericChromeTrace, RecognisedByContentWhateverTheName)
{
    using import::detect::Format;
    // Bare array, with and without the closing bracket, any name, plain or gzip.
    const fs::path closed = write("out.trace", "\n  [" + Ev + "]");
    const fs::path open = write("timeline.log", "[\n" + Ev + ",\n" + Ev);
    const fs::path gz = m_tmp / "noext";
    gzFile f = gzopen(gz.c_str(), "wb");
    const std::string text = "[" + Ev + "]";
    gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
    gzclose(f);
    for (const fs::path &p : {closed, open, gz}) {
        const auto d = import::detect::detectPath(p);
        EXPECT_EQ(d.format, Format::ChromeTrace) << p;
        EXPECT_EQ(import::detect::formatName(d.format), "chrome-trace");
    }
    // A folder of such files (and nothing PyTorch): each file one rank (two hosts' files
    // differ; a byte copy would be read once).
    const fs::path dir = m_tmp / "run";
    fs::create_directories(dir);
    testsupport::writeFile(dir / "host0.json", "[" + Ev + "]");
    testsupport::writeFile(dir / "host1.json", "[ " + Ev + "]");
    const auto folder = import::detect::detectPath(dir);
    EXPECT_EQ(folder.format, Format::ChromeTrace);
    EXPECT_EQ(folder.kinetoFiles.size(), 2u);
    util::Progress progress;
    const import::LoadResult loaded = import::loadPath(dir, progress);
    ASSERT_NE(loaded.session, nullptr);
    const model::Session &session = *loaded.session;
    ASSERT_EQ(session.traces.size(), 2u) << session.report.toText();
    EXPECT_EQ(session.format, "chrome-trace");
    EXPECT_EQ(session.traces[0]->metadata.format, "chrome-trace");

    // The same files in a folder are found by content too, whatever their names; text and
    // binary files beside them are not traces.
    const fs::path odd = m_tmp / "odd";
    fs::create_directories(odd);
    for (const fs::path &p : {closed, open, gz})
        fs::copy_file(p, odd / p.filename());
    testsupport::writeFile(odd / "notes.txt", "step 1 took 2 s\n");
    testsupport::writeFile(odd / "weights.bin", std::string("\x00\x01\x02[{", 5));
    const auto oddFolder = import::detect::detectPath(odd);
    EXPECT_EQ(oddFolder.format, Format::ChromeTrace);
    std::vector<std::string> found;
    for (const auto &k : oddFolder.kinetoFiles)
        found.push_back(k.path.filename().string());
    std::sort(found.begin(), found.end());
    EXPECT_EQ(found, (std::vector<std::string> {"noext", "out.trace", "timeline.log"}));

    auto r = testsupport::load(import::kineto::readChromeTrace, open);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.trace.eventCount(), 2u);
    EXPECT_TRUE(hasDiagnostic(r.report, "never closed"));
}

// Files that name no rank are numbered in name order with numbers read as numbers (rank2
// before rank10, which std::string's order puts first), and the load says so per file.
TEST_F(GenericChromeTrace, FilesWithoutARankAreNumberedInNameOrderAndSaySo)
{
    const fs::path dir = m_tmp / "ranks";
    fs::create_directories(dir);
    for (const char *name : {"rank10", "rank2", "rank1"})
        testsupport::writeFile(dir / (std::string(name) + ".json"),
            std::string(R"([{"ph":"X","name":")") + name + R"(","pid":1,"tid":1,"ts":1,"dur":2}])");
    util::Progress progress;
    const import::LoadResult loaded = import::loadPath(dir, progress);
    ASSERT_NE(loaded.session, nullptr);
    const model::Session &session = *loaded.session;
    ASSERT_EQ(session.traces.size(), 3u) << session.report.toText();
    const char *expected[] = {"rank1", "rank2", "rank10"};
    for (std::size_t r = 0; r < 3; ++r) {
        const model::Trace &t = *session.traces[r];
        EXPECT_EQ(t.rank, static_cast<std::int32_t>(r));
        ASSERT_EQ(t.eventCount(), 1u);
        const model::Track &track = t.tracks.front();
        EXPECT_EQ(t.strings.view(track.name(0)), expected[r]) << "rank " << r;
        bool said = false;
        for (const auto &d : session.report.diagnostics())
            said = said
                || (d.file == std::string(expected[r]) + ".json"
                    && d.severity == model::Severity::Info
                    && d.message.find("shown as rank " + std::to_string(r) + ", one of 3 ranks")
                        != std::string::npos);
        EXPECT_TRUE(said) << expected[r] << "\n" << session.report.toText();
    }
    EXPECT_TRUE(util::naturalLess("rank2", "rank10"));
    EXPECT_FALSE(util::naturalLess("rank10", "rank2"));
    EXPECT_TRUE(util::naturalLess("a/rank9/x", "a/rank09/x")); // equal numbers: fewer zeros
    EXPECT_TRUE(util::naturalLess("w1", "w1.json"));
    EXPECT_FALSE(util::naturalLess("w1", "w1"));
}

TEST_F(GenericChromeTrace, CompleteEventsNestByContainmentLongerFirstAtEqualStart)
{
    // child written before its parent at the same ts; "next" starts where "parent" ends
    // (a sibling, row 0); "late" overlaps "next" partially (an extra row, never dropped).
    auto r = read(R"([
      {"ph":"X","name":"child","pid":1,"tid":1,"ts":10,"dur":5},
      {"ph":"X","name":"parent","pid":1,"tid":1,"ts":10,"dur":20},
      {"ph":"X","name":"next","pid":1,"tid":1,"ts":30,"dur":10},
      {"ph":"X","name":"late","pid":1,"tid":1,"ts":35,"dur":10}])");
    ASSERT_TRUE(r.ok) << r.report.toText();
    const model::Track *t = track(r.trace, "1", "1");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(slices(r.trace, *t),
        (std::vector<std::string> {"parent 10000 20000 0", "next 30000 10000 0",
            "child 10000 5000 1", "late 35000 10000 1"})); // row by row
    EXPECT_EQ(r.partialOverlaps, 1u);
}

TEST_F(GenericChromeTrace, BeginEndPairInTimeOrderAndUnmatchedBeginsAreCounted)
{
    // The E of "outer" is written first (ts 50); two B never end; an E without B.
    auto r = read(R"([
      {"ph":"E","pid":1,"tid":1,"ts":50},
      {"ph":"B","name":"outer","pid":1,"tid":1,"ts":10},
      {"ph":"B","name":"inner","pid":1,"tid":1,"ts":20},
      {"ph":"E","pid":1,"tid":1,"ts":30},
      {"ph":"E","pid":1,"tid":1,"ts":5},
      {"ph":"B","name":"open1","pid":1,"tid":1,"ts":60},
      {"ph":"B","name":"open2","pid":1,"tid":1,"ts":70},
      {"ph":"X","name":"last","pid":1,"tid":2,"ts":70,"dur":30}])");
    ASSERT_TRUE(r.ok) << r.report.toText();
    const model::Track *t = track(r.trace, "1", "1");
    ASSERT_NE(t, nullptr);
    // Trace end = 100 us ("last" ends there): open begins are drawn to it.
    EXPECT_EQ(slices(r.trace, *t),
        (std::vector<std::string> {"outer 10000 40000 0", "open1 60000 40000 0",
            "inner 20000 10000 1", "open2 70000 30000 1"})); // row by row
    EXPECT_FALSE(t->isUnfinished(0));
    EXPECT_TRUE(t->isUnfinished(1));
    EXPECT_FALSE(t->isUnfinished(2));
    EXPECT_TRUE(t->isUnfinished(3));
    EXPECT_TRUE(hasDiagnostic(r.report, "2 begin events ('B'/'b') never closed"))
        << r.report.toText();
    EXPECT_TRUE(hasDiagnostic(r.report, "1 end event ('E'/'e') without an open begin"));
}

TEST_F(GenericChromeTrace, InstantScopesChooseTheirLane)
{
    auto r = read(R"([
      {"ph":"i","name":"thread","pid":1,"tid":7,"ts":1},
      {"ph":"I","name":"threadToo","pid":1,"tid":7,"ts":2,"s":"t"},
      {"ph":"i","name":"process","pid":1,"tid":7,"ts":3,"s":"p"},
      {"ph":"i","name":"global","pid":1,"tid":7,"ts":4,"s":"g"}])");
    ASSERT_TRUE(r.ok) << r.report.toText();
    ASSERT_NE(track(r.trace, "1", "7"), nullptr);
    EXPECT_EQ(track(r.trace, "1", "7")->size(), 2u);
    ASSERT_NE(track(r.trace, "1", ""), nullptr);
    EXPECT_EQ(
        slices(r.trace, *track(r.trace, "1", "")), (std::vector<std::string> {"process 3000 0 0"}));
    ASSERT_NE(track(r.trace, "", ""), nullptr);
    EXPECT_EQ(
        slices(r.trace, *track(r.trace, "", "")), (std::vector<std::string> {"global 4000 0 0"}));
}

TEST_F(GenericChromeTrace, EveryNumericCounterArgIsASeries)
{
    auto r = read(R"([
      {"ph":"C","name":"mem","pid":3,"ts":1,"args":{"used":10,"free":"2.5","label":"x"}},
      {"ph":"C","name":"mem","pid":3,"ts":2,"args":{"used":".75","free":6}}])");
    ASSERT_TRUE(r.ok) << r.report.toText();
    ASSERT_EQ(r.trace.counters.size(), 2u);
    std::vector<std::string> got;
    for (const model::CounterSeries &c : r.trace.counters) {
        std::string line = c.name + "/" + c.key + ":";
        for (double v : c.values)
            line += " " + std::to_string(v);
        got.push_back(line);
    }
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got,
        (std::vector<std::string> {"mem/free: 2.500000 6.000000", "mem/used: 10.000000 0.750000"}));
    EXPECT_TRUE(hasDiagnostic(r.report, "counter value is not a number"));
}

TEST_F(GenericChromeTrace, MetadataNamesAndSortIndicesMayFollowTheEvents)
{
    auto r = read(R"([
      {"ph":"X","name":"a","pid":"p1","tid":"t1","ts":1,"dur":1},
      {"ph":"M","name":"process_name","pid":"p1","args":{"name":"Trainer"}},
      {"ph":"M","name":"thread_name","pid":"p1","tid":"t1","args":{"name":"main"}},
      {"ph":"M","name":"process_sort_index","pid":"p1","args":{"sort_index":-3}},
      {"ph":"M","name":"thread_sort_index","pid":"p1","tid":"t1","args":{"sort_index":4}}])");
    ASSERT_TRUE(r.ok) << r.report.toText();
    const model::Track *t = track(r.trace, "p1", "t1");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->info().processName, "Trainer");
    EXPECT_EQ(t->info().threadName, "main");
    EXPECT_EQ(t->info().processSortIndex, -3);
    EXPECT_EQ(t->info().threadSortIndex, 4);
}

TEST_F(GenericChromeTrace, V2FlowsBindToTheSlicesCarryingBindId)
{
    // "send" (flow_out) feeds two flow_in slices; "relay" is a step (both). "child" starts
    // with "send" at the same ts: the flow binds to "send" itself, not the child.
    auto r = read(R"([
      {"ph":"X","name":"send","pid":1,"tid":1,"ts":10,"dur":10,"bind_id":"0xa","flow_out":true},
      {"ph":"X","name":"child","pid":1,"tid":1,"ts":10,"dur":2},
      {"ph":"X","name":"recv1","pid":1,"tid":2,"ts":30,"dur":5,"bind_id":"0xa","flow_in":true},
      {"ph":"X","name":"recv2","pid":2,"tid":2,"ts":40,"dur":5,"bind_id":"0xa","flow_in":true},
      {"ph":"X","name":"start","pid":1,"tid":1,"ts":100,"dur":1,"bind_id":7,"flow_out":true},
      {"ph":"X","name":"relay","pid":1,"tid":2,"ts":110,"dur":1,"bind_id":7,"flow_in":true,"flow_out":true},
      {"ph":"X","name":"end","pid":2,"tid":2,"ts":120,"dur":1,"bind_id":7,"flow_in":true},
      {"ph":"X","name":"lonely","pid":2,"tid":2,"ts":130,"dur":1,"bind_id":8}])");
    ASSERT_TRUE(r.ok) << r.report.toText();
    std::vector<std::string> flows;
    for (const model::Flow &f : r.trace.flows)
        flows.push_back(nameOf(r.trace, f.from) + "->" + nameOf(r.trace, f.to));
    std::sort(flows.begin(), flows.end());
    EXPECT_EQ(flows,
        (std::vector<std::string> {"relay->end", "send->recv1", "send->recv2", "start->relay"}));
    EXPECT_TRUE(hasDiagnostic(r.report, "`bind_id` without `flow_in` or `flow_out`"));
}

TEST_F(GenericChromeTrace, AsyncIdsAndId2Scopes)
{
    // id "0x1" and id2.global "0x1" are one id (Perfetto); id2.local "0x1" is another.
    auto r = read(R"([
      {"ph":"b","cat":"c","name":"job","pid":1,"tid":1,"ts":10,"id":"0x1"},
      {"ph":"e","cat":"c","name":"job","pid":1,"tid":1,"ts":20,"id2":{"global":"0x1"}},
      {"ph":"b","cat":"c","name":"job","pid":1,"tid":1,"ts":30,"id2":{"local":"0x1"}},
      {"ph":"e","cat":"c","name":"job","pid":1,"tid":1,"ts":45,"id2":{"local":"0x1"}},
      {"ph":"b","cat":"c","name":"job","pid":1,"tid":1,"ts":50,"id2":{"local":"0x1"}},
      {"ph":"e","cat":"c","name":"job","pid":1,"tid":1,"ts":70,"id":"0x1"},
      {"ph":"n","cat":"c","name":"job","pid":1,"tid":1,"ts":80,"id":"0x1"}])");
    ASSERT_TRUE(r.ok) << r.report.toText();
    const model::Track *t = track(r.trace, "1", "async:job");
    ASSERT_NE(t, nullptr);
    // [10,20) global; [30,45) local; local b at 50 never closed (the e at 70 is global
    // and has nothing open: dropped), drawn to the trace end 80; n at 80 an instant, a
    // sibling of the slice ending there.
    EXPECT_EQ(slices(r.trace, *t),
        (std::vector<std::string> {
            "job 10000 10000 0", "job 30000 15000 0", "job 50000 30000 0", "job 80000 0 0"}));
    EXPECT_TRUE(t->isUnfinished(2));
    EXPECT_TRUE(hasDiagnostic(r.report, "without an open begin"));
}

TEST_F(GenericChromeTrace, StringAndNumericTimesExactAndUnknownFieldsKeptAsArgs)
{
    auto r = read(R"({"displayTimeUnit":"ns","traceEvents":[
      {"ph":"X","name":"s","pid":1,"tid":1,"ts":"1700000000123456.789","dur":"2.5","tts":"12","tdur":3,"args":{"k":1}},
      {"ph":"X","name":"n","pid":1,"tid":1,"ts":1700000000123460,"dur":1,"sf":7,"stack":[1,2],"args":{}},
      {"ph":"X","name":"bad","pid":1,"tid":1,"ts":"12abc","dur":1}]})");
    ASSERT_TRUE(r.ok) << r.report.toText();
    const model::Track *t = track(r.trace, "1", "1");
    ASSERT_NE(t, nullptr);
    ASSERT_EQ(t->size(), 2u);
    // displayTimeUnit is a display hint: ts stays microseconds.
    EXPECT_EQ(r.trace.originNs + t->start(0), 1700000000123456789);
    EXPECT_EQ(t->duration(0), 2500);
    EXPECT_EQ(r.trace.args.text(t->args(0)), R"({"k":1,"tts":"12","tdur":3})");
    EXPECT_EQ(r.trace.args.text(t->args(1)), R"({"sf":7,"stack":[1,2]})");
    EXPECT_EQ(r.trace.metadata.extra.at("displayTimeUnit"), "ns");
    EXPECT_TRUE(hasDiagnostic(r.report, "`ts` is not a number"));
}

TEST_F(GenericChromeTrace, EscapedKeysAndStringsReadAsTheirUnescapedText)
{
    // Keys and values with escapes go through simdjson's unescaping; the others are read
    // straight from the file's bytes. Both must give the same text.
    auto r = read(R"([
      {"p\u0068":"X","name":"say \"hi\"","cat":"c\\d","pid":"1","tid":"t\u0031","ts":"5","dur":"1.5"},
      {"ph":"X","name":"plain","cat":"cd","pid":"1","tid":"t1","ts":7,"dur":1,"t\"x":"v\u0041"}])");
    ASSERT_TRUE(r.ok) << r.report.toText();
    const model::Track *t = track(r.trace, "1", "t1");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(slices(r.trace, *t),
        (std::vector<std::string> {"say \"hi\" 5000 1500 0", "plain 7000 1000 0"}));
    // An unknown key is kept as written, escapes and all.
    EXPECT_EQ(r.trace.args.text(t->args(1)), R"({"t\"x":"v\u0041"})");

    // A top-level key is read by its unescaped name.
    auto o = read(R"({"displayTim\u0065Unit":"ns","traceEvents":[)" + Ev + "]}");
    ASSERT_TRUE(o.ok) << o.report.toText();
    EXPECT_EQ(o.trace.metadata.extra.at("displayTimeUnit"), "ns");
}
