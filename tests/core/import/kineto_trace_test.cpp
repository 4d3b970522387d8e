// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Golden counts on every real Kineto sample, checked by hand with python3 (json + gzip):
// events per phase in the file vs events in the model, tracks by kind, steps, flows, memory.
#include "chrometrace_testutil.h"
#include "import/kineto/kinetotrace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace stepscope;
using stepscope::testsupport::byKind;
using stepscope::testsupport::dataPath;
using stepscope::testsupport::load;
using model::TrackKind;

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
};

} // namespace

TEST(KinetoTrace, GoldenCountsOnEverySample)
{
    // python3: X + i events per (pid, tid) lane; kind from process_labels "GPU n" / tid
    // "stream..." (device), pid "Spans"/"Traces"/"" or scope "g" (synthetic), else host.
    const std::vector<Golden> golden = {
        {"hta-ddp-2rank-rank1-memory/df_index_resolver.json.gz", 2, 129098, 2, 22290, 2, 3, {2, 3, 4, 5, 6}},
        {"hta-ddp-a100-world2-nccl/nccl_data.json.gz", 3, 23128, 2, 3804, 2, 3, {4, 5, 6}},
        {"hta-mi250-minitoy-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 2, 94, 1, 18, 2, 3, {1, 2}},
        {"hta-sampled-2of128-ranks/sampled_rank-0.json.gz", 2, 3606, 5, 1204, 1, 1, {551, 552}},
        {"hta-sampled-2of128-ranks/sampled_rank-1.json.gz", 2, 3521, 5, 1154, 1, 1, {551, 552}},
        {"kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
         2, 48407, 1, 9096, 2, 3, {5, 6, 7, 8, 9, 10}},
        {"kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz",
         2, 48407, 1, 9096, 2, 3, {16, 17, 18, 19, 20, 21}},
        {"kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz",
         2, 43627, 1, 9258, 2, 3, {5, 6, 7, 8, 9, 10}},
        {"kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_4/worker0.1623213129365.pt.trace.json.gz",
         2, 43627, 1, 9258, 2, 3, {16, 17, 18, 19, 20, 21}},
        {"tracelens-mi300-resnet-actckpt-rank0of8/resnet_act_checkpoint.json.gz", 2, 45533, 2, 3674, 2, 3,
         {15, 16, 17}},
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
        EXPECT_EQ(r.trace.metadata.format, "kineto");
    }
}
