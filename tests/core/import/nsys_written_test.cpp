// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Nsight Systems exports written by the tests (docs/formats.md §12), for what the real sample
// lacks: NVTX ranges, marks and domains, ProfilerStep#N and user step markers, NCCL
// kernels, memsets, two processes reusing a correlation id, and the older schema variants
// (no enum tables, no globalPid, no shortName, NVTX text without textId).

#include "import/loader.h"
#include "import/nsys/nsys.h"
#include "sqlitedb_fixture.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>

using namespace stepscope;
using model::Category;

namespace {

constexpr std::int64_t Vm = std::int64_t {1} << 48;
constexpr std::int64_t PidA = Vm | (std::int64_t {100} << 24);
constexpr std::int64_t PidB = Vm | (std::int64_t {200} << 24);
constexpr std::int64_t MainA = PidA | 100;
constexpr std::int64_t OtherA = PidA | 101;
constexpr std::int64_t MainB = PidB | 200;

std::string n(std::int64_t v)
{
    return std::to_string(v);
}

/// The tables of a 3.x export with the columns the reader uses (and a few it does not).
const std::string Schema = R"(
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
    ('EXPORT_SCHEMA_VERSION', '3.13.2');
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '2023-11-14T22:13:20', '');
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT,
    busLocation TEXT);
INSERT INTO TARGET_INFO_GPU VALUES (1, 0, 'NVIDIA H100 80GB HBM3', '0000:01:00.0'),
    (1, 1, 'NVIDIA H100 80GB HBM3', '0000:02:00.0');
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,
    eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER,
    nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
    correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
    shortName INTEGER NOT NULL, gridX INTEGER, gridY INTEGER, gridZ INTEGER);
)";

/// Two processes: A launches a GEMM, an NCCL all-reduce and a memset on GPU 0; B reuses
/// correlation id 1 for its own GEMM on GPU 1. NVTX on A's main thread.
std::string modernExport()
{
    return Schema + R"(
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'void gemm<float>(float*)'),
    (3, 'gemm'), (4, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096>)'),
    (5, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL'), (6, 'cudaMemsetAsync_v3020'),
    (7, 'ProfilerStep#4'), (8, 'main'), (9, 'worker');
CREATE TABLE ENUM_NSYS_EVENT_TYPE (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_NSYS_EVENT_TYPE VALUES (33, 'NvtxCategory', 'NvtxCategory'),
    (34, 'NvtxMark', 'NvtxMark'), (59, 'NvtxPushPopRange', 'NvtxPushPopRange'),
    (60, 'NvtxStartEndRange', 'NvtxStartEndRange'), (75, 'NvtxDomainCreate', 'NvtxDomainCreate');
CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_CUDA_MEM_KIND VALUES (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device');
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES ()"
        + n(PidA) + R"(, 100, 'python'), ()" + n(PidB) + R"(, 200, 'python');
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
INSERT INTO ThreadNames VALUES (8, 0, )"
        + n(MainA) + R"(), (9, 0, )" + n(OtherA) + R"();
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
    (1000, 1100, 0, )"
        + n(MainA) + R"(, 1, 1, 0, NULL),
    (1200, 1300, 0, )"
        + n(MainA) + R"(, 2, 1, 0, NULL),
    (1400, 1450, 0, )"
        + n(MainA) + R"(, 3, 6, 0, NULL),
    (1000, 1050, 0, )"
        + n(MainB) + R"(, 1, 1, 0, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
    (2000, 5000, 0, 1, 7, 1, )"
        + n(PidA) + R"(, 2, 3, 4, 1, 1),
    (2500, 9000, 0, 1, 20, 2, )"
        + n(PidA) + R"(, 4, 5, 2, 1, 1),
    (3000, 4000, 1, 2, 7, 1, )"
        + n(PidB) + R"(, 2, 3, 8, 1, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
    correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL,
    memKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (1500, 1600, 0, 1, 7, 3, )"
        + n(PidA) + R"(, 0, 1024, 2);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
    rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,
    endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);
INSERT INTO NVTX_EVENTS VALUES
    (0, NULL, 75, NULL, NULL, NULL, 'PyTorch', )"
        + n(MainA) + R"(, NULL, NULL, 1),
    (900, 5000, 59, NULL, NULL, NULL, 'ProfilerStep#3', )"
        + n(MainA) + R"(, NULL, NULL, 1),
    (5000, 10000, 59, NULL, NULL, NULL, NULL, )"
        + n(MainA) + R"(, NULL, 7, 1),
    (950, 2000, 59, NULL, NULL, NULL, 'forward', )"
        + n(MainA) + R"(, NULL, NULL, 1),
    (1000, NULL, 34, NULL, NULL, NULL, 'checkpoint', )"
        + n(MainA) + R"(, NULL, NULL, 0),
    (1200, 8000, 60, 1, NULL, NULL, 'prefetch', )"
        + n(MainA) + R"(, )" + n(OtherA) + R"(, NULL, 0),
    (1300, 1400, 59, NULL, NULL, NULL, 'Step 9', )"
        + n(MainA) + R"(, NULL, NULL, 0),
    (9500, NULL, 59, NULL, NULL, NULL, 'never popped', )"
        + n(MainA) + R"(, NULL, NULL, 0),
    (10, NULL, 33, NULL, NULL, NULL, 'a category', )"
        + n(MainA) + R"(, NULL, NULL, 0);
)";
}

