// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/communication.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

using namespace stepscope;

namespace {

/// A trace of one device stream, for the timeline's communication table.
struct OneStream
{
    model::TraceBuilder b;
    model::TrackId stream = b.addTrack([] {
        model::TrackInfo info;
        info.kind = model::TrackKind::DeviceStream;
        return info;
    }());

    void add(std::int64_t start, std::int64_t dur, const char *name, model::Category category,
        const std::string &args = {})
    {
        b.track(stream).add(start, dur, b.intern(name), category,
            args.empty() ? model::ArgsId {} : b.trace().args.add(args));
    }
    std::vector<analysis::CollectiveRow> table()
    {
        model::Session s;
        s.traces.push_back(std::make_shared<model::Trace>(b.finish().trace));
        return analysis::collectiveTable(s);
    }
};

} // namespace

TEST(Communication, CollectiveTableFromTheProfilerSummaries)
{
    auto t = std::make_shared<model::Trace>();
    auto stat = [](std::string name, double elapse, double transit, double wait, double mb) {
        model::CollectiveStat s;
        s.name = std::move(name);
        s.group = "11022204950826225271";
        s.elapseMs = elapse;
        s.transitMs = transit;
        s.waitMs = wait;
        s.links.push_back(model::LinkTraffic {"HCCS", mb, transit, -1});
        return s;
    };
    t->collectives.push_back(stat("hcom_allReduce__271_0_1", 86.47, 1.82, 2.56, 28.65));
    t->collectives.push_back(stat("hcom_allReduce__271_1_1", 10.0, 0.18, 1.0, 1.35));
    t->collectives.push_back(stat("hcom_broadcast__271_2_1", 1.0, 0.5, 0.1, 1.0));
    t->collectives.push_back(stat("Total Op Info", 97.47, 2.5, 3.66, 31.0));
    t->collectivesSource = "communication.json"; // as the reader names it
    model::Session s;
    s.traces.push_back(t);
    const auto rows = analysis::collectiveTable(s);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "allReduce");
    EXPECT_EQ(rows[0].count, 2);
    EXPECT_DOUBLE_EQ(rows[0].totalUs, 96470);
    EXPECT_DOUBLE_EQ(rows[0].meanUs, 48235);
    EXPECT_DOUBLE_EQ(*rows[0].waitUs, 3560);
    EXPECT_DOUBLE_EQ(*rows[0].transitUs, 2000);
    EXPECT_DOUBLE_EQ(*rows[0].bytes, 30e6);
    EXPECT_DOUBLE_EQ(*rows[0].bandwidthGBps, 15); // 30 MB in 2 ms
    EXPECT_EQ(rows[0].source, "communication.json");
    EXPECT_EQ(rows[1].name, "broadcast");
}

/// MindInsight's per-rank summaries are hccl_raw_<rank>.csv: the table names that file, and
/// its transfer time gives the wait share (was "transit 0", wait share 100 %).
/// msprof's SDMA block is the sum of HCCS, PCIE and SIO (and of what no part names): with an
/// SDMA block its parts are not added again; RDMA, and the parts of an op without SDMA, are.
TEST(Communication, SdmaHoldsTheOnChipLinksWhichCountOnce)
{
    auto t = std::make_shared<model::Trace>();
    model::CollectiveStat withSdma;
    withSdma.name = "hcom_allReduce__271_0_1";
    withSdma.elapseMs = 10;
    withSdma.links = {{"HCCS", 6, 1, -1}, {"PCIE", 1, 0.5, -1}, {"SIO", 1, 0.5, -1},
        {"SDMA", 9, 2, -1}, {"RDMA", 4, 1, -1}};
    model::CollectiveStat withoutSdma = withSdma;
    withoutSdma.name = "hcom_broadcast__271_1_1";
    withoutSdma.links = {{"HCCS", 6, 1, -1}, {"PCIE", 1, 0.5, -1}};
    t->collectives = {withSdma, withoutSdma};
    model::Session s;
    s.traces.push_back(t);
    const auto rows = analysis::collectiveTable(s);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "allReduce");
    EXPECT_DOUBLE_EQ(*rows[0].bytes, 13e6); // SDMA 9 + RDMA 4
    EXPECT_DOUBLE_EQ(*rows[0].bandwidthGBps, 13.0 / 3.0); // MB per ms of SDMA + RDMA time
    EXPECT_EQ(rows[1].name, "broadcast");
    EXPECT_DOUBLE_EQ(*rows[1].bytes, 7e6);
}

