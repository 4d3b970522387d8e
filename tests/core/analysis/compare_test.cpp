// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/compare.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace stepscope;
using namespace stepscope::analysis;

namespace {

std::vector<std::pair<std::size_t, std::size_t>> indexPairs(const StepPairing &p)
{
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (const StepPair &s : p.pairs)
        out.emplace_back(s.beforeIndex, s.afterIndex);
    return out;
}

using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;

} // namespace

TEST(ComparePairing, EqualStepNumbersWhenBothHaveThem)
{
    // before profiled steps 5..8, after 7..10: 7 and 8 pair by number.
    StepPairing p = pairStepNumbers({5, 6, 7, 8}, {7, 8, 9, 10});
    EXPECT_EQ(p.mode, PairingMode::ByNumber);
    EXPECT_EQ(indexPairs(p), (Pairs {{2, 0}, {3, 1}}));
    EXPECT_EQ(p.pairs[0].beforeStep, 7);
    EXPECT_EQ(p.pairs[0].afterStep, 7);
    ASSERT_NE(p.findAfter(1), nullptr);
    EXPECT_EQ(p.findAfter(1)->beforeIndex, 3u);
    EXPECT_EQ(p.findBefore(0), nullptr);
}

TEST(ComparePairing, ByOrderWhenNoNumberIsShared)
{
    StepPairing p = pairStepNumbers({1, 2, 3}, {11, 12, 13, 14, 15});
    EXPECT_EQ(p.mode, PairingMode::ByOrder);
    EXPECT_EQ(indexPairs(p), (Pairs {{0, 0}, {1, 1}, {2, 2}}));
    EXPECT_EQ(p.pairs[2].afterStep, 13);
}

TEST(ComparePairing, ByOrderWhenNumbersRepeat)
{
    // Numbers not unique on one side (e.g. every step numbered 0): order decides.
    StepPairing p = pairStepNumbers({0, 0, 0}, {0, 1});
    EXPECT_EQ(p.mode, PairingMode::ByOrder);
    EXPECT_EQ(indexPairs(p), (Pairs {{0, 0}, {1, 1}}));
}

TEST(ComparePairing, ManualOverrideShiftsNeighbours)
{
    // The user pairs before step 6 with after step 12: offsets follow.
    StepPairing p = pairStepNumbers({5, 6, 7, 8}, {11, 12, 13}, ManualAnchor {6, 12});
    EXPECT_EQ(p.mode, PairingMode::Manual);
    EXPECT_EQ(indexPairs(p), (Pairs {{0, 0}, {1, 1}, {2, 2}}));
    // Before step 8 with after step 11: only that pair fits (before has nothing after 8).
    StepPairing q = pairStepNumbers({5, 6, 7, 8}, {11, 12, 13}, ManualAnchor {8, 11});
    EXPECT_EQ(q.mode, PairingMode::Manual);
    EXPECT_EQ(indexPairs(q), (Pairs {{3, 0}}));
    // Overrides beat equal numbers.
    StepPairing r = pairStepNumbers({1, 2, 3}, {1, 2, 3}, ManualAnchor {1, 2});
    EXPECT_EQ(indexPairs(r), (Pairs {{0, 1}, {1, 2}}));
    // Unknown anchor: automatic pairing, flagged.
    StepPairing s = pairStepNumbers({1, 2}, {1, 2}, ManualAnchor {9, 1});
    EXPECT_TRUE(s.anchorNotFound);
    EXPECT_EQ(s.mode, PairingMode::ByNumber);
}

TEST(ComparePairing, FromModelSteps)
{
    std::vector<model::Step> before {{3, 0, 100}, {4, 100, 200}};
    std::vector<model::Step> after {{4, 0, 90}, {5, 90, 180}};
    StepPairing p = pairSteps(before, after);
    EXPECT_EQ(p.mode, PairingMode::ByNumber);
    EXPECT_EQ(indexPairs(p), (Pairs {{1, 0}}));
}

