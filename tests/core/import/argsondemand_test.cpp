// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Args on demand (issue 13): Chrome-trace events keep a record offset and their args are read
// back from the file when asked. Read back, they equal what a resident load kept, for every
// event of every sample (plain and gzip); a changed or vanished file gives a message; the
// gzip seek index reads any offset; and what stays resident per event is bounded.
#include "chrometrace_testutil.h"
#include "import/chrometrace/bytesource.h"
#include "import/chrometrace/gzipindex.h"
#include "import/chrometrace/recordargs.h"
#include "import/kineto/kinetotrace.h"
#include "import/loader.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace stepscope::import {
namespace {

namespace fs = std::filesystem;
using testsupport::TempDirTest;

std::shared_ptr<const model::Session> loadWith(const fs::path &path, bool onDemand)
{
    util::Progress progress;
    LoadOptions options;
    options.argsOnDemand = onDemand;
    return loadPath(path, progress, options).session;
}

/// Every sample folder of tests/data (as the golden dumps list them).
std::vector<fs::path> sampleFolders()
{
    std::vector<fs::path> out;
    for (const auto &family : fs::directory_iterator(STEPSCOPE_TEST_DATA)) {
        if (!family.is_directory() || family.path().filename() == "golden")
            continue;
        for (const auto &sample : fs::directory_iterator(family.path()))
            if (sample.is_directory())
                out.push_back(sample.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(ArgsOnDemand, EverySampleReadsBackTheResidentArgs)
{
    std::uint64_t onDemandEvents = 0;
    std::uint64_t gzipEvents = 0;
    for (const fs::path &folder : sampleFolders()) {
        SCOPED_TRACE(folder.string());
        const auto resident = loadWith(folder, false);
        const auto onDemand = loadWith(folder, true);
        ASSERT_TRUE(resident && onDemand);
        ASSERT_EQ(resident->traces.size(), onDemand->traces.size());
        for (std::size_t t = 0; t < resident->traces.size(); ++t) {
            const model::Trace &a = *resident->traces[t];
            const model::Trace &b = *onDemand->traces[t];
            ASSERT_EQ(a.tracks.size(), b.tracks.size());
            const std::vector<std::string> all = b.args.readAll();
            for (std::size_t k = 0; k < a.tracks.size(); ++k) {
                const model::Track &ta = a.tracks[k];
                const model::Track &tb = b.tracks[k];
                ASSERT_EQ(ta.size(), tb.size());
                for (std::uint32_t i = 0; i < ta.size(); ++i) {
                    ASSERT_EQ(ta.args(i).isValid(), tb.args(i).isValid()) << "event " << i;
                    if (!ta.args(i).isValid())
                        continue;
                    EXPECT_FALSE(a.args.isOnDemand(ta.args(i)));
                    const std::string &text = all[tb.args(i).value()];
                    ASSERT_EQ(text, a.args.view(ta.args(i))) << "track " << k << " event " << i;
                    if (i % 211 == 0) {
                        // One at a time, as the details pane asks (a gzip span inflated each).
                        std::string one;
                        std::string error;
                        ASSERT_TRUE(b.args.read(tb.args(i), one, &error)) << error;
                        ASSERT_EQ(one, text);
                    }
                    if (b.args.isOnDemand(tb.args(i))) {
                        ++onDemandEvents;
                        const bool gz = std::any_of(b.metadata.sourceFiles.begin(),
                            b.metadata.sourceFiles.end(), [](const std::string &f) {
                                return f.size() > 3 && f.compare(f.size() - 3, 3, ".gz") == 0;
                            });
                        gzipEvents += gz ? 1 : 0;
                    }
                }
            }
        }
    }
    // Plain (Ascend trace_view.json) and gzip (Kineto .json.gz) files were both read back.
    EXPECT_GT(onDemandEvents, 100000u);
    EXPECT_GT(gzipEvents, 10000u);
    EXPECT_GT(onDemandEvents, gzipEvents);
}

/// A small Kineto trace: one cpu_op per event with args of its own.
std::string kinetoTrace(int events)
{
    std::string text = R"({"schemaVersion": 1, "traceEvents": [)";
    for (int i = 0; i < events; ++i) {
        if (i > 0)
            text += ",\n";
        text += R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": )"
            + std::to_string(10 * i) + R"(, "dur": 5, "args": {"Input Dims": [[64, )"
            + std::to_string(i) + R"(]], "Sequence number": )" + std::to_string(i)
            + R"(, "label": "op )" + std::to_string(i) + R"( \"quoted\" {braces}"}})";
    }
    text += "]}\n";
    return text;
}

void writeGzip(const fs::path &file, const std::string &text, int members);

class ArgsOnDemandFile : public TempDirTest
{
protected:
    /// `text` written as `name` (gzip: `name`.gz in `members` members), loaded with args
    /// resident and on demand.
    struct Written
    {
        fs::path file;
        std::shared_ptr<const model::Session> resident;
        std::shared_ptr<const model::Session> onDemand;
    };
    Written writeAndLoad(const std::string &name, const std::string &text, bool gzip, int members)
    {
        Written w;
        w.file = m_tmp / (gzip ? name + ".gz" : name);
        if (gzip)
            writeGzip(w.file, text, members);
        else
            testsupport::writeFile(w.file, text);
        w.resident = loadWith(w.file, false);
        w.onDemand = loadWith(w.file, true);
        return w;
    }
};

TEST_F(ArgsOnDemandFile, AChangedOrVanishedFileGivesAMessage)
{
    const fs::path file = m_tmp / "t.pt.trace.json";
    testsupport::writeFile(file, kinetoTrace(50));
    const auto session = loadWith(file, true);
    ASSERT_TRUE(session && session->traces.size() == 1);
    const model::Trace &trace = *session->traces[0];
    ASSERT_FALSE(trace.tracks.empty());
    const model::Track &track = trace.tracks[0];
    ASSERT_EQ(track.size(), 50u);
    const model::ArgsId id = track.args(7);
    ASSERT_TRUE(trace.args.isOnDemand(id));
    std::string json;
    std::string error;
    ASSERT_TRUE(trace.args.read(id, json, &error)) << error;
    EXPECT_EQ(
        json, R"({"Input Dims":[[64,7]],"Sequence number":7,"label":"op 7 \"quoted\" {braces}"})");

