// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// A CANN PROF folder's newer export (mindstudio_profiler_output/, docs/formats.md §3a) against
// the CANN 6.3 device export it was made from (tests/tools/make_prof_export.py: the same
// events, on the wall clock, pids formatted, HCCL named Communication, in two slices beside
// a step_trace timeline): what `summary --json` shows of every step is the same.

#include "analysis/analysissummary.h"
#include "sample_testutil.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace stepscope;

namespace {

const char *Export = "cann_prof/msprof-export-derived-1dev";
const char *Device = "mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev/"
                     "PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0";

/// The summary's steps of a sample, without their start (relative to the load's origin,
/// which is collectionTimeBegin for the device export and the first event for the newer one)
/// and the warm-up mark (a judgement over all of a rank's steps: 3 here, 10 there).
nlohmann::json stepsOf(const std::string &relative)
{
    const auto session = testsupport::loadSample(relative);
    if (!session)
        return {};
    const analysis::SessionAnalysis a = analysis::analyzeSession(*session, analysis::RunConfig {});
    nlohmann::json j = nlohmann::json::object();
    analysis::addAnalysisToSummary(j, a);
    nlohmann::json steps = j["steps"];
    for (nlohmann::json &s : steps) {
        s.erase("start_us");
        s.erase("warm_up");
    }
    return steps;
}

} // namespace

TEST(ProfExport, EveryStepEqualsTheDeviceExportItWasMadeFrom)
{
    const nlohmann::json exported = stepsOf(Export);
    const nlohmann::json device = stepsOf(Device);
    // Three iterations exported of the device's ten, each once: the step_trace timeline
    // beside the slices repeats the steps and is not read.
    ASSERT_EQ(exported.size(), 3u) << exported.dump(1);
    ASSERT_EQ(device.size(), 10u);
    for (std::size_t i = 0; i < exported.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(exported[i], device[i]);
    }
    // By hand from msprof_0_2_1.json (as RealSamples.CannProfTimelineEqualsItsOverlapAnalysis-
    // Lanes): iteration 1 takes 47 587.81 us, of which 5 914.58 us compute.
    EXPECT_EQ(exported[0]["step"], 1);
    EXPECT_DOUBLE_EQ(exported[0]["duration_us"].get<double>(), 47587.81);
    EXPECT_DOUBLE_EQ(exported[0]["compute_us"].get<double>(), 5914.58);
    EXPECT_GT(exported[0]["comm_exposed_us"].get<double>(), 40000.0);
}

TEST(ProfExport, TheCollectivesAreCommunicationLanes)
{
    const auto session = testsupport::loadSample(Export);
    ASSERT_TRUE(session);
    ASSERT_EQ(session->traces.size(), 1u);
    const model::Trace &trace = *session->traces.front();
    EXPECT_EQ(trace.metadata.format, "cann-prof");
    EXPECT_EQ(trace.rank, 0); // info.json.0 of the raw device folder
    std::size_t communication = 0;
    for (const model::Track &t : trace.tracks)
        if (t.info().processName == "Communication") {
            EXPECT_EQ(t.info().kind, model::TrackKind::CommunicationGroup);
            ++communication;
        }
    EXPECT_EQ(communication, 5u); // Plane 0..3 and Communication Kernel
    EXPECT_EQ(session->report.count(model::Severity::Warning), 0u) << session->report.toText();
}