TEST(Communication, CollectiveTableFromTheTimelineWithoutSummaries)
{
    model::TraceBuilder b;
    model::TrackInfo info;
    info.kind = model::TrackKind::DeviceStream;
    const auto stream = b.addTrack(info);
    b.track(stream).add(0, 3000, b.intern("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"),
        model::Category::Communication);
    b.track(stream).add(5000, 1000,
        b.intern("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)"),
        model::Category::Communication,
        b.trace().args.add(R"({"Collective name":"_allgather_base","Process Group Name":"0"})"));
    b.track(stream).add(9000, 1000, b.intern("gemm"), model::Category::Compute);
    model::Session s;
    s.traces.push_back(std::make_shared<model::Trace>(b.finish().trace));
    const auto rows = analysis::collectiveTable(s);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "AllReduce");
    EXPECT_DOUBLE_EQ(rows[0].totalUs, 3);
    EXPECT_EQ(rows[1].name, "_allgather_base");
    EXPECT_EQ(rows[1].group, "0");
    EXPECT_EQ(rows[1].source, "timeline");
    EXPECT_FALSE(rows[1].bytes.has_value());
}

/// Kineto's NCCL kernels since 2024 give their message: `In/Out msg nelems` and `dtype`. The
/// row's bytes are the messages summed (the larger of in and out: an all-gather's output),
/// its bandwidth those bytes over the kernels' time; a row with a kernel that gives no size
/// has neither (a part would read as the whole).
TEST(Communication, NcclKernelsGiveTheirMessageSize)
{
    OneStream t;
    const auto add = [&t](std::int64_t start, std::int64_t dur, const char *args) {
        t.add(start, dur, "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)",
            model::Category::Communication, args);
    };
    // 1 000 floats all-reduced in 2 us, 500 bf16 in 1 us: 5 000 bytes in 3 us.
    add(0, 2000,
        R"({"Collective name":"allreduce","In msg nelems":1000,"Out msg nelems":1000,)"
        R"("Group size":8,"dtype":"Float","Process Group Name":"0"})");
    add(3000, 1000,
        R"({"Collective name":"allreduce","In msg nelems": 500,"Out msg nelems":500,)"
        R"("dtype":"BFloat16","Process Group Name":"0"})");
    // An all-gather of 8 ranks: 100 halves in, 800 out.
    add(5000, 400,
        R"({"Collective name":"_allgather_base","In msg nelems":100,"Out msg nelems":800,)"
        R"("dtype":"Half","Process Group Name":"0"})");
    // A broadcast whose second kernel names a type we do not know: no bytes for the row.
    add(6000, 100,
        R"({"Collective name":"broadcast","In msg nelems":10,"Out msg nelems":10,)"
        R"("dtype":"Long","Process Group Name":"0"})");
    add(7000, 100,
        R"({"Collective name":"broadcast","In msg nelems":10,"Out msg nelems":10,)"
        R"("dtype":"Quaternion","Process Group Name":"0"})");
    const auto rows = t.table();
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].name, "allreduce");
    ASSERT_TRUE(rows[0].bytes && rows[0].bandwidthGBps);
    EXPECT_DOUBLE_EQ(*rows[0].bytes, 5000);
    EXPECT_DOUBLE_EQ(*rows[0].bandwidthGBps, 5000.0 / 3000.0); // bytes per ns = GB/s
    // The second kernel does not name its group's size: no bus bandwidth.
    EXPECT_FALSE(rows[0].busBandwidthGBps);
    EXPECT_EQ(rows[1].name, "_allgather_base");
    ASSERT_TRUE(rows[1].bytes);
    EXPECT_DOUBLE_EQ(*rows[1].bytes, 1600);
    // Not in a group of known size either.
    EXPECT_FALSE(rows[1].busBandwidthGBps);
    EXPECT_EQ(rows[2].name, "broadcast");
    EXPECT_FALSE(rows[2].bytes);
    EXPECT_FALSE(rows[2].bandwidthGBps);
    for (const auto &r : rows)
        EXPECT_FALSE(r.p2p) << r.name;
}

