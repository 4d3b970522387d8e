// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The device kernels of a rank by name (analysis::summarizeKernels): what the Kernels panel
// lists and `summary --json` "kernels" writes, computed once in the load's analysis.
#include "analysis/analysissummary.h"
#include "analysis/namestats.h"
#include "import/loader.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

using namespace stepscope;
using namespace stepscope::analysis;

namespace {

/// Two device streams and a host thread; kernels by (name, stream, start, duration).
model::Trace kernelTrace(
    const std::vector<std::tuple<std::string, int, std::int64_t, std::int64_t>> &kernels)
{
    model::TraceBuilder tb;
    model::TrackId streams[2];
    for (int s = 0; s < 2; ++s) {
        model::TrackInfo dev;
        dev.kind = model::TrackKind::DeviceStream;
        dev.threadId = "stream " + std::to_string(7 + s);
        streams[s] = tb.addTrack(dev);
    }
    for (const auto &[name, stream, start, dur] : kernels) {
        const model::Category c = name.rfind("nccl", 0) == 0 ? model::Category::Communication
            : name.rfind("Memcpy", 0) == 0                   ? model::Category::Memcpy
                                                             : model::Category::Compute;
        tb.track(streams[stream]).add(start, dur, tb.intern(name), c);
    }
    model::TrackInfo host;
    host.kind = model::TrackKind::HostThread;
    const model::TrackId h = tb.addTrack(host);
    // Host ops and runtime calls are not kernels, whatever their names.
    tb.track(h).add(0, 900, tb.intern("gemm"), model::Category::HostOp);
    tb.track(h).add(0, 5, tb.intern("cudaLaunchKernel"), model::Category::Runtime);
    return tb.finish().trace;
}

} // namespace

TEST(KernelSummary, CountsTotalsExtremesAndTheLongestInstance)
{
    // gemm 3 x (100, 300, 200) on two streams, nccl 1 x 400, Memcpy 2 x 50; total 1100.
    const model::Trace t =
        kernelTrace({{"gemm", 0, 0, 100}, {"gemm", 1, 50, 300}, {"gemm", 0, 500, 200},
            {"nccl_ar", 1, 600, 400}, {"MemcpyHtoD", 0, 900, 50}, {"MemcpyHtoD", 0, 1000, 50}});
    const KernelSummary k = summarizeKernels(t);
    EXPECT_EQ(k.count, 6);
    EXPECT_EQ(k.totalNs, 1100);
    EXPECT_EQ(k.nameCount, 3u);
    ASSERT_EQ(k.top.size(), 3u);
    // Largest in total first: gemm 600, nccl_ar 400, MemcpyHtoD 100.
    EXPECT_EQ(k.top[0].first, "gemm");
    const NameStats &gemm = k.top[0].second;
    EXPECT_EQ(gemm.count, 3);
    EXPECT_EQ(gemm.totalNs, 600);
    EXPECT_DOUBLE_EQ(gemm.meanNs, 200);
    EXPECT_EQ(gemm.minNs, 100);
    EXPECT_EQ(gemm.maxNs, 300);
    EXPECT_DOUBLE_EQ(gemm.stddevNs, 100); // 100, 300, 200: deviations 100, 100, 0 over n - 1
    EXPECT_DOUBLE_EQ(gemm.medianNs, 200); // the middle of 100, 200, 300, not the first found
    EXPECT_DOUBLE_EQ(gemm.share, 600.0 / 1100.0);
    EXPECT_EQ(gemm.category, model::Category::Compute);
    // The longest gemm is the one on the second stream, at 50 ns.
    const model::Track &longest = t.track(gemm.longest.track);
    EXPECT_EQ(longest.start(gemm.longest.index), 50);
    EXPECT_EQ(longest.duration(gemm.longest.index), 300);
    EXPECT_EQ(k.top[1].first, "nccl_ar");
    EXPECT_EQ(k.top[1].second.category, model::Category::Communication);
    EXPECT_EQ(k.top[2].first, "MemcpyHtoD");
    EXPECT_EQ(k.top[2].second.category, model::Category::Memcpy);
    EXPECT_EQ(k.top[2].second.minNs, 50);
    EXPECT_EQ(k.top[2].second.maxNs, 50);
    EXPECT_DOUBLE_EQ(k.top[2].second.stddevNs, 0); // equal durations
    EXPECT_DOUBLE_EQ(k.top[1].second.stddevNs, 0); // one instance
    EXPECT_DOUBLE_EQ(k.top[1].second.medianNs, 400);
    EXPECT_DOUBLE_EQ(k.top[2].second.medianNs, 50);

    // An even count: the mean of the two middle durations, to the half ns.
    const KernelSummary even = summarizeKernels(
        kernelTrace({{"k", 0, 0, 400}, {"k", 1, 0, 101}, {"k", 0, 500, 100}, {"k", 1, 500, 900}}));
    ASSERT_EQ(even.top.size(), 1u);
    EXPECT_DOUBLE_EQ(even.top[0].second.medianNs, 250.5); // 100, 101 | 400, 900

    // The list keeps the largest; the counts still cover every name.
    const KernelSummary two = summarizeKernels(t, 2);
    ASSERT_EQ(two.top.size(), 2u);
    EXPECT_EQ(two.top[1].first, "nccl_ar");
    EXPECT_EQ(two.nameCount, 3u);
    EXPECT_EQ(two.totalNs, 1100);

    // Equal totals: by name.
    const KernelSummary tie = summarizeKernels(kernelTrace({{"b", 0, 0, 10}, {"a", 0, 20, 10}}));
    ASSERT_EQ(tie.top.size(), 2u);
    EXPECT_EQ(tie.top[0].first, "a");
}

