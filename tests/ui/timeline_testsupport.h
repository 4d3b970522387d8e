// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Synthetic traces for the timeline tests, built in memory with TraceBuilder.
#pragma once

#include "model/session.h"
#include "model/tracebuilder.h"

#include <memory>
#include <string>

namespace stepscope::testsupport {

/// A device stream track of process `processId`, stream `threadId`, added to `b`.
inline model::TrackId addDeviceStream(
    model::TraceBuilder &b, const char *processId, const char *threadId)
{
    model::TrackInfo info;
    info.kind = model::TrackKind::DeviceStream;
    info.processId = processId;
    info.threadId = threadId;
    return b.addTrack(info);
}

/// One rank, one host thread and one device stream. The stream holds `kernels` back-to-back
/// kernels of `kernelNs` separated by `gapNs`, alternating Compute / Communication, named
/// "kernel_<i % 7>". The host thread holds one "ProfilerStep#<k>" range per step of
/// `stepKernels` kernels and a "launch" child per kernel; steps go into trace.steps.
inline std::shared_ptr<const model::Session> makeSession(std::uint32_t kernels,
    std::int64_t kernelNs, std::int64_t gapNs, std::uint32_t stepKernels = 0, int ranks = 1)
{
    auto session = std::make_shared<model::Session>();
    session->format = "synthetic";
    for (int r = 0; r < ranks; ++r) {
        model::TraceBuilder b;
        b.trace().rank = r;
        b.trace().originNs = 1'000'000'000;
        model::TrackInfo host;
        host.kind = model::TrackKind::HostThread;
        host.rank = r;
        host.processId = "100";
        host.processName = "python";
        host.threadId = "1";
        host.threadName = "MainThread";
        model::TrackInfo dev = host;
        dev.kind = model::TrackKind::DeviceStream;
        dev.processId = "200";
        dev.processName = "GPU 0";
        dev.threadId = "7";
        dev.threadName = "stream 7";
        const model::TrackId h = b.addTrack(host);
        const model::TrackId d = b.addTrack(dev);
        model::StringId names[7];
        for (int k = 0; k < 7; ++k)
            names[k] = b.intern("kernel_" + std::to_string(k));
        const model::StringId launch = b.intern("launch");
        const std::int64_t period = kernelNs + gapNs;
        for (std::uint32_t i = 0; i < kernels; ++i) {
            const std::int64_t s = static_cast<std::int64_t>(i) * period;
            const auto cat =
                (i % 2 == 0) ? model::Category::Compute : model::Category::Communication;
            const std::uint32_t dk = b.track(d).add(s, kernelNs, names[i % 7], cat);
            if (stepKernels > 0) {
                const std::uint32_t hk = b.track(h).add(
                    s, std::max<std::int64_t>(1, kernelNs / 4), launch, model::Category::Runtime);
                b.addFlow({h, hk}, {d, dk}, b.intern("ac2g"));
            }
        }
        if (stepKernels > 0) {
            for (std::uint32_t k = 0; k * stepKernels < kernels; ++k) {
                const std::int64_t s = static_cast<std::int64_t>(k * stepKernels) * period;
                const std::uint32_t n = std::min(stepKernels, kernels - k * stepKernels);
                const std::int64_t e = s + static_cast<std::int64_t>(n) * period;
                b.track(h).add(s, e - s, b.intern("ProfilerStep#" + std::to_string(k)),
                    model::Category::Annotation);
                b.trace().steps.push_back({static_cast<std::int64_t>(k), s, e});
            }
        }
        auto result = b.finish();
        session->traces.push_back(std::make_shared<const model::Trace>(std::move(result.trace)));
    }
    return session;
}

} // namespace stepscope::testsupport
