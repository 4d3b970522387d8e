// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Hostile input for the trace-event reader and its neighbours (issue 14): filler between
// events never grows memory, a gzip expanding like a bomb is reported, and one element that
// is not an event (`1`, "x", null, [...]) is skipped alone with its offset in Chrome traces,
// Kineto traces, MindSpore timelines and PyTorch memory timelines. Files are written here.
#include "chrometrace_testutil.h"
#include "import/chrometrace/bytesource.h"
#include "import/chrometrace/eventscanner.h"
#include "import/chrometrace/tracereader.h"
#include "import/kineto/kinetotrace.h"
#include "import/mindspore/timelinedisplay.h"
#include "import/torchmemory/memorytimeline.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>

using namespace stepscope;
namespace ct = stepscope::import::chrometrace;
namespace fs = std::filesystem;

namespace {

/// `head`, then `blanks` spaces generated on the fly (never held in memory), then `tail`.
class FillerSource final : public ct::ByteSource
{
public:
    FillerSource(std::string head, std::uint64_t blanks, std::string tail)
        : m_head(std::move(head))
        , m_tail(std::move(tail))
        , m_blanks(blanks)
    {
    }
    std::size_t read(char *buffer, std::size_t size) override
    {
        std::size_t n = 0;
        while (n < size) {
            if (m_pos < m_head.size()) {
                const std::size_t k = std::min(size - n, m_head.size() - m_pos);
                std::memcpy(buffer + n, m_head.data() + m_pos, k);
                n += k;
                m_pos += k;
            } else if (m_pos < m_head.size() + m_blanks) {
                const auto left = m_head.size() + m_blanks - m_pos;
                const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(size - n, left));
                std::memset(buffer + n, ' ', k);
                n += k;
                m_pos += k;
            } else {
                const std::uint64_t at = m_pos - m_head.size() - m_blanks;
                if (at >= m_tail.size())
                    break;
                const auto k =
                    static_cast<std::size_t>(std::min<std::uint64_t>(size - n, m_tail.size() - at));
                std::memcpy(buffer + n, m_tail.data() + at, k);
                n += k;
                m_pos += k;
            }
        }
        return n;
    }
    std::uint64_t fileBytesConsumed() const override { return m_pos; }
    bool compressed() const override { return false; }

private:
    std::string m_head;
    std::string m_tail;
    std::uint64_t m_blanks;
    std::uint64_t m_pos = 0;
};

std::string event(int i)
{
    return "{\"ph\":\"X\",\"name\":\"op" + std::to_string(i)
        + "\",\"pid\":1,\"tid\":2,\"ts\":" + std::to_string(1000 + i * 10) + ",\"dur\":5}";
}

bool hasDiagnostic(const model::LoadReport &report, const std::string &part, std::int64_t offset)
{
    for (const model::Diagnostic &d : report.diagnostics()) {
        if (d.message.find(part) != std::string::npos && (offset < 0 || d.offset == offset))
            return true;
    }
    return false;
}

class HostileInput : public testsupport::TempDirTest
{
};

} // namespace

TEST_F(HostileInput, OneGibibyteOfBlanksBetweenEventsNeverGrowsAChunk)
{
    // Before: the blanks were copied into the chunk being filled (1 GiB of chunk text).
    FillerSource source("[" + event(0) + ",", 1ull << 30, event(1) + "," + event(2) + "]");
    ct::EventScanner scanner(source, 4u << 20);
    ct::Chunk chunk;
    std::size_t events = 0;
    std::size_t largest = 0;
    std::vector<std::uint64_t> offsets;
    while (scanner.next(chunk)) {
        events += chunk.events.size();
        largest = std::max(largest, chunk.text.capacity());
        offsets.push_back(chunk.fileOffset);
    }
    EXPECT_EQ(events, 3u);
    EXPECT_LE(largest, 2u << 20); // a read block and the allowed gap, whatever the filler
    ASSERT_EQ(offsets.size(), 2u); // the filler ends the first chunk
    EXPECT_EQ(offsets[1], 1 + event(0).size() + 1 + (1ull << 30)); // exact offset after it
    EXPECT_TRUE(scanner.problems().empty());
}

