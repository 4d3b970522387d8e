// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/dump.h"
#include "import/loader.h"
#include "import/loadplan.h"
#include "import/summary.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

namespace stepscope::import {
namespace {

namespace fs = std::filesystem;

const fs::path Data = fs::path(STEPSCOPE_TEST_DATA);

LoadResult load(const fs::path &p)
{
    util::Progress progress;
    return loadPath(p, progress);
}

bool hasMessage(const model::Session &s, model::Severity severity, const std::string &text)
{
    for (const auto &d : s.report.diagnostics()) {
        if (d.severity == severity && d.message.find(text) != std::string::npos)
            return true;
    }
    return false;
}

/// Every sample folder (tests/data/<format>/<sample>, loss logs excepted).
std::vector<fs::path> sampleFolders()
{
    std::vector<fs::path> out;
    for (const auto &format : fs::directory_iterator(Data)) {
        if (!format.is_directory() || format.path().filename() == "loss_logs"
            || format.path().filename() == "golden")
            continue;
        for (const auto &sample : fs::directory_iterator(format.path())) {
            if (sample.is_directory())
                out.push_back(sample.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(LoaderTest, EverySampleFolderLoadsWithContent)
{
    const std::vector<fs::path> folders = sampleFolders();
    // 4 ascend_pt, 2 ascend_db, 1 cann_prof (derived), 1 jax, 6 kineto, 3 mindspore_legacy,
    // 1 nsys_sqlite, 1 torch_memory
    ASSERT_EQ(folders.size(), 19u);
    for (const fs::path &folder : folders) {
        SCOPED_TRACE(folder.string());
        util::Progress progress;
        const LoadResult r = loadPath(folder, progress);
        ASSERT_FALSE(r.cancelled);
        ASSERT_TRUE(r.session);
        const model::Session &s = *r.session;
        if (folder.parent_path().filename() == "jax_xplane") {
            EXPECT_FALSE(s.hasContent());
            continue;
        }
        EXPECT_TRUE(s.hasContent()) << importSummaryText(s);
        EXPECT_NE(s.format, "unknown");
        for (const auto &t : s.traces)
            EXPECT_EQ(t->checkInvariants(), "") << "rank " << t->rank;
        for (std::size_t i = 1; i < s.traces.size(); ++i)
            EXPECT_LT(s.traces[i - 1]->rank, s.traces[i]->rank);
        // Counts are written in words: "14 ranks have", "1 flow end", never "rank(s)".
        for (const auto &d : s.report.diagnostics())
            EXPECT_EQ(d.message.find("(s)"), std::string::npos) << d.message;
        // Progress total is the size of the folder; some of it was read.
        EXPECT_GT(progress.total(), 0u);
        EXPECT_GT(progress.done(), 0u);
    }
}

TEST(LoaderTest, JaxXplaneIsRecognisedButNotSupported)
{
    const LoadResult r = load(Data / "jax_xplane/tracelens-jax08-conv-mi300");
    ASSERT_TRUE(r.session);
    EXPECT_EQ(r.session->format, "jax-xplane");
    EXPECT_FALSE(r.session->hasContent());
    EXPECT_TRUE(r.session->traces.empty());
    EXPECT_TRUE(hasMessage(*r.session, model::Severity::Error,
        "JAX/XLA xplane.pb is not supported: export a Chrome trace"));
    ASSERT_FALSE(r.session->report.diagnostics().empty());
    EXPECT_EQ(r.session->report.diagnostics().front().file, "tw003.xplane.pb");
}

TEST(LoaderTest, MissingAndUnknownPathsGiveAClearError)
{
    LoadResult r = load(Data / "no/such/folder");
    ASSERT_TRUE(r.session);
    EXPECT_FALSE(r.session->hasContent());
    EXPECT_TRUE(hasMessage(*r.session, model::Severity::Error, "no such file or folder"));

    const fs::path dir = fs::temp_directory_path() / "stepscope_loader_unknown";
    fs::create_directories(dir);
    std::ofstream(dir / "readme.txt") << "not a profile";
    r = load(dir);
    fs::remove_all(dir);
    ASSERT_TRUE(r.session);
    EXPECT_EQ(r.session->format, "unknown");
    EXPECT_FALSE(r.session->hasContent());
    EXPECT_TRUE(hasMessage(*r.session, model::Severity::Error, "no profiler output recognised"));
}

TEST(LoaderTest, LegacyClusterFolderHasOneTracePerRank)
{
    const LoadResult r = load(Data / "mindspore_legacy/mindinsight-cluster-pp-4rank");
    ASSERT_TRUE(r.session);
    const model::Session &s = *r.session;
    EXPECT_EQ(s.format, "mindspore-legacy");
    ASSERT_EQ(s.traces.size(), 4u);
    for (std::int32_t rank = 0; rank < 4; ++rank) {
        const model::Trace *t = s.traceForRank(rank);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->steps.size(), 5u);
        EXPECT_EQ(t->collectives.size(), 500u);
        EXPECT_EQ(t->metadata.rank, rank);
    }
}

TEST(LoaderTest, KinetoCapturesOfOneWorkerMergeIntoOneRank)
{
    const fs::path dir =
        Data / "kineto/kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0";
    const LoadResult both = load(dir);
    ASSERT_TRUE(both.session);
    ASSERT_EQ(both.session->traces.size(), 1u) << importSummaryText(*both.session);
    const model::Trace &merged = *both.session->traces.front();
    std::uint64_t separate = 0;
    std::size_t steps = 0;
    for (const auto &file : fs::directory_iterator(dir)) {
        const LoadResult one = load(file.path());
        ASSERT_TRUE(one.session);
        ASSERT_EQ(one.session->traces.size(), 1u);
        separate += one.session->traces.front()->eventCount();
        steps += one.session->traces.front()->steps.size();
    }
    EXPECT_EQ(merged.eventCount(), separate); // nothing lost or duplicated by the merge
    EXPECT_EQ(merged.steps.size(), steps);
    EXPECT_EQ(merged.checkInvariants(), "");
}

TEST(LoaderTest, KinetoRanksFromDistributedInfo)
{
    const LoadResult r = load(Data / "kineto/hta-sampled-2of128-ranks");
    ASSERT_TRUE(r.session);
    ASSERT_EQ(r.session->traces.size(), 2u);
    EXPECT_EQ(r.session->traces[0]->rank, 0);
    EXPECT_EQ(r.session->traces[1]->rank, 1);
    EXPECT_EQ(r.session->format, "kineto");
}

/// A `distributedInfo` written after the events (a re-written or merged trace) lies beyond the
/// head detection reads: the file still gets the rank it names, alone or in a folder, and
/// no "names no rank" line.
TEST(LoaderTest, KinetoRankNamedAfterTheEventsIsTheFilesOwn)
{
    const fs::path dir = fs::temp_directory_path() / "stepscope_loader_ranklast";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto write = [&](const std::string &name, int rank) {
        std::ofstream out(dir / name);
        out << "{\"traceEvents\": [";
        for (int i = 0; i < 14000; ++i) // 1.3 MB of events: beyond the 1 MiB head read
            out << (i ? ",\n" : "") << R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", )"
                << R"("pid": 1, "tid": 1, "ts": )" << 10 * i << R"(, "dur": 5})";
        out << "],\n\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " << rank
            << ", \"world_size\": 2}}";
    };
    write("a.json", 1);
    write("b.json", 0);
    const LoadResult both = load(dir);
    const LoadResult alone = load(dir / "a.json");
    fs::remove_all(dir);
    ASSERT_TRUE(both.session);
    ASSERT_EQ(both.session->traces.size(), 2u);
    for (const auto &t : both.session->traces) {
        ASSERT_FALSE(t->metadata.sourceFiles.empty());
        EXPECT_EQ(t->rank, t->metadata.sourceFiles.front() == "a.json" ? 1 : 0)
            << t->metadata.sourceFiles.front();
    }
    EXPECT_FALSE(hasMessage(*both.session, model::Severity::Info, "names no rank"))
        << both.session->report.toText();
    ASSERT_TRUE(alone.session);
    ASSERT_EQ(alone.session->traces.size(), 1u);
    EXPECT_EQ(alone.session->traces.front()->rank, 1);
}

/// Two trainings profiled into one log folder write captures of the same worker name whose
/// step numbers repeat: two ranks, said, not one rank of twelve steps (six numbers twice).
TEST(LoaderTest, KinetoCapturesThatRepeatStepNumbersAreTwoRuns)
{
    const fs::path dir = fs::temp_directory_path() / "stepscope_loader_tworesnets";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path sample = Data / "kineto/kineto-resnet50-dataloader-workers0-vs-4";
    fs::copy(sample / "resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz", dir);
    fs::copy(sample / "resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz", dir);
    const LoadResult r = load(dir);
    fs::remove_all(dir);
    ASSERT_TRUE(r.session);
    ASSERT_EQ(r.session->traces.size(), 2u) << importSummaryText(*r.session);
    for (const auto &t : r.session->traces) {
        ASSERT_EQ(t->steps.size(), 6u);
        EXPECT_EQ(t->steps.front().number, 5);
    }
    EXPECT_TRUE(hasMessage(*r.session, model::Severity::Warning,
        "repeats step numbers of worker0.1623143089861.pt.trace.json.gz, a capture of the same "
        "worker name: two runs in one folder? Kept apart as a rank of its own. Open each run on "
        "its own, or compare the two"))
        << r.session->report.toText();
}

TEST(LoaderTest, TwoFoldersClaimingOneRankAreBothShown)
{
    const fs::path dir = fs::temp_directory_path() / "stepscope_loader_duprank";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path rank0 = Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed/test_rank_0";
    fs::copy(rank0, dir / "a_rank_0", fs::copy_options::recursive);
    fs::copy(rank0, dir / "b_rank_0", fs::copy_options::recursive);
    const LoadResult r = load(dir);
    fs::remove_all(dir);
    ASSERT_TRUE(r.session);
    ASSERT_EQ(r.session->traces.size(), 2u);
    EXPECT_EQ(r.session->traces[0]->rank, 0);
    EXPECT_EQ(r.session->traces[1]->rank, 1);
    EXPECT_EQ(r.session->traces[0]->eventCount(), r.session->traces[1]->eventCount());
    EXPECT_TRUE(hasMessage(*r.session, model::Severity::Warning,
        "two folders claim rank 0 (a_rank_0 and b_rank_0); the second is shown as rank 1"));
}

/// A renamed profiler_info: the rank is the profiler's `rank_id`, in the plan (what `--ranks`
/// selects) and in the session, and the file name's other number is named.
TEST(LoaderTest, ProfilerInfoRankIdOutranksItsFileName)
{
    const fs::path dir = fs::temp_directory_path() / "stepscope_loader_renamedinfo";
    fs::remove_all(dir);
    const fs::path run = Data / "ascend_pt/msinsight-cnn-level0-2rank";
    fs::copy(run, dir, fs::copy_options::recursive);
    fs::rename(dir / "rank0_ascend_pt/profiler_info_0.json",
        dir / "rank0_ascend_pt/profiler_info_7.json"); // its rank_id stays 0
    const LoadResult all = load(dir);
    LoadOptions only0;
    only0.ranks = {0};
    util::Progress progress;
    const LoadResult one = loadPath(dir, progress, only0);
    fs::remove_all(dir);
    ASSERT_TRUE(all.session && one.session);
    ASSERT_EQ(all.session->traces.size(), 2u) << all.session->report.toText();
    EXPECT_EQ(all.session->traces[0]->rank, 0);
    EXPECT_EQ(all.session->traces[1]->rank, 1);
    EXPECT_TRUE(hasMessage(*all.session, model::Severity::Warning,
        "`rank_id` is 0 but the file is named for rank 7; shown as rank 0"))
        << all.session->report.toText();
    ASSERT_EQ(one.session->traces.size(), 1u) << one.session->report.toText();
    EXPECT_EQ(one.session->traces[0]->rank, 0);
    EXPECT_EQ(one.session->traces[0]->metadata.sourceFiles.front(),
        "rank0_ascend_pt/profiler_info_7.json");
}

/// A cluster_analysis_output/ left from another job beside two rank folders: its 16 ranks'
/// step 2 shares no step with the folders' step 50, so none of it joins the session.
TEST(LoaderTest, AnotherRunsClusterOutputIsNotMerged)
{
    const fs::path dir = fs::temp_directory_path() / "stepscope_loader_leftovercluster";
    fs::remove_all(dir);
    fs::copy(Data / "ascend_pt/msinsight-cnn-level2-2rank", dir, fs::copy_options::recursive);
    fs::copy(Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed/cluster_analysis_output",
        dir / "cluster_analysis_output", fs::copy_options::recursive);
    const LoadResult r = load(dir);
    fs::remove_all(dir);
    ASSERT_TRUE(r.session);
    const model::Session &s = *r.session;
    ASSERT_EQ(s.traces.size(), 2u) << s.report.toText();
    for (const auto &t : s.traces) {
        ASSERT_EQ(t->referenceSteps.size(), 1u) << t->rank;
        EXPECT_EQ(t->referenceSteps[0].step, 50);
    }
    EXPECT_TRUE(s.clusterSteps.empty());
    EXPECT_TRUE(s.clusterCollectives.empty());
    EXPECT_TRUE(s.clusterMatrix.empty());
    EXPECT_TRUE(s.communicationGroups.empty());
    EXPECT_TRUE(hasMessage(s, model::Severity::Warning,
        "its steps (2) are none of the steps of the rank folders here (50): this cluster output "
        "is of another run"))
        << s.report.toText();
}

/// The cluster summary renamed loads as it does under its own name: alone and beside the
/// rank folders, every cluster row and communication figure.
TEST(LoaderTest, ARenamedClusterSummaryLoadsAsUnderItsName)
{
    const fs::path job = fs::temp_directory_path() / "stepscope_loader_renamedcluster";
    fs::remove_all(job);
    fs::copy(
        Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed", job, fs::copy_options::recursive);
    const LoadResult named = load(job);
    const LoadResult namedAlone = load(job / "cluster_analysis_output");
    fs::rename(job / "cluster_analysis_output", job / "gpt3_cluster");
    const LoadResult renamed = load(job);
    const LoadResult renamedAlone = load(job / "gpt3_cluster");
    fs::remove_all(job);
    ASSERT_TRUE(named.session && namedAlone.session && renamed.session && renamedAlone.session);
    const model::Session &n = *named.session;
    ASSERT_FALSE(n.clusterSteps.empty());
    ASSERT_FALSE(n.clusterCollectives.empty());
    for (const model::Session *s : {renamed.session.get(), renamedAlone.session.get()}) {
        EXPECT_EQ(s->format, "ascend") << s->report.toText();
        EXPECT_EQ(s->clusterSteps.size(), n.clusterSteps.size()) << s->report.toText();
        EXPECT_EQ(s->clusterCollectives.size(), n.clusterCollectives.size());
        EXPECT_EQ(s->clusterMatrix.size(), n.clusterMatrix.size());
        EXPECT_EQ(s->communicationGroups.size(), n.communicationGroups.size());
    }
    EXPECT_EQ(renamed.session->traces.size(), n.traces.size());
    EXPECT_EQ(renamedAlone.session->clusterSteps.size(), namedAlone.session->clusterSteps.size());
}

/// Traces that name no rank, each in its own folder under one worker name (a TensorBoard log
/// folder of two runs): shown as two ranks, and the second said to be most likely another
/// run. Two workers in two folders are ranks, said as before.
TEST(LoaderTest, OneWorkerInTwoFoldersIsSaidToBeTwoRuns)
{
    const LoadResult runs = load(Data / "kineto/kineto-resnet50-dataloader-workers0-vs-4");
    const fs::path dir = fs::temp_directory_path() / "stepscope_loader_twoworkers";
    fs::remove_all(dir);
    for (const char *worker : {"node0/worker0", "node1/worker1"}) {
        fs::create_directories((dir / worker).parent_path());
        std::ofstream(dir / (std::string(worker) + ".pt.trace.json"))
            << R"({"schemaVersion":1,"traceEvents":[{"ph":"X","name":"ProfilerStep#1",)"
            << R"("pid":1,"tid":1,"ts":0,"dur":)" << worker[4] << "}]}"; // 0 or 1
    }
    const LoadResult ranks = load(dir);
    fs::remove_all(dir);
    ASSERT_TRUE(runs.session && ranks.session);
    const model::Session &r = *runs.session;
    EXPECT_EQ(r.traces.size(), 2u);
    EXPECT_TRUE(hasMessage(r, model::Severity::Warning,
        "and resnet50_num_workers_0 holds a capture of the same worker: two runs side by side? "
        "Shown as rank 1. Open each run on its own, or compare the two (File > Compare…, or "
        "stepscope compare A B)"))
        << r.report.toText();
    EXPECT_TRUE(hasMessage(r, model::Severity::Info, "shown as rank 0, one of 2 ranks"));
    EXPECT_EQ(ranks.session->traces.size(), 2u) << ranks.session->report.toText();
    EXPECT_TRUE(hasMessage(*ranks.session, model::Severity::Info, "shown as rank 1, one of 2"));
    EXPECT_FALSE(hasMessage(*ranks.session, model::Severity::Warning, "two runs side by side"));
}

/// A file named without its folder (`stepscope summary trace_view.json` from inside
/// ASCEND_PROFILER_OUTPUT) opens as it does by its full path: detection needs the folder's name.
TEST(LoaderTest, AFileNamedFromItsOwnFolderOpensAsByItsFullPath)
{
    const fs::path cwd = fs::current_path();
    const fs::path rank = Data / "ascend_pt/msinsight-cnn-level2-2rank/rank0_ascend_pt";
    fs::current_path(rank / "ASCEND_PROFILER_OUTPUT");
    const LoadResult bare = load("trace_view.json");
    fs::current_path(Data / "mindspore_legacy/mindinsight-cluster-pp-4rank");
    const LoadResult mindspore = load("./step_trace_raw_2_detail_time.csv");
    fs::current_path(cwd);
    const LoadResult full = load(rank / "ASCEND_PROFILER_OUTPUT/trace_view.json");
    ASSERT_TRUE(bare.session && full.session && mindspore.session);
    EXPECT_EQ(full.session->format, "ascend");
    EXPECT_EQ(bare.session->format, full.session->format) << bare.session->report.toText();
    ASSERT_EQ(bare.session->traces.size(), 1u);
    EXPECT_EQ(bare.session->traces[0]->referenceSteps.size(),
        full.session->traces[0]->referenceSteps.size());
    EXPECT_EQ(mindspore.session->format, "mindspore-legacy") << mindspore.session->report.toText();
    ASSERT_EQ(mindspore.session->traces.size(), 1u);
    EXPECT_EQ(mindspore.session->traces[0]->rank, 2);
}

/// A folder above two runs' folders: each run's ranks found one level deeper than a job's
/// folder, and the clash of their rank ids named with both folders and a hint.
TEST(LoaderTest, TwoRunsInOneFolderAreFoundAndTheirRankClashNamed)
{
    const fs::path dir = fs::temp_directory_path() / "stepscope_loader_tworuns";
    fs::remove_all(dir);
    const fs::path run = Data / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed";
    fs::create_directories(dir / "runA");
    fs::create_directories(dir / "runB");
    fs::copy(run / "test_rank_0", dir / "runA/test_rank_0", fs::copy_options::recursive);
    fs::copy(run / "test_rank_0", dir / "runB/test_rank_0", fs::copy_options::recursive);
    const LoadResult r = load(dir);
    fs::remove_all(dir);
    ASSERT_TRUE(r.session);
    EXPECT_EQ(r.session->format, "ascend");
    ASSERT_EQ(r.session->traces.size(), 2u);
    EXPECT_TRUE(hasMessage(*r.session, model::Severity::Warning,
        "two folders claim rank 0 (runA/test_rank_0 and runB/test_rank_0); the second is shown "
        "as rank 1. Two runs in one folder? Open each run on its own, or compare the two"));
}

/// An Ascend trace view read by what it holds, not its name: gzipped in its rank folder (as
/// users do to move a large one), or copied out alone under another name. Each gives the
/// events of the plain file, read as Ascend's (not as a generic trace without kernels).
TEST(LoaderTest, AscendTraceViewGzippedOrRenamedIsStillAscends)
{
    const fs::path dir = fs::temp_directory_path() / "stepscope_loader_traceview";
    fs::remove_all(dir);
    fs::create_directories(dir / "alone");
    const fs::path rank = Data / "ascend_pt/msinsight-cnn-level0-2rank/rank0_ascend_pt";
    fs::copy(rank, dir / "rank0", fs::copy_options::recursive);
    const fs::path plain = dir / "rank0/ASCEND_PROFILER_OUTPUT/trace_view.json";
    std::ifstream in(plain, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    gzFile gz = gzopen((plain.string() + ".gz").c_str(), "wb");
    gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
    gzclose(gz);
    fs::copy_file(plain, dir / "alone/events_dump.json");
    fs::permissions(plain, fs::perms::owner_write, fs::perm_options::add);
    fs::remove(plain);

    const LoadResult reference = load(rank);
    const LoadResult gzipped = load(dir / "rank0");
    const LoadResult renamed = load(dir / "alone/events_dump.json");
    fs::remove_all(dir);
    ASSERT_TRUE(reference.session && gzipped.session && renamed.session);
    ASSERT_EQ(gzipped.session->traces.size(), 1u) << gzipped.session->report.toText();
    ASSERT_EQ(renamed.session->traces.size(), 1u) << renamed.session->report.toText();
    const model::Trace &r = *reference.session->traces[0];
    EXPECT_EQ(gzipped.session->format, "ascend");
    EXPECT_EQ(gzipped.session->traces[0]->eventCount(), r.eventCount());
    EXPECT_EQ(gzipped.session->traces[0]->flows.size(), r.flows.size());
    EXPECT_EQ(renamed.session->format, "ascend-fragments");
    EXPECT_EQ(renamed.session->traces[0]->flows.size(), r.flows.size());
    EXPECT_EQ(renamed.session->traces[0]->eventCount(), r.eventCount());
}

/// A CANN timeline file opened alone reads as Ascend's trace view: its device's `Step Trace`
/// lane (Iteration, FP_BP Time, Reduce) marks steps, and is not a stream of device work (it
/// made compute the whole step, 157 % of the Overlap Analysis lanes' Computing).
TEST(LoaderTest, ACannTimelineAloneKeepsItsStepTraceLaneOffTheDevice)
{
    fs::path file;
    for (const auto &e : fs::recursive_directory_iterator(Data / "mindspore_legacy"))
        if (e.path().filename() == "msprof_0_2_3.json")
            file = e.path();
    ASSERT_FALSE(file.empty());
    const LoadResult r = load(file);
    ASSERT_TRUE(r.session);
    ASSERT_EQ(r.session->traces.size(), 1u) << r.session->report.toText();
    std::size_t stepLanes = 0;
    std::size_t deviceStreams = 0;
    for (const model::Track &t : r.session->traces[0]->tracks) {
        const bool stepLane = t.info().threadName.rfind("Step Trace", 0) == 0;
        stepLanes += stepLane ? 1 : 0;
        deviceStreams += t.info().kind == model::TrackKind::DeviceStream ? 1 : 0;
        if (stepLane) {
            EXPECT_EQ(t.info().kind, model::TrackKind::Synthetic) << t.info().threadName;
        }
    }
    EXPECT_EQ(stepLanes, 1u);
    EXPECT_GT(deviceStreams, 0u);
}

/// Writes `files` raw memory exports of `rows` rows each: a load that takes a while.
fs::path writeBigMemoryFolder(int files, int rows)
{
    const fs::path dir = fs::temp_directory_path() / "stepscope_loader_cancel";
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (int f = 0; f < files; ++f) {
        std::ofstream out(dir / ("memory_" + std::to_string(f) + ".raw"), std::ios::binary);
        out << '[';
        for (int i = 0; i < rows; ++i)
            out << (i ? ", [" : "[") << (1000000 + i) << ", 2, " << (i % 7 + 1 + f) * 512 << ", "
                << i % 8 << ']';
        out << ']';
    }
    return dir;
}

TEST(LoaderTest, CancelStopsTheLoadPromptly)
{
    const fs::path dir = writeBigMemoryFolder(3, 1500000);
    util::CancelToken token;
    std::atomic<bool> started {false};
    util::Progress progress(
        [&](const std::string &stage, std::uint64_t, std::uint64_t) {
            if (stage.rfind("Reading", 0) == 0)
                started = true;
        },
        &token);
    auto future = std::async(std::launch::async, [&] { return loadPath(dir, progress); });
    while (!started && future.wait_for(std::chrono::milliseconds(1)) != std::future_status::ready) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_NE(future.wait_for(std::chrono::milliseconds(0)), std::future_status::ready)
        << "the load finished before it could be cancelled";
    const auto cancelledAt = std::chrono::steady_clock::now();
    token.cancel();
    const LoadResult r = future.get();
    const auto waited = std::chrono::steady_clock::now() - cancelledAt;
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.session); // partial results are freed, not returned
    EXPECT_LT(progress.done(), progress.total());

    // Without a cancel, the same folder loads: one rank per memory export.
    util::Progress plain;
    const auto fullStart = std::chrono::steady_clock::now();
    const LoadResult full = loadPath(dir, plain);
    const auto fullLoad = std::chrono::steady_clock::now() - fullStart;
    fs::remove_all(dir);
    // "Promptly" relative to the work it saves, so the check holds on a loaded machine too
    // (STYLE.md: no absolute timings in unit tests): the cancelled load returns in a small
    // fraction of the time the whole load takes.
    EXPECT_LT(waited * 5, fullLoad)
        << "cancel waited " << std::chrono::duration_cast<std::chrono::milliseconds>(waited).count()
        << " ms, the whole load takes "
        << std::chrono::duration_cast<std::chrono::milliseconds>(fullLoad).count() << " ms";
    ASSERT_TRUE(full.session);
    EXPECT_FALSE(full.cancelled);
    ASSERT_EQ(full.session->traces.size(), 3u);
    EXPECT_EQ(full.session->traces[2]->memory.categories.timestampsNs.size(), 1500000u);
}

TEST(LoaderTest, CancelBeforeStartReturnsCancelled)
{
    util::CancelToken token;
    token.cancel();
    util::Progress progress({}, &token);
    const LoadResult r = loadPath(Data / "mindspore_legacy/mindinsight-widedeep-run1", progress);
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.session);
}

TEST(LoadPlan, ManyRankFilesShareTheCoresInsteadOfEachTakingThemAll)
{
    LoadOptions all; // threads 0: every core
    // As many jobs as workers: each file keeps the option (its own pool on every core).
    EXPECT_EQ(plan::fileThreads(2, 2, all), 0u);
    LoadOptions eight;
    eight.threads = 8;
    EXPECT_EQ(plan::fileThreads(4, 4, eight), 8u);
    // More jobs than workers: every worker already reads a file, so each has its share.
    EXPECT_EQ(plan::fileThreads(1000, 4, eight), 2u);
    EXPECT_EQ(plan::fileThreads(1000, 3, eight), 2u);
    LoadOptions two;
    two.threads = 2;
    EXPECT_EQ(plan::fileThreads(1000, 2, two), 1u);
    EXPECT_EQ(plan::fileThreads(1000, 4, two), 1u); // never none
}

TEST(LoadPlan, AThreadThatReadsFileAfterFileCarriesNothingFromOneToTheNext)
{
    // One thread reads every file (threads 1), reusing its chunk, parse result and parser
    // from file to file: the same load twice, and the load on a pool per file, must agree.
    const fs::path folder = Data / "kineto/hta-sampled-2of128-ranks";
    LoadOptions one;
    one.threads = 1;
    util::Progress progress;
    const LoadResult first = loadPath(folder, progress, one);
    const LoadResult again = loadPath(folder, progress, one);
    LoadOptions pooled;
    pooled.threads = 2;
    const LoadResult pool = loadPath(folder, progress, pooled);
    ASSERT_TRUE(first.session && again.session && pool.session);
    ASSERT_EQ(first.session->traces.size(), 2u);
    const std::string text = dumpText(*first.session);
    EXPECT_EQ(text, dumpText(*again.session));
    EXPECT_EQ(text, dumpText(*pool.session));
}

} // namespace
} // namespace stepscope::import
