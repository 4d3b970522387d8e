// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// The profiler's step tables and the cluster view on the real Ascend samples, through the
// path `stepscope summary --json` takes (loadPath, importSummaryJson, addAnalysisToSummary).
// Every row of every table is compared with the file read here by a plain CSV split; the
// pinned cluster figures were computed by hand with tests/tools/check_step_tables.py.
#include "analysis/analysissummary.h"
#include "analysis/cluster.h"
#include "import/loader.h"
#include "import/summary.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

const std::string Data = STEPSCOPE_TEST_DATA;

struct Loaded
{
    std::shared_ptr<const model::Session> session;
    nlohmann::json summary;
};

Loaded summaryOf(const fs::path &path)
{
    util::Progress progress;
    auto r = import::loadPath(path, progress);
    Loaded out;
    out.session = r.session;
    if (!r.session)
        return out;
    out.summary = import::importSummaryJson(*r.session);
    analysis::addAnalysisToSummary(out.summary, *r.session, analysis::RunConfig {});
    return out;
}

/// A CSV row as header -> text (no quoted commas in these files except the stage tuples).
using CsvRow = std::map<std::string, std::string>;
std::vector<CsvRow> readCsv(const fs::path &path)
{
    std::ifstream f(path);
    std::string line;
    std::vector<std::string> header;
    std::vector<CsvRow> rows;
    auto split = [](const std::string &l) {
        std::vector<std::string> out;
        std::string cell;
        bool quoted = false;
        for (char c : l) {
            if (c == '"')
                quoted = !quoted;
            else if (c == ',' && !quoted) {
                out.push_back(cell);
                cell.clear();
            } else if (c != '\r')
                cell += c;
        }
        out.push_back(cell);
        return out;
    };
    while (std::getline(f, line)) {
        const auto cells = split(line);
        if (header.empty()) {
            header = cells;
            continue;
        }
        CsvRow r;
        for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i)
            r[header[i]] = cells[i];
        rows.push_back(r);
    }
    return rows;
}

double col(const CsvRow &r, const std::string &key)
{
    const auto it = r.find(key);
    return it == r.end() || it->second.empty() ? 0.0 : std::stod(it->second);
}

const nlohmann::json *stepObject(
    const nlohmann::json &summary, std::int64_t rank, std::int64_t step)
{
    for (const auto &s : summary["steps"]) {
        if (s.value("rank", -1) == rank && s.value("step", -999) == step)
            return &s;
    }
    return nullptr;
}

/// Every column of the row equals the step object to 0.01 %.
void expectRowMatches(const nlohmann::json &summary, std::int64_t rank, const CsvRow &r)
{
    const std::int64_t step = std::stoll(r.at("Step"));
    SCOPED_TRACE("rank " + std::to_string(rank) + " step " + std::to_string(step));
    const nlohmann::json *s = stepObject(summary, rank, step);
    ASSERT_NE(s, nullptr);
    auto near = [](double ours, double table) {
        EXPECT_NEAR(ours, table, std::max(1e-4 * std::abs(table), 1e-3)) << table;
    };
    EXPECT_EQ((*s)["basis"], "profiler_table");
    near((*s)["compute_us"], col(r, "Computing"));
    near((*s)["comm_exposed_us"].get<double>() + (*s)["bubble_us"].get<double>(),
        col(r, "Communication(Not Overlapped)"));
    near((*s)["comm_exposed_us"], col(r, "Communication(Not Overlapped and Exclude Receive)"));
    near((*s)["comm_overlapped_us"], col(r, "Overlapped"));
    near((*s)["comm_exposed_us"].get<double>() + (*s)["bubble_us"].get<double>()
            + (*s)["comm_overlapped_us"].get<double>(),
        col(r, "Communication"));
    near((*s)["free_us"], col(r, "Free"));
    near((*s)["bubble_us"], col(r, "Bubble"));
    near((*s)["preparing_us"], col(r, "Preparing"));
    near((*s)["stage_us"], col(r, "Stage"));
    near((*s)["duration_us"].get<double>() - (*s)["preparing_us"].get<double>(),
        col(r, "Stage") + col(r, "Bubble"));
    // Without a timeline the free time cannot be split: its parts are null.
    if ((*s)["start_us"].is_null()) {
        for (const char *part :
            {"host_wait_us", "data_loading_us", "launch_gap_us", "other_idle_us"})
            EXPECT_TRUE((*s)[part].is_null()) << part;
        return;
    }
    near((*s)["host_wait_us"].get<double>() + (*s)["data_loading_us"].get<double>()
            + (*s)["launch_gap_us"].get<double>() + (*s)["other_idle_us"].get<double>(),
        col(r, "Free"));
}

