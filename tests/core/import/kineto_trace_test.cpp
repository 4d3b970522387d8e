// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Golden counts on every real Kineto sample, checked by hand with python3 (json + gzip):
// events per phase in the file vs events in the model, tracks by kind, steps, flows, memory.
#include "chrometrace_testutil.h"
#include "import/kineto/kinetotrace.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

using namespace stepscope;
using model::TrackKind;
using stepscope::testsupport::byKind;
using stepscope::testsupport::dataPath;
using stepscope::testsupport::load;

namespace {

testsupport::Loaded loadKineto(const std::string &rel, unsigned threads = 0)
{
    return load(import::kineto::readTrace, dataPath("kineto/" + rel), threads);
}

std::vector<std::int64_t> stepNumbers(const model::Trace &trace)
{
    std::vector<std::int64_t> n;
    for (const model::Step &s : trace.steps)
        n.push_back(s.number);
    return n;
}

struct Golden
{
    const char *file;
    std::uint64_t host, hostEvents, device, deviceEvents, synthetic, syntheticEvents;
    std::vector<std::int64_t> steps;
    std::uint64_t flows; // python3: s/t/f bound per §8a and linked in time order
};

const model::MemoryCurve *curve(const model::Trace &trace, const std::string &device)
{
    for (const model::MemoryCurve &c : trace.memory.curves) {
        if (c.device == device)
            return &c;
    }
    return nullptr;
}

} // namespace

TEST(KinetoTrace, GoldenCountsOnEverySample)
{
    // python3: X + i events per (pid, tid) lane; kind from process_labels "GPU n" / tid
    // "stream..." (device), pid "Spans"/"Traces"/"" or scope "g" (synthetic), else host.
    const std::vector<Golden> golden = {
        {"hta-ddp-2rank-rank1-memory/df_index_resolver.json.gz", 2, 129098, 2, 22290, 2, 3,
            {2, 3, 4, 5, 6}, 22290},
        {"hta-ddp-a100-world2-nccl/nccl_data.json.gz", 3, 23128, 2, 3804, 2, 3, {4, 5, 6}, 4317},
        {"hta-mi250-minitoy-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 2, 94, 1, 18, 2, 3,
            {1, 2}, 20},
        {"hta-sampled-2of128-ranks/sampled_rank-0.json.gz", 2, 3606, 5, 1204, 1, 1, {551, 552}, 0},
        {"hta-sampled-2of128-ranks/sampled_rank-1.json.gz", 2, 3521, 5, 1154, 1, 1, {551, 552}, 0},
        {"kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0/"
         "worker0.1623143089861.pt.trace.json.gz",
            2, 48407, 1, 9096, 2, 3, {5, 6, 7, 8, 9, 10}, 9096},
        {"kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0/"
         "worker0.1623143566756.pt.trace.json.gz",
            2, 48407, 1, 9096, 2, 3, {16, 17, 18, 19, 20, 21}, 9096},
        {"kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_4/"
         "worker0.1623212756351.pt.trace.json.gz",
            2, 43627, 1, 9258, 2, 3, {5, 6, 7, 8, 9, 10}, 9258},
        {"kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_4/"
         "worker0.1623213129365.pt.trace.json.gz",
            2, 43627, 1, 9258, 2, 3, {16, 17, 18, 19, 20, 21}, 9258},
        {"tracelens-mi300-resnet-actckpt-rank0of8/resnet_act_checkpoint.json.gz", 2, 45533, 2, 3674,
            2, 3, {15, 16, 17}, 2817},
    };
    for (const Golden &g : golden) {
        SCOPED_TRACE(g.file);
        auto r = loadKineto(g.file);
        ASSERT_TRUE(r.ok) << r.report.toText();
        EXPECT_EQ(r.trace.checkInvariants(), "");
        EXPECT_EQ(r.report.count(model::Severity::Error), 0u) << r.report.toText();
        const auto kinds = byKind(r.trace);
        const auto &host = kinds[static_cast<int>(TrackKind::HostThread)];
        const auto &device = kinds[static_cast<int>(TrackKind::DeviceStream)];
        const auto &synthetic = kinds[static_cast<int>(TrackKind::Synthetic)];
        EXPECT_EQ(host.tracks, g.host);
        EXPECT_EQ(host.events, g.hostEvents);
        EXPECT_EQ(device.tracks, g.device);
        EXPECT_EQ(device.events, g.deviceEvents);
        EXPECT_EQ(synthetic.tracks, g.synthetic);
        EXPECT_EQ(synthetic.events, g.syntheticEvents);
        EXPECT_EQ(r.trace.eventCount(), g.hostEvents + g.deviceEvents + g.syntheticEvents);
        EXPECT_EQ(stepNumbers(r.trace), g.steps);
        EXPECT_EQ(r.trace.flows.size(), g.flows);
        EXPECT_EQ(r.trace.metadata.format, "kineto");
    }
}

