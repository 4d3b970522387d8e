// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/kpis.h"
#include "analysis/memorycategories.h"
#include "core/analysis/memoryevents_testutil.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

using namespace stepscope;
using analysis::MemoryGroup;
using model::MemoryCategory;

namespace {

std::size_t g(MemoryGroup group)
{
    return static_cast<std::size_t>(group);
}

} // namespace

TEST(MemoryCategories, PyTorchCategoriesMapDirectlyAndSumToTheTotal)
{
    model::Trace t;
    auto &c = t.memory.categories;
    c.timestampsNs = {0, 10, 20};
    for (auto &series : c.bytes)
        series.assign(3, 0);
    c.bytes[static_cast<std::size_t>(MemoryCategory::Parameter)] = {100, 100, 100};
    c.bytes[static_cast<std::size_t>(MemoryCategory::Input)] = {0, 5, 0};
    c.bytes[static_cast<std::size_t>(MemoryCategory::Activation)] = {0, 50, 0};
    c.bytes[static_cast<std::size_t>(MemoryCategory::AutogradDetail)] = {0, 7, 1};
    c.bytes[static_cast<std::size_t>(MemoryCategory::Gradient)] = {0, 0, 100};
    const auto tl = analysis::memoryGroupTimeline(t);
    EXPECT_FALSE(tl.inferred);
    ASSERT_EQ(tl.timestampsNs.size(), 3u);
    EXPECT_EQ(tl.bytes[g(MemoryGroup::Activations)], (std::vector<std::int64_t> {0, 55, 0}));
    EXPECT_EQ(tl.bytes[g(MemoryGroup::Other)], (std::vector<std::int64_t> {0, 7, 1}));
    EXPECT_EQ(tl.totalBytes, (std::vector<std::int64_t> {100, 162, 201}));
    for (std::size_t i = 0; i < 3; ++i) {
        std::int64_t sum = 0;
        for (const auto &series : tl.bytes)
            sum += series[i];
        EXPECT_EQ(sum, tl.totalBytes[i]);
    }
    const auto s = analysis::summarizeMemory(t, analysis::RunConfig {});
    EXPECT_EQ(*s.peakNs, 20);
    EXPECT_EQ(s.byGroupAtPeak[g(MemoryGroup::Gradients)], 100);
    EXPECT_EQ(*s.peakAllocatedBytes, 201);
}

TEST(MemoryCategories, InferenceRulesForAllocationsWithoutCategory)
{
    const std::int64_t t0 = 0, t1 = 1000, step = 1000;
    auto a = [](std::string op, std::int64_t alloc, std::int64_t rel) {
        model::Allocation x;
        x.op = std::move(op);
        x.sizeBytes = 10;
        x.allocatedNs = alloc;
        x.releasedNs = rel;
        return x;
    };
    EXPECT_EQ(analysis::inferAllocationGroup(a("hcom_allReduce_", 100, 200), t0, t1, step),
        MemoryGroup::CommunicationBuffers);
    EXPECT_EQ(analysis::inferAllocationGroup(a("aten::_foreach_add", 100, 200), t0, t1, step),
        MemoryGroup::OptimizerState);
    EXPECT_EQ(analysis::inferAllocationGroup(a("aten::empty", 100, -1), t0, t1, step),
        MemoryGroup::Parameters); // never released in the capture
    EXPECT_EQ(analysis::inferAllocationGroup(a("aten::empty", -5, 500), t0, t1, step),
        MemoryGroup::Parameters); // from before the first step
    EXPECT_EQ(
        analysis::inferAllocationGroup(a("(allocated before the capture)", 0, 500), t0, t1, step),
        MemoryGroup::Parameters);
    EXPECT_EQ(analysis::inferAllocationGroup(a("aten::convolution", 100, 600), t0, t1, step),
        MemoryGroup::Activations); // forward to backward
    EXPECT_EQ(analysis::inferAllocationGroup(a("aten::add", 100, 150), t0, t1, step),
        MemoryGroup::Temporary); // 5 % of the step
}