/// Steps numbered by us (inferred from Optimizer.step#, 1…N) name no profiler step: paired
/// with another run's ProfilerStep#5 and #6 by number, two of six pairs were made, and not of
/// the same iterations. They pair by order.
TEST(ComparePairing, StepsNumberedByUsPairByOrder)
{
    const auto steps = [](std::vector<std::int64_t> numbers, StepOrigin origin) {
        std::vector<StepBreakdown> out;
        for (std::int64_t n : numbers) {
            StepBreakdown b;
            b.step = n;
            b.origin = origin;
            out.push_back(b);
        }
        return out;
    };
    const auto before = steps({5, 6, 7, 8, 9, 10}, StepOrigin::Profiler);
    EXPECT_EQ(pairSteps(before, steps({1, 2, 3, 4, 5, 6}, StepOrigin::Profiler)).mode,
        PairingMode::ByNumber);
    const StepPairing p = pairSteps(before, steps({1, 2, 3, 4, 5, 6}, StepOrigin::Inferred));
    EXPECT_EQ(p.mode, PairingMode::ByOrder);
    EXPECT_EQ(p.pairs.size(), 6u);
}

TEST(CompareDeltaRow, SignsPercentAndDirection)
{
    DeltaRow faster =
        makeDeltaRow("step_time_mean_us", "Step time", "us", 200.0, 150.0, Better::Lower);
    EXPECT_DOUBLE_EQ(*faster.delta, -50.0);
    EXPECT_DOUBLE_EQ(*faster.percent, -25.0);
    EXPECT_EQ(faster.verdict, Verdict::Improved);

    DeltaRow lowerMfu = makeDeltaRow("mfu", "MFU", "fraction", 0.40, 0.30, Better::Higher);
    EXPECT_NEAR(*lowerMfu.delta, -0.10, 1e-12);
    EXPECT_NEAR(*lowerMfu.percent, -25.0, 1e-9);
    EXPECT_EQ(lowerMfu.verdict, Verdict::Regressed);

    DeltaRow slower = makeDeltaRow("x", "x", "us", 100.0, 120.0, Better::Lower);
    EXPECT_DOUBLE_EQ(*slower.percent, 20.0);
    EXPECT_EQ(slower.verdict, Verdict::Regressed);

    DeltaRow same = makeDeltaRow("x", "x", "us", 1000.0, 1004.0, Better::Lower);
    EXPECT_EQ(same.verdict, Verdict::Unchanged); // 0.4 % < 0.5 % tolerance

    DeltaRow fromZero = makeDeltaRow("x", "x", "us", 0.0, 5.0, Better::Lower);
    EXPECT_DOUBLE_EQ(*fromZero.delta, 5.0);
    EXPECT_FALSE(fromZero.percent.has_value());
    EXPECT_EQ(fromZero.verdict, Verdict::Regressed);

    DeltaRow missing = makeDeltaRow("x", "x", "us", std::nullopt, 5.0, Better::Lower);
    EXPECT_FALSE(missing.delta.has_value());
    EXPECT_EQ(missing.verdict, Verdict::Unknown);

    DeltaRow neutral = makeDeltaRow("x", "x", "us", 1.0, 2.0, Better::Neither);
    EXPECT_EQ(neutral.verdict, Verdict::Unknown);
    EXPECT_DOUBLE_EQ(*neutral.percent, 100.0);
    EXPECT_EQ(verdictText(neutral), "changed"); // neither better nor worse
    EXPECT_EQ(verdictText(missing), "unknown");
    // Compute of two identical runs read "unknown" beside two equal figures.
    DeltaRow neutralSame = makeDeltaRow("x", "x", "us", 79.9, 79.9, Better::Neither);
    EXPECT_EQ(neutralSame.verdict, Verdict::Unchanged);
    EXPECT_EQ(verdictText(neutralSame), "unchanged");
}