TEST_F(HostileInput, GzipOfMostlyBlanksLoadsEveryEventAndSaysItIsFiller)
{
    const fs::path file = m_tmp / "bomb.json.gz";
    gzFile gz = gzopen(file.c_str(), "wb9");
    const std::string head = "[" + event(0) + ",";
    gzwrite(gz, head.data(), static_cast<unsigned>(head.size()));
    const std::string blanks(1u << 20, ' ');
    for (int i = 0; i < 80; ++i) // 80 MiB of blanks: > ByteSource::WarnInflatedBytes
        gzwrite(gz, blanks.data(), static_cast<unsigned>(blanks.size()));
    const std::string tail = event(1) + "]";
    gzwrite(gz, tail.data(), static_cast<unsigned>(tail.size()));
    gzclose(gz);
    ASSERT_LT(fs::file_size(file), 1u << 20);
    auto r = testsupport::load(import::kineto::readChromeTrace, file);
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.trace.eventCount(), 2u);
    EXPECT_TRUE(hasDiagnostic(r.report, "holds mostly filler", -1)) << r.report.toText();
}

TEST_F(HostileInput, ABadElementAmongTraceEventsIsSkippedAloneWithItsOffset)
{
    const std::string before = "[" + event(0) + ",";
    const std::string text = before + "1," + event(1) + ",\"x{]\"," + event(2) + ",null,"
        + "[1,{\"a\":\"]\"}]," + event(3) + "]";
    for (unsigned threads : {1u, 2u}) {
        auto r =
            testsupport::load(import::kineto::readChromeTrace, write("bad.json", text), threads);
        ASSERT_TRUE(r.ok) << r.report.toText();
        EXPECT_EQ(r.trace.eventCount(), 4u) << r.report.toText();
        const auto at = [&](const std::string &s) {
            return static_cast<std::int64_t>(text.find(s));
        };
        EXPECT_TRUE(hasDiagnostic(r.report, "(a number, 1 bytes) skipped", at("1,{")));
        EXPECT_TRUE(hasDiagnostic(r.report, "(a string, 5 bytes) skipped", at("\"x{")));
        EXPECT_TRUE(hasDiagnostic(r.report, "(a literal, 4 bytes) skipped", at("null")));
        EXPECT_TRUE(hasDiagnostic(r.report, "(an array, 13 bytes) skipped", at("[1,{")));
        EXPECT_TRUE(hasDiagnostic(r.report, "4 array elements that are not events", -1));
    }
}

TEST_F(HostileInput, AnElementOnDemandMisreadsIsDroppedAndTheNextKeepTheirArgs)
{
    // Found by the kineto_ranges fuzz target: spliced text left an event with one brace too
    // many, so the cutter took it and two more as one element, while simdjson On-Demand
    // (which does not validate what it skips) closed it early. The elements after it were
    // then read one behind their record offsets: "in1" got c's args and c was lost without a
    // word, and byte ranges, cutting elsewhere, loaded something else.
    const auto ev = [](const std::string &name, int ts) {
        return R"({"ph":"X","name":")" + name + R"(","pid":1,"tid":2,"ts":)" + std::to_string(ts)
            + R"(,"dur":1,"args":{"of":")" + name + R"("}})";
    };
    const std::string spliced = R"({"ph":"X","name":"bad","pid":1,"tid":2,"ts":5,"dur":1,)"
                                R"("args":{ 7, "dur": 53, "args":{"of":"bad"}},)"
        + ev("in1", 6) + R"(,{"ph":"X","name":"in2","pid":1,"tid":2,"ts":7,"dur":1, 329 }})";
    const std::string text = "[" + ev("a", 1) + ",\n" + spliced + ",\n" + ev("c", 10) + ",\n"
        + ev("d", 20) + ",\n" + ev("e", 30) + "]";
    const fs::path file = write("spliced.json", text);
    for (const auto &[threads, chunkBytes] :
        std::vector<std::pair<unsigned, std::size_t>> {{1, 0}, {2, 1}, {2, 64}, {2, 200}}) {
        auto r = testsupport::load(
            import::kineto::readChromeTrace, file, threads, true, nullptr, chunkBytes);
        ASSERT_TRUE(r.ok) << r.report.toText();
        const std::vector<std::string> args = r.trace.args.readAll();
        std::string seen;
        for (const model::Track &t : r.trace.tracks)
            for (std::uint32_t i = 0; i < t.size(); ++i)
                seen += std::string(r.trace.strings.view(t.name(i))) + "="
                    + args.at(t.args(i).value()) + " ";
        EXPECT_EQ(seen, R"(a={"of":"a"} c={"of":"c"} d={"of":"d"} e={"of":"e"} )")
            << threads << " threads, ranges of " << chunkBytes;
        EXPECT_TRUE(hasDiagnostic(r.report, "event dropped: malformed JSON",
            static_cast<std::int64_t>(text.find(R"({"ph":"X","name":"bad")"))))
            << r.report.toText();
    }
}