/// nccl-tests' bus bandwidth: the bandwidth times 2(n-1)/n for an all-reduce, (n-1)/n for an
/// all-gather, reduce-scatter and all-to-all, 1 for the others.
TEST(Communication, BusBandwidthScalesByTheCollectiveAndItsGroup)
{
    OneStream t;
    std::int64_t at = 0;
    // 1 000 bytes in 1 us each: 1 GB/s of bandwidth.
    for (const char *collective :
        {"allreduce", "_allgather_base", "_reduce_scatter_base", "all_to_all", "broadcast"}) {
        t.add(at, 1000, "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)",
            model::Category::Communication,
            std::string(R"({"Collective name":")") + collective
                + R"(","In msg nelems":1000,"Out msg nelems":1000,"Group size":8,"dtype":"Byte"})");
        at += 2000;
    }
    std::map<std::string, double> bus;
    for (const auto &r : t.table()) {
        ASSERT_TRUE(r.bandwidthGBps && r.busBandwidthGBps) << r.name;
        EXPECT_DOUBLE_EQ(*r.bandwidthGBps, 1.0) << r.name;
        bus[r.name] = *r.busBandwidthGBps;
    }
    EXPECT_DOUBLE_EQ(bus["allreduce"], 1.75);
    EXPECT_DOUBLE_EQ(bus["_allgather_base"], 0.875);
    EXPECT_DOUBLE_EQ(bus["_reduce_scatter_base"], 0.875);
    EXPECT_DOUBLE_EQ(bus["all_to_all"], 0.875);
    EXPECT_DOUBLE_EQ(bus["broadcast"], 1.0);
}

/// Send and receive kernels are point-to-point (the 2022 hta-sampled ranks' only NCCL
/// kernels, ncclKernel_SendRecv_…, were listed as a collective); HCCL's timeline ops too.
TEST(Communication, SendAndReceiveAreP2p)
{
    OneStream t;
    std::int64_t at = 0;
    for (const char *name : {"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)",
             "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"}) {
        t.add(at, 100, name, model::Category::Communication);
        at += 200;
    }
    for (const char *collective : {"send", "recv"}) {
        t.add(at, 100, "ncclDevKernel_Generic(ncclDevKernelArgsStorage)",
            model::Category::Communication,
            std::string(R"({"Collective name":")") + collective + "\"}");
        at += 200;
    }
    std::map<std::string, bool> p2p;
    for (const auto &r : t.table())
        p2p[r.name] = r.p2p;
    EXPECT_EQ(p2p,
        (std::map<std::string, bool> {
            {"AllReduce", false}, {"SendRecv", true}, {"recv", true}, {"send", true}}));
}