TEST(MemoryCategories, AllocationsAndHcclModuleMemoryAsAStackedSeries)
{
    model::Trace t;
    t.steps.push_back(model::Step {1, 0, 1000});
    auto add = [&](std::string op, std::int64_t size, std::int64_t alloc, std::int64_t rel) {
        model::Allocation x;
        x.op = std::move(op);
        x.sizeBytes = size;
        x.allocatedNs = alloc;
        x.releasedNs = rel;
        t.memory.allocations.push_back(x);
    };
    add("aten::empty", 1000, 0, -1); // parameters
    add("aten::convolution", 300, 100, 700); // activation
    add("aten::add", 50, 200, 210); // temporary
    model::ModuleMemory hccl;
    hccl.module = "HCCL";
    hccl.timestampsNs = {50, 800};
    hccl.reservedBytes = {64, 128};
    t.memory.modules.push_back(hccl);
    const auto tl = analysis::memoryGroupTimeline(t);
    EXPECT_TRUE(tl.inferred);
    ASSERT_FALSE(tl.timestampsNs.empty());
    for (std::size_t i = 0; i < tl.timestampsNs.size(); ++i) {
        std::int64_t sum = 0;
        for (const auto &series : tl.bytes)
            sum += series[i];
        EXPECT_EQ(sum, tl.totalBytes[i]);
    }
    // Peak at 200..210: 1000 + 300 + 50 + 64.
    const auto s = analysis::summarizeMemory(t, analysis::RunConfig {});
    EXPECT_EQ(*s.peakNs, 200);
    EXPECT_EQ(s.byGroupAtPeak[g(MemoryGroup::Parameters)], 1000);
    EXPECT_EQ(s.byGroupAtPeak[g(MemoryGroup::Activations)], 300);
    EXPECT_EQ(s.byGroupAtPeak[g(MemoryGroup::Temporary)], 50);
    EXPECT_EQ(s.byGroupAtPeak[g(MemoryGroup::CommunicationBuffers)], 64);
    EXPECT_EQ(tl.totalBytes.back(), 1000 + 128);
}

TEST(MemoryCategories, ModuleMemoryOfAnotherCaptureIsLeftOut)
{
    // The trimmed gpt3 sample: operator_memory.csv at 2023-09-19, npu_module_mem.csv at
    // 2024-08-26 (29.6 Ms later). One time axis cannot hold both: the module series is left out.
    model::Trace t;
    model::Allocation x;
    x.op = "aten::empty";
    x.sizeBytes = 1000;
    x.allocatedNs = 100;
    x.releasedNs = 900;
    t.memory.allocations.push_back(x);
    model::ModuleMemory hccl;
    hccl.module = "HCCL";
    hccl.timestampsNs = {29'555'075'000'000'000, 29'555'075'100'000'000};
    hccl.reservedBytes = {816, 816};
    t.memory.modules.push_back(hccl);
    const auto tl = analysis::memoryGroupTimeline(t);
    ASSERT_FALSE(tl.timestampsNs.empty());
    EXPECT_EQ(tl.timestampsNs.front(), 100);
    EXPECT_EQ(tl.timestampsNs.back(), 900);
    EXPECT_EQ(*std::max_element(tl.totalBytes.begin(), tl.totalBytes.end()), 1000);
    // Overlapping, it is summed in as before.
    t.memory.modules.front().timestampsNs = {50, 800};
    const auto both = analysis::memoryGroupTimeline(t);
    EXPECT_EQ(*std::max_element(both.totalBytes.begin(), both.totalBytes.end()), 1000 + 816);
}