class NsysWritten : public testsupport::SqliteFixture
{
protected:
    import::nsys::FileResult read(const std::string &sql) {
        const auto file = m_tmp / "report.sqlite";
    testsupport::writeDatabase(file, sql);
    auto r = import::nsys::readNsysPath(file);
    m_text = r.report.toText();
    return r;
} static const model::Track *lane(const model::Trace &t, const std::string &threadName)
{
    for (const model::Track &track : t.tracks)
        if (track.info().threadName == threadName)
            return &track;
    return nullptr;
}
static std::string name(const model::Trace &t, const model::Track &track, std::uint32_t i)
{
    return std::string(t.strings.view(track.name(i)));
}
bool said(const import::nsys::FileResult &r, const std::string &part) const
{
    for (const auto &d : r.report.diagnostics())
        if (d.file == "report.sqlite" && d.message.find(part) != std::string::npos)
            return true;
    return false;
}
std::string m_text;
}; // namespace

TEST_F(NsysWritten, ProfilerStepRangesBecomeStepsWithTheirIds)
{
    const auto r = read(modernExport());
    ASSERT_TRUE(r.ok) << m_text;
    const auto &steps = r.trace.steps;
    ASSERT_EQ(steps.size(), 2u) << m_text; // `Step 9` loses to the ProfilerStep ranges
    EXPECT_EQ(steps[0].number, 3);
    EXPECT_EQ(steps[0].startNs, 900);
    EXPECT_EQ(steps[0].endNs, 5000);
    EXPECT_EQ(steps[1].number, 4); // named through textId
    EXPECT_EQ(steps[1].startNs, 5000);
    EXPECT_EQ(steps[1].endNs, 10000);
    EXPECT_EQ(r.trace.originNs, 1700000000000000000);
}

TEST_F(NsysWritten, UserStepMarkersWhenThereIsNoProfilerStep)
{
    const auto r = read(Schema + R"(
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000');
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (100, 150, 0, )"
        + n(MainA) + R"(, 1, 1, 0, NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
    text TEXT, globalTid INTEGER);
INSERT INTO NVTX_EVENTS VALUES (100, 200, 59, 'Iteration 1', )"
        + n(MainA) + R"(),
    (200, 300, 59, 'iteration 2', )"
        + n(MainA) + R"(),
    (210, 220, 59, 'Step 2 of backward', )"
        + n(MainA) + R"(),
    (300, 400, 60, 'step_3', )"
        + n(MainA) + R"();
)");
    ASSERT_TRUE(r.ok) << m_text;
    ASSERT_EQ(r.trace.steps.size(), 3u) << m_text;
    EXPECT_EQ(r.trace.steps[0].number, 1);
    EXPECT_EQ(r.trace.steps[1].number, 2);
    EXPECT_EQ(r.trace.steps[1].startNs, 200);
    EXPECT_EQ(r.trace.steps[2].number, 3); // a start/end range counts too
    EXPECT_EQ(r.trace.steps[2].endNs, 400);
    EXPECT_EQ(r.counts.nvtx, 4u);
}