TEST(KinetoTrace, RankDeviceAndExactTimesFromTopLevel)
{
    // baseTimeNanoseconds 1711964646000000000 + ts 4458676416788.066 us; dur 222442.191 us.
    auto r = loadKineto("hta-ddp-a100-world2-nccl/nccl_data.json.gz");
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.trace.rank, 0);
    EXPECT_EQ(r.trace.metadata.worldSize, 2);
    EXPECT_EQ(r.trace.metadata.device, "NVIDIA A100-PG509-200");
    ASSERT_EQ(r.trace.steps.size(), 3u);
    EXPECT_EQ(r.trace.originNs + r.trace.steps[0].startNs, 1716423322416788066);
    EXPECT_EQ(r.trace.steps[0].durationNs(), 222442191);
    for (const model::Track &t : r.trace.tracks)
        EXPECT_EQ(t.info().rank, 0);

    auto r1 = loadKineto("hta-ddp-2rank-rank1-memory/df_index_resolver.json.gz");
    EXPECT_EQ(r1.trace.rank, 1);
    for (const model::Track &t : r1.trace.tracks)
        EXPECT_EQ(t.info().rank, 1);
    EXPECT_EQ(r1.trace.metadata.device, "Tesla V100-SXM2-32GB");
    // No baseTimeNanoseconds: ts is epoch us (ProfilerStep#2 at 1669783687384669 us).
    EXPECT_EQ(r1.trace.originNs + r1.trace.steps[0].startNs, 1669783687384669000);
}

TEST(KinetoTrace, MemoryInstantsBecomeCurvesPerDevice)
{
    // python3: 28010 [memory] events, 26770 on cuda:1 (peak Total Allocated 6629508096, last
    // 4096614400) and 1240 on the CPU.
    auto r = loadKineto("hta-ddp-2rank-rank1-memory/df_index_resolver.json.gz");
    const model::MemoryCurve *gpu = curve(r.trace, "cuda:1");
    const model::MemoryCurve *cpu = curve(r.trace, "cpu");
    ASSERT_NE(gpu, nullptr);
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(gpu->timestampsNs.size(), 26770u);
    EXPECT_EQ(cpu->timestampsNs.size(), 1240u);
    EXPECT_EQ(
        *std::max_element(gpu->allocatedBytes.begin(), gpu->allocatedBytes.end()), 6629508096);
    EXPECT_EQ(gpu->allocatedBytes.back(), 4096614400);
    EXPECT_EQ(gpu->reservedBytes.size(), gpu->timestampsNs.size());
    EXPECT_TRUE(std::is_sorted(gpu->timestampsNs.begin(), gpu->timestampsNs.end()));
}

TEST(KinetoIds, ArgIdsAndMemoryInstantsBecomeModelFields)
{
    // tests/tools/check_kineto_ids.py: 123378 events carry an integer correlation or External
    // id; 28010 [memory] instants on host threads have Bytes and Addr, 26770 of them device
    // memory (Device Type 1), which alone become allocator events. The analysis reads these
    // fields, never the args text.
    auto r = loadKineto("hta-ddp-2rank-rank1-memory/df_index_resolver.json.gz");
    EXPECT_EQ(r.trace.eventIds.size(), 123378u);
    EXPECT_EQ(r.trace.checkInvariants(), "");
    const auto &alloc = r.trace.memory.allocatorEvents;
    EXPECT_EQ(alloc.size(), 26770u);
    // Every id points at its own event: a kernel's correlation is in its args.
    std::uint64_t checked = 0;
    const std::vector<std::string> allArgs = r.trace.args.readAll(); // in file order, once
    std::uint64_t visited = 0;
    r.trace.eventIds.forEach([&](const model::EventIds &ids) {
        ++visited;
        const model::Track &track = r.trace.track(ids.event.track);
        if (ids.correlation < 0 || track.info().kind != TrackKind::DeviceStream)
            return;
        const std::string &args = allArgs.at(track.args(ids.event.index).value());
        EXPECT_NE(
            args.find("\"correlation\":" + std::to_string(ids.correlation)), std::string_view::npos)
            << args;
        ++checked;
    });
    EXPECT_EQ(visited, 123378u);
    EXPECT_GT(checked, 0u);
    // Without kept args there is nothing to read the ids from; [memory] args are always read.
    auto bare = load(import::kineto::readTrace,
        dataPath("kineto/hta-ddp-2rank-rank1-memory/df_index_resolver.json.gz"), 0, false);
    EXPECT_TRUE(bare.trace.eventIds.empty());
    EXPECT_EQ(bare.trace.memory.allocatorEvents.size(), 26770u);
}

