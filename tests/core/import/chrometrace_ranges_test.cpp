// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Byte ranges cut by the workers (rangescan.h, issue 13 "workers find their own event
// boundaries"): a plain file's event array cut into ranges of any size loads exactly as the
// one-thread stream reads it, whatever sits at the range edges (strings that look like
// event boundaries, nested objects, elements that are not events, long events, blank runs,
// truncation, keys after the array); a wrong guess is cut again; filler past a range is
// skipped without being kept.
#include "chrometrace_testutil.h"
#include "import/chrometrace/bytesource.h"
#include "import/chrometrace/chunk.h"
#include "import/chrometrace/eventscanner.h"
#include "import/chrometrace/rangescan.h"
#include "import/chrometrace/tracereader.h"
#include "import/dump.h"
#include "import/loader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <random>
#include <string>
#include <vector>

using namespace stepscope;
namespace ct = stepscope::import::chrometrace;
namespace fs = std::filesystem;

namespace {

/// `head`, then `blanks` spaces made on the fly (never held), then `tail`, read at offsets.
class VirtualFile final : public ct::ByteSource
{
public:
    VirtualFile(std::string head, std::uint64_t blanks = 0, std::string tail = {})
        : m_head(std::move(head))
        , m_tail(std::move(tail))
        , m_blanks(blanks)
    {
    }
    std::size_t read(char *, std::size_t) override { return 0; }
    std::uint64_t fileBytesConsumed() const override { return 0; }
    bool compressed() const override { return false; }
    std::int64_t readAt(std::uint64_t offset, char *buffer, std::size_t size) const override
    {
        const std::uint64_t total = m_head.size() + m_blanks + m_tail.size();
        std::size_t n = 0;
        for (std::uint64_t at = offset; n < size && at < total; ++at, ++n) {
            if (at < m_head.size())
                buffer[n] = m_head[at];
            else if (at < m_head.size() + m_blanks)
                buffer[n] = ' ';
            else
                buffer[n] = m_tail[at - m_head.size() - m_blanks];
        }
        return static_cast<std::int64_t>(n);
    }

private:
    std::string m_head;
    std::string m_tail;
    std::uint64_t m_blanks;
};

std::uint64_t at(const std::string &text, const std::string &part)
{
    const std::size_t p = text.find(part);
    EXPECT_NE(p, std::string::npos) << part;
    return p;
}

std::vector<std::string> eventsOf(const ct::Chunk &chunk)
{
    std::vector<std::string> out;
    for (const auto &[b, e] : chunk.events)
        out.emplace_back(chunk.text, b, e - b);
    return out;
}

/// The rule scanEventBytes implements, one byte at a time: where the event that is open at
/// `from` (depth 1) ends, or npos.
std::size_t eventEndByteByByte(const std::string &text, std::size_t from)
{
    int depth = 1;
    bool inString = false;
    for (std::size_t i = from; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return std::string::npos;
}

/// Random event bodies: strings with brackets, quotes and runs of backslashes in them, nested
/// objects and arrays, blanks; long enough to cross many 64-byte blocks.
std::string randomEventBody(std::mt19937 &rng)
{
    const std::string pieces[] = {"\"k\":", "\"v\"", "{", "}", "[", "]", ",", " ", "12.5",
        "\"a{b\"", "\"c]d\"", "\"e\\\"f\"", "\"\\\\\"", "\"g\\\\\\\"}\"",
        "\"" + std::string(70, 'x') + "\"", std::string(90, ' ')};
    std::string body;
    int depth = 0;
    const int count = std::uniform_int_distribution<int>(0, 60)(rng);
    for (int i = 0; i < count; ++i) {
        const std::string &piece =
            pieces[std::uniform_int_distribution<std::size_t>(0, std::size(pieces) - 1)(rng)];
        if (piece == "{" || piece == "[")
            ++depth;
        if (piece == "}" || piece == "]") {
            if (depth == 0)
                continue;
            --depth;
        }
        body += piece;
    }
    body.append(static_cast<std::size_t>(depth), ']');
    return body + "}";
}

TEST(EventBraces, BlocksFindEachEventsEndAsTheByteRuleDoes)
{
    std::mt19937 rng(13);
    for (int round = 0; round < 3000; ++round) {
        const std::string text = "{" + randomEventBody(rng) + ",{\"next\":1}";
        const std::size_t expected = eventEndByteByByte(text, 1);
        ASSERT_NE(expected, std::string::npos) << text;
        // In one call, and cut at random points (the state goes on across calls).
        for (int cuts = 0; cuts < 3; ++cuts) {
            ct::EventBraces braces;
            const char *p = text.data() + 1;
            const char *const end = text.data() + text.size();
            while (braces.depth != 0 && p < end) {
                const char *stop = cuts == 0
                    ? end
                    : p + std::uniform_int_distribution<std::ptrdiff_t>(1, end - p)(rng);
                p = ct::scanEventBytes(p, stop, braces);
            }
            ASSERT_EQ(braces.depth, 0) << text;
            EXPECT_EQ(static_cast<std::size_t>(p - text.data()), expected) << text;
            EXPECT_FALSE(braces.inString);
        }
    }
}

TEST(RangeScan, GuessesTheFirstEventStartingInTheRange)
{
    const std::string text = R"([{"a":1},{"b":2},  {"c":3} ])";
    VirtualFile file(text);
    ct::Chunk chunk;
    const ct::RangeScan scan =
        ct::scanRange(file, at(text, "\"b\""), text.size(), ct::RangeScan::NoStart, chunk);
    EXPECT_EQ(scan.start, at(text, R"({"c")"));
    EXPECT_EQ(eventsOf(chunk), std::vector<std::string>({R"({"c":3})"}));
    EXPECT_EQ(chunk.fileOffset, at(text, R"({"c")"));
    EXPECT_TRUE(scan.arrayEnded);
    EXPECT_EQ(scan.arrayEnd, text.size() - 1);
    EXPECT_EQ(std::string(chunk.text, chunk.jsonStart, chunk.jsonSize), R"([{"c":3}])");
}

TEST(RangeScan, AStringLikeABoundaryFoolsTheGuessButNotTheExactScan)
{
    const std::string text = R"([{"name":"x},{y","v":1},{"z":2}])";
    VirtualFile file(text);
    const std::uint64_t edge = at(text, "x},");
    ct::Chunk first;
    const ct::RangeScan exact = ct::scanRange(file, 1, edge, 1, first);
    EXPECT_EQ(eventsOf(first), std::vector<std::string>({R"({"name":"x},{y","v":1})"}));
    EXPECT_EQ(exact.next, at(text, R"({"z")"));
    ct::Chunk second;
    const ct::RangeScan guessed =
        ct::scanRange(file, edge, text.size(), ct::RangeScan::NoStart, second);
    EXPECT_EQ(guessed.start, at(text, "{y")); // wrong: the reader cuts the range again
    EXPECT_NE(guessed.start, exact.next);
    const ct::RangeScan again = ct::scanRange(file, edge, text.size(), exact.next, second);
    EXPECT_EQ(eventsOf(second), std::vector<std::string>({R"({"z":2})"}));
    EXPECT_TRUE(again.arrayEnded);
}

TEST(RangeScan, TakesEveryElementStartingBeforeTheEndAndSaysWhatWasSkipped)
{
    const std::string text = R"([{"e":1}, 1 ,{"e":[2,{"x":"]"}]}, "s", {"e":3}])";
    VirtualFile file(text);
    ct::Chunk chunk;
    const ct::RangeScan scan = ct::scanRange(file, 1, at(text, "2,"), 1, chunk);
    EXPECT_EQ(eventsOf(chunk), std::vector<std::string>({R"({"e":1})", R"({"e":[2,{"x":"]"}]})"}));
    EXPECT_TRUE(chunk.dirty); // an element between two events: parsed event by event
    EXPECT_EQ(scan.next, at(text, "\"s\""));
    EXPECT_EQ(scan.junkElements, 1u);
    ASSERT_EQ(scan.elementProblems.size(), 1u);
    EXPECT_EQ(scan.elementProblems[0].offset, static_cast<std::int64_t>(at(text, "1 ,")));
    EXPECT_NE(scan.elementProblems[0].message.find("a number"), std::string::npos);
}

