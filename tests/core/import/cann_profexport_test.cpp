// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// A CANN PROF folder's newer export, mindstudio_profiler_output/ (docs/formats.md §3a): found
// from the PROF folder, the export folder, one of its files or the raw device folder, renamed
// or not; its newest export's slices read once each; a timeline of several devices said so.
// The fixture is made by tests/tools/make_prof_export.py (its steps against the device export
// it came from: ProfExport.* in analysis_tests).
#include "import/cann/proftimeline.h"
#include "import/detect/detect.h"
#include "import_fixture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

using namespace stepscope;
using import::detect::Detection;
using import::detect::detectPath;
using import::detect::Format;
namespace fs = std::filesystem;

namespace {

const char *Prof =
    "cann_prof/msprof-export-derived-1dev/PROF_000001_20230818142704322_COJGGGCANRMICFBC";
const char *Stamp = "20230818142800";

class ProfExportTest : public testsupport::ImportFixture
{
protected:
    /// A copy of the fixture's PROF folder named `name` in the temporary folder.
    fs::path copyProf(const std::string &name)
    {
        const fs::path to = m_tmp / name;
        fs::copy(testsupport::dataPath(Prof), to, fs::copy_options::recursive);
        return to;
    }

    bool read(const fs::path &exportDir, const fs::path &deviceDir, model::Trace &trace)
    {
        model::TraceBuilder b;
        const bool ok = import::cann::readProfExport(exportDir, deviceDir, 0, m_ctx, b);
        trace = std::move(b.finish().trace);
        return ok;
    }
};

} // namespace

TEST_F(ProfExportTest, EveryWayInFindsTheExport)
{
    const fs::path prof = copyProf("PROF_000001_20230818142704322_COJGGGCANRMICFBC");
    const fs::path out = prof / "mindstudio_profiler_output";
    for (const fs::path &open :
        {m_tmp, prof, out, out / ("msprof_slice_1_" + std::string(Stamp) + ".json"),
            out / ("step_trace_" + std::string(Stamp) + ".json"), prof / "device_0"}) {
        SCOPED_TRACE(open.string());
        const Detection d = detectPath(open);
        EXPECT_EQ(d.format, Format::CannProf) << d.reason;
        ASSERT_EQ(d.profDevices.size(), 1u);
        EXPECT_EQ(d.profDevices[0].exportDir, out);
        EXPECT_EQ(d.profDevices[0].dir, prof / "device_0"); // its info.json names the rank
        EXPECT_TRUE(d.kinetoFiles.empty()); // not three generic traces
        EXPECT_TRUE(d.skipped.empty());
    }
    // The export alone, copied into a folder of another name: still the export.
    const fs::path alone = m_tmp / "run" / "copied";
    fs::create_directories(alone);
    fs::copy(out, alone / "mindstudio_profiler_output", fs::copy_options::recursive);
    const Detection d = detectPath(m_tmp / "run");
    EXPECT_EQ(d.format, Format::CannProf) << d.reason;
    ASSERT_EQ(d.profDevices.size(), 1u);
    EXPECT_EQ(d.profDevices[0].dir, alone);
    EXPECT_EQ(d.profDevices[0].exportDir, alone / "mindstudio_profiler_output");
}

TEST_F(ProfExportTest, SummariesWithoutATimelineSayWhatToRun)
{
    const fs::path prof = m_tmp / "PROF_000001_20230818142704322_COJGGGCANRMICFBC";
    fs::create_directories(prof / "mindstudio_profiler_output");
    fs::create_directories(prof / "device_0/data");
    write("PROF_000001_20230818142704322_COJGGGCANRMICFBC/mindstudio_profiler_output/"
          "op_summary_20230818142800.csv",
        "Device_id,Op Name\n0,Conv2D\n");
    const Detection d = detectPath(prof);
    EXPECT_EQ(d.format, Format::Unknown);
    EXPECT_NE(d.reason.find("no timeline (msprof_*.json)"), std::string::npos) << d.reason;
    EXPECT_NE(d.reason.find("--type=db"), std::string::npos) << d.reason;
}

