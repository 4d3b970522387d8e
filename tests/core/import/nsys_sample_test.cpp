// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Nsight Systems sample (tests/data/nsys_sqlite/pipit-cloverleaf-cuda/, the real export
// with the rows the importer does not read removed by tests/tools/trim_nsys_sample.py)
// through import::loadPath: every kernel, memcpy, sync, runtime and OSRT row on its lane
// (nothing dropped), the runtime -> device flows, exact times, names and the GPU. Every
// pinned number is printed by `python3 tests/tools/check_sqlite_samples.py nsys` (plain
// SQL over the same file).

#include "import/detect/detect.h"
#include "import/loader.h"
#include "import/nsys/nsys.h"
#include "sqlitedb_fixture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

using namespace stepscope;
using model::Category;
using model::TrackKind;

namespace {

const std::string SampleDir = "nsys_sqlite/pipit-cloverleaf-cuda";
const std::string SampleFile = SampleDir + "/perlmutter-cloverleaf-cuda.sqlite";

std::shared_ptr<const model::Session> load(const std::string &rel)
{
    util::Progress progress;
    return import::loadPath(testsupport::sqliteData(rel), progress).session;
}

/// Events by (lane kind, category).
std::map<std::pair<TrackKind, Category>, std::uint64_t> byKind(const model::Trace &t)
{
    std::map<std::pair<TrackKind, Category>, std::uint64_t> out;
    for (const model::Track &track : t.tracks)
        for (std::uint32_t i = 0; i < track.size(); ++i)
            ++out[{track.info().kind, track.category(i)}];
    return out;
}

std::uint64_t named(const model::Trace &t, std::string_view name)
{
    std::uint64_t n = 0;
    for (const model::Track &track : t.tracks)
        for (std::uint32_t i = 0; i < track.size(); ++i)
            n += t.strings.view(track.name(i)) == name ? 1 : 0;
    return n;
}

const model::Track *lane(const model::Trace &t, const std::string &threadName)
{
    for (const model::Track &track : t.tracks)
        if (track.info().threadName == threadName)
            return &track;
    return nullptr;
}

bool said(const model::Session &s, const std::string &part)
{
    for (const auto &d : s.report.diagnostics())
        if (d.message.find(part) != std::string::npos)
            return true;
    return false;
}

// nsys's own warnings are relayed one line each: "Unable to collect CPU kernel IP samples"
// spans five lines in DIAGNOSTIC_EVENT, which the text summary printed unindented.
TEST(NsysSample, RelayedWarningsAreOneLineEach)
{
    const auto s = load(SampleFile);
    ASSERT_TRUE(s);
    bool paranoid = false;
    for (const auto &d : s->report.diagnostics()) {
        if (d.message.rfind("nsys ", 0) != 0)
            continue;
        EXPECT_EQ(d.message.find('\n'), std::string::npos) << d.message;
        paranoid = paranoid
            || d.message.find("perf event paranoid level is 2. Change the paranoid level to 1 to "
                              "enable kernel sample collection. Try sudo sh -c")
                != std::string::npos;
    }
    EXPECT_TRUE(paranoid);
}

// A copy of an export beside it (report.0.sqlite copied as report.1.sqlite) was a second
// rank with the same figures; it is read once now, the copy named, as a copied trace is.
TEST(NsysSample, ACopyOfAnExportIsReadOnce)
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / "stepscope_nsys_copied";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::filesystem::copy_file(testsupport::sqliteData(SampleFile), dir / "report.0.sqlite");
    std::filesystem::copy_file(testsupport::sqliteData(SampleFile), dir / "report.1.sqlite");
    const auto d = import::detect::detectPath(dir);
    util::Progress progress;
    const auto s = import::loadPath(dir, progress).session;
    std::filesystem::remove_all(dir);
    ASSERT_EQ(d.nsysFiles.size(), 1u);
    EXPECT_EQ(d.nsysFiles[0].filename(), "report.0.sqlite");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->traces.size(), 1u);
    EXPECT_TRUE(
        said(*s, "skipped: the same bytes as report.0.sqlite (a copy of that export): read once"));
}