TEST(RangeScan, BlanksPastTheRangeAreSkippedWithoutBeingKept)
{
    const std::string head = R"([{"a":1},)";
    const std::uint64_t blanks = 64ull << 20;
    VirtualFile file(head, blanks, R"({"b":2}])");
    ct::Chunk chunk;
    const ct::RangeScan scan = ct::scanRange(file, 1, 100, 1, chunk);
    EXPECT_EQ(eventsOf(chunk), std::vector<std::string>({R"({"a":1})"}));
    EXPECT_EQ(scan.next, head.size() + blanks);
    EXPECT_FALSE(scan.fileEnded);
    EXPECT_LT(chunk.text.capacity(), 4u << 20); // not the 64 MiB of blanks
}

TEST(RangeScan, AnEventLongerThanItsRangeIsTakenWhole)
{
    const std::string big = R"({"s":")" + std::string(3u << 20, 'x') + "\"}";
    const std::string text = "[" + big + R"(,{"t":1}])";
    VirtualFile file(text);
    ct::Chunk chunk;
    const ct::RangeScan scan = ct::scanRange(file, 1, 1000, 1, chunk);
    ASSERT_EQ(chunk.events.size(), 1u);
    EXPECT_EQ(eventsOf(chunk)[0], big);
    EXPECT_EQ(scan.next, at(text, R"({"t")"));
    // The ranges inside the long event guess nothing or guess wrong; neither is taken.
    ct::Chunk inside;
    const ct::RangeScan guessed = ct::scanRange(file, 5000, 6000, ct::RangeScan::NoStart, inside);
    EXPECT_EQ(guessed.start, ct::RangeScan::NoStart);
    EXPECT_TRUE(inside.events.empty());
}