TEST_F(NsysWritten, NcclKernelsAreCommunicationAndMemsetsAreNamed)
{
    const auto r = read(modernExport());
    ASSERT_TRUE(r.ok) << m_text;
    const model::Trace &t = r.trace;
    const model::Track *nccl = lane(t, "Stream 20");
    ASSERT_NE(nccl, nullptr) << m_text;
    ASSERT_EQ(nccl->size(), 1u);
    EXPECT_EQ(nccl->category(0), Category::Communication);
    EXPECT_EQ(name(t, *nccl, 0),
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096>)");
    const model::Track *s7 = nullptr;
    for (const model::Track &track : t.tracks)
        if (track.info().threadName == "Stream 7" && track.info().processId == "GPU 0")
            s7 = &track;
    ASSERT_NE(s7, nullptr);
    ASSERT_EQ(s7->size(), 2u);
    EXPECT_EQ(name(t, *s7, 0), "Memset (Device)");
    EXPECT_EQ(s7->category(0), Category::Memset);
    EXPECT_EQ(s7->category(1), Category::Compute);
    EXPECT_NE(t.args.view(s7->args(1)).find("\"grid\":\"4,1,1\""), std::string_view::npos);
    EXPECT_EQ(r.counts.kernels, 3u);
    EXPECT_EQ(r.counts.memsets, 1u);
    EXPECT_EQ(t.metadata.device, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(t.metadata.deviceId, "0"); // three of the four device rows
    EXPECT_TRUE(said(r, "device work on 2 GPUs")) << m_text;
}

TEST_F(NsysWritten, CorrelationIdsAreScopedByProcess)
{
    const auto r = read(modernExport());
    ASSERT_TRUE(r.ok) << m_text;
    const model::Trace &t = r.trace;
    ASSERT_EQ(t.flows.size(), 4u);
    for (const model::Flow &f : t.flows) {
        const model::Track &from = t.track(f.from.track);
        const model::Track &to = t.track(f.to.track);
        // A's calls lead to GPU 0, B's single call (correlation id 1 too) to GPU 1.
        EXPECT_EQ(from.info().processId == "200", to.info().processId == "GPU 1")
            << from.info().processId << " -> " << to.info().processId;
    }
    const model::Track *api = lane(t, "main (CUDA API)");
    ASSERT_NE(api, nullptr);
    EXPECT_EQ(api->size(), 3u);
    EXPECT_EQ(name(t, *api, 2), "cudaMemsetAsync");
}

TEST_F(NsysWritten, NvtxRangesMarksDomainsAndAsyncRanges)
{
    const auto r = read(modernExport());
    ASSERT_TRUE(r.ok) << m_text;
    const model::Trace &t = r.trace;
    const model::Track *nvtx = lane(t, "main (NVTX)");
    ASSERT_NE(nvtx, nullptr) << m_text;
    // Two steps, forward, the mark, Step 9 and the never-popped range; no domain or
    // category row.
    ASSERT_EQ(nvtx->size(), 6u);
    std::map<std::string, std::uint32_t> at;
    for (std::uint32_t i = 0; i < nvtx->size(); ++i)
        at[name(t, *nvtx, i)] = i;
    ASSERT_EQ(at.count("checkpoint"), 1u);
    EXPECT_EQ(nvtx->duration(at["checkpoint"]), 0);
    EXPECT_EQ(nvtx->category(at["forward"]), Category::Annotation);
    EXPECT_NE(t.args.view(nvtx->args(at["forward"])).find("\"domain\":\"PyTorch\""),
        std::string_view::npos);
    const std::uint32_t open = at["never popped"];
    EXPECT_TRUE(nvtx->isUnfinished(open));
    EXPECT_EQ(nvtx->end(open), 10000); // the latest end read
    EXPECT_TRUE(said(r, "1 ranges never ended")) << m_text;
    const model::Track *async = lane(t, "NVTX (start/end ranges)");
    ASSERT_NE(async, nullptr);
    ASSERT_EQ(async->size(), 1u);
    EXPECT_EQ(async->start(0), 1200);
    EXPECT_EQ(async->end(0), 8000);
    EXPECT_NE(t.args.view(async->args(0)).find("\"end thread\":101"), std::string_view::npos);
    EXPECT_EQ(r.counts.nvtx, 7u);
}

TEST_F(NsysWritten, OlderSchemaWithoutEnumsPidsOrShortNames)
{
    // 2021-era tables: every column NOT NULL, no globalPid or shortName on kernels, NVTX
    // without textId/domainId, no ENUM_* tables (the documented ids apply).
    const auto r = read(R"(
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'),
    (2, 'ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)'),
    (3, 'cudaMemcpyAsync_v3020');
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,
    globalTid INTEGER NOT NULL, correlationId INTEGER NOT NULL, nameId INTEGER NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (10, 20, )"
        + n(MainA) + R"(, 5, 1),
    (30, 40, )"
        + n(MainA) + R"(, 6, 3);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
    correlationId INTEGER NOT NULL, demangledName INTEGER NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (25, 60, 0, 1, 13, 5, 2);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,
    deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
    correlationId INTEGER NOT NULL, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (45, 50, 0, 1, 13, 6, 4096, 1);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER NOT NULL,
    eventType INTEGER NOT NULL, text TEXT, globalTid INTEGER NOT NULL);
INSERT INTO NVTX_EVENTS VALUES (5, 70, 59, 'ProfilerStep#0', )"
        + n(MainA) + R"();
)");
    ASSERT_TRUE(r.ok) << m_text;
    const model::Trace &t = r.trace;
    const model::Track *stream = lane(t, "Stream 13");
    ASSERT_NE(stream, nullptr) << m_text;
    ASSERT_EQ(stream->size(), 2u);
    EXPECT_EQ(stream->category(0), Category::Communication); // by demangledName
    EXPECT_EQ(name(t, *stream, 1), "Memcpy HtoD");
    EXPECT_EQ(t.flows.size(), 2u); // by correlation id alone: one process made every call
    ASSERT_EQ(t.steps.size(), 1u);
    EXPECT_EQ(t.steps[0].number, 0);
    EXPECT_EQ(t.steps[0].endNs, 70);
    EXPECT_EQ(t.originNs, 0);
    EXPECT_TRUE(said(r, "no TARGET_INFO_SESSION_START_TIME")) << m_text;
}