const fs::path Gpt = fs::path(Data) / "ascend_pt/msinsight-gpt3-pp2-16rank-trimmed";

void expectSixteenRanks(const Loaded &l)
{
    ASSERT_TRUE(l.session);
    EXPECT_EQ(l.session->traces.size(), 16u) << l.session->report.toText();
    const auto rows = readCsv(Gpt / "cluster_analysis_output/cluster_step_trace_time.csv");
    int checked = 0;
    for (const auto &r : rows) {
        if (r.at("Type") != "rank")
            continue;
        expectRowMatches(l.summary, std::stoll(r.at("Index")), r);
        ++checked;
    }
    EXPECT_EQ(checked, 16);
    EXPECT_EQ(l.summary["steps"].size(), 16u);

    const auto &c = l.summary["cluster"];
    EXPECT_EQ(c["rank_count"], 16);
    EXPECT_EQ(c["scope"], "all ranks");
    // check_step_tables.py: comm share 0.274018, bubble 0.268822, with bubble 0.542840.
    EXPECT_NEAR(c["shares"]["comm_share"].get<double>(), 0.274018, 1e-6);
    EXPECT_NEAR(c["shares"]["bubble_share"].get<double>(), 0.268822, 1e-6);
    EXPECT_NEAR(c["shares"]["comm_share_with_bubble"].get<double>(), 0.542840, 1e-6);
    EXPECT_NEAR(l.summary["kpis"]["comm_share"].get<double>(), 0.274018, 1e-6);
    // Two stages: 0–7 without bubble, 8–15 with a mean 181 582.526 us, max 195 498.280 us.
    ASSERT_EQ(c["stages"].size(), 2u);
    EXPECT_EQ(c["stages"][0]["ranks"], (std::vector<int> {0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(c["stages"][1]["ranks"], (std::vector<int> {8, 9, 10, 11, 12, 13, 14, 15}));
    EXPECT_NEAR(c["stages"][0]["bubble_mean_us"].get<double>(), 0.0, 1e-3);
    EXPECT_NEAR(c["stages"][1]["bubble_mean_us"].get<double>(), 181582.526, 1e-3);
    EXPECT_NEAR(c["stages"][1]["bubble_max_us"].get<double>(), 195498.280, 1e-3);
    EXPECT_NEAR(c["stages"][1]["bubble_share"].get<double>(), 0.475761, 1e-6);
    // Rank 11 is the slowest (394 234.920 us): the default rank of a comparison.
    EXPECT_EQ(c["slowest_rank"], 11);
    EXPECT_EQ(c["matrix"]["ranks"].size(), 16u);
    EXPECT_EQ(c["matrix"]["steps"], (std::vector<int> {2}));
    EXPECT_FALSE(c["groups"].empty());
}

} // namespace

TEST(StepTables, EveryRowOfEveryRankFolderTableIsAStepWithItsColumns)
{
    int checked = 0;
    for (const char *folder :
        {"ascend_pt/msinsight-cnn-level0-2rank", "ascend_pt/msinsight-cnn-level2-2rank"}) {
        SCOPED_TRACE(folder);
        const Loaded l = summaryOf(fs::path(Data) / folder);
        ASSERT_TRUE(l.session);
        for (std::int32_t rank : {0, 1}) {
            const fs::path csv = fs::path(Data) / folder
                / ("rank" + std::to_string(rank)
                    + "_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
            for (const auto &r : readCsv(csv)) {
                expectRowMatches(l.summary, rank, r);
                ++checked;
            }
        }
        // The timeline agrees within 1 % on these complete folders: no disagreement note.
        for (const auto &n : l.summary["analysis_notes"])
            EXPECT_EQ(
                n["message"].get<std::string>().find("our timeline differs"), std::string::npos)
                << n.dump();
    }
    EXPECT_EQ(checked, 4);
}

TEST(StepTables, SixteenRankSampleWithItsRankFolders)
{
    expectSixteenRanks(summaryOf(Gpt));
}

TEST(StepTables, SixteenRankClusterFolderOpenedAlone)
{
    expectSixteenRanks(summaryOf(Gpt / "cluster_analysis_output"));
}

TEST(StepTables, SixteenRankParentOfOnlyTheClusterFolder)
{
    const fs::path dir = fs::temp_directory_path()
        / ("stepscope-cluster-only-"
            + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(Gpt / "cluster_analysis_output", dir / "cluster_analysis_output");
    const Loaded l = summaryOf(dir);
    expectSixteenRanks(l);
    ASSERT_TRUE(l.session);
    EXPECT_EQ(l.session->format, "ascend");
    fs::remove_all(dir);
}

TEST(StepTables, TracelessRankFoldersKeepTheirFileIds)
{
    // test_rank_0/1 hold step_trace_time.csv (step 2), kernel_details.csv and memory files.
    const Loaded l = summaryOf(Gpt);
    ASSERT_TRUE(l.session);
    for (std::int32_t rank : {0, 1}) {
        const fs::path csv = Gpt / ("test_rank_" + std::to_string(rank))
            / "ASCEND_PROFILER_OUTPUT/step_trace_time.csv";
        for (const auto &r : readCsv(csv))
            expectRowMatches(l.summary, rank, r);
    }
    EXPECT_EQ(stepObject(l.summary, 0, 0), nullptr);
}

// Two ranks' steps of 6e18 ns used to overflow the cluster sums (UBSan: signed overflow);
// they are held at the int64 limit and the shares stay finite.
TEST(ClusterAnalysis, SumsBeyondInt64AreHeldAtTheLimit)
{
    model::Session session;
    std::vector<analysis::StepBreakdown> all(2);
    for (std::size_t i = 0; i < all.size(); ++i) {
        all[i].rank = static_cast<std::int32_t>(i);
        all[i].step = 1;
        all[i].endNs = 6'000'000'000'000'000'000;
        all[i].computeNs = 3'000'000'000'000'000'000;
        all[i].commExposedNs = 3'000'000'000'000'000'000;
    }
    const analysis::ClusterAnalysis c = analysis::analyzeCluster(session, all);
    EXPECT_EQ(c.shares.stepNs, std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(c.shares.computeNs, 6'000'000'000'000'000'000);
    EXPECT_TRUE(std::isfinite(c.shares.commShare));
}

// The ranks missing below a file's world size are the gaps between the ranks present; a
// bogus world size (2^31 - 1) costs no memory or time, and ranks beyond it are ignored.
TEST(ClusterAnalysis, MissingRanksAreTheGapsBelowTheWorldSize)
{
    model::Session session;
    for (const std::int32_t rank : {5, 0, 5, 2147483647}) {
        auto t = std::make_shared<model::Trace>();
        t->rank = rank;
        t->metadata.worldSize = rank == 0 ? 2147483647 : 8;
        session.traces.push_back(std::move(t));
    }
    const analysis::ClusterAnalysis c = analysis::analyzeCluster(session, {});
    EXPECT_EQ(c.worldSize, 2147483647);
    using Run = std::pair<std::int32_t, std::int32_t>;
    EXPECT_EQ(c.missingRanks, (std::vector<Run> {{1, 4}, {6, 2147483646}}));
    EXPECT_EQ(c.missingRankCount, 2147483645);
    EXPECT_EQ(analysis::rankRunsText(c.missingRanks), "1–4, 6–2147483646");
}