/// HCCL's timeline (CANN msprof_*.json, torch_npu level 1-2): the ops on a group lane, their
/// tasks on `Plane N` lanes. The table lists the ops once, not their tasks beside them
/// (mindinsight-profiler-dir-with-PROF-2dev listed 2 800 Notify_Wait beside 20 AllReduce).
TEST(Communication, TasksOnHcclPlaneLanesAreNotOps)
{
    model::TraceBuilder b;
    model::TrackInfo info;
    info.kind = model::TrackKind::CommunicationGroup;
    info.processName = "HCCL";
    info.threadName = "Communication Kernel";
    const auto ops = b.addTrack(info);
    info.threadId = "0";
    info.threadName = "Plane 0";
    const auto plane = b.addTrack(info);
    b.track(ops).add(
        0, 9000, b.intern("Default/AllReduce-op534_0"), model::Category::Communication);
    b.track(plane).add(100, 2000, b.intern("Notify_Wait"), model::Category::Communication);
    b.track(plane).add(2500, 4000, b.intern("Memcpy"), model::Category::Communication);
    model::Session s;
    s.traces.push_back(std::make_shared<model::Trace>(b.finish().trace));
    const auto rows = analysis::collectiveTable(s);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].name, "AllReduce");
    EXPECT_EQ(rows[0].count, 1);
    EXPECT_DOUBLE_EQ(rows[0].totalUs, 9);

    // Plane lanes alone (no op lane recorded): their tasks are all there is to list.
    model::TraceBuilder p;
    const auto only = p.addTrack(info);
    p.track(only).add(100, 2000, p.intern("Notify_Wait"), model::Category::Communication);
    model::Session planes;
    planes.traces.push_back(std::make_shared<model::Trace>(p.finish().trace));
    EXPECT_EQ(analysis::collectiveTable(planes).size(), 1u);
}

TEST(Communication, KernelsInsideAnAnnotationAreStillCounted)
{
    // hta-ddp-a100-world2-nccl: stream 40 holds 21 gpu_user_annotation "nccl:all_reduce"
    // spans, each around one ncclKernel_AllReduce, so the kernels sit on row 1, not row 0.
    model::TraceBuilder b;
    model::TrackInfo info;
    info.kind = model::TrackKind::DeviceStream;
    const auto stream = b.addTrack(info);
    for (std::int64_t k = 0; k < 2; ++k) {
        b.track(stream).add(
            k * 10000, 4000, b.intern("nccl:all_reduce"), model::Category::Annotation);
        b.track(stream).add(k * 10000 + 500, 3000,
            b.intern("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"),
            model::Category::Communication);
    }
    model::Session s;
    s.traces.push_back(std::make_shared<model::Trace>(b.finish().trace));
    ASSERT_GT(s.traces.front()->tracks.front().rowCount(), 1u);
    const auto rows = analysis::collectiveTable(s);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].name, "AllReduce");
    EXPECT_EQ(rows[0].count, 2);
    EXPECT_DOUBLE_EQ(rows[0].totalUs, 6);
}

/// Kernels in an annotation (row 1) and beside one (row 0) on one stream are all counted;
/// communication nested in communication (an HCCL op's tasks on the op's lane) once.
TEST(Communication, OutermostCommunicationOfEveryRowIsCounted)
{
    OneStream t;
    const char *kernel = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)";
    t.add(0, 4000, "nccl:all_reduce", model::Category::Annotation);
    t.add(500, 3000, kernel, model::Category::Communication);
    t.add(5000, 1000, kernel, model::Category::Communication);
    // An op holding a task of its own on the row below.
    t.add(7000, 2000, kernel, model::Category::Communication);
    t.add(7500, 500, "Notify_Wait", model::Category::Communication);
    const auto rows = t.table();
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].name, "AllReduce");
    EXPECT_EQ(rows[0].count, 3);
    EXPECT_DOUBLE_EQ(rows[0].totalUs, 6);
}

