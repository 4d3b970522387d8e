// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Plain events read without simdjson (chrometrace/plainevent.h, issue 13 "one pass"): which
// events the walk takes and what it reads from them, and that a load gives the same model, the
// same args and the same diagnostics with the walk as without it, on events written to probe
// every rule and on every trace-event sample.
#include "chrometrace_testutil.h"
#include "import/chrometrace/chunk.h"
#include "import/chrometrace/plainevent.h"
#include "import/dump.h"
#include "import/kineto/kinetotrace.h"
#include "import/loader.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

using namespace stepscope;
namespace ct = stepscope::import::chrometrace;
namespace fs = std::filesystem;

namespace {

/// What the walk read, with the text its views point into (held on the heap, so that the
/// views stay valid when the result moves).
struct Read
{
    std::shared_ptr<const std::string> text;
    bool plain = false;
    ct::fields::RawEvent ev;
    ct::fields::Extras extras;
    std::vector<ct::ArgMember> members;
};

Read readPlain(const std::string &text)
{
    Read r;
    r.text = std::make_shared<const std::string>(text);
    r.plain = ct::readPlainEvent(*r.text, r.ev, r.extras, r.members);
    return r;
}

TEST(PlainEvent, ReadsAKinetoEventFieldByField)
{
    const std::string text =
        "{\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"volta_sgemm\", "
        "\"pid\": 0, \"tid\": \"stream 7\",\n    \"ts\": 1623142623460172.5, "
        "\"dur\": 12, \"tts\": 3,\n    \"args\": {\n      \"External id\": 31, "
        "\"grid\": [1, 2, 3], \"stream\": 7\n    }\n  }";
    const Read r = readPlain(text);
    ASSERT_TRUE(r.plain);
    EXPECT_EQ(r.ev.ph.text, "X");
    EXPECT_TRUE(r.ev.ph.isString);
    EXPECT_EQ(r.ev.cat.text, "kernel");
    EXPECT_EQ(r.ev.name.text, "volta_sgemm");
    EXPECT_EQ(r.ev.pid.text, "0");
    EXPECT_FALSE(r.ev.pid.isString);
    EXPECT_EQ(r.ev.tid.text, "stream 7");
    EXPECT_EQ(r.ev.ts.text, "1623142623460172.5");
    EXPECT_EQ(r.ev.dur.text, "12");
    EXPECT_FALSE(r.ev.ts.badType);
    EXPECT_FALSE(r.ev.id.present);
    ASSERT_TRUE(r.ev.hasArgs);
    // As simdjson's raw_json(): up to the token after the object, the blanks included.
    EXPECT_EQ(
        r.ev.args, "{\n      \"External id\": 31, \"grid\": [1, 2, 3], \"stream\": 7\n    }\n  ");
    ASSERT_EQ(r.extras.size(), 1u);
    EXPECT_EQ(r.extras[0].first, "tts");
    EXPECT_EQ(r.extras[0].second, "3");
    // The args' members, in order, each value as written.
    EXPECT_TRUE(r.ev.flatArgs);
    ASSERT_EQ(r.members.size(), 3u);
    EXPECT_EQ(r.members[0].key, "External id");
    EXPECT_EQ(r.members[0].value, "31");
    EXPECT_EQ(r.members[1].value, "[1, 2, 3]");
    EXPECT_EQ(r.members[2].key, "stream");
}

TEST(PlainEvent, ArgIdsFromTheMembersAreTheTextsIds)
{
    // Kineto's ids (correlation, External id) and the [memory] fields are read from the list
    // of the args' members when the walk made one: the same values as the scan of the text,
    // for every way a value can be written, repeated keys and keys inside arrays included.
    const std::vector<std::string> args = {
        R"({"correlation": 12, "External id": "7", "external id": 9})",
        R"({"External id": -3, "correlation": 1.5, "correlation": 4})",
        R"({"correlation": 1e3, "External id": "8x", "Bytes": "-512" , "Addr": 140737488355328})",
        R"({"x": "correlation", "y": ["External id", 5], "correlation" : 99999999999999999999})",
        R"({"Bytes": true, "Addr": null, "Total Allocated": [], "Device Id": "", "Device Type": -})",
        R"({"Bytes":4194304,"Addr":139926520726016,"Total Reserved":"2151677952"})",
        R"({"a": [{"correlation": 1}], "correlation": 2})", // an object inside: not flat
        "{}",
    };
    const std::vector<std::string_view> keys = {"correlation", "External id", "external id",
        "Bytes", "Addr", "Total Allocated", "Total Reserved", "Device Id"};
    int flat = 0;
    for (const std::string &a : args) {
        const Read r = readPlain(R"({"ph": "X", "args": )" + a + "}");
        if (a.find("Device Type\": -") != std::string::npos) {
            EXPECT_FALSE(r.plain); // `-` alone is no JSON number
            continue;
        }
        ASSERT_TRUE(r.plain) << a;
        EXPECT_EQ(r.ev.flatArgs, a.find("[{") == std::string::npos) << a;
        if (!r.ev.flatArgs)
            continue;
        ++flat;
        std::vector<std::optional<std::int64_t>> fromText(keys.size());
        std::vector<std::optional<std::int64_t>> fromMembers(keys.size());
        ct::argInts(r.ev.args, keys.data(), fromText.data(), keys.size());
        ct::argInts(r.ev.args, &r.members, keys.data(), fromMembers.data(), keys.size());
        EXPECT_EQ(fromMembers, fromText) << a;
    }
    EXPECT_EQ(flat, 6);
    const Read r = readPlain(R"({"args": {"correlation": 12, "Bytes": "-512"}})");
    std::vector<std::optional<std::int64_t>> values(keys.size());
    ct::argInts(r.ev.args, &r.members, keys.data(), values.data(), keys.size());
    EXPECT_EQ(values[0], 12);
    EXPECT_EQ(values[3], -512);
    EXPECT_FALSE(values[1].has_value());
}

TEST(PlainEvent, KeepsReadScalarsFlagsAndRawValues)
{
    // A repeated key: the last value, with the string flag of the first kept (readScalar).
    Read r =
        readPlain(R"({"ts": "5", "ts": 7, "dur": {"a": 1} , "pid": true, "sf": "x", "o": [ ]})");
    ASSERT_TRUE(r.plain);
    EXPECT_EQ(r.ev.ts.text, "7");
    EXPECT_TRUE(r.ev.ts.isString);
    EXPECT_FALSE(r.ev.ts.badType);
    EXPECT_EQ(r.ev.dur.text, "{\"a\": 1} ");
    EXPECT_TRUE(r.ev.dur.badType);
    EXPECT_EQ(r.ev.pid.text, "true");
    EXPECT_TRUE(r.ev.pid.badType);
    ASSERT_EQ(r.extras.size(), 2u);
    EXPECT_EQ(r.extras[0].second, "\"x\"");
    EXPECT_EQ(r.extras[1].second, "[ ]");
    // args that are not an object are no args; a second object replaces the first.
    r = readPlain(R"({"args": [1], "ph": "i"})");
    ASSERT_TRUE(r.plain);
    EXPECT_FALSE(r.ev.hasArgs);
    r = readPlain(R"({"args": {"a": 1}, "args": {"b": -0.5e+3}})");
    ASSERT_TRUE(r.plain);
    EXPECT_EQ(r.ev.args, "{\"b\": -0.5e+3}");
    EXPECT_TRUE(readPlain("{}").plain);
    EXPECT_TRUE(readPlain(" { } ").plain);
}

TEST(PlainEvent, LeavesEverythingElseToSimdjson)
{
    const std::vector<std::string> notPlain = {
        R"({"name": "a\"b", "ph": "X"})", // an escape
        R"({"na\u006de": "a"})", // an escaped key
        "{\"name\": \"\xc3\xa9\", \"ph\": \"X\"}", // UTF-8
        "{\"name\": \"a\tb\"}", // a control byte in a string
        R"({"id2": {"local": "0x1"}, "ph": "b"})",
        R"({"ts": 01})",
        R"({"ts": 1.})",
        R"({"ts": .5})",
        R"({"ts": -})",
        R"({"ts": 1e})",
        R"({"ts": 12a})",
        R"({"ts": tru})",
        R"({"ph": "X",})", // a trailing comma
        R"({"args": {"a" 1}})", // simdjson skips what it does not read; the walk checks all
        R"({"args": {"a": [1}})",
        R"({"ph": "X"} x)",
        R"({"ph": "X")",
        R"(["ph"])",
        R"({ph: "X"})",
        "",
    };
    for (const std::string &text : notPlain)
        EXPECT_FALSE(readPlain(text).plain) << text;
    std::string deep = "{\"args\": ";
    for (int i = 0; i < 70; ++i)
        deep += "[";
    for (int i = 0; i < 70; ++i)
        deep += "]";
    deep += "}";
    EXPECT_FALSE(readPlain(deep).plain);
}

