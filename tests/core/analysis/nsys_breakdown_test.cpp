// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Nsight Systems sample through the analysis (docs/metrics.md "Nsight Systems export"):
// the kernels are the compute, the sync rows on the GPU's sync lane are not, and the runtime
// calls split the idle time as they do for Kineto. Numbers printed by
// `python3 tests/tools/check_sqlite_samples.py nsys` ("kernel time sum": the kernels of the
// one stream never overlap, so their union is their sum).

#include "analysis/breakdown.h"
#include "analysis/steps.h"
#include "import/loader.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace stepscope;

namespace {

TEST(NsysBreakdown, KernelsAreTheComputeAndSyncRowsAreNot)
{
    util::Progress progress;
    const auto s = import::loadPath(
        std::filesystem::path(STEPSCOPE_TEST_DATA) / "nsys_sqlite/pipit-cloverleaf-cuda", progress)
                       .session;
    ASSERT_EQ(s->traces.size(), 1u);
    const model::Trace &t = *s->traces[0];
    // No NVTX in this export: one step over the whole trace.
    const auto detection = analysis::detectStepsWithSource(t, nullptr);
    EXPECT_EQ(detection.source, analysis::StepSource::WholeTrace);
    const auto breakdowns = analysis::computeBreakdowns(t);
    ASSERT_EQ(breakdowns.size(), 1u);
    const analysis::StepBreakdown &b = breakdowns[0];
    EXPECT_EQ(b.computeNs, 294404540); // kernel time sum; memcpys and sync rows excluded
    EXPECT_EQ(b.commExposedNs, 0);
    EXPECT_EQ(b.commOverlappedNs, 0);
    EXPECT_EQ(
        b.preparingNs + b.computeNs + b.commExposedNs + b.bubbleNs + b.freeNs, b.durationNs());
    EXPECT_EQ(b.freeNs, b.hostWaitNs + b.dataLoadingNs + b.launchGapNs + b.otherIdleNs);
    // cudaLaunchKernel / cudaMemcpy calls make launch gaps; cudaDeviceSynchronize does not.
    EXPECT_GT(b.launchGapNs, 0);
    EXPECT_GT(b.otherIdleNs, 0);
    EXPECT_EQ(b.hostWaitNs, 0); // no framework operators in an nsys trace
}

} // namespace