TEST(NsysSample, DetectedByItsTablesAsFileAndFolder)
{
    const auto file = testsupport::sqliteData(SampleFile);
    EXPECT_EQ(import::detect::sniffFile(file), import::detect::FileKind::NsysSqlite);
    const auto d = import::detect::detectPath(testsupport::sqliteData(SampleDir));
    EXPECT_EQ(d.format, import::detect::Format::NsysSqlite);
    ASSERT_EQ(d.nsysFiles.size(), 1u);
    EXPECT_EQ(import::detect::formatName(d.format), "nsys");
}

TEST(NsysSample, EveryActivityRowIsOnItsLane)
{
    const auto s = load(SampleDir);
    ASSERT_EQ(s->traces.size(), 1u) << s->report.toText();
    EXPECT_EQ(s->format, "nsys");
    const model::Trace &t = *s->traces[0];
    EXPECT_EQ(t.checkInvariants(), "");
    const auto k = byKind(t);
    // CUPTI_ACTIVITY_KIND_KERNEL 1312, _MEMCPY 279, _SYNCHRONIZATION 1312 (device lanes);
    // CUPTI_ACTIVITY_KIND_RUNTIME 3048, OSRT_API 1831 (host lanes); PROFILER_OVERHEAD 47.
    EXPECT_EQ((k.at({TrackKind::DeviceStream, Category::Compute})), 1312u);
    EXPECT_EQ((k.at({TrackKind::DeviceStream, Category::Memcpy})), 279u);
    EXPECT_EQ((k.at({TrackKind::DeviceStream, Category::Runtime})), 1312u);
    EXPECT_EQ((k.at({TrackKind::HostThread, Category::Runtime})), 3048u);
    EXPECT_EQ((k.at({TrackKind::HostThread, Category::Other})), 1831u);
    EXPECT_EQ((k.at({TrackKind::Synthetic, Category::Other})), 47u);
    EXPECT_EQ(k.size(), 6u); // no NVTX, memset or NCCL rows in this sample
    EXPECT_EQ(t.eventCount(), 1312u + 279u + 1312u + 3048u + 1831u + 47u);

    // Lanes: kernels and copies on (device 0, context 1, stream 7), the null stream; sync
    // rows (streamId 4294967295) on the GPU's sync lane; runtime on the main thread.
    const model::Track *stream = lane(t, "Stream 7 (default)");
    ASSERT_NE(stream, nullptr);
    EXPECT_EQ(stream->size(), 1312u + 279u);
    EXPECT_EQ(stream->info().processId, "GPU 0");
    EXPECT_EQ(stream->info().processName, "NVIDIA A100-SXM4-80GB");
    const model::Track *sync = lane(t, "Synchronization");
    ASSERT_NE(sync, nullptr);
    EXPECT_EQ(sync->size(), 1312u);
    const model::Track *api = lane(t, "cuda-cloverleaf (CUDA API)");
    ASSERT_NE(api, nullptr);
    EXPECT_EQ(api->size(), 3048u);
    EXPECT_EQ(api->info().processId, "1701896");
    EXPECT_EQ(api->info().processName, "cuda-cloverleaf");
    EXPECT_EQ(api->info().threadId, "1701896");
    const model::Track *osrt = lane(t, "cuda-cloverleaf (OS runtime)");
    ASSERT_NE(osrt, nullptr);
    EXPECT_EQ(osrt->size(), 1797u); // osrt threads: 1701896 has 1797 of the 1831 rows
    // The 3 profiling start/finish markers sit on the process itself (tid 0).
    const model::Track *process = lane(t, "Process (OS runtime)");
    ASSERT_NE(process, nullptr);
    EXPECT_EQ(process->size(), 3u);
    // Two threads share the name cuda-EvtHandlr: their tids tell them apart.
    const model::Track *handler = lane(t, "cuda-EvtHandlr 1701908 (OS runtime)");
    ASSERT_NE(handler, nullptr);
    EXPECT_EQ(handler->size(), 29u); // osrt threads: 310028055214100 has 29 rows
    EXPECT_NE(lane(t, "cuda-EvtHandlr 1701906 (OS runtime)"), nullptr);
}