TEST(RangeScan, SaysWhereTheFileEnds)
{
    const std::string cut = R"([{"a":1},{"b":)";
    VirtualFile insideEvent(cut);
    ct::Chunk chunk;
    ct::RangeScan scan = ct::scanRange(insideEvent, 1, cut.size(), 1, chunk);
    EXPECT_TRUE(scan.fileEnded);
    ASSERT_EQ(scan.problems.size(), 1u);
    EXPECT_EQ(scan.problems[0].offset, static_cast<std::int64_t>(at(cut, R"({"b")")));
    EXPECT_NE(scan.problems[0].message.find("ends inside an event"), std::string::npos);
    EXPECT_EQ(eventsOf(chunk), std::vector<std::string>({R"({"a":1})"}));

    const std::string open = R"([{"a":1},  )";
    VirtualFile unclosed(open);
    scan = ct::scanRange(unclosed, 1, open.size(), 1, chunk);
    EXPECT_TRUE(scan.fileEnded);
    ASSERT_EQ(scan.problems.size(), 1u);
    EXPECT_EQ(scan.problems[0].offset, static_cast<std::int64_t>(open.size()));
    EXPECT_NE(scan.problems[0].message.find("never closed"), std::string::npos);
}

/// Tracks by process name, categories by `cat`: enough to see every event, flow and counter.
struct Read
{
    std::string dump; ///< events, flows, counters, then every diagnostic with its offset
    ct::TopLevel top;
    bool ok = false;
};

Read readWith(const fs::path &file, unsigned threads, std::size_t chunkBytes)
{
    Read r;
    testsupport::PlainDialect dialect;
    const testsupport::Loaded loaded = testsupport::load(
        [&](const fs::path &f, const import::ImportContext &ctx, model::TraceBuilder &out) {
            return ct::readTraceFile(f, dialect, ctx, out, &r.top);
        },
        file, threads, true, nullptr, chunkBytes);
    r.ok = loaded.ok;
    r.dump = testsupport::dumpEvents(loaded.trace);
    for (const model::Diagnostic &d : loaded.report.diagnostics())
        r.dump += "diagnostic " + std::to_string(static_cast<int>(d.severity)) + ' '
            + std::to_string(d.offset) + ' ' + std::to_string(d.count) + ' ' + d.message + '\n';
    r.dump += "keys " + r.top.keys.dump() + '\n';
    return r;
}

class ChromeTraceRanges : public testsupport::TempDirTest
{
protected:
    /// Every range size from 1 byte up loads `file` as the one-thread stream does; returns
    /// the ranges cut again over all sizes.
    std::uint64_t expectSameAsStream(const fs::path &file)
    {
        const Read stream = readWith(file, 1, 0);
        EXPECT_EQ(stream.top.counts.rangesRecut, 0u);
        std::uint64_t recut = 0;
        for (const std::size_t bytes : {1, 2, 3, 5, 8, 13, 21, 64, 100, 333, 1000, 4096, 0}) {
            const Read ranges = readWith(file, 2, bytes);
            EXPECT_EQ(ranges.ok, stream.ok) << bytes;
            EXPECT_EQ(ranges.dump, stream.dump) << "range bytes " << bytes;
            EXPECT_EQ(ranges.top.truncated, stream.top.truncated) << bytes;
            EXPECT_EQ(ranges.top.objectForm, stream.top.objectForm) << bytes;
            recut += ranges.top.counts.rangesRecut;
        }
        return recut;
    }
};