// One step's kernels: those whose start lies in the window, the profiler's op table left out.
TEST(KernelSummary, AWindowKeepsTheKernelsThatStartInIt)
{
    model::Trace t = kernelTrace({{"gemm", 0, 0, 100}, {"gemm", 1, 50, 300}, {"gemm", 0, 500, 200},
        {"nccl_ar", 1, 600, 400}, {"MemcpyHtoD", 0, 900, 50}, {"MemcpyHtoD", 0, 1000, 50}});
    t.opStatistics.push_back({});
    const KernelSummary all = summarizeKernels(t);
    EXPECT_EQ(all.opTypes.size(), 1u);
    // [50, 900): gemm at 50 (ends at 350) and 500, nccl at 600; not the gemm at 0, not the
    // memcpy starting at 900.
    const KernelSummary step = summarizeKernels(t, MaxListedKernels, std::make_pair(50, 900));
    EXPECT_EQ(step.count, 3);
    EXPECT_EQ(step.totalNs, 900);
    ASSERT_EQ(step.top.size(), 2u);
    EXPECT_EQ(step.top[0].first, "gemm");
    EXPECT_EQ(step.top[0].second.count, 2);
    EXPECT_DOUBLE_EQ(step.top[0].second.medianNs, 250);
    EXPECT_EQ(step.top[1].first, "nccl_ar");
    EXPECT_TRUE(step.opTypes.empty());
}

TEST(KernelSummary, NoKernelsNoSummary)
{
    const model::Trace t = kernelTrace({});
    const KernelSummary k = summarizeKernels(t);
    EXPECT_EQ(k.count, 0);
    EXPECT_TRUE(k.top.empty());
}

