// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Malformed Ascend DB exports, written by the tests from a copy of the real level2 rank 0
// folder: a missing table, values of the wrong type, a truncated and a non-SQLite profiler
// DB (each: a diagnostic naming the file and table, the rest loads); a folder with both
// the text and the DB export (read once); cluster_analysis.db (§11.6, no real sample).

#include "import/ascenddb/ascenddb.h"
#include "import/loader.h"
#include "sqlitedb_fixture.h"

#include <filesystem>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

class AscendDbMalformed : public testsupport::SqliteFixture
{
protected:
    /// A copy of the level2 rank 0 folder in the temp dir; returns the profiler DB path.
    fs::path copyRank()
    {
        const fs::path src =
            testsupport::sqliteData("ascend_db/msinsight-cnn-db-level2-2rank/rank0_ascend_pt");
        m_rank = m_tmp / "rank0_ascend_pt";
        fs::copy(src, m_rank, fs::copy_options::recursive);
        for (const auto &e : fs::recursive_directory_iterator(m_rank))
            fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
        return m_rank / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db";
    }
    std::shared_ptr<const model::Session> load(const fs::path &path)
    {
        util::Progress progress;
        auto s = import::loadPath(path, progress).session;
        m_text = s->report.toText();
        return s;
    }
    bool said(const model::Session &s, const std::string &file, const std::string &part) const
    {
        for (const auto &d : s.report.diagnostics())
            if (d.file == file && d.message.find(part) != std::string::npos)
                return true;
        return false;
    }
    static std::uint64_t events(const model::Trace &t, const std::string &process)
    {
        std::uint64_t n = 0;
        for (const auto &track : t.tracks)
            if (track.info().processName == process)
                n += track.size();
        return n;
    }

    fs::path m_rank;
    std::string m_text;
};

const std::string DbFile = "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";

TEST_F(AscendDbMalformed, MissingTableIsNamedAndTheRestLoads)
{
    testsupport::writeDatabase(copyRank(), "DROP TABLE TASK;");
    const auto s = load(m_tmp);
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_TRUE(said(*s, DbFile, "no table `TASK`")) << m_text;
    const model::Trace &t = *s->traces[0];
    EXPECT_EQ(events(t, "Ascend Hardware"), 0u);
    EXPECT_EQ(events(t, "Python"), 2460u);
    EXPECT_EQ(events(t, "HCCL"), 4u); // COMMUNICATION_OP still loads
    EXPECT_EQ(t.referenceSteps.size(), 1u);
}

/// Tables whose loss changes what the view shows are named too, though the rest loads: the
/// kernels' names (COMPUTE_TASK_INFO) and the host APIs' types (ENUM_API_TYPE).
TEST_F(AscendDbMalformed, MissingKernelInfoOrApiTypesAreNamed)
{
    testsupport::writeDatabase(copyRank(), "DROP TABLE COMPUTE_TASK_INFO;");
    auto s = load(m_tmp);
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_TRUE(said(*s, DbFile, "no table `COMPUTE_TASK_INFO`")) << m_text;
    EXPECT_EQ(events(*s->traces[0], "Ascend Hardware") + events(*s->traces[0], "HCCL"), 556u);

    fs::remove_all(m_rank);
    testsupport::writeDatabase(copyRank(), "DROP TABLE ENUM_API_TYPE;");
    s = load(m_tmp);
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_TRUE(said(*s, DbFile, "no table `ENUM_API_TYPE`")) << m_text;
    EXPECT_EQ(events(*s->traces[0], "Python"), 2460u);
}

/// Without STRING_IDS every name is its id: said once, naming the file (it was "its data is
/// missing from the view"); ids the table lacks are counted and said too (they were not).
TEST_F(AscendDbMalformed, MissingStringIdsSaysNamesAreIds)
{
    testsupport::writeDatabase(copyRank(), "DROP TABLE STRING_IDS;");
    auto s = load(m_tmp);
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_GT(events(*s->traces[0], "Ascend Hardware"), 0u);
    std::size_t mentions = 0;
    for (const auto &d : s->report.diagnostics())
        mentions += d.message.find("STRING_IDS") != std::string::npos ? 1 : 0;
    EXPECT_EQ(mentions, 1u) << m_text;
    EXPECT_TRUE(said(*s, DbFile,
        "no table `STRING_IDS`: kernels, tasks and APIs are shown by their numeric name ids"))
        << m_text;

    fs::remove_all(m_rank);
    testsupport::writeDatabase(copyRank(),
        "DELETE FROM STRING_IDS WHERE id IN (SELECT DISTINCT name FROM COMPUTE_TASK_INFO "
        "ORDER BY name LIMIT 3);");
    s = load(m_tmp);
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_TRUE(said(*s, DbFile, "3 name ids are missing from table `STRING_IDS`")) << m_text;
}