TEST(KinetoTrace, MemoryTotalsRebuiltWhenTheFileHasNone)
{
    // 2021 file: only `Bytes`. python3 running sums: cuda:0 8220 events, peak 2791636480,
    // last 0; cpu 4618 events, peak 57803264, last 19267840.
    auto r = loadKineto("kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0/"
                        "worker0.1623143089861.pt.trace.json.gz");
    const model::MemoryCurve *gpu = curve(r.trace, "cuda:0");
    const model::MemoryCurve *cpu = curve(r.trace, "cpu");
    ASSERT_NE(gpu, nullptr);
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(gpu->timestampsNs.size(), 8220u);
    EXPECT_EQ(
        *std::max_element(gpu->allocatedBytes.begin(), gpu->allocatedBytes.end()), 2791636480);
    EXPECT_EQ(gpu->allocatedBytes.back(), 0);
    EXPECT_EQ(cpu->timestampsNs.size(), 4618u);
    EXPECT_EQ(*std::max_element(cpu->allocatedBytes.begin(), cpu->allocatedBytes.end()), 57803264);
    EXPECT_EQ(cpu->allocatedBytes.back(), 19267840);
    EXPECT_TRUE(gpu->reservedBytes.empty());
}

TEST(KinetoTrace, CategoriesFollowTheDocumentedMapping)
{
    // python3 on nccl_data: 2700 kernels of which 21 start with "nccl"; 960 gpu_memcpy;
    // 8740 cuda_runtime; 14346 cpu_op.
    auto r = loadKineto("hta-ddp-a100-world2-nccl/nccl_data.json.gz");
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Communication), 21u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Compute), 2700u - 21u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Memcpy), 960u);
    EXPECT_EQ(testsupport::categoryCount(r.trace, model::Category::Runtime), 8740u);
}

TEST(KinetoTrace, ParallelResultEqualsSingleThread)
{
    const std::string file = "hta-ddp-2rank-rank1-memory/df_index_resolver.json.gz";
    auto one = loadKineto(file, 1);
    auto two = loadKineto(file, 2);
    auto four = loadKineto(file, 4);
    const std::string dump = testsupport::dumpEvents(one.trace);
    EXPECT_GT(dump.size(), 1000000u);
    EXPECT_EQ(dump, testsupport::dumpEvents(two.trace));
    EXPECT_EQ(dump, testsupport::dumpEvents(four.trace));
}

namespace {

class KinetoMemoryArgs : public testsupport::TempDirTest
{
};

/// A Kineto file's memory as the model holds it, every field, and the diagnostics.
std::string memoryOf(const std::filesystem::path &file, bool keepArgs, bool onDemand)
{
    model::LoadReport report;
    util::Progress progress;
    import::ImportContext ctx;
    ctx.root = file.parent_path();
    ctx.report = &report;
    ctx.progress = &progress;
    ctx.options.keepArgs = keepArgs;
    ctx.options.argsOnDemand = onDemand;
    model::TraceBuilder builder;
    EXPECT_TRUE(import::kineto::readTrace(file, ctx, builder)) << report.toText();
    const model::Trace trace = builder.finish().trace;
    std::ostringstream out;
    for (const model::MemoryCurve &c : trace.memory.curves) {
        out << "curve " << c.component << ' ' << c.device << ' ' << c.timestampsNs.size() << ' '
            << c.reservedBytes.size() << '\n';
        for (std::size_t i = 0; i < c.timestampsNs.size(); ++i)
            out << c.timestampsNs[i] << ' ' << c.allocatedBytes[i] << ' '
                << (i < c.reservedBytes.size() ? c.reservedBytes[i] : -2) << '\n';
    }
    for (const model::AllocatorEvent &a : trace.memory.allocatorEvents)
        out << "alloc " << a.event.track.value() << ':' << a.event.index << ' '
            << trace.track(a.event.track).start(a.event.index) << ' ' << a.addr << ' ' << a.bytes
            << '\n';
    for (const model::Diagnostic &d : report.diagnostics())
        out << "diagnostic " << d.offset << ' ' << d.count << ' ' << d.message << '\n';
    return out.str();
}

} // namespace