TEST(CompareDeltaRow, KpiDirections)
{
    EXPECT_EQ(kpiBetter("step_time_mean_us"), Better::Lower);
    EXPECT_EQ(kpiBetter("data_wait_share"), Better::Lower);
    EXPECT_EQ(kpiBetter("memory_peak_reserved_bytes"), Better::Lower);
    EXPECT_EQ(kpiBetter("mfu"), Better::Higher);
    EXPECT_EQ(kpiBetter("tokens_per_s"), Better::Higher);
    Kpis before;
    before.items.push_back({"step_time_mean_us", 1000.0, "us", {}});
    before.items.push_back({"mfu", std::nullopt, "fraction", "no peak"});
    Kpis after;
    after.items.push_back({"step_time_mean_us", 800.0, "us", {}});
    after.items.push_back({"mfu", 0.5, "fraction", {}});
    after.items.push_back({"samples_per_s", 10.0, "samples/s", {}});
    std::vector<DeltaRow> rows = kpiDeltaRows(before, after);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].verdict, Verdict::Improved);
    EXPECT_DOUBLE_EQ(*rows[0].percent, -20.0);
    EXPECT_EQ(rows[1].verdict, Verdict::Unknown); // before has no MFU
    EXPECT_EQ(rows[2].key, "samples_per_s");
    EXPECT_FALSE(rows[2].before.has_value());
}

TEST(CompareDeltaRow, StepBreakdownRows)
{
    StepBreakdown b;
    b.step = 1;
    b.startNs = 0;
    b.endNs = 10'000'000; // 10 ms
    b.computeNs = 4'000'000;
    b.commOverlappedNs = 1'000'000;
    b.freeNs = 6'000'000;
    b.dataLoadingNs = 6'000'000;
    StepBreakdown a = b;
    a.endNs = 5'000'000; // 5 ms
    a.freeNs = 1'000'000;
    a.dataLoadingNs = 1'000'000;
    std::vector<DeltaRow> rows = stepDeltaRows(b, a);
    ASSERT_EQ(rows.size(), 1u + SegmentKindCount);
    EXPECT_EQ(rows[0].key, "step_time_us");
    EXPECT_DOUBLE_EQ(*rows[0].before, 10000.0);
    EXPECT_DOUBLE_EQ(*rows[0].percent, -50.0);
    EXPECT_EQ(rows[0].verdict, Verdict::Improved);
    const DeltaRow *data = nullptr;
    const DeltaRow *compute = nullptr;
    for (const DeltaRow &r : rows) {
        if (r.key == "segment.data_loading")
            data = &r;
        if (r.key == "segment.compute")
            compute = &r;
    }
    ASSERT_NE(data, nullptr);
    EXPECT_DOUBLE_EQ(*data->delta, -5000.0);
    EXPECT_EQ(data->verdict, Verdict::Improved);
    ASSERT_NE(compute, nullptr);
    // Compute whole, overlapped communication included, as summary --json's compute_us and the
    // profiler's Computing (the lane's segment, 3000 us, is compute - overlapped).
    EXPECT_DOUBLE_EQ(*compute->before, 4000.0);
    EXPECT_EQ(compute->label, "Compute");
    EXPECT_EQ(compute->better, Better::Neither);
    EXPECT_EQ(compute->verdict, Verdict::Unchanged); // the same 4 ms on both sides

    // Mean over pairs: before steps {b, b}, after {a, b} -> after step time mean 7.5 ms.
    std::vector<StepBreakdown> before {b, b};
    std::vector<StepBreakdown> after {a, b};
    after[1].step = 2;
    before[1].step = 2;
    StepPairing p = pairSteps(before, after);
    std::vector<DeltaRow> mean = meanStepDeltaRows(before, after, p);
    ASSERT_FALSE(mean.empty());
    EXPECT_DOUBLE_EQ(*mean[0].after, 7500.0);
    EXPECT_DOUBLE_EQ(*mean[0].percent, -25.0);
    EXPECT_TRUE(meanStepDeltaRows(before, after, StepPairing {}).empty());
}