TEST(Communication, MatrixPrefersAggregateEntries)
{
    auto t = std::make_shared<model::Trace>();
    auto entry = [](std::string op, int src, int dst, double mb, double ms) {
        model::CommMatrixEntry e;
        e.step = "step50";
        e.op = std::move(op);
        e.srcRank = src;
        e.dstRank = dst;
        e.traffic = model::LinkTraffic {"HCCS", mb, ms, -1};
        return e;
    };
    t->commMatrix.push_back(entry("allreduce-top1@1102", 0, 1, 10, 1));
    t->commMatrix.push_back(entry("allreduce-total@1102", 0, 1, 37.78, 2.24));
    t->commMatrix.push_back(entry("allreduce-total@1102", 1, 0, 20, 2));
    t->commMatrixSource = "communication_matrix.json";
    model::Session s;
    s.traces.push_back(t);
    const auto m = analysis::communicationMatrix(s);
    EXPECT_EQ(m.source, "communication_matrix.json");
    EXPECT_EQ(m.ranks, (std::vector<std::int32_t> {0, 1}));
    ASSERT_EQ(m.cells.size(), 2u);
    EXPECT_DOUBLE_EQ(m.cells[0].sizeMb, 37.78);
    EXPECT_NEAR(*m.cells[0].bandwidthGBps, 16.866, 1e-3);
    EXPECT_EQ(m.cells[1].srcRank, 1);

    // 2023 cluster layout: every op plus Total Op Info (of another group here).
    s.clusterMatrix.push_back(entry("hcom_send__822_0", 0, 8, 20.97152, 0.86381540625));
    s.clusterMatrix.push_back(entry("Total Op Info", 0, 8, 20.97152, 0.86381540625));
    s.clusterMatrix.push_back(entry("hcom_broadcast__483_1", 0, 7, 0.015504, 0.00185951953125));
    s.clusterMatrixSource = "cluster_communication_matrix.json";
    const auto c = analysis::communicationMatrix(s);
    EXPECT_EQ(c.source, "cluster_communication_matrix.json");
    EXPECT_EQ(c.ranks, (std::vector<std::int32_t> {0, 7, 8}));
    ASSERT_EQ(c.cells.size(), 2u);
    EXPECT_DOUBLE_EQ(c.cells[1].sizeMb, 20.97152); // counted once
    EXPECT_EQ(c.cells[1].ops, 1);
}

/// A rank's own ops join the cluster file's only when the cluster file names some of that
/// rank's ops as its own file does (rank, step, name): else they may be there under other
/// keys (a cluster table without rank_id, another step naming) and would count twice.
TEST(Communication, RankOpsJoinTheClusterFilesOnlyWhereTheKeysAgree)
{
    const auto stat = [](std::int32_t rank, const char *step, const char *name, double ms) {
        model::CollectiveStat s;
        s.rank = rank;
        s.step = step;
        s.name = name;
        s.elapseMs = s.transitMs = ms;
        return s;
    };
    auto t = std::make_shared<model::Trace>();
    t->rank = 1;
    t->collectives = {stat(1, "step2", "hcom_broadcast__483_0", 2),
        stat(1, "step2", "hcom_allReduce__483_2", 20)};
    t->collectivesSource = "communication.json";
    model::Session s;
    s.traces.push_back(t);
    s.clusterCollectivesSource = "cluster_communication.json";
    // Keys agree on the broadcast: the allReduce the cluster file lacks is added.
    s.clusterCollectives = {stat(1, "step2", "hcom_broadcast__483_0", 2)};
    auto rows = analysis::collectiveTable(s);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "allReduce");
    EXPECT_EQ(rows[0].source, "communication.json");
    EXPECT_EQ(rows[1].source, "cluster_communication.json");
    EXPECT_EQ(rows[1].count, 1); // the broadcast once
    // No key agrees (the cluster table gave no rank_id: rank 0): nothing is added.
    s.clusterCollectives = {stat(0, "step2", "hcom_broadcast__483_0", 2),
        stat(0, "step2", "hcom_allReduce__483_2", 20)};
    rows = analysis::collectiveTable(s);
    double total = 0;
    for (const auto &r : rows) {
        EXPECT_EQ(r.source, "cluster_communication.json");
        total += r.totalUs;
    }
    EXPECT_DOUBLE_EQ(total, 22000);
}
