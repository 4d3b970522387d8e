// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Shared by the trace-event importer tests (chrometrace_*, kineto_*, traceview,
// timelinedisplay, proftimeline): load one file into a finished Trace and summarise it.

#include "import/chrometrace/chunk.h"
#include "import/chrometrace/tracereader.h"
#include "import/importcontext.h"
#include "model/loadreport.h"
#include "model/trace.h"
#include "model/tracebuilder.h"
#include "util/progress.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

namespace stepscope::testsupport {

inline std::filesystem::path dataPath(const std::string &rel)
{
    return std::filesystem::path(STEPSCOPE_TEST_DATA) / rel;
}

/// A plain dialect for the generic reader's tests: tracks by process name "GPU*" -> device
/// stream, categories by `cat` ("kernel" -> compute, else host op).
class PlainDialect final : public import::chrometrace::Dialect
{
public:
    model::TrackKind classifyTrack(const import::chrometrace::ProcessMeta &p,
        const import::chrometrace::ThreadMeta &) const override
    {
        return p.name.rfind("GPU", 0) == 0 ? model::TrackKind::DeviceStream
                                           : model::TrackKind::HostThread;
    }
    import::chrometrace::EventClass classifyEvent(
        const import::chrometrace::EventFields &e) const override {
        import::chrometrace::EventClass c;
    c.category = e.category == "kernel" ? model::Category::Compute : model::Category::HostOp;
    return c;
}
}; // namespace stepscope::testsupport

struct Loaded
{
    bool ok = false;
    model::Trace trace;
    model::LoadReport report;
    std::uint64_t partialOverlaps = 0;
};

using ReadFn = std::function<bool(
    const std::filesystem::path &, const import::ImportContext &, model::TraceBuilder &)>;

inline Loaded load(const ReadFn &read, const std::filesystem::path &path, unsigned threads = 0,
    bool keepArgs = true, util::Progress *progress = nullptr, std::size_t chunkBytes = 0)
{
    Loaded result;
    util::Progress defaultProgress;
    import::ImportContext ctx;
    ctx.root = path.parent_path();
    ctx.report = &result.report;
    ctx.progress = progress ? progress : &defaultProgress;
    ctx.options.threads = threads;
    ctx.options.keepArgs = keepArgs;
    ctx.options.chunkBytes = chunkBytes;
    model::TraceBuilder builder;
    result.ok = read(path, ctx, builder);
    auto finished = builder.finish();
    result.trace = std::move(finished.trace);
    result.partialOverlaps = finished.partialOverlaps;
    return result;
}

struct KindCount
{
    std::uint64_t tracks = 0;
    std::uint64_t events = 0;
};

inline std::array<KindCount, model::TrackKindCount> byKind(const model::Trace &trace)
{
    std::array<KindCount, model::TrackKindCount> counts {};
    for (const model::Track &t : trace.tracks) {
        auto &c = counts[static_cast<std::size_t>(t.info().kind)];
        ++c.tracks;
        c.events += t.size();
    }
    return counts;
}

inline std::uint64_t categoryCount(const model::Trace &trace, model::Category category)
{
    std::uint64_t n = 0;
    for (const model::Track &t : trace.tracks) {
        for (std::uint32_t i = 0; i < t.size(); ++i)
            n += t.category(i) == category ? 1 : 0;
    }
    return n;
}

/// Every event as one stable text line per event (absolute ns), for comparisons.
inline std::string dumpEvents(const model::Trace &trace)
{
    // On-demand args read in file order once (one by one, a gzip span would be inflated per
    // event).
    const std::vector<std::string> args = trace.args.readAll();
    std::ostringstream out;
    for (const model::Track &t : trace.tracks) {
        out << "track " << t.info().processId << '/' << t.info().threadId << ' '
            << model::trackKindName(t.info().kind) << ' ' << t.info().processName << '/'
            << t.info().threadName << '\n';
        for (std::uint32_t i = 0; i < t.size(); ++i) {
            out << trace.originNs + t.start(i) << ' ' << t.duration(i) << ' ' << t.row(i) << ' '
                << trace.strings.view(t.name(i)) << ' ' << model::categoryName(t.category(i)) << ' '
                << (t.args(i).isValid() ? args[t.args(i).value()] : std::string()) << '\n';
        }
    }
    for (const model::Flow &f : trace.flows)
        out << "flow " << f.from.track.value() << ':' << f.from.index << " -> "
            << f.to.track.value() << ':' << f.to.index << ' ' << trace.strings.view(f.category)
            << '\n';
    for (const model::CounterSeries &c : trace.counters) {
        out << "counter " << c.process << '/' << c.name << '/' << c.key << ' ' << c.values.size()
            << '\n';
        for (std::size_t i = 0; i < c.values.size(); ++i)
            out << c.timestampsNs[i] << ' ' << c.values[i] << '\n';
    }
    return out.str();
}

/// Whether a diagnostic of `report` contains `part`.
inline bool said(const model::LoadReport &report, const std::string &part)
{
    for (const model::Diagnostic &d : report.diagnostics())
        if (d.message.find(part) != std::string::npos)
            return true;
    return false;
}

/// The events of `array` (a JSON array of objects whose strings hold no braces) as one chunk
/// in `chunk`'s own text, as the scanner cuts it, the text padded to `textBytes` (at least
/// simdjson's 64 bytes of padding). Reusing one Chunk keeps its text's storage, as a range's
/// reused buffer does.
inline void fillChunk(
    import::chrometrace::Chunk &chunk, const std::string &array, std::size_t textBytes = 0)
{
    chunk.text.assign(array);
    chunk.text.resize(std::max(textBytes, array.size() + 64), ' ');
    chunk.jsonStart = 0;
    chunk.jsonSize = array.size();
    chunk.events.clear();
    chunk.dirty = false;
    for (std::size_t pos = 0; (pos = array.find('{', pos)) != std::string::npos;) {
        int depth = 0;
        std::size_t end = pos;
        for (; end < array.size(); ++end) {
            depth += array[end] == '{' ? 1 : 0;
            depth -= array[end] == '}' ? 1 : 0;
            if (depth == 0)
                break;
        }
        chunk.events.emplace_back(
            static_cast<std::uint32_t>(pos), static_cast<std::uint32_t>(end + 1));
        pos = end + 1;
    }
}

inline void writeFile(const std::filesystem::path &path, const std::string &text)
{
    std::ofstream f(path, std::ios::binary);
    f << text;
}

/// A test fixture with its own empty temporary folder (named after the suite and the test),
/// removed afterwards; write() puts a file there. The base of every importer test fixture
/// (import_fixture.h).
class TempDirTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_tmp = std::filesystem::temp_directory_path()
            / ("stepscope_" + std::string(info->test_suite_name()) + "_"
                + std::string(info->name()));
        std::filesystem::remove_all(m_tmp);
        std::filesystem::create_directories(m_tmp);
    }
    void TearDown() override
    {
        std::error_code ec;
        std::filesystem::remove_all(m_tmp, ec);
    }
    std::filesystem::path write(const std::string &name, const std::string &text)
    {
        const std::filesystem::path p = m_tmp / name;
        writeFile(p, text);
        return p;
    }
    std::filesystem::path m_tmp;
};

} // namespace stepscope::testsupport