/// An analysis.db whose StepTraceTime has no rows: said as empty, not as a missing table
/// (alone it was "no Ascend profiler table found (…, StepTraceTime, …)"; beside other rows,
/// nothing was said).
TEST_F(AscendDbMalformed, EmptyStepTraceTimeIsSaidToBeEmpty)
{
    copyRank();
    const fs::path analysis = m_rank / "ASCEND_PROFILER_OUTPUT" / "analysis.db";
    testsupport::writeDatabase(analysis, "DELETE FROM StepTraceTime;");
    const std::string file = "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db";
    auto s = load(m_tmp);
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_TRUE(s->traces[0]->referenceSteps.empty());
    EXPECT_TRUE(said(*s, file, "table `StepTraceTime` is empty (it exists but has no rows)"))
        << m_text;

    // Alone, with no other table of rows: the same, and no "no table found".
    const fs::path loose = m_tmp / "loose";
    fs::create_directories(loose);
    fs::copy_file(analysis, loose / "analysis.db");
    testsupport::writeDatabase(loose / "analysis.db",
        "DROP TABLE IF EXISTS CommAnalyzerTime; DROP TABLE IF EXISTS CommAnalyzerBandwidth;"
        "DROP TABLE IF EXISTS CommAnalyzerMatrix;");
    s = load(loose / "analysis.db");
    EXPECT_TRUE(said(*s, "analysis.db", "table `StepTraceTime` is empty")) << m_text;
    EXPECT_EQ(m_text.find("no Ascend profiler table found"), std::string::npos) << m_text;
}

TEST_F(AscendDbMalformed, WrongTypeSkipsOnlyThoseRows)
{
    testsupport::writeDatabase(copyRank(),
        "UPDATE TASK SET startNs = 'soon' WHERE rowid IN (1, 2, 3);"
        "UPDATE PYTORCH_API SET endNs = X'00ff' WHERE rowid = 10;");
    const auto s = load(m_tmp);
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    const model::Trace &t = *s->traces[0];
    EXPECT_EQ(events(t, "Ascend Hardware") + events(t, "HCCL"), 552u - 3u + 4u);
    EXPECT_EQ(events(t, "Python"), 2459u);
    bool found = false;
    for (const auto &d : s->report.diagnostics()) {
        if (d.file == DbFile
            && d.message.find("table `TASK`: `startNs` must be an integer, got text")
                != std::string::npos) {
            found = true;
            EXPECT_EQ(d.count, 3u);
            EXPECT_EQ(d.line, 1); // the first bad row
        }
    }
    EXPECT_TRUE(found) << m_text;
    EXPECT_TRUE(said(*s, DbFile, "`endNs` must be an integer, got a blob")) << m_text;
}

TEST_F(AscendDbMalformed, TruncatedProfilerDbIsReportedAndAnalysisDbStillLoads)
{
    const fs::path db = copyRank();
    fs::resize_file(db, fs::file_size(db) / 3);
    const auto s = load(m_tmp);
    EXPECT_TRUE(said(*s, DbFile, "damaged or truncated")) << m_text;
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_EQ(s->traces[0]->referenceSteps.size(), 1u); // analysis.db
    EXPECT_EQ(s->traces[0]->rank, 0); // profiler_info_0.json
}

TEST_F(AscendDbMalformed, NotSqliteIsReported)
{
    writeText(copyRank(), "this is not a database\n");
    const auto s = load(m_tmp);
    EXPECT_TRUE(said(*s, DbFile, "not an SQLite database")) << m_text;
    ASSERT_EQ(s->traces.size(), 1u);
    EXPECT_EQ(s->traces[0]->referenceSteps.size(), 1u);
}