TEST(NsysSample, FlowsLinkEveryLaunchToItsDeviceWork)
{
    const auto s = load(SampleFile);
    ASSERT_EQ(s->traces.size(), 1u);
    const model::Trace &t = *s->traces[0];
    // "runtime -> device flows": 1312 kernels + 279 memcpys + 1312 sync rows.
    ASSERT_EQ(t.flows.size(), 2903u);
    std::map<std::string, std::uint64_t> from;
    for (const model::Flow &f : t.flows) {
        EXPECT_EQ(t.strings.view(f.category), "ac2g");
        const model::Track &a = t.track(f.from.track);
        const model::Track &b = t.track(f.to.track);
        EXPECT_EQ(a.info().kind, TrackKind::HostThread);
        EXPECT_EQ(b.info().kind, TrackKind::DeviceStream);
        ++from[std::string(t.strings.view(a.name(f.from.index)))];
    }
    EXPECT_EQ(from["cudaLaunchKernel"], 1312u);
    EXPECT_EQ(from["cudaMemcpy"], 279u);
    EXPECT_EQ(from["cudaDeviceSynchronize"], 1312u);
}

TEST(NsysSample, TimesAndNamesAreExact)
{
    const auto s = load(SampleFile);
    ASSERT_EQ(s->traces.size(), 1u);
    const model::Trace &t = *s->traces[0];
    EXPECT_EQ(t.originNs, 1696392839587175550); // TARGET_INFO_SESSION_START_TIME.utcEpochNs
    EXPECT_EQ(t.metadata.format, "nsys");
    EXPECT_EQ(t.metadata.device, "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(t.metadata.deviceId, "0");
    EXPECT_EQ(t.metadata.extra.at("nsys version"), "2024.5.1.113");
    EXPECT_EQ(t.metadata.extra.at("export schema"), "3.13.2");

    // first kernel: start 533338240, end 534705884, named by demangledName.
    const model::Track *stream = lane(t, "Stream 7 (default)");
    ASSERT_NE(stream, nullptr);
    EXPECT_EQ(stream->start(0), 533338240);
    EXPECT_EQ(stream->duration(0), 534705884 - 533338240);
    EXPECT_EQ(t.strings.view(stream->name(0)),
        "void clover::par_ranged2d_kernel<build_field(global_variables &)::[lambda(int, int) "
        "(instance 1)]>(clover::Range2d, T1)");
    EXPECT_NE(t.args.view(stream->args(0)).find("\"short name\":\"par_ranged2d_kernel\""),
        std::string_view::npos);
    // last memcpy: 875744322 .. 875746050, 2048 B device to host.
    const std::uint32_t last = stream->size() - 1;
    EXPECT_EQ(stream->start(last), 875744322);
    EXPECT_EQ(stream->end(last), 875746050);
    EXPECT_EQ(t.strings.view(stream->name(last)), "Memcpy DtoH (Device -> Pageable)");
    EXPECT_NE(t.args.view(stream->args(last)).find("\"bytes\":2048"), std::string_view::npos);
    EXPECT_EQ(named(t, "Memcpy HtoD (Pageable -> Device)"), 254u);

    std::int64_t kernelNs = 0;
    for (std::uint32_t i = 0; i < stream->size(); ++i)
        if (stream->category(i) == Category::Compute)
            kernelNs += stream->duration(i);
    EXPECT_EQ(kernelNs, 294404540); // kernel time sum

    // first runtime call: the driver's cuModuleGetLoadingMode, 264403140 .. 264404071;
    // version suffixes dropped (cudaLaunchKernel_v7000 -> cudaLaunchKernel).
    const model::Track *api = lane(t, "cuda-cloverleaf (CUDA API)");
    ASSERT_NE(api, nullptr);
    EXPECT_EQ(api->start(0), 264403140);
    EXPECT_EQ(api->end(0), 264404071);
    EXPECT_EQ(t.strings.view(api->name(0)), "cuModuleGetLoadingMode");
    EXPECT_EQ(named(t, "cudaLaunchKernel"), 1312u);
    EXPECT_EQ(named(t, "cudaMalloc"), 76u);
    EXPECT_EQ(named(t, "cudaLaunchKernel_v7000"), 0u);
    EXPECT_EQ(t.steps.size(), 0u); // no NVTX in this export
}

TEST(NsysSample, AbsentTablesAreNamedAsNotCollected)
{
    const auto s = load(SampleDir);
    EXPECT_TRUE(said(*s,
        "not collected in this export (no table): CUPTI_ACTIVITY_KIND_MEMSET, "
        "NVTX_EVENTS, CUDA_GPU_MEMORY_USAGE_EVENTS"))
        << s->report.toText();
    EXPECT_EQ(s->report.count(model::Severity::Error), 0u) << s->report.toText();
    EXPECT_EQ(s->report.count(model::Severity::Warning), 0u) << s->report.toText();
}

TEST(NsysSample, ReadNsysPathCountsEveryTable)
{
    const auto r = import::nsys::readNsysPath(testsupport::sqliteData(SampleFile), false);
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.counts.kernels, 1312u);
    EXPECT_EQ(r.counts.memcpys, 279u);
    EXPECT_EQ(r.counts.memsets, 0u);
    EXPECT_EQ(r.counts.syncs, 1312u);
    EXPECT_EQ(r.counts.runtime, 3048u);
    EXPECT_EQ(r.counts.osrt, 1831u);
    EXPECT_EQ(r.counts.overhead, 47u);
    EXPECT_EQ(r.counts.flows, 2903u);
    EXPECT_EQ(r.trace.args.size(), 0u); // keepArgs = false
}

} // namespace