    // Same size, another time: changed.
    fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(5));
    EXPECT_FALSE(trace.args.read(id, json, &error));
    EXPECT_NE(error.find("changed since the profile was loaded"), std::string::npos) << error;
    EXPECT_NE(error.find("t.pt.trace.json"), std::string::npos) << error;
    EXPECT_TRUE(json.empty());
    EXPECT_EQ(trace.args.text(id), "");

    // Gone.
    fs::remove(file);
    error.clear();
    EXPECT_FALSE(trace.args.read(id, json, &error));
    EXPECT_NE(error.find("can no longer be read"), std::string::npos) << error;

    // Rewritten with other content: still a message, never a crash.
    testsupport::writeFile(file, std::string(200, ' '));
    error.clear();
    EXPECT_FALSE(trace.args.read(id, json, &error));
    EXPECT_FALSE(error.empty());
}

/// Writes `text` as gzip, in `members` concatenated members.
void writeGzip(const fs::path &file, const std::string &text, int members)
{
    std::string out;
    const std::size_t part = text.size() / static_cast<std::size_t>(members) + 1;
    for (std::size_t at = 0; at < text.size(); at += part) {
        z_stream s {};
        ASSERT_EQ(deflateInit2(&s, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
        const std::string in = text.substr(at, part);
        std::string buf(deflateBound(&s, in.size()), '\0');
        s.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
        s.avail_in = static_cast<uInt>(in.size());
        s.next_out = reinterpret_cast<Bytef *>(buf.data());
        s.avail_out = static_cast<uInt>(buf.size());
        ASSERT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
        out.append(buf.data(), buf.size() - s.avail_out);
        deflateEnd(&s);
    }
    testsupport::writeFile(file, out);
}

TEST_F(ArgsOnDemandFile, GzipSeekIndexReadsAnyOffset)
{
    std::mt19937 rng(13);
    std::string text;
    while (text.size() < (3u << 20))
        text += "{\"n\": " + std::to_string(rng()) + ", \"s\": \""
            + std::string(rng() % 40, 'a' + static_cast<char>(rng() % 26)) + "\"},\n";
    const fs::path file = m_tmp / "t.gz";
    writeGzip(file, text, 3);
    std::string error;
    auto source = chrometrace::ByteSource::open(file, error, 64u << 10);
    ASSERT_TRUE(source) << error;
    std::string all;
    std::vector<char> buf(100000);
    while (const std::size_t n = source->read(buf.data(), buf.size()))
        all.append(buf.data(), n);
    ASSERT_EQ(all, text);
    const auto index = source->seekIndex();
    ASSERT_TRUE(index);
    EXPECT_GT(index->checkpoints(), 10u); // a block boundary past every 64 KiB of output, + members
    std::string bytes;
    for (int k = 0; k < 300; ++k) {
        const std::uint64_t offset = rng() % text.size();
        ASSERT_TRUE(index->read(file, offset, 1000, bytes, error)) << error;
        ASSERT_EQ(bytes, text.substr(offset, 1000)) << "offset " << offset;
    }
    ASSERT_TRUE(index->read(file, text.size() - 10, 1000, bytes, error));
    EXPECT_EQ(bytes, text.substr(text.size() - 10));
}

TEST_F(ArgsOnDemandFile, GzipTraceReadsBackAsResident)
{
    const fs::path file = m_tmp / "t.pt.trace.json.gz";
    writeGzip(file, kinetoTrace(3000), 2);
    const auto resident = loadWith(file, false);
    const auto onDemand = loadWith(file, true);
    ASSERT_TRUE(resident && onDemand);
    const model::Trace &a = *resident->traces.at(0);
    const model::Trace &b = *onDemand->traces.at(0);
    ASSERT_EQ(a.tracks.at(0).size(), 3000u);
    for (std::uint32_t i = 0; i < 3000; i += 7) {
        ASSERT_TRUE(b.args.isOnDemand(b.tracks[0].args(i)));
        EXPECT_EQ(b.args.text(b.tracks[0].args(i)), a.args.view(a.tracks[0].args(i)));
    }
}

TEST_F(ArgsOnDemandFile, ConcurrentReadsOfBigAndSmallArgsMatchResident)
{
    // The details pane, search and an analysis may read at once, from any thread. One event's
    // args (200 KB) are far larger than the first 4 KiB a read looks at.
    std::string text = kinetoTrace(2000);
    const std::string big = R"(, {"ph": "X", "cat": "cpu_op", "name": "big", "pid": 1, "tid": 1, )"
                            R"("ts": 30000, "dur": 5, "args": {"blob": ")"
        + std::string(200000, 'x') + R"("}}]})";
    text.replace(text.rfind("]}"), 2, big);
    for (const bool gzip : {false, true}) {
        SCOPED_TRACE(gzip ? "gzip" : "plain");
        const auto [file, resident, onDemand] = writeAndLoad("c.pt.trace.json", text, gzip, 1);
        ASSERT_TRUE(resident && onDemand);
        const model::Track &ta = resident->traces.at(0)->tracks.at(0);
        const model::Trace &b = *onDemand->traces.at(0);
        const model::Track &tb = b.tracks.at(0);
        ASSERT_EQ(tb.size(), 2001u);
        std::vector<std::string> expected(tb.size());
        std::size_t bigEvents = 0;
        for (std::uint32_t i = 0; i < tb.size(); ++i) {
            ASSERT_TRUE(b.args.isOnDemand(tb.args(i)));
            expected[i] = std::string(resident->traces[0]->args.view(ta.args(i)));
            bigEvents += expected[i].size() > 100000 ? 1 : 0;
        }
        ASSERT_EQ(bigEvents, 1u);
        std::vector<std::uint64_t> mismatches(4, 0);
        std::vector<std::thread> threads;
        for (std::size_t w = 0; w < mismatches.size(); ++w) {
            threads.emplace_back([&, w] {
                // Each thread its own order: forwards, backwards and two strides.
                for (std::uint32_t k = 0; k < tb.size(); ++k) {
                    const std::uint32_t i = w == 0 ? k
                        : w == 1                   ? tb.size() - 1 - k
                                                   : (k * (w == 2 ? 7u : 13u)) % tb.size();
                    std::string json;
                    std::string error;
                    if (!b.args.read(tb.args(i), json, &error) || json != expected[i])
                        ++mismatches[w];
                }
            });
        }
        for (std::thread &t : threads)
            t.join();
        for (std::size_t w = 0; w < mismatches.size(); ++w)
            EXPECT_EQ(mismatches[w], 0u) << "thread " << w;
    }
}