TEST_F(HostileInput, ABadElementInAKinetoTraceKeepsTheRestOfTheArray)
{
    std::string text = "{\"schemaVersion\":1,\"traceEvents\":[";
    for (int i = 0; i < 30000; ++i) {
        text += event(i) + ",";
        if (i == 9000)
            text += "1,";
        if (i == 20000)
            text += "\"x\",";
    }
    text += event(30000) + "],\"displayTimeUnit\":\"ms\"}";
    auto r = testsupport::load(import::kineto::readTrace, write("k.json", text));
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.trace.eventCount(), 30001u);
    EXPECT_EQ(r.trace.metadata.extra.at("displayTimeUnit"), "ms");
}

TEST_F(HostileInput, ABadElementInAMindSporeTimelineIsSkipped)
{
    // timeline_display_<rank>.json: a bare array of X events, read by the same reader.
    const std::string text = "[" + event(0) + ", 7, " + event(1) + ", \"x\", " + event(2) + "]";
    auto r = testsupport::load(
        import::mindspore::readTimelineDisplay, write("timeline_display_0.json", text));
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.trace.eventCount(), 3u);
    EXPECT_TRUE(hasDiagnostic(
        r.report, "not an event object (a number", static_cast<std::int64_t>(text.find("7,"))));
}

TEST_F(HostileInput, ABadElementInAMemoryTimelineLosesNoRow)
{
    // Before: the row after `1` or "x" was skipped with it (skip to the next ']').
    const std::string raw =
        "[[1, 2, 10, 0], [2, 2, 5, 1], 1, \"x]\", [3, 2, 7, 2], {\"a\": [1]}, [4, 2, 1, 3]]";
    import::ImportContext ctx;
    model::LoadReport report;
    ctx.root = m_tmp;
    ctx.report = &report;
    {
        model::TraceBuilder b;
        ASSERT_TRUE(import::torchmemory::readMemoryTimeline(write("raw.json", raw), ctx, b));
        const model::Trace t = b.finish().trace;
        const auto &c = t.memory.categories;
        ASSERT_EQ(c.timestampsNs.size(), 4u) << report.toText();
        EXPECT_EQ(c.bytes[0].back(), 10);
        EXPECT_EQ(c.bytes[1].back(), 5);
        EXPECT_EQ(c.bytes[2].back(), 7);
        EXPECT_EQ(c.bytes[3].back(), 1);
        // Three elements skipped; same-message diagnostics merge, keeping the first offset.
        bool found = false;
        for (const model::Diagnostic &d : report.diagnostics()) {
            if (d.message.find("not a row") == std::string::npos)
                continue;
            found = true;
            EXPECT_EQ(d.offset, static_cast<std::int64_t>(raw.find("1, \"x")));
            EXPECT_EQ(d.count, 3u);
        }
        EXPECT_TRUE(found) << report.toText();
    }
    const std::string timeline = "[[1000, 2000], [[0, 1, 2, 3, 4, 5, 6, 7, 8], 5, "
                                 "[0, 10, 20, 30, 40, 50, 60, 70, 80]]]";
    model::TraceBuilder b;
    ASSERT_TRUE(import::torchmemory::readMemoryTimeline(write("tl.json", timeline), ctx, b));
    const model::Trace t = b.finish().trace;
    ASSERT_EQ(t.memory.categories.timestampsNs.size(), 2u) << report.toText();
    EXPECT_EQ(t.memory.categories.bytes[7][1], 80);
}