class NsysVariants : public testsupport::SqliteFixture
{
};

// An export without META_DATA_EXPORT (older nsys, or the table dropped) is still one, by its
// activity tables, and loads the same rows (docs/formats.md §12.4: a missing table is "not
// collected"). It was "not a profile"; an SQLite file of no profiler now says so, with its
// tables, instead of asking for JSON.
TEST_F(NsysVariants, AnExportWithoutItsMetadataTableAndAnSqliteFileOfNoProfiler)
{
    const auto original = load(SampleFile);
    ASSERT_TRUE(original && original->traces.size() == 1);
    const std::filesystem::path copy = m_tmp / "old.sqlite";
    std::filesystem::copy_file(testsupport::sqliteData(SampleFile), copy);
    testsupport::writeDatabase(copy, "DROP TABLE META_DATA_EXPORT;");
    EXPECT_EQ(import::detect::sniffFile(copy), import::detect::FileKind::NsysSqlite);
    util::Progress progress;
    const auto old = import::loadPath(copy, progress).session;
    ASSERT_TRUE(old && old->traces.size() == 1);
    EXPECT_EQ(old->format, "nsys");
    EXPECT_EQ(old->traces[0]->eventCount(), original->traces[0]->eventCount());

    const std::filesystem::path other = m_tmp / "other.sqlite";
    testsupport::writeDatabase(other, "CREATE TABLE trials (id INTEGER, value REAL);");
    const auto d = import::detect::detectPath(other);
    EXPECT_EQ(d.format, import::detect::Format::Unknown);
    EXPECT_NE(d.reason.find("an SQLite database of no profiler StepScope reads (its tables: "
                            "trials): an Nsight Systems export"),
        std::string::npos)
        << d.reason;
}