TEST(MemoryCategories, EstimateFromTheRunConfig)
{
    analysis::RunConfig c;
    EXPECT_FALSE(analysis::estimateModelMemory(c).has_value());
    c.parameters = 1e9;
    c.precision = "bf16";
    c.optimizer = "adamw";
    auto e = analysis::estimateModelMemory(c);
    ASSERT_TRUE(e.has_value());
    EXPECT_DOUBLE_EQ(e->bytesPerParameter, 16); // mixed-precision Adam
    EXPECT_EQ(e->totalBytes, 16'000'000'000);
    EXPECT_EQ(e->optimizerStateBytes, 8'000'000'000);
    c.precision = "fp32";
    c.optimizer = "sgd";
    EXPECT_DOUBLE_EQ(analysis::estimateModelMemory(c)->bytesPerParameter, 12);
    c.bytesPerParameter = 18;
    EXPECT_EQ(analysis::estimateModelMemory(c)->totalBytes, 18'000'000'000);

    model::Trace t;
    model::MemoryCurve curve;
    curve.timestampsNs = {0};
    curve.allocatedBytes = {20'000'000'000};
    curve.reservedBytes = {-1};
    t.memory.curves.push_back(curve);
    const auto s = analysis::summarizeMemory(t, c);
    EXPECT_EQ(*s.nonModelStateBytes, 2'000'000'000);
    EXPECT_FALSE(s.peakReservedBytes.has_value());
}

// A parameter count of 1e300 used to be cast to int64 (UBSan: float-cast-overflow) and the
// parts summed; each part and the total are held at the int64 limit.
TEST(MemoryCategories, HugeParameterCountsAreHeldAtTheLimit)
{
    analysis::RunConfig c;
    c.parameters = 1e300;
    const auto e = analysis::estimateModelMemory(c);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->weightsBytes, std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(e->totalBytes, std::numeric_limits<std::int64_t>::max());
}

TEST(MemoryCategories, TheListedAllocationsAreTheLargestInTheSeriesGroups)
{
    // Five records without a category: the list keeps the two largest (ties: the earlier),
    // each in the group the series puts it in, and says how many there are in all.
    model::Trace t;
    auto rec = [](std::string op, std::int64_t size, std::int64_t alloc, std::int64_t rel) {
        model::Allocation x;
        x.op = std::move(op);
        x.sizeBytes = size;
        x.allocatedNs = alloc;
        x.releasedNs = rel;
        return x;
    };
    t.memory.allocations = {rec("aten::empty", 10, 100, 110), rec("hcom_allReduce_", 50, 0, -1),
        rec("aten::mm", 30, 200, 900), rec("aten::add", 50, 300, 310), rec("adam", 5, 0, 1000)};
    const analysis::AllocationGroups all = analysis::groupAllocations(t);
    EXPECT_FALSE(all.fromEvents);
    EXPECT_EQ(all.count, 5u);
    ASSERT_EQ(all.listed.size(), 5u);
    const analysis::AllocationGroups two = analysis::groupAllocations(t, 2);
    EXPECT_EQ(two.count, 5u);
    ASSERT_EQ(two.listed.size(), 2u);
    EXPECT_EQ(two.listed[0].allocation.op, "hcom_allReduce_"); // 50 B at 0
    EXPECT_EQ(two.listed[1].allocation.op, "aten::add"); // 50 B at 300
    EXPECT_EQ(two.listed[0].group, MemoryGroup::CommunicationBuffers);
    EXPECT_TRUE(two.listed[0].inferred);

    // The groups of the list are the series': at each allocation's start (frees at the same
    // time first), its bytes sit in its group's series.
    const auto series = analysis::memoryGroupTimeline(t);
    for (const analysis::ListedAllocation &row : all.listed) {
        const auto at = std::lower_bound(
            series.timestampsNs.begin(), series.timestampsNs.end(), row.allocation.allocatedNs);
        ASSERT_NE(at, series.timestampsNs.end());
        const auto i = static_cast<std::size_t>(at - series.timestampsNs.begin());
        EXPECT_GE(series.bytes[g(row.group)][i], row.allocation.sizeBytes) << row.allocation.op;
    }
}

TEST(MemoryCategories, SaysWhenUnmatchedFreesPartTheCategoriesFromTheAllocator)
{
    constexpr std::int64_t MiB = 1 << 20;
    using testsupport::MemoryEvent;
    // Two frees of 4 MiB at addresses never allocated, which the allocator's totals count
    // against the 8 MiB it holds: the pairing takes each for a block from before the capture,
    // so the categories peak at 16 MiB where the allocator says 8.
    model::LoadReport notes;
    const model::Trace bad =
        testsupport::memoryEventTrace({MemoryEvent {0, 0x1000, 8 * MiB, 8 * MiB},
            MemoryEvent {10, 0x9001, -4 * MiB, 4 * MiB}, MemoryEvent {20, 0x9002, -4 * MiB, 0}});
    const auto s = analysis::summarizeMemory(bad, analysis::RunConfig {}, &notes);
    ASSERT_TRUE(s.peakAllocatedBytes);
    EXPECT_EQ(*s.peakAllocatedBytes, 8 * MiB);
    ASSERT_EQ(notes.diagnostics().size(), 1u) << notes.toText();
    EXPECT_NE(notes.diagnostics()[0].message.find("peaks at 16.0 MiB"), std::string::npos)
        << notes.toText();
    EXPECT_NE(notes.diagnostics()[0].message.find("2 frees match no allocation"), std::string::npos)
        << notes.toText();
    EXPECT_NE(
        notes.diagnostics()[0].message.find("rank 0: " + s.categoriesDisagree), std::string::npos);

    // A free of a block from before the capture that the totals account for: no word.
    model::LoadReport none;
    const model::Trace good =
        testsupport::memoryEventTrace({MemoryEvent {0, 0x1000, 8 * MiB, 12 * MiB},
            MemoryEvent {10, 0x9001, -4 * MiB, 8 * MiB}, MemoryEvent {20, 0x1000, -8 * MiB, 0}});
    const auto g2 = analysis::summarizeMemory(good, analysis::RunConfig {}, &none);
    EXPECT_TRUE(none.diagnostics().empty()) << none.toText();
    EXPECT_TRUE(g2.categoriesDisagree.empty());
    EXPECT_EQ(*g2.peakAllocatedBytes, 12 * MiB);
}

TEST(MemoryCategories, MemoryBeforeTheCaptureIsReadFromTheDeviceCurve)
{
    using testsupport::MemoryEvent;
    // The first event allocates 100 B where the allocator then holds 1000: 900 B were there
    // before. An earlier point of the device curve and a host curve's point at the same time
    // are not the event's.
    model::Trace t = testsupport::memoryEventTrace(
        {MemoryEvent {50, 0x10, 100, 1000}, MemoryEvent {60, 0x10, -100, 900}});
    model::MemoryCurve &device = t.memory.curves.at(0);
    device.timestampsNs.insert(device.timestampsNs.begin(), 40);
    device.allocatedBytes.insert(device.allocatedBytes.begin(), 7);
    model::MemoryCurve host;
    host.device = "cpu";
    host.timestampsNs = {50};
    host.allocatedBytes = {5000};
    t.memory.curves.insert(t.memory.curves.begin(), host);
    const auto before = [](const model::Trace &trace) {
        std::int64_t sum = 0;
        for (const model::Allocation &a : analysis::allocationsFromMemoryEvents(trace)) {
            if (a.op == "(allocated before the capture)")
                sum += a.sizeBytes;
        }
        return sum;
    };
    EXPECT_EQ(before(t), 900);
    // With no device point at the first event's time nothing is assumed.
    t.memory.curves.erase(t.memory.curves.begin() + 1);
    EXPECT_EQ(before(t), 0);
}

// Allocator memory outside the records on every rank of a cluster (a capture begun after the
// model was set up) is one note, an info: the ranks, the range of the amounts and the first
// rank's figures. One rank keeps its own sentence.
TEST(MemoryCategories, MemoryOutsideTheRecordsIsOneNotePerSession)
{
    constexpr std::int64_t MiB = 1 << 20;
    std::vector<analysis::MemorySummary> memory(4);
    for (std::size_t i = 0; i < memory.size(); ++i) {
        memory[i].rank = static_cast<std::int32_t>(i);
        memory[i].categoriesDisagree = "rank " + std::to_string(i) + "'s figures";
    }
    memory[0].notInCategoriesBytes = 30 * MiB;
    memory[2].notInCategoriesBytes = 10 * MiB;
    memory[3].notInCategoriesBytes = 20 * MiB;
    model::LoadReport notes;
    analysis::noteMemoryNotInCategories(memory, notes);
    ASSERT_EQ(notes.diagnostics().size(), 1u) << notes.toText();
    EXPECT_EQ(notes.diagnostics()[0].severity, model::Severity::Info);
    EXPECT_EQ(notes.diagnostics()[0].message,
        "3 ranks (0 to 3): 10.0 MiB to 30.0 MiB of the allocator's peak in no allocation record, "
        "so the categories do not add up to the allocator's figure; rank 0: rank 0's figures");

    memory[0].notInCategoriesBytes.reset();
    memory[2].notInCategoriesBytes.reset();
    model::LoadReport one;
    analysis::noteMemoryNotInCategories(memory, one);
    ASSERT_EQ(one.diagnostics().size(), 1u) << one.toText();
    EXPECT_EQ(one.diagnostics()[0].message,
        "rank 3: rank 3's figures, so the categories do not add up to the allocator's figure");

    memory[3].notInCategoriesBytes.reset();
    model::LoadReport none;
    analysis::noteMemoryNotInCategories(memory, none);
    EXPECT_TRUE(none.diagnostics().empty());
}