TEST_F(KinetoMemoryArgs, StagedOrShownTheMemoryInstantsReadTheSame)
{
    // With args on demand (or not kept) a [memory] instant stages six numbers instead of its
    // args JSON (KinetoDialect::stageArgs, 1 GB trace: peak RSS 785 -> 705 MB); shown args
    // keep the JSON. Both must give the same curves, allocator events and diagnostics,
    // whatever field is missing, negative, huge or not a number.
    std::string text = R"({"schemaVersion":1,"traceEvents":[)";
    const std::vector<std::string> args = {
        R"("Device Type":1,"Device Id":0,"Addr":140737488355328,"Bytes":512,"Total Allocated":1024,"Total Reserved":2097152)",
        R"("Device Type":1,"Device Id":0,"Addr":140737488355328,"Bytes":-512,"Total Allocated":512,"Total Reserved":2097152)",
        R"("Device Type":0,"Addr":7,"Bytes":64)", // CPU, no totals: rebuilt from Bytes
        R"("Device Type":1,"Device Id":3,"Bytes":9223372036854775807)", // no Addr: curve only
        R"("Device Id":2,"Addr":-9223372036854775808,"Bytes":1,"Total Reserved":"big")",
        R"("Device Type":1,"Device Id":0,"Addr":5)", // no Bytes: counted as bad
        R"("Bytes":"12","Device Type":1,"Device Id":0,"Addr":1.5,"Total Allocated":1e3)",
        R"("Total Allocated":7,"Bytes":8,"Device Type":1,"Device Id":0,"Addr":9,"x":[1,{"Bytes":2}])",
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        text += R"({"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,"tid":1,)"
                R"("ts":)"
            + std::to_string(100 + i) + R"(,"args":{)" + args[i] + "}},";
    }
    text += R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":100,"dur":50}]})";
    const std::filesystem::path made = m_tmp / "mem.pt.trace.json";
    testsupport::writeFile(made, text);
    for (const std::filesystem::path &file :
        {made, dataPath("kineto/hta-ddp-2rank-rank1-memory/df_index_resolver.json.gz"),
            dataPath("kineto/kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0/"
                     "worker0.1623143089861.pt.trace.json.gz")}) {
        SCOPED_TRACE(file.filename().string());
        const std::string shown = memoryOf(file, true, false);
        EXPECT_NE(shown.find("curve "), std::string::npos);
        EXPECT_EQ(memoryOf(file, true, true), shown);
        EXPECT_EQ(memoryOf(file, false, false), shown);
    }
    // By hand: the op sorts first (index 0); "12" is read as 12 and 1e3 as no total, so the
    // cuda:0 curve adds 12 to 512; INT64_MAX bytes and a missing `Bytes` are both refused.
    const std::string made1 = memoryOf(made, true, true);
    // Device memory alone becomes allocator events: not the CPU block at 7.
    EXPECT_NE(made1.find("alloc 0:1 0 140737488355328 512\n"), std::string::npos) << made1;
    EXPECT_EQ(made1.find("alloc 0:3 "), std::string::npos) << made1;
    EXPECT_NE(
        made1.find("curve PyTorch cuda:0 4 4\n0 1024 2097152\n1000 512 2097152\n6000 524 -1\n"),
        std::string::npos)
        << made1;
    EXPECT_NE(made1.find("2 [memory] events without an integer `Bytes` ignored"), std::string::npos)
        << made1;
}

namespace {

std::string gunzip(const std::filesystem::path &path)
{
    gzFile f = gzopen(path.string().c_str(), "rb");
    std::string out;
    char buffer[1 << 16];
    int n = 0;
    while (f && (n = gzread(f, buffer, sizeof buffer)) > 0)
        out.append(buffer, static_cast<std::size_t>(n));
    if (f)
        gzclose(f);
    return out;
}

class KinetoWritten : public testsupport::TempDirTest
{
};

} // namespace

