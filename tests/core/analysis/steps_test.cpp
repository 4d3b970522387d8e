// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/steps.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

using namespace stepscope;
using model::Category;
using model::TrackKind;

namespace {

model::TrackId track(model::TraceBuilder &b, TrackKind kind)
{
    model::TrackInfo i;
    i.kind = kind;
    return b.addTrack(i);
}

} // namespace

TEST(Steps, ProfilerStepHostCopyWinsOverGpuCopy)
{
    model::TraceBuilder b;
    const auto host = track(b, TrackKind::HostThread);
    const auto gpu = track(b, TrackKind::DeviceStream);
    b.track(host).add(100, 900, b.intern("ProfilerStep#5"), Category::Annotation);
    b.track(host).add(1000, 800, b.intern("ProfilerStep#6"), Category::Annotation);
    // The GPU copy of step 5 is a sliver after the forward (docs/formats.md §5.5).
    b.track(gpu).add(400, 18, b.intern("ProfilerStep#5"), Category::Annotation);
    b.track(gpu).add(2000, 50, b.intern("ProfilerStep#7"), Category::Annotation);
    const auto trace = b.finish().trace;
    model::LoadReport report;
    const auto d = analysis::detectStepsWithSource(trace, &report);
    EXPECT_EQ(d.source, analysis::StepSource::ProfilerStep);
    ASSERT_EQ(d.steps.size(), 3u);
    EXPECT_EQ(d.steps[0].number, 5);
    EXPECT_EQ(d.steps[0].startNs, 100);
    EXPECT_EQ(d.steps[0].endNs, 1000);
    EXPECT_EQ(d.steps[1].number, 6);
    EXPECT_EQ(d.steps[2].number, 7); // only a GPU copy exists: kept
    EXPECT_TRUE(report.empty());
}

TEST(Steps, APartialLastProfilerStepIsLeftOutWithANote)
{
    // hta-mi250-minitoy-rocm: ProfilerStep#1 9 288.291 µs, #2 49.073 µs (the profiler stopped
    // during it; the file's two user_annotation spans).
    model::TraceBuilder b;
    const auto host = track(b, TrackKind::HostThread);
    b.track(host).add(168'683, 9'288'291, b.intern("ProfilerStep#1"), Category::Annotation);
    b.track(host).add(9'493'984, 49'073, b.intern("ProfilerStep#2"), Category::Annotation);
    const auto trace = b.finish().trace;
    model::LoadReport report;
    const auto steps = analysis::detectSteps(trace, &report);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].number, 1);
    ASSERT_EQ(report.diagnostics().size(), 1u);
    EXPECT_NE(report.diagnostics()[0].message.find("ProfilerStep#2 (49.1 µs"), std::string::npos)
        << report.diagnostics()[0].message;

    // A last step of ordinary length stays.
    model::TraceBuilder c;
    const auto h2 = track(c, TrackKind::HostThread);
    c.track(h2).add(0, 1000, c.intern("ProfilerStep#1"), Category::Annotation);
    c.track(h2).add(1000, 200, c.intern("ProfilerStep#2"), Category::Annotation);
    EXPECT_EQ(analysis::detectSteps(c.finish().trace, nullptr).size(), 2u);
}

