// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The communication table of the Kineto samples with NCCL kernels, as summary --json gives it.
#include "analysis/analysissummary.h"
#include "analysis/communication.h"
#include "import/loader.h"
#include "import/summary.h"
#include "sample_testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>

using namespace stepscope;

namespace {

using testsupport::loadSample;

} // namespace

/// The NCCL kernels of hta-ddp-a100-world2-nccl give their message in their args: summary
/// --json's communication rows carry its bytes and the bandwidth over the kernels' time
/// (tests/tools/check_nccl_kernels.py: allreduce 15 kernels, 306 684 384 bytes in 46 762.159
/// us; broadcast 6 kernels, 638 712 bytes in 114.334 us). The columns were empty.
TEST(NcclSamples, KernelsGiveBytesAndBandwidthInTheSummary)
{
    const auto session = loadSample("kineto/hta-ddp-a100-world2-nccl");
    ASSERT_TRUE(session);
    nlohmann::json j = import::importSummaryJson(*session);
    analysis::addAnalysisToSummary(j, *session, {});
    std::map<std::string, nlohmann::json> rows;
    for (const auto &row : j["communication"]["collectives"])
        rows[row["name"].get<std::string>()] = row;
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows["allreduce"]["count"], 15);
    EXPECT_EQ(rows["allreduce"]["bytes"], 306684384.0);
    EXPECT_NEAR(rows["allreduce"]["bandwidth_gbps"].get<double>(), 306684384.0 / 46762159.0, 1e-6);
    EXPECT_EQ(rows["broadcast"]["count"], 6);
    EXPECT_EQ(rows["broadcast"]["bytes"], 638712.0);
    EXPECT_NEAR(rows["broadcast"]["bandwidth_gbps"].get<double>(), 638712.0 / 114334.0, 1e-6);
    // Two ranks: an all-reduce's bus bandwidth is its bandwidth (2(n-1)/n = 1).
    EXPECT_NEAR(rows["allreduce"]["bus_bandwidth_gbps"].get<double>(),
        rows["allreduce"]["bandwidth_gbps"].get<double>(), 1e-12);
}

/// tracelens-mi300-resnet-actckpt-rank0of8: 17 NCCL kernels on stream 4. The 12 that name
/// their collective sit in gpu_user_annotations (row 1), the other 5 not (row 0); the table
/// counted the 5 alone. tests/tools/check_nccl_kernels.py: allreduce 6 kernels, 70 137 072
/// bytes in 47 137 038 ns; broadcast 6, 58 080 bytes in 63 272 ns; groups of 8.
TEST(NcclSamples, KernelsInAndOutOfAnnotationsAreAllCounted)
{
    const auto mi300 = loadSample("kineto/tracelens-mi300-resnet-actckpt-rank0of8");
    ASSERT_TRUE(mi300);
    std::map<std::string, analysis::CollectiveRow> rows;
    for (const analysis::CollectiveRow &r : analysis::collectiveTable(*mi300))
        rows[r.name] = r;
    ASSERT_EQ(rows.size(), 3u);
    const analysis::CollectiveRow &allreduce = rows["allreduce"];
    EXPECT_EQ(allreduce.count, 6);
    EXPECT_NEAR(allreduce.totalUs, 47137.038, 1e-6);
    ASSERT_TRUE(allreduce.bytes && allreduce.busBandwidthGBps);
    EXPECT_EQ(*allreduce.bytes, 70137072.0);
    EXPECT_NEAR(*allreduce.busBandwidthGBps, 70137072.0 / 47137038.0 * 1.75, 1e-9);
    EXPECT_EQ(rows["broadcast"].count, 6);
    EXPECT_EQ(*rows["broadcast"].bytes, 58080.0);
    // The kernels that give no args: counted, with no bytes, and named as what they are (the
    // row read "Generic", as if that were a collective).
    ASSERT_EQ(rows.count("collective not named (ncclDevKernel_Generic)"), 1u);
    const analysis::CollectiveRow &generic = rows["collective not named (ncclDevKernel_Generic)"];
    EXPECT_EQ(generic.count, 5);
    EXPECT_FALSE(generic.bytes);
    EXPECT_FALSE(generic.busBandwidthGBps);
}