testsupport::Loaded loadWith(const fs::path &file, bool plain)
{
    testsupport::Loaded result;
    util::Progress progress;
    import::ImportContext ctx;
    ctx.root = file.parent_path();
    ctx.report = &result.report;
    ctx.progress = &progress;
    ctx.options.threads = 2;
    ctx.options.argsOnDemand = false; // every args text resident, to compare them
    ctx.options.chunkBytes = 256; // many chunks: events at every chunk edge
    ctx.options.plainEvents = plain;
    model::TraceBuilder builder;
    result.ok = import::kineto::readChromeTrace(file, ctx, builder);
    result.trace = std::move(builder.finish().trace);
    return result;
}

class PlainEventLoad : public testsupport::TempDirTest
{
};

TEST_F(PlainEventLoad, GivesWhatSimdjsonGivesForEveryRule)
{
    // Each line probes a rule of readEvent or commitEvent; the walk takes the plain ones and
    // hands the others to simdjson, one by one and (past 16 in a chunk) the rest at once.
    const std::vector<std::string> events = {
        R"({"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "GPU 0"}})",
        R"({"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "s 7"}})",
        R"({"ph": "X", "name": "k", "cat": "kernel", "pid": 1, "tid": 2, "ts": 10.5, "dur": 2})",
        R"({ "ph" : "X" , "name" : "w" , "pid" : 1 , "tid" : 2 , "ts" : 1e1 , "dur" : 0 })",
        R"({"ph": "X", "name": "args", "pid": 1, "tid": 3, "ts": 11, "dur": 1, "tts": 4, "sf": "q", "args": {"External id": 9, "correlation": 8}  })",
        R"({"ph": "X", "name": "noargs", "pid": 1, "tid": 3, "ts": 11, "dur": 1, "tdur": [1, {"a": null}] })",
        R"({"ph": "X", "name": "s\"q", "pid": 1, "tid": 3, "ts": 12, "dur": 1})",
        "{\"ph\": \"X\", \"name\": \"\xe7\xae\x97\xe5\xad\x90\", \"pid\": 1, \"tid\": 3, \"ts\": "
        "13, \"dur\": 1}",
        R"({"ph": "X", "name": "badts", "pid": 1, "tid": 3, "ts": "abc", "ts": {"a": 1}, "dur": 1})",
        R"({"ph": "X", "name": "strts", "pid": 1, "tid": 3, "ts": "14", "dur": "1.5"})",
        R"({"ph": "X", "name": "nodur", "pid": 1, "tid": 3, "ts": 15})",
        R"({"ph": "X", "name": "neg", "pid": 1, "tid": 3, "ts": 15, "dur": -1})",
        R"({"ph": "X", "name": "nullts", "pid": 1, "tid": 3, "ts": null, "dur": 1})",
        R"({"ph": "B", "name": "b", "pid": 1, "tid": 4, "ts": 16})",
        R"({"ph": "E", "pid": 1, "tid": 4, "ts": 18, "args": {"r": 1}})",
        R"({"ph": "i", "name": "g", "s": "g", "ts": 17})",
        R"({"ph": "I", "name": "p", "s": "p", "pid": 1, "ts": 17})",
        R"({"ph": "C", "name": "mem", "pid": 1, "ts": 17, "args": {"a": 1, "b": 2.5, "c": "x"}})",
        R"({"ph": "s", "id": 5, "cat": "c", "name": "f", "pid": 1, "tid": 3, "ts": 11.2})",
        R"({"ph": "f", "id": "5", "cat": "c", "bp": "e", "name": "f", "pid": 1, "tid": 2, "ts": 10.6})",
        R"({"ph": "X", "name": "v2", "pid": 1, "tid": 3, "ts": 20, "dur": 2, "bind_id": "0x1", "flow_out": true})",
        R"({"ph": "X", "name": "v2in", "pid": 1, "tid": 2, "ts": 23, "dur": 2, "bind_id": "0x1", "flow_in": 1})",
        R"({"ph": "b", "name": "a", "cat": "c", "id": 7, "pid": 1, "ts": 21})",
        R"({"ph": "e", "name": "a", "cat": "c", "id": 7, "pid": 1, "ts": 22})",
        R"({"ph": "n", "name": "a", "cat": "c", "id2": {"local": "0x7"}, "pid": 1, "ts": 21.5})",
        R"({"ph": "X", "pid": 1, "tid": 3, "ts": 24, "dur": 1, "args": {"a" 1}})",
        R"({"ph": "X", "name": "trail", "pid": 1, "tid": 3, "ts": 25, "dur": 1,})",
        R"({"ph": "Q", "name": "other", "pid": 1, "tid": 3, "ts": 26})",
        R"({"name": "noph", "pid": 1, "tid": 3, "ts": 26})",
        R"({"ph": "X", "name": "big", "pid": 1, "tid": 3, "ts": 1e30, "dur": 1})",
        R"({"ph": "X", "name": "deep", "pid": 1, "tid": 3, "ts": 27, "dur": 1, "args": {"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}})",
        R"({"ph": "X", "name": "empty", "pid": "", "tid": "", "ts": 28, "dur": 0, "args": {}})",
    };
    std::string body;
    for (int round = 0; round < 2; ++round) { // twice: the second round meets more than 16
        for (const std::string &e : events) // misses in some chunks
            body += (body.empty() ? "" : ",\n") + e;
    }
    const fs::path file = write("probe.json", "{\"traceEvents\": [\n" + body + "\n]}");
    const testsupport::Loaded plain = loadWith(file, true);
    const testsupport::Loaded simdjson = loadWith(file, false);
    ASSERT_TRUE(plain.ok);
    EXPECT_EQ(testsupport::dumpEvents(plain.trace), testsupport::dumpEvents(simdjson.trace));
    EXPECT_EQ(plain.report.toText(), simdjson.report.toText());
    EXPECT_GT(plain.trace.flows.size(), 0u);
    EXPECT_TRUE(testsupport::said(plain.report, "not strict JSON"));
}