TEST_F(ProfExportTest, AnEarlierExportBesideTheNewestIsNotReadTwice)
{
    const fs::path prof = copyProf("PROF_000001_20230818142704322_COJGGGCANRMICFBC");
    const fs::path out = prof / "mindstudio_profiler_output";
    model::Trace once;
    ASSERT_TRUE(read(out, prof / "device_0", once));
    EXPECT_EQ(m_report.count(model::Severity::Info), 2u) << m_report.toText(); // flow points
    // An export a few minutes earlier, whole: every event of it is in the newest one too.
    fs::copy_file(out / ("msprof_slice_0_" + std::string(Stamp) + ".json"),
        out / "msprof_20230818142500.json");
    m_report = {};
    model::Trace twice;
    ASSERT_TRUE(read(out, prof / "device_0", twice));
    EXPECT_EQ(twice.eventCount(), once.eventCount());
    EXPECT_EQ(twice.steps.size(), 3u);
    EXPECT_NE(m_report.toText().find("1 timeline of an earlier export (msprof_20230818142500.json) "
                                     "not read: only the newest export (msprof_slice_0_"
                                     "20230818142800.json and 1 more) is, so no event counts "
                                     "twice"),
        std::string::npos)
        << m_report.toText();
    // The slices are read in their order, whatever the directory's.
    EXPECT_EQ(once.metadata.sourceFiles.size(), 2u);
    EXPECT_NE(once.metadata.sourceFiles[0].find("msprof_slice_0_"), std::string::npos);
    EXPECT_EQ(once.rank, 0);
    EXPECT_EQ(once.steps.size(), 3u);
}

TEST_F(ProfExportTest, ATimelineOfTwoDevicesIsSaidToMergeThem)
{
    // msprof's pids: (pid << 10) | (layer << 5) | device; 31 is the host.
    const std::int64_t hw = (4242 << 10) | (14 << 5);
    const std::string text = "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":"
        + std::to_string(hw) + ",\"args\":{\"name\":\"Ascend Hardware\"}},"
        + "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":" + std::to_string(hw)
        + ",\"args\":{\"labels\":\"NPU\"}}," + "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":"
        + std::to_string(hw + 1) + ",\"args\":{\"name\":\"Ascend Hardware\"}},"
        + "{\"ph\":\"M\",\"name\":\"process_labels\",\"pid\":" + std::to_string(hw + 1)
        + ",\"args\":{\"labels\":\"NPU\"}},"
        + "{\"ph\":\"X\",\"name\":\"MatMul\",\"pid\":" + std::to_string(hw)
        + ",\"tid\":2,\"ts\":\"1692340080258570.860\",\"dur\":10,"
          "\"args\":{\"Task Type\":\"AI_CORE\"}},"
        + "{\"ph\":\"X\",\"name\":\"MatMul\",\"pid\":" + std::to_string(hw + 1)
        + ",\"tid\":2,\"ts\":\"1692340080258570.860\",\"dur\":10,"
          "\"args\":{\"Task Type\":\"AI_CORE\"}}]";
    fs::create_directories(m_tmp / "prof/mindstudio_profiler_output");
    write("prof/mindstudio_profiler_output/msprof_20230818142800.json", text);
    model::Trace trace;
    ASSERT_TRUE(read(m_tmp / "prof/mindstudio_profiler_output", {}, trace));
    EXPECT_EQ(trace.eventCount(), 2u);
    EXPECT_EQ(m_report.count(model::Severity::Warning), 1u);
    EXPECT_NE(m_report.toText().find("the lanes of 2 devices (0, 1)"), std::string::npos)
        << m_report.toText();
    // One device alone: no word.
    m_report = {};
    const std::string one = text.substr(0, text.rfind(",{\"ph\":\"X\"")) + "]";
    write("prof/mindstudio_profiler_output/msprof_20230818142800.json", one);
    ASSERT_TRUE(read(m_tmp / "prof/mindstudio_profiler_output", {}, trace));
    EXPECT_EQ(m_report.count(model::Severity::Warning), 0u) << m_report.toText();
}

/// A PROF folder exported twice, into device_<n>/timeline/ (older msprof) and into
/// mindstudio_profiler_output/ (newer): the first is read, the second named, not read twice.
TEST_F(ProfExportTest, AFolderExportedBothWaysIsReadOnceAndSaysSo)
{
    const fs::path prof = copyProf("PROF_000001_20230818142704322_COJGGGCANRMICFBC");
    fs::copy(
        testsupport::dataPath("mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev/"
                              "PROF_000001_20230818142704322_COJGGGCANRMICFBC/device_0/timeline"),
        prof / "device_0/timeline", fs::copy_options::recursive);
    const Detection d = detectPath(prof);
    EXPECT_EQ(d.format, Format::CannProf);
    ASSERT_EQ(d.profDevices.size(), 1u);
    EXPECT_TRUE(d.profDevices[0].exportDir.empty()); // the device timeline
    ASSERT_EQ(d.skipped.size(), 1u);
    EXPECT_EQ(d.skipped[0].first, prof / "mindstudio_profiler_output");
    EXPECT_NE(d.skipped[0].second.find("no event counts twice"), std::string::npos);
}
