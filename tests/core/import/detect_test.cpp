// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/detect/detect.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace stepscope::import::detect {
namespace {

namespace fs = std::filesystem;

const fs::path Data = fs::path(STEPSCOPE_TEST_DATA);

/// An empty folder of that name in the temp dir (what an earlier run left there removed).
fs::path freshDir(const std::string &name)
{
    const fs::path dir = fs::temp_directory_path() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::vector<std::string> names(const std::vector<fs::path> &paths)
{
    std::vector<std::string> out;
    for (const fs::path &p : paths)
        out.push_back(p.filename().string());
    return out;
}

TEST(DetectTest, AscendParentOfRankFolders)
{
    const Detection d = detectPath(Data / "ascend_pt/msinsight-cnn-level0-2rank");
    EXPECT_EQ(d.format, Format::Ascend);
    EXPECT_EQ(
        names(d.ascendRankDirs), (std::vector<std::string> {"rank0_ascend_pt", "rank1_ascend_pt"}));
    EXPECT_TRUE(d.clusterDir.empty());
    EXPECT_EQ(formatName(d.format), "ascend");
}

TEST(DetectTest, AscendClusterBesideRankFolders)
{
    const Detection d = detectPath(Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed");
    EXPECT_EQ(d.format, Format::Ascend);
    EXPECT_EQ(names(d.ascendRankDirs), (std::vector<std::string> {"test_rank_0", "test_rank_1"}));
    EXPECT_EQ(d.clusterDir.filename(), "cluster_analysis_output");
    const Detection cluster =
        detectPath(Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed/cluster_analysis_output");
    EXPECT_EQ(cluster.format, Format::Ascend);
    EXPECT_TRUE(cluster.ascendRankDirs.empty());
    EXPECT_FALSE(cluster.clusterDir.empty());
}

/// The folder above the job's folder: the rank folders are a level deeper than in a job's
/// folder, and the cluster summary beside them is found with them.
TEST(DetectTest, AscendJobOneLevelDown)
{
    const fs::path parent = freshDir("stepscope_detect_jobdown");
    fs::copy(Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed", parent / "job",
        fs::copy_options::recursive);
    const Detection d = detectPath(parent);
    fs::remove_all(parent / "job/test_rank_0");
    fs::remove_all(parent / "job/test_rank_1");
    const Detection clusterOnly = detectPath(parent);
    fs::remove_all(parent);
    EXPECT_EQ(d.format, Format::Ascend);
    EXPECT_EQ(names(d.ascendRankDirs), (std::vector<std::string> {"test_rank_0", "test_rank_1"}));
    EXPECT_EQ(d.clusterDir, parent / "job/cluster_analysis_output");
    EXPECT_EQ(clusterOnly.format, Format::Ascend);
    EXPECT_TRUE(clusterOnly.ascendRankDirs.empty());
    EXPECT_EQ(clusterOnly.clusterDir, parent / "job/cluster_analysis_output");
}

/// msprof-analyze's cluster summary renamed, or its files moved beside the rank folders, is
/// known by its files: as the folder, as one of its files, and beside the rank folders.
TEST(DetectTest, AClusterSummaryIsKnownByItsFilesNotItsName)
{
    const fs::path job = freshDir("stepscope_detect_renamedcluster");
    fs::copy(
        Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed", job, fs::copy_options::recursive);
    fs::rename(job / "cluster_analysis_output", job / "gpt3_cluster");
    const Detection beside = detectPath(job);
    const Detection alone = detectPath(job / "gpt3_cluster");
    const Detection csv = detectPath(job / "gpt3_cluster/cluster_step_trace_time.csv");
    const Detection json = detectPath(job / "gpt3_cluster/cluster_communication.json");
    for (const fs::directory_entry &e : fs::directory_iterator(job / "gpt3_cluster"))
        fs::rename(e.path(), job / e.path().filename());
    fs::remove(job / "gpt3_cluster");
    const Detection moved = detectPath(job);
    fs::remove_all(job);
    EXPECT_EQ(beside.format, Format::Ascend);
    EXPECT_EQ(
        names(beside.ascendRankDirs), (std::vector<std::string> {"test_rank_0", "test_rank_1"}));
    EXPECT_EQ(beside.clusterDir, job / "gpt3_cluster");
    for (const Detection *d : {&alone, &csv, &json}) {
        EXPECT_EQ(d->format, Format::Ascend);
        EXPECT_TRUE(d->ascendRankDirs.empty());
        EXPECT_EQ(d->clusterDir, job / "gpt3_cluster");
    }
    EXPECT_EQ(moved.format, Format::Ascend);
    EXPECT_EQ(
        names(moved.ascendRankDirs), (std::vector<std::string> {"test_rank_0", "test_rank_1"}));
    EXPECT_EQ(moved.clusterDir, job);
}

/// Two cluster summaries beside the rank folders: the one named cluster_analysis_output is
/// read and the other named; two copies under other names are both named and neither read.
TEST(DetectTest, OfTwoClusterSummariesTheNamedOneIsReadAndTheOtherSaid)
{
    const fs::path job = freshDir("stepscope_detect_twoclusters");
    fs::copy(
        Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed", job, fs::copy_options::recursive);
    fs::copy(job / "cluster_analysis_output", job / "old_cluster", fs::copy_options::recursive);
    const Detection one = detectPath(job);
    fs::rename(job / "cluster_analysis_output", job / "new_cluster");
    const Detection none = detectPath(job);
    fs::remove_all(job);
    EXPECT_EQ(one.clusterDir, job / "cluster_analysis_output");
    ASSERT_EQ(one.skipped.size(), 1u);
    EXPECT_EQ(one.skipped[0].first, job / "old_cluster");
    EXPECT_NE(
        one.skipped[0].second.find("only cluster_analysis_output was read"), std::string::npos);
    EXPECT_EQ(none.format, Format::Ascend);
    EXPECT_TRUE(none.clusterDir.empty());
    ASSERT_EQ(none.skipped.size(), 2u);
    EXPECT_NE(none.skipped[0].second.find("none was read"), std::string::npos);
}

/// A PyTorch trace beside an Ascend job's rank folders is not read (the first format found
/// is), and is said so rather than dropped in silence.
TEST(DetectTest, AProfileBesideAscendRankFoldersIsNamedAsNotRead)
{
    const fs::path dir = freshDir("stepscope_detect_beside");
    fs::copy(Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed/test_rank_0", dir / "test_rank_0",
        fs::copy_options::recursive);
    const fs::path kineto = dir / "mi250_minitoy_train_ROCm6_2_kineto.json.gz";
    fs::copy_file(
        Data / "kineto/hta-mi250-minitoy-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz", kineto);
    const Detection d = detectPath(dir);
    fs::remove_all(dir);
    EXPECT_EQ(d.format, Format::Ascend);
    EXPECT_EQ(names(d.ascendRankDirs), (std::vector<std::string> {"test_rank_0"}));
    EXPECT_TRUE(d.kinetoFiles.empty());
    ASSERT_EQ(d.skipped.size(), 1u);
    EXPECT_EQ(d.skipped[0].first, kineto);
    EXPECT_NE(d.skipped[0].second.find("beside the Ascend rank folders"), std::string::npos);
}

/// A trace copied next to itself is read once, the copy named; a trace of the same size that
/// differs in one byte in its middle is not a copy.
TEST(DetectTest, ACopyOfATraceIsReadOnce)
{
    const fs::path dir = freshDir("stepscope_detect_copies");
    std::string text = R"({"traceEvents":[)";
    for (int i = 0; i < 20000; ++i)
        text += R"({"ph":"X","name":"op","pid":1,"tid":1,"ts":)" + std::to_string(i * 10)
            + R"(,"dur":5},)";
    text += R"({"ph":"X","name":"op","pid":1,"tid":1,"ts":0,"dur":5}],"schemaVersion":1})";
    std::ofstream(dir / "a.json", std::ios::binary) << text;
    std::ofstream(dir / "b.json", std::ios::binary) << text; // the copy
    text[text.size() / 2] = text[text.size() / 2] == '1' ? '2' : '1';
    std::ofstream(dir / "c.json", std::ios::binary) << text; // same size, one byte apart
    const Detection d = detectPath(dir);
    fs::remove_all(dir);
    ASSERT_EQ(d.kinetoFiles.size(), 2u);
    EXPECT_EQ(d.kinetoFiles[0].path.filename(), "a.json");
    EXPECT_EQ(d.kinetoFiles[1].path.filename(), "c.json");
    ASSERT_EQ(d.skipped.size(), 1u);
    EXPECT_EQ(d.skipped[0].first.filename(), "b.json");
    EXPECT_EQ(d.skipped[0].second, "the same bytes as a.json (a copy of that trace): read once");
}

TEST(DetectTest, AscendSingleRankFolderAndItsOutputFolder)
{
    const fs::path rank = Data / "ascend_pt/msinsight-cnn-level2-2rank/rank1_ascend_pt";
    Detection d = detectPath(rank);
    EXPECT_EQ(d.format, Format::Ascend);
    ASSERT_EQ(d.ascendRankDirs.size(), 1u);
    EXPECT_EQ(d.ascendRankDirs[0], rank);
    d = detectPath(rank / "ASCEND_PROFILER_OUTPUT");
    ASSERT_EQ(d.ascendRankDirs.size(), 1u);
    EXPECT_EQ(d.ascendRankDirs[0], rank);
    d = detectPath(rank / "ASCEND_PROFILER_OUTPUT/trace_view.json");
    EXPECT_EQ(d.format, Format::Ascend);
}

TEST(DetectTest, AscendFragments)
{
    const Detection d = detectPath(Data / "ascend_pt/mstt-advisor-fragments");
    EXPECT_EQ(d.format, Format::AscendFragments);
    EXPECT_EQ(d.fragmentsDir, Data / "ascend_pt/mstt-advisor-fragments");
    EXPECT_EQ(d.clusterDir.filename(), "cluster_analysis_output");
}

TEST(DetectTest, MindSporeLegacyRanksFromFileNames)
{
    Detection d = detectPath(Data / "mindspore_legacy/mindinsight-widedeep-run1");
    EXPECT_EQ(d.format, Format::MindSporeLegacy);
    ASSERT_EQ(d.legacyFolders.size(), 1u);
    EXPECT_EQ(d.legacyFolders[0].ranks, (std::vector<std::int32_t> {1}));
    EXPECT_TRUE(d.profDevices.empty());

    d = detectPath(Data / "mindspore_legacy/mindinsight-cluster-pp-4rank");
    EXPECT_EQ(d.format, Format::MindSporeLegacy);
    ASSERT_EQ(d.legacyFolders.size(), 1u);
    EXPECT_EQ(d.legacyFolders[0].ranks, (std::vector<std::int32_t> {0, 1, 2, 3}));
}

/// One rank's file opens that rank, not the folder's every rank; the others are named.
TEST(DetectTest, AMindSporeFileOpensItsRankAlone)
{
    const fs::path pp = Data / "mindspore_legacy/mindinsight-cluster-pp-4rank";
    Detection d = detectPath(pp / "step_trace_raw_2_detail_time.csv");
    EXPECT_EQ(d.format, Format::MindSporeLegacy);
    ASSERT_EQ(d.legacyFolders.size(), 1u);
    EXPECT_EQ(d.legacyFolders[0].ranks, (std::vector<std::int32_t> {2}));
    ASSERT_EQ(d.skipped.size(), 1u);
    EXPECT_EQ(d.skipped[0].first, pp);
    EXPECT_EQ(d.skipped[0].second,
        "the files of ranks 0, 1, 3: step_trace_raw_2_detail_time.csv is rank 2's. Open the "
        "folder to see every rank");

    // Beside CANN PROF folders: the opened rank's device alone.
    const fs::path withProf = Data / "mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev";
    d = detectPath(withProf / "step_trace_raw_0_detail_time.csv");
    ASSERT_EQ(d.legacyFolders.size(), 1u);
    EXPECT_EQ(d.legacyFolders[0].ranks, (std::vector<std::int32_t> {0}));
    ASSERT_EQ(d.profDevices.size(), 1u);
    EXPECT_EQ(d.profDevices[0].device, 0);
    EXPECT_EQ(d.skipped.size(), 2u);
}

TEST(DetectTest, MindSporeLegacyFoldersBelowAFolderOfAnyName)
{
    // A run copied into a folder of any name, and a job's ranks in folders of their own:
    // found as the "profiler" subfolder always was. A folder repeating a rank is another run.
    const fs::path root = freshDir("stepscope_detect_legacy_below");
    const fs::path sample = Data / "mindspore_legacy/mindinsight-widedeep-run1";
    fs::create_directories(root / "copied");
    fs::copy(sample, root / "copied/widedeep");
    Detection d = detectPath(root / "copied");
    EXPECT_EQ(d.format, Format::MindSporeLegacy);
    ASSERT_EQ(d.legacyFolders.size(), 1u);
    EXPECT_EQ(d.legacyFolders[0].dir, root / "copied/widedeep");
    EXPECT_EQ(d.legacyFolders[0].ranks, (std::vector<std::int32_t> {1}));

    const fs::path pp = Data / "mindspore_legacy/mindinsight-cluster-pp-4rank";
    for (int rank : {0, 2}) {
        const fs::path to = root / ("job/rank_" + std::to_string(rank) + "/profiler");
        fs::create_directories(to);
        fs::copy(pp / ("step_trace_raw_" + std::to_string(rank) + "_detail_time.csv"), to);
    }
    fs::create_directories(root / "job/rerun");
    fs::copy(pp / "step_trace_raw_2_detail_time.csv", root / "job/rerun");
    d = detectPath(root / "job");
    EXPECT_EQ(d.format, Format::MindSporeLegacy);
    ASSERT_EQ(d.legacyFolders.size(), 2u);
    EXPECT_EQ(d.legacyFolders[0].ranks, (std::vector<std::int32_t> {0}));
    EXPECT_EQ(d.legacyFolders[1].ranks, (std::vector<std::int32_t> {2}));
    ASSERT_EQ(d.skipped.size(), 1u);
    EXPECT_EQ(d.skipped[0].first, root / "job/rerun");
    EXPECT_NE(d.skipped[0].second.find("another run?"), std::string::npos);
    fs::remove_all(root);
}

TEST(DetectTest, ProfFoldersInsideALegacyFolder)
{
    const fs::path root = Data / "mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev";
    const Detection d = detectPath(root);
    EXPECT_EQ(d.format, Format::MindSporeLegacy);
    ASSERT_EQ(d.legacyFolders.size(), 1u);
    // step_trace_raw_0/_10, framework_raw_0/_1, ascend/gpu_timeline_display_0, ...
    EXPECT_EQ(d.legacyFolders[0].ranks, (std::vector<std::int32_t> {0, 1, 10}));
    ASSERT_EQ(d.profDevices.size(), 2u);
    EXPECT_EQ(d.profDevices[0].device, 0);
    EXPECT_EQ(d.profDevices[1].device, 1);

    const fs::path prof = root / "PROF_000001_20230818142704567_GQFAMHBKGODKJMLA";
    Detection alone = detectPath(prof);
    EXPECT_EQ(alone.format, Format::CannProf);
    ASSERT_EQ(alone.profDevices.size(), 1u);
    EXPECT_EQ(alone.profDevices[0].device, 1);
    alone = detectPath(prof / "device_1");
    EXPECT_EQ(alone.format, Format::CannProf);
    ASSERT_EQ(alone.profDevices.size(), 1u);
    EXPECT_EQ(alone.profDevices[0].dir, prof / "device_1");
}

/// A CANN PROF folder by what it holds, not its name: a renamed copy, its device folder and
/// the device's timeline/ each open as the device, not as 31 generic traces (one per
/// msprof_/hccl_/task_time_ file, each a "rank").
TEST(DetectTest, ARenamedProfFolderIsStillOne)
{
    const fs::path copy = freshDir("stepscope_detect_prof") / "profile";
    fs::copy(Data
            / "mindspore_legacy/mindinsight-profiler-dir-with-PROF-2dev/"
              "PROF_000001_20230818142704567_GQFAMHBKGODKJMLA",
        copy, fs::copy_options::recursive);
    for (const fs::path &open : {copy, copy / "device_1", copy / "device_1/timeline"}) {
        SCOPED_TRACE(open.string());
        const Detection d = detectPath(open);
        EXPECT_EQ(d.format, Format::CannProf);
        ASSERT_EQ(d.profDevices.size(), 1u);
        EXPECT_EQ(d.profDevices[0].device, 1);
        EXPECT_EQ(d.profDevices[0].dir, copy / "device_1");
        EXPECT_TRUE(d.kinetoFiles.empty());
    }
    // The folder above the renamed copy finds it too.
    const Detection above = detectPath(copy.parent_path());
    EXPECT_EQ(above.format, Format::CannProf);
    EXPECT_EQ(above.profDevices.size(), 1u);
    fs::remove_all(copy.parent_path());
}

TEST(DetectTest, KinetoRanksFromDistributedInfo)
{
    const Detection d = detectPath(Data / "kineto/hta-sampled-2of128-ranks");
    EXPECT_EQ(d.format, Format::Kineto);
    ASSERT_EQ(d.kinetoFiles.size(), 2u);
    EXPECT_EQ(d.kinetoFiles[0].rank, 0);
    EXPECT_EQ(d.kinetoFiles[1].rank, 1);
    // distributedInfo comes after a long deviceProperties block in these files.
    const Detection one = detectPath(Data / "kineto/hta-ddp-2rank-rank1-memory");
    ASSERT_EQ(one.kinetoFiles.size(), 1u);
    EXPECT_EQ(one.kinetoFiles[0].rank, 1);
}

TEST(DetectTest, KinetoWorkerCapturesWithoutDistributedInfo)
{
    const fs::path dir =
        Data / "kineto/kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0";
    const Detection d = detectPath(dir);
    EXPECT_EQ(d.format, Format::Kineto);
    ASSERT_EQ(d.kinetoFiles.size(), 2u);
    for (const KinetoFile &f : d.kinetoFiles) {
        EXPECT_EQ(f.rank, -1);
        EXPECT_EQ(f.worker, "worker0");
    }
    // The parent of both runs: files found one level down.
    const Detection parent = detectPath(dir.parent_path());
    EXPECT_EQ(parent.format, Format::Kineto);
    EXPECT_EQ(parent.kinetoFiles.size(), 4u);
    // A single file.
    const Detection file = detectPath(d.kinetoFiles[0].path);
    EXPECT_EQ(file.format, Format::Kineto);
    EXPECT_EQ(file.kinetoFiles.size(), 1u);
}

TEST(DetectTest, MemoryExportAndXplane)
{
    const fs::path mem = Data / "torch_memory/hta-memory-timeline-raw";
    Detection d = detectPath(mem);
    EXPECT_EQ(d.format, Format::TorchMemory);
    EXPECT_EQ(names(d.memoryFiles), (std::vector<std::string> {"memory_timeline.raw.gz"}));
    EXPECT_EQ(sniffFile(mem / "memory_timeline.raw.gz"), FileKind::TorchMemoryRaw);
    d = detectPath(mem / "memory_timeline.raw.gz");
    EXPECT_EQ(d.format, Format::TorchMemory);

    d = detectPath(Data / "jax_xplane/tracelens-jax08-conv-mi300");
    EXPECT_EQ(d.format, Format::JaxXplane);
    EXPECT_EQ(names(d.xplaneFiles), (std::vector<std::string> {"tw003.xplane.pb"}));
    EXPECT_EQ(formatName(d.format), "jax-xplane");
}

// An Nsight Systems export named by its user, not `.sqlite`: found in its folder by content.
TEST(DetectTest, SqliteExportFoundByContentWhateverItsName)
{
    const fs::path dir = freshDir("stepscope_detect_sqlite_name");
    fs::copy_file(Data / "nsys_sqlite/pipit-cloverleaf-cuda/perlmutter-cloverleaf-cuda.sqlite",
        dir / "cloverleaf-run3");
    const Detection d = detectPath(dir);
    EXPECT_EQ(d.format, Format::NsysSqlite);
    EXPECT_EQ(names(d.nsysFiles), (std::vector<std::string> {"cloverleaf-run3"}));
    fs::remove_all(dir);
}

TEST(DetectTest, SniffShapes)
{
    EXPECT_EQ(sniffFile(Data
                  / "kineto/hta-mi250-minitoy-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz"),
        FileKind::KinetoTrace);
    EXPECT_EQ(sniffFile(Data / "ascend_pt/mstt-advisor-fragments/trace_view.json"),
        FileKind::ChromeArray);
    EXPECT_EQ(
        sniffFile(Data / "mindspore_legacy/mindinsight-cluster-pp-4rank/flops_summary_0.json"),
        FileKind::Unknown);
}

TEST(DetectTest, UnknownContentAndMissingPath)
{
    const fs::path dir = fs::temp_directory_path() / "stepscope_detect_unknown";
    fs::create_directories(dir);
    std::ofstream(dir / "notes.txt") << "hello";
    std::ofstream(dir / "settings.json") << "{\"lr\": 0.1}";
    Detection d = detectPath(dir);
    EXPECT_EQ(d.format, Format::Unknown);
    EXPECT_NE(d.reason.find("no profiler output recognised"), std::string::npos);
    d = detectPath(dir / "settings.json");
    EXPECT_EQ(d.format, Format::Unknown);
    EXPECT_FALSE(d.reason.empty());
    fs::remove_all(dir);
    d = detectPath(dir);
    EXPECT_EQ(d.format, Format::Unknown);
    EXPECT_EQ(d.reason, "no such file or folder");
}

/// A trace file with nothing in it said "not a profile StepScope can read" and listed what
/// StepScope reads; it now says what is wrong with the file.
TEST(DetectTest, AnEmptyFileSaysItIsEmpty)
{
    const fs::path dir = freshDir("stepscope_detect_empty");
    std::ofstream(dir / "trace.json").flush();
    std::ofstream(dir / "blank.json") << "  \n\r\n\t";
    std::ofstream(dir / "events.json") << " [\n ] ";
    EXPECT_EQ(detectPath(dir / "trace.json").reason,
        "the file is empty (0 bytes): a profiler stopped before it wrote its trace leaves such a "
        "file");
    EXPECT_EQ(detectPath(dir / "blank.json").reason, "the file holds only blanks");
    EXPECT_EQ(detectPath(dir / "events.json").reason,
        "a trace-event file without events (an empty array)");
    std::ofstream(dir / "other.json") << "[1, 2]";
    EXPECT_EQ(detectPath(dir / "other.json").reason.rfind("this file is not a profile", 0), 0u);
    fs::remove_all(dir);
}

/// A trace the profiler never finished (0 bytes, or cut off after its "[") among the
/// ranks of a folder was left out without a word, and a folder of such files said only
/// "no profiler output recognised". Each is now named, with what is wrong with it.
TEST(DetectTest, EmptyTracesInAFolderAreNamed)
{
    const fs::path dir = freshDir("stepscope_detect_empty_in_folder");
    std::ofstream(dir / "rank0.pt.trace.json").flush();
    std::ofstream(dir / "rank1.pt.trace.json") << "[\n";
    EXPECT_EQ(detectPath(dir / "rank1.pt.trace.json").reason,
        "a trace-event array cut off before its first event: the file ends after 2 bytes (a "
        "profiler stopped while writing?)");
    Detection d = detectPath(dir);
    EXPECT_EQ(d.format, Format::Unknown);
    EXPECT_NE(d.reason.find("no profiler output recognised here"), std::string::npos);
    EXPECT_NE(
        d.reason.find(". rank0.pt.trace.json: the file is empty (0 bytes)"), std::string::npos)
        << d.reason;
    EXPECT_NE(d.reason.find("(1 more file not read)"), std::string::npos) << d.reason;
    ASSERT_EQ(d.skipped.size(), 2u);
    EXPECT_EQ(d.skipped[1].first.filename(), "rank1.pt.trace.json");

    // Beside a trace that loads, the empty one is a skipped file (the loader warns).
    std::ofstream(dir / "rank2.pt.trace.json")
        << R"({"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1}]})";
    d = detectPath(dir);
    ASSERT_EQ(d.kinetoFiles.size(), 1u);
    ASSERT_EQ(d.skipped.size(), 2u);
    EXPECT_EQ(d.skipped[0].first.filename(), "rank0.pt.trace.json");
    EXPECT_EQ(d.skipped[0].second.rfind("the file is empty (0 bytes)", 0), 0u);

    // Named in the traces' order, rank8 before rank10 (byte order put rank10 first).
    const fs::path numbered = freshDir("stepscope_detect_empty_numbered");
    for (const char *name : {"rank10.json", "rank8.json", "rank9.json"})
        std::ofstream(numbered / name).flush();
    d = detectPath(numbered);
    ASSERT_EQ(d.skipped.size(), 3u);
    EXPECT_EQ(d.skipped[0].first.filename(), "rank8.json");
    EXPECT_EQ(d.skipped[2].first.filename(), "rank10.json");
    EXPECT_NE(d.reason.find(". rank8.json: the file is empty"), std::string::npos) << d.reason;
    fs::remove_all(numbered);
    fs::remove_all(dir);
}

/// The folder's own traces come first; a trace in a folder below them is not read, and said
/// so (it was left out without a word).
TEST(DetectTest, AProfileBelowTheFolderOwnTracesIsNamed)
{
    const fs::path dir = freshDir("stepscope_detect_below");
    const std::string trace =
        R"({"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1}]})";
    std::ofstream(dir / "rank0.pt.trace.json") << trace;
    fs::create_directories(dir / "old/run");
    std::ofstream(dir / "old/run/rank1.pt.trace.json") << trace << ' ';
    const Detection d = detectPath(dir);
    EXPECT_EQ(d.format, Format::Kineto);
    ASSERT_EQ(d.kinetoFiles.size(), 1u);
    EXPECT_EQ(d.kinetoFiles[0].path.filename(), "rank0.pt.trace.json");
    ASSERT_EQ(d.skipped.size(), 1u);
    EXPECT_EQ(d.skipped[0].first, dir / "old/run/rank1.pt.trace.json");
    EXPECT_NE(
        d.skipped[0].second.find("a profile in a folder below the one opened"), std::string::npos);
    // Without traces of its own, the folder reads those below, as before.
    fs::remove(dir / "rank0.pt.trace.json");
    const Detection below = detectPath(dir);
    ASSERT_EQ(below.kinetoFiles.size(), 1u);
    EXPECT_TRUE(below.skipped.empty());
    fs::remove_all(dir);
}

TEST(DetectTest, LegacyRankOfFileNames)
{
    EXPECT_EQ(legacyRankOf("step_trace_raw_3_detail_time.csv"), 3);
    EXPECT_EQ(legacyRankOf("step_trace_raw_10_detail_time.csv"), 10);
    EXPECT_EQ(legacyRankOf("hccl_raw_1.csv"), 1);
    EXPECT_EQ(legacyRankOf("ascend_cluster_analyse_pipeline-parallel_2_4_3.csv"), 3);
    EXPECT_EQ(legacyRankOf("ascend_timeline_display_0.json"), 0);
    EXPECT_EQ(legacyRankOf("timeline_display_1.json"), 1);
    EXPECT_EQ(legacyRankOf("gpu_timeline_display_0.json"), 0);
    EXPECT_EQ(legacyRankOf("output_timeline_data_1.txt"), 1);
    EXPECT_EQ(legacyRankOf("flops_summary_2.json"), 2);
    EXPECT_EQ(legacyRankOf("min_cycle_counter_1.txt"), 1);
    EXPECT_EQ(legacyRankOf("trace_view.json"), -1);
    EXPECT_EQ(legacyRankOf("hccl_raw_x.csv"), -1);
}

} // namespace
} // namespace stepscope::import::detect
