// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// A trace stamped in epoch microseconds (issue 11 item 7): the ruler, the details pane and
// the exported timeline read from the first event ("0 ms", "100 ms"), never the timestamp
// ("1764246877100 ms").
#include "model/tracebuilder.h"
#include "ui/timeline/detailspane.h"
#include "ui/timeline/geometrybuilder.h"
#include "ui/timeline/timelinemodel.h"
#include "ui/timeline/timelineview.h"

#include <gtest/gtest.h>

using namespace stepscope;
using namespace stepscope::ui::timeline;

namespace {

constexpr std::int64_t EpochUs = 1764246877100000; // 2025-11-27, in µs as Kineto stamps it

// One rank, origin 0 (the clock the file gave), four 100 ms steps stamped in epoch µs.
std::shared_ptr<const model::Session> epochSession()
{
    model::TraceBuilder tb;
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.threadId = "7";
    const model::TrackId d = tb.addTrack(dev);
    for (int i = 0; i < 4; ++i) {
        const std::int64_t t0 = (EpochUs + i * 100'000) * 1000;
        tb.trace().steps.push_back({i + 1, t0, t0 + 100'000'000});
        tb.track(d).add(t0 + 1'000'000, 80'000'000, tb.intern("gemm"), model::Category::Compute);
    }
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(tb.finish().trace));
    return session;
}

QStringList rulerLabels(const Geometry &g, double rulerHeight)
{
    QStringList out;
    for (const TextItem &t : g.texts)
        if (t.rect.bottom() <= rulerHeight * 0.5 + 1 && t.text.endsWith(QStringLiteral(" ms")))
            out << t.text;
    return out;
}

} // namespace

TEST(TimelineEpochRuler, LabelsReadFromTheFirstEvent)
{
    auto model = TimelineModel::build(epochSession());
    ASSERT_GT(model->extent().first, std::int64_t {1'000'000'000'000'000'000}); // epoch ns
    TimelineView view;
    view.resize(1200, 400);
    view.show();
    view.setModel(model);
    view.fitAll();
    const QStringList labels = rulerLabels(view.currentGeometry(), view.metrics().rulerHeight);
    ASSERT_GE(labels.size(), 3) << labels.join(QStringLiteral(" | ")).toStdString();
    // The first event starts at 1 ms into step 1; labels count from there: 0 ms, 50 ms, …
    EXPECT_TRUE(
        labels.contains(QStringLiteral("0 ms")) || labels.contains(QStringLiteral("100 ms")))
        << labels.join(QStringLiteral(" | ")).toStdString();
    for (const QString &l : labels) {
        const double v = l.chopped(3).toDouble();
        EXPECT_LT(v, 1000.0) << l.toStdString(); // the whole trace is 400 ms long
        EXPECT_FALSE(l.contains(QStringLiteral("1764246877"))) << l.toStdString();
    }
}

TEST(TimelineEpochRuler, DetailsStartFromTheFirstEvent)
{
    auto model = TimelineModel::build(epochSession());
    // The second gemm: 100 ms after the first one.
    EventKey e;
    e.traceIndex = 0;
    e.trackIndex = 0;
    e.index = 1;
    const QString html = DetailsPane::describe(*model, e);
    // 100 ms after the first gemm, 101 ms after the first step start (whichever the extent
    // starts with); the old text was the epoch timestamp in seconds.
    EXPECT_TRUE(
        html.contains(QStringLiteral(">100 ms<")) || html.contains(QStringLiteral(">101 ms<")))
        << html.toStdString();
    EXPECT_FALSE(html.contains(QStringLiteral("1764246877"))) << html.toStdString();
    EXPECT_FALSE(html.contains(QStringLiteral(" s<"))) << html.toStdString();
}

TEST(TimelineEpochRuler, DetailsStartIsExactLateInALongTrace)
{
    // A kernel 77 s and 123 456 ns after the first: "77.0 s" (a duration's three digits)
    // would name every kernel of a 300 µs window there alike.
    model::TraceBuilder tb;
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.threadId = "7";
    const model::TrackId d = tb.addTrack(dev);
    const std::int64_t t0 = EpochUs * 1000;
    tb.track(d).add(t0, 5'000, tb.intern("first"), model::Category::Compute);
    tb.track(d).add(t0 + 77'000'123'456, 30'500, tb.intern("late"), model::Category::Compute);
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(tb.finish().trace));
    auto model = TimelineModel::build(session);
    EventKey e;
    e.traceIndex = 0;
    e.trackIndex = 0;
    e.index = 1;
    const QString html = DetailsPane::describe(*model, e);
    EXPECT_TRUE(html.contains(QStringLiteral(">77.000123456 s<"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral(">30.5 µs<"))) << html.toStdString(); // duration
}

/// Integer arguments read whole: an "external id" and a 16-digit epoch timestamp were printed
/// in scientific notation ("1.62314262363178e+15"), losing the last digit.
TEST(TimelineEpochRuler, DetailsArgumentsKeepIntegersWhole)
{
    model::TraceBuilder tb;
    model::TrackInfo dev;
    dev.kind = model::TrackKind::DeviceStream;
    dev.threadId = "7";
    const model::TrackId d = tb.addTrack(dev);
    const model::ArgsId args = tb.trace().args.add(
        R"({"external ts": 1623142623631780, "correlation": 31234, "occupancy": 0.25,)"
        R"( "Bytes": -16777216, "Total Allocated": 2791728742, "bytes": 512})");
    tb.track(d).add(0, 5'000, tb.intern("gemm"), model::Category::Compute, args);
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(tb.finish().trace));
    auto model = TimelineModel::build(session);
    EventKey e;
    e.traceIndex = 0;
    e.trackIndex = 0;
    e.index = 0;
    const QString html = DetailsPane::describe(*model, e);
    EXPECT_TRUE(html.contains(QStringLiteral("1623142623631780"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral(">31234<"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral(">0.25<"))) << html.toStdString();
    // Byte counts ([memory] events) also read in binary units; small ones stay as they are.
    EXPECT_TRUE(html.contains(QStringLiteral(">-16777216 (-16.0 MiB)<"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral(">2791728742 (2.60 GiB)<"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral(">512<"))) << html.toStdString();
}