TEST_F(NsysWritten, RankFilesInOneFolderBecomeRanks)
{
    const auto sample = testsupport::sqliteData(
        "nsys_sqlite/pipit-cloverleaf-cuda/perlmutter-cloverleaf-cuda.sqlite");
    for (const char *name : {"report.1.sqlite", "report.0.sqlite"})
        std::filesystem::copy_file(sample, m_tmp / name);
    // Two ranks' exports differ; a byte copy would be read once (NsysSample.ACopyOfAnExport…).
    testsupport::writeDatabase(m_tmp / "report.1.sqlite", "PRAGMA user_version = 1;");
    util::Progress progress;
    const auto s = import::loadPath(m_tmp, progress).session;
    EXPECT_EQ(s->format, "nsys");
    ASSERT_EQ(s->traces.size(), 2u) << s->report.toText();
    EXPECT_EQ(s->traces[0]->rank, 0);
    EXPECT_EQ(s->traces[1]->rank, 1);
    EXPECT_EQ(s->traces[1]->tracks.front().info().rank, 1);
    EXPECT_EQ(s->traces[1]->metadata.sourceFiles.front(), "report.1.sqlite");
}

TEST_F(NsysWritten, SeveralProcessesWithGpuWorkBecomeRanks)
{
    // `nsys profile torchrun ...`: one export, one process per GPU.
    testsupport::writeDatabase(m_tmp / "job.sqlite", modernExport());
    util::Progress progress;
    const auto s = import::loadPath(m_tmp / "job.sqlite", progress).session;
    ASSERT_EQ(s->traces.size(), 2u) << s->report.toText();
    const model::Trace &a = *s->traces[0];
    const model::Trace &b = *s->traces[1];
    EXPECT_EQ(a.rank, 0);
    EXPECT_EQ(b.rank, 1);
    std::uint64_t deviceA = 0;
    for (const model::Track &t : a.tracks) {
        EXPECT_TRUE(t.info().processId == "100" || t.info().processId == "GPU 0")
            << t.info().processId;
        if (t.info().kind == model::TrackKind::DeviceStream)
            deviceA += t.size();
    }
    EXPECT_EQ(deviceA, 3u); // GEMM, NCCL kernel, memset
    EXPECT_EQ(a.flows.size(), 3u);
    EXPECT_EQ(a.steps.size(), 2u); // the NVTX ranges are A's
    EXPECT_EQ(a.metadata.deviceId, "0");
    ASSERT_EQ(b.flows.size(), 1u);
    EXPECT_EQ(b.eventCount(), 2u); // its launch and its GEMM
    EXPECT_EQ(b.metadata.deviceId, "1");
    EXPECT_TRUE(b.steps.empty());
    EXPECT_NE(s->report.toText().find("process 200 (python) is rank 1"), std::string::npos)
        << s->report.toText();
}