/// Kineto writes its metadata (process_name, process_labels "GPU n", thread_name "stream n")
/// after every event, so a file cut short has none: its kernel lanes are still GPU streams,
/// with the same events as in the whole file, and the load says why.
TEST_F(KinetoWritten, AFileCutBeforeItsMetadataKeepsItsGpuStreams)
{
    for (const std::string rel : {"hta-ddp-a100-world2-nccl/nccl_data.json.gz",
             "hta-mi250-minitoy-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz"}) {
        SCOPED_TRACE(rel);
        const std::string text = gunzip(dataPath("kineto/" + rel));
        const std::size_t meta = text.rfind('{', text.find("\"process_name\""));
        ASSERT_NE(meta, std::string::npos);
        ASSERT_EQ(text.find("\"process_labels\""), text.find("\"process_labels\"", meta));
        const auto whole = loadKineto(rel);
        const auto cut = load(import::kineto::readTrace, write("cut.json", text.substr(0, meta)));
        ASSERT_TRUE(cut.ok) << cut.report.toText();
        const auto device = [](const testsupport::Loaded &r) {
            return byKind(r.trace)[static_cast<int>(TrackKind::DeviceStream)];
        };
        EXPECT_GT(device(whole).events, 0u);
        EXPECT_EQ(device(cut).tracks, device(whole).tracks);
        EXPECT_EQ(device(cut).events, device(whole).events);
        EXPECT_TRUE(testsupport::said(cut.report, "without `process_labels`"))
            << cut.report.toText();
        EXPECT_FALSE(testsupport::said(whole.report, "without `process_labels`"));
    }
}

/// A trailing comma in a top-level value is read as inside the events (docs/formats.md §8a),
/// not the whole key dropped: the device (for MFU) and the rank stay, with a warning.
TEST_F(KinetoWritten, TrailingCommasInTheTopLevelKeysAreReadLeniently)
{
    const auto file = write("t.json",
        R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", )"
        R"("totalGlobalMem": 85899345920,},], "distributedInfo": {"backend": "nccl", "rank": 1, )"
        R"("world_size": 2,}, "traceEvents": [{"ph": "X", "cat": "kernel", "name": "gemm", )"
        R"("pid": 0, "tid": 7, "ts": 10, "dur": 5}]})");
    const auto r = load(import::kineto::readTrace, file);
    ASSERT_TRUE(r.ok) << r.report.toText();
    EXPECT_EQ(r.trace.metadata.device, "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(r.trace.rank, 1);
    EXPECT_EQ(r.trace.metadata.worldSize, 2);
    EXPECT_TRUE(testsupport::said(r.report, "top-level key \"deviceProperties\": trailing comma"))
        << r.report.toText();
    EXPECT_FALSE(testsupport::said(r.report, "ignored")) << r.report.toText();
}

/// A device stream runs one task at a time: a kernel written twice (a trace concatenated with
/// itself) is kept, as Perfetto keeps it, but said, since it counts twice in every total.
/// Two kernels of one start and duration but other names are not repeats.
TEST_F(KinetoWritten, ARepeatedKernelIsSaid)
{
    const std::string gemm =
        R"({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 10, "dur": 5})";
    const std::string other =
        R"({"ph": "X", "cat": "kernel", "name": "relu", "pid": 0, "tid": 7, "ts": 10, "dur": 5})";
    const auto repeated = load(import::kineto::readTrace,
        write("twice.json", "{\"traceEvents\": [" + gemm + "," + other + "," + gemm + "]}"));
    ASSERT_TRUE(repeated.ok) << repeated.report.toText();
    EXPECT_EQ(repeated.trace.eventCount(), 3u);
    EXPECT_TRUE(testsupport::said(repeated.report,
        "1 event of a device stream repeats an earlier one exactly (name, start, duration)"))
        << repeated.report.toText();
    const auto once = load(import::kineto::readTrace,
        write("once.json", "{\"traceEvents\": [" + gemm + "," + other + "]}"));
    ASSERT_TRUE(once.ok);
    EXPECT_FALSE(testsupport::said(once.report, "repeats")) << once.report.toText();
}