std::string hostileEvents()
{
    std::string s;
    s += R"({"ph":"M","name":"process_name","pid":1,"args":{"name":"GPU 0"}},)";
    s += R"({"ph":"X","name":"a},{\"ph\":\"X\"","cat":"kernel","pid":1,"tid":7,"ts":10,"dur":5,)"
         R"("args":{"list":[{"k":1},{"k":2}],"s":"}, {\"x\":1}"}},)";
    s += "\n  1 , \"text\" ,null, [{\"ph\":\"X\"},{\"ph\":\"X\"}] ,\n";
    s += R"({"ph":"X","name":"long","pid":1,"tid":7,"ts":20,"dur":3,"args":{"pad":")"
        + std::string(5000, 'p') + R"("}},)";
    s += std::string(3000, ' ') + ",";
    s += R"({"ph":"s","id":5,"name":"f","cat":"ac2g","pid":1,"tid":7,"ts":20},)";
    s += R"({"ph":"X","name":"b\\","pid":2,"tid":3,"ts":30,"dur":4},)";
    s += R"({"ph":"f","id":5,"bp":"e","name":"f","cat":"ac2g","pid":2,"tid":3,"ts":30},)";
    s += R"({"ph":"C","name":"mem","pid":1,"ts":31,"args":{"used":7}},)";
    s += R"({"ph":"B","name":"open","pid":2,"tid":3,"ts":40},{"ph":"E","pid":2,"tid":3,"ts":45})";
    return s;
}

TEST_F(ChromeTraceRanges, HostileEdgesLoadAsTheStreamReadsThem)
{
    const std::string events = hostileEvents();
    const std::string object = "\xEF\xBB\xBF"
                               R"({"meta":{"x":[{"a":1},{"b":2}]},"traceEvents":[)"
        + events + R"(],"after":[{"c":1},{"d":2}],"displayTimeUnit":"ns"})";
    EXPECT_GT(expectSameAsStream(write("object.json", object)), 0u)
        << "the strings that look like boundaries make some guesses wrong";
    expectSameAsStream(write("bare.json", "[" + events + "]"));
    expectSameAsStream(write("unclosed.json", "[" + events + ",  \n"));
    expectSameAsStream(write("cut.json", "[" + events.substr(0, events.size() - 20)));
    expectSameAsStream(write("trailing.json", "[" + events + "] junk {\"ph\":\"X\"}"));
    expectSameAsStream(write("empty.json", R"({"traceEvents":[ ],"x":1})"));
    expectSameAsStream(write("blanks.json", "[" + std::string(10000, ' ') + events + "]"));
}

TEST(ChromeTraceRangesSamples, EverySampleLoadsAsTheStreamReadsIt)
{
    const fs::path data(STEPSCOPE_TEST_DATA);
    for (const char *sample : {"kineto/hta-ddp-2rank-rank1-memory",
             "kineto/hta-ddp-a100-world2-nccl", "kineto/hta-mi250-minitoy-rocm",
             "kineto/hta-sampled-2of128-ranks", "kineto/kineto-resnet50-dataloader-workers0-vs-4",
             "kineto/tracelens-mi300-resnet-actckpt-rank0of8",
             "ascend_pt/msinsight-cnn-level0-2rank", "ascend_pt/msinsight-cnn-level2-2rank",
             "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed", "ascend_pt/mstt-advisor-fragments",
             "mindspore_legacy/mindinsight-cluster-pp-4rank",
             "mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev",
             "mindspore_legacy/mindinsight-widedeep-run1"}) {
        SCOPED_TRACE(sample);
        util::Progress p1;
        import::LoadOptions stream;
        stream.threads = 1;
        const import::LoadResult a = import::loadPath(data / sample, p1, stream);
        util::Progress p2;
        import::LoadOptions ranges;
        ranges.threads = 2;
        ranges.chunkBytes = 16381;
        const import::LoadResult b = import::loadPath(data / sample, p2, ranges);
        ASSERT_TRUE(a.session && b.session);
        EXPECT_TRUE(a.session->hasContent());
        EXPECT_EQ(import::dumpJson(*a.session), import::dumpJson(*b.session));
    }
}

} // namespace