// The real two-rank DDP trace (rank 0's file): the figures tests/tools/check_kernels.py
// computes from the JSON (72 names, 3 774 kernels, 165 185.838 us; the NCCL all-reduce first,
// 15 x, 46 762.159 us, 1 689.577 to 5 993.392 us, median 2 520.607 us, sample standard
// deviation 1 498.454 us; the 474 nchwToNhwc kernels' median 13.408 us and the 66 cutlass
// nt_align4 gemms' 65.5195 us, both of an even count), in the analysis and `summary --json`.
TEST(KernelSummary, RealTraceMatchesTheFile)
{
    util::Progress progress;
    auto r = import::loadPath(
        std::string(STEPSCOPE_TEST_DATA) + "/kineto/hta-ddp-a100-world2-nccl", progress);
    ASSERT_TRUE(r.session && r.session->hasContent());
    const SessionAnalysis a = analyzeSession(*r.session, RunConfig {});
    const KernelSummary *k = kernelsOfRank(a, r.session->traces.front()->rank);
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->nameCount, 72u);
    EXPECT_EQ(k->count, 3774);
    EXPECT_EQ(k->totalNs, 165'185'838);
    ASSERT_FALSE(k->top.empty());
    const auto &[name, s] = k->top.front();
    EXPECT_EQ(
        name, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)");
    EXPECT_EQ(s.count, 15);
    EXPECT_EQ(s.totalNs, 46'762'159);
    EXPECT_EQ(s.minNs, 1'689'577);
    EXPECT_EQ(s.maxNs, 5'993'392);
    EXPECT_NEAR(s.stddevNs, 1'498'454, 1); // python3's statistics.stdev, to the printed 1 ns
    EXPECT_DOUBLE_EQ(s.medianNs, 2'520'607); // statistics.median
    EXPECT_EQ(s.category, model::Category::Communication);
    EXPECT_EQ(k->top[1].second.count, 474);
    EXPECT_EQ(k->top[1].second.totalNs, 12'616'974);
    EXPECT_DOUBLE_EQ(k->top[1].second.medianNs, 13'408);
    ASSERT_GT(k->top.size(), 8u);
    EXPECT_EQ(k->top[8].second.count, 66);
    EXPECT_DOUBLE_EQ(k->top[8].second.medianNs, 65'519.5);

    nlohmann::json summary = nlohmann::json::object();
    addAnalysisToSummary(summary, a);
    ASSERT_TRUE(summary.contains("kernels"));
    const nlohmann::json &rank = summary.at("kernels").at(0);
    EXPECT_EQ(rank.at("names"), 72);
    EXPECT_EQ(rank.at("count"), 3774);
    EXPECT_NEAR(rank.at("total_us").get<double>(), 165'185.838, 1e-6);
    const nlohmann::json &first = rank.at("top").at(0);
    EXPECT_EQ(first.at("name"), name);
    EXPECT_EQ(first.at("category"), "communication");
    EXPECT_EQ(first.at("count"), 15);
    EXPECT_NEAR(first.at("total_us").get<double>(), 46'762.159, 1e-6);
    EXPECT_NEAR(first.at("max_us").get<double>(), 5'993.392, 1e-6);
    EXPECT_NEAR(first.at("stddev_us").get<double>(), 1'498.454, 1e-3);
    EXPECT_NEAR(first.at("median_us").get<double>(), 2'520.607, 1e-6);

    // `stepscope summary`'s text: the same row, its median beside the longest.
    const std::string text = analysisSummaryText(a);
    EXPECT_NE(text.find("the 10 largest in total"), std::string::npos) << text;
    EXPECT_NE(text.find("\n     46.8 ms  28.3 %       15   2.52 ms   5.99 ms  ncclKernel"),
        std::string::npos)
        << text;
    // Columns line up whatever the unit's characters: "µs" is one column, two bytes.
    EXPECT_NE(text.find("\n     12.6 ms   7.6 %      474   13.4 µs    153 µs  void cudnn"),
        std::string::npos)
        << text;
    EXPECT_EQ(rank.at("top").size(), 20u);
}

// A rank with ten names or fewer lists them all: the text does not promise "the 10 largest".
TEST(KernelSummary, TheSummaryTextSaysHowManyItLists)
{
    util::Progress progress;
    auto r = import::loadPath(
        std::string(STEPSCOPE_TEST_DATA) + "/ascend_pt/msinsight-gpt3-pp2-16rank-trimmed",
        progress);
    ASSERT_TRUE(r.session && r.session->hasContent());
    const SessionAnalysis a = analyzeSession(*r.session, RunConfig {});
    ASSERT_FALSE(a.kernels.empty());
    const KernelSummary &k = a.kernels.front();
    ASSERT_LE(k.nameCount, 10u);
    const std::string text = analysisSummaryText(a);
    const std::string head = "Kernels, rank " + std::to_string(k.rank) + " ("
        + std::to_string(k.nameCount) + " names, " + std::to_string(k.count) + " kernels, ";
    const auto at = text.find(head);
    ASSERT_NE(at, std::string::npos) << text;
    const std::string line = text.substr(at, text.find('\n', at) - at);
    EXPECT_NE(line.find("largest total first)"), std::string::npos) << line;
    EXPECT_EQ(line.find("the 10 largest"), std::string::npos) << line;
}

// Ascend's own table of kernels by type (op_statistic.csv) is kept as written beside ours by
// name: tests/tools/check_op_statistic.py gives, for rank 0 of msinsight-cnn-level2-2rank,
// 33 op types and ForeachAddList (AI_VECTOR_CORE) first: 3 x, 1 954.719 us, 623.732 /
// 651.573 / 700.394 us; rank 1's first total is 1 949.119 us.
TEST(KernelSummary, TheProfilersOpTableIsKeptAsWritten)
{
    util::Progress progress;
    auto r = import::loadPath(
        std::string(STEPSCOPE_TEST_DATA) + "/ascend_pt/msinsight-cnn-level2-2rank", progress);
    ASSERT_TRUE(r.session && r.session->hasContent());
    const SessionAnalysis a = analyzeSession(*r.session, RunConfig {});
    const KernelSummary *k = kernelsOfRank(a, 0);
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(k->opTypes.size(), 33u);
    const model::OpStatistic &first = k->opTypes.front();
    EXPECT_EQ(first.name, "ForeachAddList");
    EXPECT_EQ(first.coreType, "AI_VECTOR_CORE");
    EXPECT_EQ(first.count, 3);
    EXPECT_DOUBLE_EQ(first.totalUs, 1954.719);
    EXPECT_DOUBLE_EQ(first.minUs, 623.732);
    EXPECT_DOUBLE_EQ(first.avgUs, 651.573);
    EXPECT_DOUBLE_EQ(first.maxUs, 700.394);
    for (std::size_t i = 1; i < k->opTypes.size(); ++i)
        EXPECT_GE(k->opTypes[i - 1].totalUs, k->opTypes[i].totalUs);
    const KernelSummary *k1 = kernelsOfRank(a, 1);
    ASSERT_NE(k1, nullptr);
    ASSERT_FALSE(k1->opTypes.empty());
    EXPECT_DOUBLE_EQ(k1->opTypes.front().totalUs, 1949.119);

    nlohmann::json summary = nlohmann::json::object();
    addAnalysisToSummary(summary, a);
    const nlohmann::json &types = summary.at("kernels").at(0).at("op_types");
    ASSERT_EQ(types.size(), 33u);
    EXPECT_EQ(types.at(0).at("type"), "ForeachAddList");
    EXPECT_EQ(types.at(0).at("core_type"), "AI_VECTOR_CORE");
    EXPECT_EQ(types.at(0).at("count"), 3);
    EXPECT_DOUBLE_EQ(types.at(0).at("total_us").get<double>(), 1954.719);
    // A trace without the table writes none.
    const KernelSummary plain = summarizeKernels(kernelTrace({{"gemm", 0, 0, 100}}));
    EXPECT_TRUE(plain.opTypes.empty());
}