TEST_F(NsysWritten, ANumberInsideTheNameIsNoRank)
{
    std::filesystem::copy_file(testsupport::sqliteData("nsys_sqlite/pipit-cloverleaf-cuda/"
                                                       "perlmutter-cloverleaf-cuda.sqlite"),
        m_tmp / "h100x8.sqlite");
    util::Progress progress;
    const auto s = import::loadPath(m_tmp / "h100x8.sqlite", progress).session;
    ASSERT_EQ(s->traces.size(), 1u) << s->report.toText();
    EXPECT_EQ(s->traces[0]->rank, 0);
}

TEST_F(NsysWritten, GpuMemoryUsageBecomesCurvesAndAllocations)
{
    // Documented table, written only with --cuda-memory-usage=true (absent in the sample).
    const auto r = read(Schema + R"(
CREATE TABLE ENUM_CUDA_DEV_MEM_EVENT_OPER (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
INSERT INTO ENUM_CUDA_DEV_MEM_EVENT_OPER VALUES
    (0, 'CUDA_DEV_MEM_EVENT_OPR_ALLOCATION', 'Allocation'),
    (1, 'CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION', 'Deallocation');
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER,
    deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL,
    pc INTEGER NOT NULL, bytes INTEGER NOT NULL, memKind INTEGER NOT NULL,
    memoryOperationType INTEGER NOT NULL, name TEXT, correlationId INTEGER, streamId INTEGER);
INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES
    (300, )"
        + n(PidA) + R"(, 0, 1, 4096, 0, 1000, 2, 1, NULL, NULL, NULL),
    (100, )"
        + n(PidA) + R"(, 0, 1, 8192, 0, 1000, 2, 0, NULL, 7, NULL),
    (200, )"
        + n(PidA) + R"(, 0, 1, 16384, 0, 500, 2, 0, NULL, 8, NULL),
    (400, )"
        + n(PidA) + R"(, 0, 1, 8192, 0, 1000, 2, 1, NULL, NULL, NULL),
    (150, )"
        + n(PidA) + R"(, 1, 2, 8192, 0, 64, 2, 0, NULL, 9, NULL),
    (50, )"
        + n(PidA) + R"(, 0, 1, 65536, 0, 32, 2, 1, NULL, NULL, NULL);
)");
    ASSERT_TRUE(r.ok) << m_text; // memory alone is content
    const model::MemoryData &m = r.trace.memory;
    ASSERT_EQ(m.curves.size(), 2u);
    EXPECT_EQ(m.curves[0].component, "CUDA");
    EXPECT_EQ(m.curves[0].device, "cuda:0");
    // In time order: +1000 (100), +500 (200), the free at 300 of an unknown block and the
    // one at 50 are ignored, -1000 (400).
    EXPECT_EQ(m.curves[0].timestampsNs, (std::vector<std::int64_t> {100, 200, 400}));
    EXPECT_EQ(m.curves[0].allocatedBytes, (std::vector<std::int64_t> {1000, 1500, 500}));
    EXPECT_EQ(m.curves[1].device, "cuda:1");
    EXPECT_EQ(m.curves[1].allocatedBytes, (std::vector<std::int64_t> {64}));
    ASSERT_EQ(m.allocations.size(), 3u);
    EXPECT_EQ(m.allocations[0].sizeBytes, 1000);
    EXPECT_EQ(m.allocations[0].allocatedNs, 100);
    EXPECT_EQ(m.allocations[0].releasedNs, 400);
    EXPECT_EQ(m.allocations[1].releasedNs, -1); // still alive
    EXPECT_TRUE(said(r, "2 frees of blocks allocated before the capture")) << m_text;
}