TEST_F(ArgsOnDemandFile, ManyAtOnceReadInWindowsMatchResidentAndKeepNothing)
{
    // The collective table asks for many events of a file at once (ArgsTable::readMany):
    // the source reads them in windows of 256 KiB. Events cross the windows' ends; one event
    // in the middle (300 KB) is larger than a window.
    std::string text = kinetoTrace(4000);
    std::size_t at = 0;
    for (int k = 0; k < 2000; ++k)
        at = text.find(",\n", at) + 2;
    text.insert(at,
        R"({"ph": "X", "cat": "cpu_op", "name": "big", "pid": 1, "tid": 1, "ts": 19995, )"
        R"("dur": 1, "args": {"blob": ")"
            + std::string(300000, 'y') + "\"}},\n");
    for (const bool gzip : {false, true}) {
        SCOPED_TRACE(gzip ? "gzip" : "plain");
        const auto [file, resident, onDemand] = writeAndLoad("w.pt.trace.json", text, gzip, 2);
        ASSERT_TRUE(resident && onDemand);
        const model::Trace &a = *resident->traces.at(0);
        const model::Trace &b = *onDemand->traces.at(0);
        const model::Track &ta = a.tracks.at(0);
        const model::Track &tb = b.tracks.at(0);
        ASSERT_EQ(tb.size(), 4001u);
        ASSERT_GT(text.size(), 3 * chrometrace::RecordArgs::WindowBytes);

        // Every event, in an order of its own (readMany reads in file order), and a stride.
        std::vector<model::ArgsId> ids;
        std::vector<std::string> expected;
        std::size_t big = 0;
        for (std::uint32_t k = 0; k < tb.size(); ++k) {
            const std::uint32_t i = (k * 7919u) % tb.size();
            ASSERT_TRUE(b.args.isOnDemand(tb.args(i)));
            ids.push_back(tb.args(i));
            expected.emplace_back(a.args.view(ta.args(i)));
            big += expected.back().size() > chrometrace::RecordArgs::WindowBytes ? 1 : 0;
        }
        ASSERT_EQ(big, 1u);
        const std::size_t before = b.args.memoryBytes();
        EXPECT_EQ(b.args.readMany(ids), expected);
        std::vector<model::ArgsId> stride;
        std::vector<std::string> strideExpected;
        for (std::size_t k = 0; k < ids.size(); k += 13) {
            stride.push_back(ids[k]);
            strideExpected.push_back(expected[k]);
        }
        EXPECT_EQ(b.args.readMany(stride), strideExpected);
        // A thousand-rank session holds a source per file: no window stays behind (a gzip
        // file's seek index keeps its last inflated span, as after any read).
        if (!gzip) {
            EXPECT_EQ(b.args.memoryBytes(), before);
        }

        // Changed since the load: nothing is read, every text is "".
        fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(5));
        EXPECT_EQ(b.args.readMany(stride), std::vector<std::string>(stride.size()));
    }
}