TEST_F(AscendDbMalformed, TextAndDbOfOneRankAreReadOnce)
{
    copyRank();
    const fs::path text = testsupport::sqliteData(
        "ascend_pt/msinsight-cnn-level2-2rank/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT");
    for (const char *name : {"trace_view.json", "step_trace_time.csv"})
        fs::copy_file(text / name, m_rank / "ASCEND_PROFILER_OUTPUT" / name);
    const auto s = load(m_tmp);
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_TRUE(said(*s, "rank0_ascend_pt", "the text files were read, the .db files were not"))
        << m_text;
    const model::Trace &t = *s->traces[0];
    ASSERT_EQ(t.referenceSteps.size(), 1u); // step_trace_time.csv only, not doubled
    EXPECT_EQ(
        t.referenceSteps[0].source, "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
    EXPECT_EQ(events(t, "Python"), 860u + 159u + 159u + 1282u); // the text's Python events
}

namespace {

/// A cluster_analysis.db of two ranks' step 50 and one communication group.
void writeClusterDb(const fs::path &file)
{
    testsupport::writeDatabase(file,
        "CREATE TABLE ClusterTimeSummary (rank INTEGER, step INTEGER, stepTime REAL, "
        "computation REAL, communicationNotOverlapComputation REAL, "
        "communicationOverlapComputation REAL, communication REAL, free REAL, "
        "communicationWaitStageTime REAL, communicationTransmitStageTime REAL, memory REAL, "
        "memoryNotOverlapComputationCommunication REAL, taskLaunchDelayAvgTime REAL);"
        "INSERT INTO ClusterTimeSummary VALUES (0, 50, 140000, 8900.5, 90080.7, 4026.8, "
        "94107.5, 25238.6, 80000, 14107.5, 0, 0, 12.5);"
        "INSERT INTO ClusterTimeSummary VALUES (1, 50, 141000, 8926.4, 96293.9, 4063.6, "
        "100357.5, 25228.1, 85000, 15357.5, 0, 0, 13.5);"
        "CREATE TABLE CommunicationGroupMapping (type TEXT, rank_set TEXT, group_name TEXT, "
        "group_id TEXT, pg_name TEXT);"
        "INSERT INTO CommunicationGroupMapping VALUES ('collective', '(0, 1, 2, 3)', "
        "'11978775601474615865', '90.91.105.46%enp189s0f0_60000_0_1736414082311975', 'dp');");
}

} // namespace

TEST_F(AscendDbMalformed, ClusterAnalysisDbFillsTheClusterViews)
{
    copyRank();
    const fs::path cluster = m_tmp / "cluster_analysis_output";
    fs::create_directories(cluster);
    writeClusterDb(cluster / "cluster_analysis.db");
    const auto s = load(m_tmp);
    ASSERT_EQ(s->clusterSteps.size(), 2u) << m_text;
    EXPECT_EQ(s->clusterSteps[1].rank, 1);
    EXPECT_EQ(s->clusterSteps[1].step, 50);
    EXPECT_EQ(s->clusterSteps[1].kind, "rank");
    EXPECT_DOUBLE_EQ(*s->clusterSteps[1].find("Computing"), 8926.4);
    EXPECT_DOUBLE_EQ(*s->clusterSteps[1].find("Communication(Not Overlapped)"), 96293.9);
    EXPECT_DOUBLE_EQ(*s->clusterSteps[0].find("taskLaunchDelayAvgTime"), 12.5);
    ASSERT_EQ(s->communicationGroups.size(), 1u);
    EXPECT_EQ(s->communicationGroups[0].kind, "dp");
    EXPECT_EQ(s->communicationGroups[0].ranks, (std::vector<std::int32_t> {0, 1, 2, 3}));
    // Rank 0 from its folder; rank 1 only from the cluster table (a rank without timeline).
    ASSERT_EQ(s->traces.size(), 2u);
    EXPECT_EQ(s->traces[1]->rank, 1);
}

TEST_F(AscendDbMalformed, FileReaderForFuzzingNeverThrows)
{
    const fs::path db = copyRank();
    auto ok = import::ascenddb::readAscendDbPath(db, false);
    EXPECT_TRUE(ok.ok);
    EXPECT_EQ(ok.trace.checkInvariants(), "");
    EXPECT_GT(ok.trace.eventCount(), 4000u);
    writeText(m_tmp / "junk.db", std::string("SQLite format 3\0", 16) + "junk");
    auto bad = import::ascenddb::readAscendDbPath(m_tmp / "junk.db");
    EXPECT_FALSE(bad.ok);
    EXPECT_EQ(bad.report.count(model::Severity::Error), 1u) << bad.report.toText();
}

TEST_F(AscendDbMalformed, SingleDbFilesOpenDirectly)
{
    const fs::path db = copyRank();
    // A rank folder's DB opened alone loads the whole rank folder.
    auto s = load(db);
    EXPECT_EQ(s->format, "ascend") << m_text;
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_EQ(s->traces[0]->referenceSteps.size(), 1u);
    // A loose msprof_*.db (no rank folder) is the AscendDb format; its rank is its own.
    const fs::path loose = m_tmp / "loose";
    fs::create_directories(loose);
    fs::copy_file(db, loose / "msprof_20250109.db");
    s = load(loose);
    EXPECT_EQ(s->format, "ascend-db") << m_text;
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
    EXPECT_EQ(events(*s->traces[0], "Python"), 2460u);
    s = load(loose / "msprof_20250109.db");
    EXPECT_EQ(s->format, "ascend-db") << m_text;
    ASSERT_EQ(s->traces.size(), 1u) << m_text;
}

} // namespace

/// The cluster database renamed, in a folder of another name: known by its tables, opened as
/// the file or as its folder (it was "no profiler output recognised").
TEST_F(AscendDbMalformed, ARenamedClusterDbIsKnownByItsTables)
{
    const fs::path folder = m_tmp / "job7_summary";
    fs::create_directories(folder);
    writeClusterDb(folder / "job7_cluster.db");
    for (const fs::path &opened : {folder / "job7_cluster.db", folder}) {
        const auto s = load(opened);
        EXPECT_EQ(s->format, "ascend") << m_text;
        ASSERT_EQ(s->clusterSteps.size(), 2u) << m_text;
        EXPECT_EQ(s->clusterSteps[1].rank, 1);
        EXPECT_EQ(s->clusterSteps[1].step, 50);
        EXPECT_EQ(s->communicationGroups.size(), 1u);
    }
}