namespace {

// A trace with one device stream, one host thread; kernels given as (name, start, dur).
model::Trace makeTrace(
    const std::vector<std::tuple<std::string, std::int64_t, std::int64_t>> &kernels,
    const std::vector<std::tuple<std::string, std::int64_t, std::int64_t>> &hostOps)
{
    model::TraceBuilder tb;
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.threadId = "stream 7";
    model::TrackId d = tb.addTrack(dev);
    for (const auto &[name, start, dur] : kernels) {
        model::Category c =
            name.rfind("nccl", 0) == 0 ? model::Category::Communication : model::Category::Compute;
        tb.track(d).add(start, dur, tb.intern(name), c);
    }
    model::TrackInfo host;
    host.kind = model::TrackKind::HostThread;
    model::TrackId h = tb.addTrack(host);
    for (const auto &[name, start, dur] : hostOps)
        tb.track(h).add(start, dur, tb.intern(name), model::Category::HostOp);
    // A runtime call on the host and a kernel-like event on the host: never counted.
    tb.track(h).add(0, 5, tb.intern("cudaLaunchKernel"), model::Category::Runtime);
    return tb.finish().trace;
}

const NameDelta *findDelta(const std::vector<NameDelta> &v, const std::string &name)
{
    for (const NameDelta &d : v)
        if (d.name == name)
            return &d;
    return nullptr;
}

} // namespace

TEST(CompareNameDeltas, KernelTotalsCountsSharesAndOneSidedNames)
{
    // before: gemm 3 x 100 ns, relu 2 x 50 ns, nccl 1 x 200 ns (total 600)
    // after:  gemm 3 x 60 ns, relu 2 x 50 ns, flash 1 x 20 ns (total 300)
    model::Trace before =
        makeTrace({{"gemm", 0, 100}, {"gemm", 200, 100}, {"gemm", 400, 100}, {"relu", 100, 50},
                      {"relu", 300, 50}, {"nccl_ar", 600, 200}},
            {{"aten::mm", 0, 500}});
    model::Trace after = makeTrace({{"gemm", 0, 60}, {"gemm", 200, 60}, {"gemm", 400, 60},
                                       {"relu", 100, 50}, {"relu", 300, 50}, {"flash", 600, 20}},
        {{"aten::mm", 0, 300}, {"aten::add", 400, 10}});
    NameDeltaTable t = nameDeltas(before, after);
    EXPECT_EQ(t.totalBeforeNs, 600);
    EXPECT_EQ(t.totalAfterNs, 300);
    EXPECT_EQ(t.nameCountBefore, 3u);
    EXPECT_EQ(t.nameCountAfter, 3u);
    ASSERT_EQ(t.top.size(), 4u);
    // |Δ|: nccl_ar 200, gemm 120, flash 20, relu 0.
    EXPECT_EQ(t.top[0].name, "nccl_ar");
    EXPECT_DOUBLE_EQ(t.top[0].deltaTotalNs, -200);
    EXPECT_TRUE(t.top[0].onlyBefore);
    EXPECT_EQ(t.top[1].name, "gemm");
    EXPECT_DOUBLE_EQ(t.top[1].deltaTotalNs, -120);
    EXPECT_EQ(t.top[1].before.count, 3);
    EXPECT_EQ(t.top[1].before.totalNs, 300);
    EXPECT_DOUBLE_EQ(t.top[1].before.meanNs, 100);
    EXPECT_DOUBLE_EQ(t.top[1].after.meanNs, 60);
    EXPECT_DOUBLE_EQ(t.top[1].before.share, 0.5);
    EXPECT_DOUBLE_EQ(t.top[1].after.share, 0.6);
    EXPECT_EQ(t.top[2].name, "flash");
    EXPECT_DOUBLE_EQ(t.top[2].deltaTotalNs, 20);
    EXPECT_EQ(t.top[3].name, "relu");
    EXPECT_DOUBLE_EQ(t.top[3].deltaTotalNs, 0);
    ASSERT_EQ(t.onlyBefore.size(), 1u);
    EXPECT_EQ(t.onlyBefore[0].name, "nccl_ar");
    ASSERT_EQ(t.onlyAfter.size(), 1u);
    EXPECT_EQ(t.onlyAfter[0].name, "flash");

    NameDeltaOptions top2;
    top2.topN = 2;
    EXPECT_EQ(nameDeltas(before, after, top2).top.size(), 2u);

    // Host ops: aten::mm 500 -> 300, aten::add only after; the runtime call is not an op.
    NameDeltaOptions ops;
    ops.scope = OpScope::HostOps;
    NameDeltaTable o = nameDeltas(before, after, ops);
    EXPECT_EQ(o.totalBeforeNs, 500);
    EXPECT_EQ(o.totalAfterNs, 310);
    ASSERT_NE(findDelta(o.top, "aten::mm"), nullptr);
    EXPECT_DOUBLE_EQ(findDelta(o.top, "aten::mm")->deltaTotalNs, -200);
    ASSERT_EQ(o.onlyAfter.size(), 1u);
    EXPECT_EQ(o.onlyAfter[0].name, "aten::add");
    EXPECT_EQ(findDelta(o.top, "cudaLaunchKernel"), nullptr);
}

