// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The Ascend DB reader streams TASK merge-joined with COMPUTE_TASK_INFO and
// COMMUNICATION_TASK_INFO in globalTaskId order, and CONNECTION_IDS after PYTORCH_API
// (core/import/ascenddb/devicetasks.cpp, hostapis.cpp). Row order is not part of the format:
// the real level2 rank 0 file already has 35 TASK rows out of globalTaskId order; here the
// tests write copies whose TASK, PYTORCH_API and CONNECTION_IDS rows are in reverse and in
// shuffled order (every TASK lookup then misses the merge and takes the point query) and
// check that the model is the same event for event, argument for argument, flow for flow.

#include "import/ascenddb/ascenddb.h"
#include "sqlitedb_fixture.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

const char *const Sample = "ascend_db/msinsight-cnn-db-level2-2rank/rank0_ascend_pt/"
                           "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db";

using EventKey = std::tuple<std::string, std::int64_t, std::int64_t, std::string, int, std::string>;
using FlowKey = std::tuple<std::string, std::int64_t, std::string, std::int64_t, std::string>;

std::string laneOf(const model::Trace &t, model::TrackId id)
{
    const auto &info = t.tracks[id.value()].info();
    return info.processName + "/" + info.threadName;
}

/// Every event as (lane, start, duration, name, category, args), sorted.
std::vector<EventKey> eventsOf(const model::Trace &t)
{
    std::vector<EventKey> out;
    for (std::size_t k = 0; k < t.tracks.size(); ++k) {
        const auto &track = t.tracks[k];
        const std::string lane = laneOf(t, model::TrackId(static_cast<std::uint32_t>(k)));
        for (std::uint32_t i = 0; i < track.size(); ++i)
            out.emplace_back(lane, track.start(i), track.duration(i),
                std::string(t.strings.view(track.name(i))), static_cast<int>(track.category(i)),
                std::string(t.args.text(track.args(i))));
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// Every flow as (from lane, from start, to lane, to start, category), sorted.
std::vector<FlowKey> flowsOf(const model::Trace &t)
{
    std::vector<FlowKey> out;
    for (const model::Flow &f : t.flows)
        out.emplace_back(laneOf(t, f.from.track),
            t.tracks[f.from.track.value()].start(f.from.index), laneOf(t, f.to.track),
            t.tracks[f.to.track.value()].start(f.to.index),
            std::string(t.strings.view(f.category)));
    std::sort(out.begin(), out.end());
    return out;
}

class AscendDbRowOrder : public testsupport::SqliteFixture
{
protected:
    /// A copy of the sample with `table`'s rows rewritten in `order` (an ORDER BY clause).
    fs::path reordered(
        const std::string &name, const std::vector<std::string> &tables, const std::string &order)
    {
        const fs::path file = m_tmp / (name + ".db");
        fs::copy_file(testsupport::sqliteData(Sample), file);
        fs::permissions(file, fs::perms::owner_write, fs::perm_options::add);
        std::string sql;
        for (const std::string &t : tables)
            sql += "CREATE TABLE tmp AS SELECT * FROM " + t + " ORDER BY " + order
                + "; DELETE FROM " + t + "; INSERT INTO " + t
                + " SELECT * FROM tmp; DROP TABLE tmp;";
        testsupport::writeDatabase(file, sql);
        return file;
    }

    void expectSameModel(const fs::path &file)
    {
        const auto original =
            import::ascenddb::readAscendDbPath(testsupport::sqliteData(Sample), true);
        const auto moved = import::ascenddb::readAscendDbPath(file, true);
        ASSERT_TRUE(original.ok);
        ASSERT_TRUE(moved.ok) << moved.report.toText();
        EXPECT_EQ(moved.report.diagnostics().size(), original.report.diagnostics().size())
            << moved.report.toText();
        EXPECT_EQ(moved.trace.checkInvariants(), "");
        const auto a = eventsOf(original.trace);
        const auto b = eventsOf(moved.trace);
        EXPECT_EQ(a.size(), 552u + 2460u + 1133u + 4u); // TASK, PYTORCH_API, CANN_API, HCCL ops
        EXPECT_EQ(b.size(), a.size());
        EXPECT_TRUE(a == b) << "the events differ";
        const auto fa = flowsOf(original.trace);
        EXPECT_EQ(fa.size(), 241u + 191u + 159u + 27u); // as ascenddb_samples_test pins them
        EXPECT_TRUE(fa == flowsOf(moved.trace)) << "the flows differ";
    }
};

TEST_F(AscendDbRowOrder, ReversedTablesGiveTheSameModel)
{
    expectSameModel(reordered("reversed", {"TASK", "PYTORCH_API", "CONNECTION_IDS"}, "rowid DESC"));
}

TEST_F(AscendDbRowOrder, ShuffledTablesGiveTheSameModel)
{
    // A fixed permutation (no random()): rowid * 7919 modulo a prime above the row counts.
    expectSameModel(
        reordered("shuffled", {"TASK", "PYTORCH_API", "CONNECTION_IDS"}, "(rowid * 7919) % 10007"));
}

} // namespace