// The real hta-mi250-minitoy load goes through the Kineto importer's trace.steps, not the
// ProfilerStep search above: the same rule holds there (the Steps panel showed the 49 us
// step and a mean of 4.67 ms).
TEST(Steps, KinetoImporterStepsLeaveOutThePartialLastStepToo)
{
    model::TraceBuilder b;
    b.trace().metadata.format = "kineto";
    b.trace().steps = {model::Step {1, 168'683, 168'683 + 9'288'291},
        model::Step {2, 9'493'984, 9'493'984 + 49'073}};
    const auto trace = b.finish().trace;
    model::LoadReport report;
    const auto d = analysis::detectStepsWithSource(trace, &report);
    EXPECT_EQ(d.source, analysis::StepSource::Importer);
    ASSERT_EQ(d.steps.size(), 1u);
    EXPECT_EQ(d.steps[0].number, 1);
    ASSERT_EQ(report.diagnostics().size(), 1u);
    EXPECT_NE(report.diagnostics()[0].message.find("ProfilerStep#2 (49.1 µs"), std::string::npos);

    // Another importer's steps are its format's own (a step table): kept as written.
    model::TraceBuilder c;
    c.trace().metadata.format = "mindspore-legacy";
    c.trace().steps = trace.steps;
    EXPECT_EQ(analysis::detectSteps(c.finish().trace, nullptr).size(), 2u);
}

TEST(Steps, ImporterStepsComeFirst)
{
    model::TraceBuilder b;
    const auto host = track(b, TrackKind::HostThread);
    b.track(host).add(0, 10, b.intern("ProfilerStep#1"), Category::Annotation);
    b.trace().steps.push_back(model::Step {50, 0, 500});
    const auto trace = b.finish().trace;
    const auto d = analysis::detectStepsWithSource(trace, nullptr);
    EXPECT_EQ(d.source, analysis::StepSource::Importer);
    ASSERT_EQ(d.steps.size(), 1u);
    EXPECT_EQ(d.steps[0].number, 50);
}

TEST(Steps, IterationEventsOfLegacyFormats)
{
    model::TraceBuilder b;
    const auto t = track(b, TrackKind::DeviceStream);
    b.track(t).add(0, 100, b.intern("Iteration 1"), Category::Annotation);
    b.track(t).add(100, 120, b.intern("Iteration 2"), Category::Annotation);
    const auto trace = b.finish().trace;
    const auto d = analysis::detectStepsWithSource(trace, nullptr);
    EXPECT_EQ(d.source, analysis::StepSource::AscendStep);
    ASSERT_EQ(d.steps.size(), 2u);
    EXPECT_EQ(d.steps[1].number, 2);
    EXPECT_EQ(d.steps[1].durationNs(), 120);
}

TEST(Steps, InferredFromTheMostFrequentOptimizerStepWithDiagnostic)
{
    model::TraceBuilder b;
    const auto host = track(b, TrackKind::HostThread);
    b.track(host).add(0, 10, b.intern("aten::mm"), Category::HostOp);
    for (int i = 0; i < 3; ++i)
        b.track(host).add(
            100 + i * 100, 20, b.intern("Optimizer.step#Adam.step"), Category::HostOp);
    // A second optimizer that runs once must not change the step count.
    b.track(host).add(50, 5, b.intern("Optimizer.step#EMA.step"), Category::HostOp);
    const auto trace = b.finish().trace;
    model::LoadReport report;
    const auto d = analysis::detectStepsWithSource(trace, &report);
    EXPECT_EQ(d.source, analysis::StepSource::Optimizer);
    ASSERT_EQ(d.steps.size(), 3u);
    EXPECT_EQ(d.steps[0].startNs, 0);
    EXPECT_EQ(d.steps[0].endNs, 120);
    EXPECT_EQ(d.steps[1].startNs, 120);
    EXPECT_EQ(d.steps[1].endNs, 220);
    EXPECT_EQ(d.steps[2].endNs, 320);
    ASSERT_EQ(report.diagnostics().size(), 1u);
    EXPECT_NE(report.diagnostics()[0].message.find("Optimizer.step#"), std::string::npos);
}

TEST(Steps, WholeTraceAsOneStepWithDiagnostic)
{
    model::TraceBuilder b;
    const auto host = track(b, TrackKind::HostThread);
    b.track(host).add(30, 70, b.intern("aten::mm"), Category::HostOp);
    b.track(host).add(200, 10, b.intern("Optimizer.step#SGD.step"), Category::HostOp);
    const auto trace = b.finish().trace;
    model::LoadReport report;
    const auto d = analysis::detectStepsWithSource(trace, &report);
    EXPECT_EQ(d.source, analysis::StepSource::WholeTrace);
    ASSERT_EQ(d.steps.size(), 1u);
    EXPECT_EQ(d.steps[0].startNs, 30);
    EXPECT_EQ(d.steps[0].endNs, 210);
    ASSERT_EQ(report.diagnostics().size(), 1u);
    EXPECT_NE(report.diagnostics()[0].message.find("one step"), std::string::npos);

    model::Trace empty;
    EXPECT_EQ(analysis::detectStepsWithSource(empty, &report).source, analysis::StepSource::Empty);
}