TEST(CompareNameDeltas, WindowsAndPerStepNormalisation)
{
    model::Trace before = makeTrace({{"gemm", 0, 100}, {"gemm", 1000, 100}}, {});
    model::Trace after = makeTrace({{"gemm", 0, 80}, {"gemm", 1000, 80}}, {});
    NameDeltaOptions step1;
    step1.beforeWindow = std::make_pair(std::int64_t {0}, std::int64_t {1000});
    step1.afterWindow = std::make_pair(std::int64_t {1000}, std::int64_t {2000});
    NameDeltaTable t = nameDeltas(before, after, step1);
    ASSERT_EQ(t.top.size(), 1u);
    EXPECT_EQ(t.top[0].before.count, 1);
    EXPECT_EQ(t.top[0].after.count, 1);
    EXPECT_DOUBLE_EQ(t.top[0].deltaTotalNs, -20);
    // Whole traces, per step: before 2 steps (200 ns), after counted as 1 step (160 ns).
    NameDeltaOptions perStep;
    perStep.beforeDivisor = 2;
    perStep.afterDivisor = 1;
    EXPECT_DOUBLE_EQ(nameDeltas(before, after, perStep).top[0].deltaTotalNs, 60);
}

namespace {

// One rank: `steps` steps of `stepNs`, each starting with a host DataLoader range of
// `loadNs` (device idle) followed by a `gemm` kernel filling the rest of the step.
std::shared_ptr<const model::Session> makeSession(
    int steps, std::int64_t stepNs, std::int64_t loadNs, std::int64_t firstStep)
{
    model::TraceBuilder tb;
    model::TrackInfo host;
    host.kind = model::TrackKind::HostThread;
    host.threadId = "1";
    model::TrackId h = tb.addTrack(host);
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.threadId = "7";
    model::TrackId d = tb.addTrack(dev);
    for (int i = 0; i < steps; ++i) {
        std::int64_t t0 = i * stepNs;
        tb.trace().steps.push_back({firstStep + i, t0, t0 + stepNs});
        tb.track(h).add(t0, loadNs,
            tb.intern("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"),
            model::Category::DataLoading);
        tb.track(h).add(t0 + loadNs, 10, tb.intern("aten::mm"), model::Category::HostOp);
        tb.track(d).add(t0 + loadNs, stepNs - loadNs, tb.intern("gemm"), model::Category::Compute);
    }
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(tb.finish().trace));
    return session;
}

const DeltaRow *findRow(const std::vector<DeltaRow> &rows, const std::string &key)
{
    for (const DeltaRow &r : rows)
        if (r.key == key)
            return &r;
    return nullptr;
}

} // namespace

