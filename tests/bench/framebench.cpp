// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// `stepscope-bench frame [--events N] [--frames K] [--step-ms S]`: time one timeline frame
// (geometry build + QPainter into a 1920x1080 image) for a synthetic trace of N events (default
// 10 M) in steps of S ms (default 400; the 20 GB generated trace has 31 602 steps of 2 ms)
// built in memory with TraceBuilder, at three zooms: the whole trace, one step, a 1 ms window;
// then two name searches.
// Target (issue 5): <= 8 ms per frame at any zoom. Prints figures; never fails.

#include "benchregistry.h"
#include "model/session.h"
#include "model/tracebuilder.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/timelinemodel.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QString>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/*
 * One rank: four device streams of back-to-back kernels (5..45 µs, gaps 0..10 µs, every
 * eighth one a communication kernel) and one host thread with a ProfilerStep range per step
 * and a launch per kernel under it: events = 4 k + k + steps, k kernels per stream.
 */
std::shared_ptr<const stepscope::model::Session> makeTrace(
    std::uint64_t events, std::int64_t stepNs)
{
    using namespace stepscope::model;
    TraceBuilder b;
    b.trace().rank = 0;
    TrackInfo host;
    host.kind = TrackKind::HostThread;
    host.processId = "100";
    host.processName = "python";
    host.threadId = "1";
    host.threadName = "MainThread";
    const TrackId h = b.addTrack(host);
    std::vector<TrackId> streams;
    for (int s = 0; s < 4; ++s) {
        TrackInfo dev;
        dev.kind = TrackKind::DeviceStream;
        dev.processId = "200";
        dev.processName = "device 0";
        dev.threadId = std::to_string(s);
        dev.threadName = "stream " + std::to_string(s);
        streams.push_back(b.addTrack(dev));
    }
    std::vector<StringId> names;
    for (int k = 0; k < 64; ++k)
        names.push_back(b.intern("kernel_" + std::to_string(k)));
    const StringId launch = b.intern("cudaLaunchKernel");
    const auto perStream = static_cast<std::uint32_t>(events / 5);
    std::uint64_t x = 42;
    std::int64_t end = 0;
    for (std::size_t s = 0; s < streams.size(); ++s) {
        TrackBuilder &tb = b.track(streams[s]);
        tb.reserve(perStream);
        std::int64_t at = static_cast<std::int64_t>(s) * 1000;
        for (std::uint32_t i = 0; i < perStream; ++i) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            const auto dur = static_cast<std::int64_t>(5'000 + (x >> 33) % 40'000);
            const auto gap = static_cast<std::int64_t>((x >> 17) % 10'000);
            tb.add(at, dur, names[(x >> 40) % names.size()],
                (i % 8 == 7) ? Category::Communication : Category::Compute);
            if (s == 0)
                b.track(h).add(at - 2'000, 1'500, launch, Category::Runtime);
            at += dur + gap;
        }
        end = std::max(end, at);
    }
    for (std::int64_t t = 0, k = 0; t < end; t += stepNs, ++k) {
        const std::int64_t e = std::min(end, t + stepNs);
        b.track(h).add(
            t - 3'000, e - t, b.intern("ProfilerStep#" + std::to_string(k)), Category::Annotation);
        b.trace().steps.push_back({k, t - 3'000, e - 3'000});
    }
    auto session = std::make_shared<Session>();
    session->format = "synthetic";
    session->traces.push_back(std::make_shared<const Trace>(b.finish().trace));
    return session;
}

struct FrameTimes
{
    double buildMs = 0;
    double paintMs = 0;
    double worstMs = 0;
    std::size_t rects = 0;
};

FrameTimes timeFrames(const stepscope::ui::timeline::TimelineModel &model, std::int64_t t0,
    std::int64_t t1, int frames)
{
    using namespace stepscope::ui::timeline;
    const QSize size(1920, 1080);
    const TimelineMetrics metrics;
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    ViewState view;
    view.axis = TimeAxis(0, 1, size.width() - metrics.headerWidth);
    view.axis.fit(t0, t1);
    {
        // Warm-up (glyph caches, first allocation of the geometry vectors): not counted.
        QPainter painter(&image);
        paintGeometry(painter, buildGeometry(model, view, size, metrics));
    }
    FrameTimes r;
    for (int f = 0; f < frames; ++f) {
        view.axis.panPx(f % 2 ? -7.0 : 7.0); // a slightly different window each frame
        const auto a = Clock::now();
        const Geometry g = buildGeometry(model, view, size, metrics);
        const double built = msSince(a);
        const auto b = Clock::now();
        {
            QPainter painter(&image);
            paintGeometry(painter, g);
        }
        const double painted = msSince(b);
        r.buildMs += built;
        r.paintMs += painted;
        r.worstMs = std::max(r.worstMs, built + painted);
        r.rects = g.rectCount();
    }
    r.buildMs /= frames;
    r.paintMs /= frames;
    return r;
}

int runFrame(int argc, char **argv)
{
    std::uint64_t events = 10'000'000;
    int frames = 20;
    double stepMs = 400;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--events") == 0)
            events = std::strtoull(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--frames") == 0)
            frames = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--step-ms") == 0)
            stepMs = std::max(0.01, std::atof(argv[++i]));
    }
    if (!std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    int qtArgc = 1;
    QApplication app(qtArgc, argv);

    auto t = Clock::now();
    const auto session = makeTrace(events, static_cast<std::int64_t>(stepMs * 1e6));
    const double makeMs = msSince(t);
    t = Clock::now();
    const auto model = stepscope::ui::timeline::TimelineModel::build(session);
    const double modelMs = msSince(t);
    const auto [lo, hi] = model->extent();
    std::printf("frame: %llu events, trace %.1f s, %zu steps; built in %.0f ms, timeline model "
                "(lanes, LOD summaries, step lane) in %.0f ms, summaries %.1f MiB\n",
        static_cast<unsigned long long>(session->eventCount()), static_cast<double>(hi - lo) / 1e9,
        model->steps(0).size(), makeMs, modelMs,
        static_cast<double>(model->summaryBytes()) / (1024.0 * 1024.0));
    const auto &steps = model->steps(0);
    const auto &mid = steps[steps.size() / 2];
    const std::int64_t into = std::min<std::int64_t>(100'000'000, (mid.endNs - mid.startNs) / 4);
    struct Case
    {
        const char *name;
        std::int64_t t0, t1;
    } cases[] = {
        {"whole trace", lo, hi},
        {"one step", mid.startNs, mid.endNs},
        {"1 ms window", mid.startNs + into, mid.startNs + into + 1'000'000},
    };
    std::printf("%-12s %10s %10s %10s %10s %8s\n", "view", "build ms", "paint ms", "frame ms",
        "worst ms", "rects");
    for (const Case &c : cases) {
        const FrameTimes r = timeFrames(*model, c.t0, c.t1, frames);
        std::printf("%-12s %10.2f %10.2f %10.2f %10.2f %8zu\n", c.name, r.buildMs, r.paintMs,
            r.buildMs + r.paintMs, r.worstMs, r.rects);
    }
    // The toolbar's name search (TimelineModel::search, on the GUI thread): one kernel name in
    // 64, and every launch (a fifth of the events).
    for (const char *needle : {"kernel_7", "cudaLaunch"}) {
        t = Clock::now();
        const auto found = model->search(QString::fromLatin1(needle));
        std::printf("search %-12s %8.1f ms %10zu matches\n", needle, msSince(t), found.size());
    }
    return 0;
}

} // namespace

STEPSCOPE_BENCH_COMMAND("frame", runFrame);