TEST_F(NsysWritten, GpuMemoryTotalsSaturateAtTheInt64Limit)
{
    // Two blocks of INT64_MAX bytes (a damaged `bytes` column): the running total is held at
    // INT64_MAX instead of overflowing; freeing one takes its size off the held total.
    const std::string max = n(std::numeric_limits<std::int64_t>::max());
    const auto r = read(Schema + R"(
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER,
    deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL,
    pc INTEGER NOT NULL, bytes INTEGER NOT NULL, memKind INTEGER NOT NULL,
    memoryOperationType INTEGER NOT NULL, name TEXT, correlationId INTEGER, streamId INTEGER);
INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES
    (100, )"
        + n(PidA) + ", 0, 1, 4096, 0, " + max + R"(, 2, 0, NULL, NULL, NULL),
    (200, )"
        + n(PidA) + ", 0, 1, 8192, 0, " + max + R"(, 2, 0, NULL, NULL, NULL),
    (300, )"
        + n(PidA) + R"(, 0, 1, 4096, 0, 0, 2, 1, NULL, NULL, NULL);
)");
    ASSERT_TRUE(r.ok) << m_text;
    const model::MemoryData &m = r.trace.memory;
    ASSERT_EQ(m.curves.size(), 1u);
    EXPECT_EQ(m.curves[0].timestampsNs, (std::vector<std::int64_t> {100, 200, 300}));
    const std::int64_t top = std::numeric_limits<std::int64_t>::max();
    EXPECT_EQ(m.curves[0].allocatedBytes, (std::vector<std::int64_t> {top, top, 0}));
    ASSERT_EQ(m.allocations.size(), 2u);
    EXPECT_EQ(m.allocations[0].sizeBytes, top);
    EXPECT_EQ(m.allocations[0].releasedNs, 300);
}

TEST(NsysNames, StepMarkersAndVersionSuffixes)
{
    using import::nsys::stepMarker;
    using import::nsys::stripVersionSuffix;
    ASSERT_TRUE(stepMarker("ProfilerStep#12"));
    EXPECT_EQ(stepMarker("ProfilerStep#12")->number, 12);
    EXPECT_TRUE(stepMarker("ProfilerStep#12")->profilerStep);
    EXPECT_FALSE(stepMarker("ProfilerStep#"));
    EXPECT_FALSE(stepMarker("ProfilerStep#1a"));
    ASSERT_TRUE(stepMarker("Step 7"));
    EXPECT_FALSE(stepMarker("Step 7")->profilerStep);
    EXPECT_EQ(stepMarker("iter_5")->number, 5);
    EXPECT_EQ(stepMarker("STEP=3")->number, 3);
    EXPECT_FALSE(stepMarker("train_step"));
    EXPECT_FALSE(stepMarker("Step 2 of backward"));
    EXPECT_FALSE(stepMarker("stepper 4"));
    EXPECT_EQ(stripVersionSuffix("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
    EXPECT_EQ(stripVersionSuffix("cuModuleGetLoadingMode"), "cuModuleGetLoadingMode");
    EXPECT_EQ(stripVersionSuffix("my_var_vx"), "my_var_vx");
    EXPECT_EQ(stripVersionSuffix("_v2"), "_v2");
}

} // namespace