TEST(CompareRuns, DataLoadingCollapsesAndStepTimeFalls)
{
    // before: steps 3..6 of 1000 ns, 600 ns data loading; after: steps 5..8 of 500 ns, 100 ns.
    auto before = makeSession(4, 1000, 600, 3);
    auto after = makeSession(4, 500, 100, 5);
    RunComparison r = compareRuns(*before, *after, RunConfig {}, RunConfig {});
    EXPECT_EQ(r.pairing.mode, PairingMode::ByNumber);
    ASSERT_EQ(r.pairing.pairs.size(), 2u); // steps 5 and 6
    EXPECT_EQ(r.pairing.pairs[0].beforeStep, 5);
    ASSERT_EQ(r.pairRows.size(), 2u);
    const DeltaRow *step = findRow(r.meanStepRows, "step_time_us");
    ASSERT_NE(step, nullptr);
    EXPECT_DOUBLE_EQ(*step->before, 1.0);
    EXPECT_DOUBLE_EQ(*step->after, 0.5);
    EXPECT_DOUBLE_EQ(*step->percent, -50.0);
    EXPECT_EQ(step->verdict, Verdict::Improved);
    const DeltaRow *data = findRow(r.meanStepRows, "segment.data_loading");
    ASSERT_NE(data, nullptr);
    EXPECT_DOUBLE_EQ(*data->before, 0.6);
    EXPECT_DOUBLE_EQ(*data->after, 0.1);
    EXPECT_EQ(data->verdict, Verdict::Improved);
    const DeltaRow *kpi = findRow(r.kpiRows, "step_time_mean_us");
    ASSERT_NE(kpi, nullptr);
    EXPECT_EQ(kpi->verdict, Verdict::Improved);
    // Kernels per paired step: gemm 400 ns -> 400 ns (same work), by number of pairs.
    EXPECT_TRUE(r.perPairedStep);
    ASSERT_EQ(r.kernels.top.size(), 1u);
    EXPECT_EQ(r.kernels.top[0].name, "gemm");
    EXPECT_EQ(r.kernels.top[0].before.count, 2);
    EXPECT_EQ(r.kernels.top[0].before.totalNs, 800);
    EXPECT_DOUBLE_EQ(r.kernels.top[0].deltaTotalNs, 0);
    ASSERT_EQ(r.ops.top.size(), 1u);
    EXPECT_EQ(r.ops.top[0].name, "aten::mm");

    // Manual anchor: before step 3 with after step 5 -> four pairs, offsets follow.
    CompareOptions manual;
    manual.anchor = ManualAnchor {3, 5};
    RunComparison m = compareRuns(*before, *after, RunConfig {}, RunConfig {}, manual);
    EXPECT_EQ(m.pairing.mode, PairingMode::Manual);
    EXPECT_EQ(m.pairing.pairs.size(), 4u);
    EXPECT_EQ(m.kernels.top[0].before.count, 4);

    model::Session empty;
    RunComparison e = compareRuns(empty, *after, RunConfig {}, RunConfig {});
    EXPECT_TRUE(e.pairing.pairs.empty());
    EXPECT_TRUE(e.kernels.top.empty());
}

// A bottleneck that leads both runs says so once: "(first before and after)", where the label
// read "(first before) (first after)".
TEST(CompareBottlenecks, TheLeadingKindIsNamedOnce)
{
    Bottleneck comm;
    comm.kind = BottleneckKind::ExposedCommunication;
    comm.share = 0.5;
    Bottleneck host;
    host.kind = BottleneckKind::HostBound;
    host.share = 0.3;
    const std::vector<DeltaRow> same = bottleneckDeltaRows({comm, host}, {comm, host});
    const DeltaRow *c = findRow(same, "bottleneck.exposed_communication");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->label, "Exposed communication (first before and after)");
    const DeltaRow *h = findRow(same, "bottleneck.host_bound");
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(h->label, "Host / launch bound");
    const std::vector<DeltaRow> swapped = bottleneckDeltaRows({comm, host}, {host, comm});
    EXPECT_EQ(findRow(swapped, "bottleneck.exposed_communication")->label,
        "Exposed communication (first before)");
    EXPECT_EQ(
        findRow(swapped, "bottleneck.host_bound")->label, "Host / launch bound (first after)");
}