// A counter's args are read again by simdjson in place, which must be told where the padded
// text holding them ends. A worker's parser reads chunk after chunk in a reused buffer: here
// the first chunk (17 events the walk leaves to simdjson, so the rest of it goes in one
// simdjson pass) ends in the buffer just after the second chunk's counter args.
// The walk's events once kept the end of the text read before, so simdjson refused the args
// ("counter `args` unreadable") and the point was lost: now and then, as buffers and chunks
// met, in the ranges of a plain file (seen in CI on an Ascend sample's QoS counters).
TEST(PlainEventChunks, CounterArgsAreReadWhateverTheParserReadBefore)
{
    const std::string counter = R"({"ph": "C", "name": "QoS", "pid": 1, "tid": 0, "ts": 5, )"
                                R"("args": {"value": 86}})";
    const std::string second = "[{\"ph\": \"X\", \"name\": \"" + std::string(3000, 'n')
        + "\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1},\n" + counter + "]";
    const std::size_t argsAt = second.find("{\"value\"");
    std::string first = "[";
    for (int i = 0; i < 17; ++i) // an escape: not plain
        first += std::string(i ? "," : "") + R"({"ph": "X", "name": "e\"", "pid": 1, "tid": 1, )"
            + R"("ts": 2, "dur": 1})";
    first += "]";
    // The first text ends 20 bytes past the args: less than simdjson's padding after them.
    const std::size_t firstEnd = argsAt + std::string_view(R"({"value": 86})").size() + 20;
    ASSERT_LT(first.size() + 64, firstEnd);

    testsupport::PlainDialect dialect;
    ct::ParseSettings settings;
    settings.dialect = &dialect;
    settings.file = "reused.json";
    ct::ChunkParser parser;
    ct::Chunk chunk;
    chunk.text.reserve(8192); // both chunks in the same storage, as a range's buffer
    testsupport::fillChunk(chunk, first, firstEnd);
    const char *const storage = chunk.text.data();
    const ct::ChunkResult a = parser.parse(chunk, settings);
    EXPECT_EQ(a.events.size(), 17u);
    testsupport::fillChunk(chunk, second, second.size() + 64);
    ASSERT_EQ(chunk.text.data(), storage);
    const ct::ChunkResult b = parser.parse(chunk, settings);
    ASSERT_EQ(b.counters.size(), 1u) << b.report.toText();
    EXPECT_EQ(b.counters[0].value, 86.0);
    EXPECT_EQ(b.report.toText(), "");
}