TEST_F(ArgsOnDemandFile, ResidentBytesPerEventStayBounded)
{
    // 20 000 events with ~100 bytes of args each, no correlation ids.
    const fs::path file = m_tmp / "t.pt.trace.json";
    testsupport::writeFile(file, kinetoTrace(20000));
    const auto resident = loadWith(file, false);
    const auto onDemand = loadWith(file, true);
    ASSERT_TRUE(resident && onDemand);
    const model::Trace &a = *resident->traces.at(0);
    const model::Trace &b = *onDemand->traces.at(0);
    ASSERT_EQ(b.eventCount(), 20000u);
    const double residentPerEvent =
        static_cast<double>(a.memoryBytes()) / static_cast<double>(a.eventCount());
    const double onDemandPerEvent =
        static_cast<double>(b.memoryBytes()) / static_cast<double>(b.eventCount());
    // Tracks 14 B (start 4, duration 4, kind 2, args id 4) + a 4-byte record.
    EXPECT_LE(onDemandPerEvent, 20.0) << "resident " << residentPerEvent;
    EXPECT_GT(residentPerEvent, onDemandPerEvent + 60.0);
    // Records in file order: a 4-byte offset from a base per 256 entries.
    EXPECT_LE(b.args.memoryBytes(), 4u * 20000u + 8u * (20000u / 256 + 1) + 4096u);
}

} // namespace
} // namespace stepscope::import