TEST(CompareMemory, PeakAndGroupRows)
{
    MemorySummary b;
    b.peakAllocatedBytes = 1000;
    b.peakReservedBytes = 2000;
    b.hasGroups = true;
    b.byGroupAtPeak[static_cast<std::size_t>(MemoryGroup::Activations)] = 600;
    MemorySummary a = b;
    a.peakAllocatedBytes = 700;
    a.byGroupAtPeak[static_cast<std::size_t>(MemoryGroup::Activations)] = 300;
    std::vector<DeltaRow> rows = memoryDeltaRows(b, a);
    ASSERT_EQ(rows.size(), 2u + MemoryGroupCount);
    EXPECT_DOUBLE_EQ(*rows[0].percent, -30.0);
    EXPECT_EQ(rows[0].verdict, Verdict::Improved);
    EXPECT_EQ(rows[1].verdict, Verdict::Unchanged);
    const DeltaRow *act = findRow(rows, "memory.activations");
    ASSERT_NE(act, nullptr);
    EXPECT_DOUBLE_EQ(*act->delta, -300.0);
    EXPECT_EQ(findRow(rows, "memory.not_in_categories"), nullptr);
    // Allocator memory no record holds, on one side: a row, 0 on the other side.
    b.notInCategoriesBytes = 400;
    rows = memoryDeltaRows(b, a);
    ASSERT_EQ(rows.size(), 3u + MemoryGroupCount);
    const DeltaRow *none = findRow(rows, "memory.not_in_categories");
    ASSERT_NE(none, nullptr);
    EXPECT_DOUBLE_EQ(*none->before, 400.0);
    EXPECT_DOUBLE_EQ(*none->after, 0.0);
    a.hasGroups = false;
    EXPECT_EQ(memoryDeltaRows(b, a).size(), 2u);

    MemoryGroupTimeline tb;
    tb.timestampsNs = {0, 1};
    tb.bytes[static_cast<std::size_t>(MemoryGroup::Parameters)] = {100, 100};
    tb.bytes[static_cast<std::size_t>(MemoryGroup::Temporary)] = {0, 50};
    MemoryGroupTimeline ta = tb;
    ta.bytes[static_cast<std::size_t>(MemoryGroup::Temporary)] = {80, 10};
    std::vector<DeltaRow> peaks = memoryGroupPeakRows(tb, ta);
    ASSERT_EQ(peaks.size(), 2u); // parameters and temporary; empty groups have no row
    EXPECT_EQ(peaks[1].key, "memory_peak.temporary");
    EXPECT_DOUBLE_EQ(*peaks[1].after, 80.0);
    EXPECT_EQ(peaks[1].verdict, Verdict::Regressed);
}

// The bundled demo pair (ResNet-50, DataLoader num_workers 0 vs 4). Step sums and kernel
// totals recomputed with python3 from the .json.gz files: ProfilerStep#5..#10 durations
// (1 048 976 vs 838 152 us), device events (Kernel/Memcpy/Memset) starting inside the
// [ProfilerStep#5 start, ProfilerStep#10 end) window, grouped by name.
#include "import/loader.h"

namespace {

std::shared_ptr<const model::Session> loadSample(const std::string &relative)
{
    util::Progress progress;
    auto r = import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/" + relative, progress);
    EXPECT_TRUE(r.session && r.session->hasContent()) << relative;
    return r.session;
}

} // namespace