TEST(PlainEventSamples, EveryTraceEventSampleLoadsTheSameWithAndWithoutTheWalk)
{
    // Every folder of trace-event samples, read whole with args resident: the dump (events,
    // args, flows, counters, steps, memory) and the diagnostics agree.
    std::size_t compared = 0;
    for (const char *family : {"kineto", "ascend_pt", "mindspore_legacy", "torch_memory"}) {
        const fs::path dir = testsupport::dataPath(family);
        if (!fs::is_directory(dir))
            continue;
        for (const fs::directory_entry &sample : fs::directory_iterator(dir)) {
            if (!sample.is_directory())
                continue;
            std::string dumps[2];
            std::string reports[2];
            for (int plain = 0; plain < 2; ++plain) {
                util::Progress progress;
                import::LoadOptions options;
                options.argsOnDemand = false;
                options.plainEvents = plain == 1;
                const import::LoadResult r = import::loadPath(sample.path(), progress, options);
                ASSERT_TRUE(r.session) << sample.path();
                dumps[plain] = import::dumpJson(*r.session).dump();
                // The ids a dialect read from the args (Kineto's correlation and External
                // id), which the dump leaves out.
                for (const auto &trace : r.session->traces) {
                    trace->eventIds.forEach([&](const model::EventIds &ids) {
                        dumps[plain] += " " + std::to_string(ids.event.track.value()) + ":"
                            + std::to_string(ids.event.index) + "="
                            + std::to_string(ids.correlation) + "/"
                            + std::to_string(ids.externalId);
                    });
                }
                reports[plain] = r.session->report.toText();
            }
            EXPECT_EQ(dumps[0], dumps[1]) << sample.path();
            EXPECT_EQ(reports[0], reports[1]) << sample.path();
            ++compared;
        }
    }
    EXPECT_GE(compared, 10u);
}

} // namespace