TEST(CompareRuns, ResNetDemoPairWorkers0Vs4)
{
    const std::string dir = "kineto/kineto-resnet50-dataloader-workers0-vs-4/";
    auto w0 = loadSample(dir + "resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz");
    auto w4 = loadSample(dir + "resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz");
    ASSERT_TRUE(w0 && w4);
    RunComparison r = compareRuns(*w0, *w4, RunConfig {}, RunConfig {});
    EXPECT_EQ(r.pairing.mode, PairingMode::ByNumber);
    ASSERT_EQ(r.pairing.pairs.size(), 6u); // ProfilerStep#5..#10 on both sides
    EXPECT_EQ(r.pairing.pairs.front().beforeStep, 5);
    EXPECT_EQ(r.pairing.pairs.back().afterStep, 10);

    const DeltaRow *step = findRow(r.meanStepRows, "step_time_us");
    ASSERT_NE(step, nullptr);
    EXPECT_NEAR(*step->before, 1048976.0 / 6, 1e-6);
    EXPECT_NEAR(*step->after, 838152.0 / 6, 1e-6);
    EXPECT_NEAR(*step->percent, 100.0 * (838152.0 - 1048976.0) / 1048976.0, 1e-9);
    EXPECT_EQ(step->verdict, Verdict::Improved);
    const DeltaRow *data = findRow(r.meanStepRows, "segment.data_loading");
    ASSERT_NE(data, nullptr);
    EXPECT_NEAR(*data->before, 355596.0 / 6, 1e-6); // the data wait collapses
    EXPECT_NEAR(*data->after, 7118.0 / 6, 1e-6);
    EXPECT_EQ(data->verdict, Verdict::Improved);
    const DeltaRow *share = findRow(r.kpiRows, "data_wait_share");
    ASSERT_NE(share, nullptr);
    EXPECT_NEAR(*share->before, 355596.0 / 1048976.0, 1e-12);
    EXPECT_NEAR(*share->after, 7118.0 / 838152.0, 1e-12);
    EXPECT_EQ(share->verdict, Verdict::Improved);
    // Step 5 (first pair): 176 078 -> 181 565 us, slower (the pageable H2D copy).
    ASSERT_EQ(r.pairRows.size(), 6u);
    EXPECT_EQ(r.pairRows[0][0].verdict, Verdict::Regressed);
    EXPECT_DOUBLE_EQ(*r.pairRows[0][0].before, 176078.0);
    EXPECT_DOUBLE_EQ(*r.pairRows[0][0].after, 181565.0);

    // Kernels: 69 names / 588 588 us before, 64 names / 607 165 us after (whole window).
    EXPECT_TRUE(r.perPairedStep);
    EXPECT_EQ(r.kernels.nameCountBefore, 69u);
    EXPECT_EQ(r.kernels.nameCountAfter, 64u);
    EXPECT_EQ(r.kernels.totalBeforeNs, 588588000);
    EXPECT_EQ(r.kernels.totalAfterNs, 607165000);
    ASSERT_GE(r.kernels.top.size(), 4u);
    // cuDNN picked other algorithms: splitK 6 x / 3 720 us -> 72 x / 25 342 us.
    EXPECT_EQ(r.kernels.top[0].name, "volta_scudnn_128x128_stridedB_splitK_medium_nn_v1");
    EXPECT_EQ(r.kernels.top[0].before.count, 6);
    EXPECT_EQ(r.kernels.top[0].after.count, 72);
    EXPECT_NEAR(r.kernels.top[0].deltaTotalNs, (25342000.0 - 3720000.0) / 6, 1e-6);
    EXPECT_EQ(r.kernels.top[3].name, "Memcpy HtoD (Pageable -> Device)");
    EXPECT_NEAR(r.kernels.top[3].deltaTotalNs, (18959000.0 - 11492000.0) / 6, 1e-6);
    ASSERT_EQ(r.kernels.onlyAfter.size(), 1u);
    EXPECT_EQ(r.kernels.onlyAfter[0].name,
        "volta_scudnn_128x32_sliced1x4_ldg4_relu_exp_small_nhwc_tn_v1");
    EXPECT_FALSE(r.kernels.onlyBefore.empty());
}
