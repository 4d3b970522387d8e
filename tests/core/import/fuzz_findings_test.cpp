// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Regression tests for what the fuzz targets found (docs/robustness.md, "Findings fixed"),
// each reduced by hand to the input that matters. Run under the asan-core build they fail
// with the sanitizer's report before the fix.
#include "import/importcontext.h"
#include "import/kineto/kinetotrace.h"
#include "import/losslog/jsonlogs.h"
#include "import/losslog/logbuilder.h"
#include "model/loadreport.h"
#include "model/tracebuilder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <vector>

using namespace stepscope;

namespace {

namespace fs = std::filesystem;

class FuzzFindings : public ::testing::Test
{
protected:
    void SetUp() override
    {
        m_dir = fs::temp_directory_path()
            / ("stepscope_fuzzfindings_"
                + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::create_directories(m_dir);
        m_ctx.root = m_dir;
        m_ctx.report = &m_report;
    }
    void TearDown() override { fs::remove_all(m_dir); }

    fs::path write(const std::string &name, const std::string &text)
    {
        const fs::path p = m_dir / name;
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }

    fs::path m_dir;
    model::LoadReport m_report;
    import::ImportContext m_ctx;
};

} // namespace

TEST_F(FuzzFindings, NameMetadataWithoutANameArgIsIgnoredWithAWarning)
{
    // cann_msprof_timeline, seed 1 (2026-12-01): a thread_name event whose args hold no
    // "name" read string id "none" out of the table (ASan SEGV in TraceAssembly::merge).
    // Also a sort_index of 1e300, whose cast to int64 is undefined.
    const fs::path f = write("trace.json",
        R"({"traceEvents":[)"
        R"({"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"other":"x"}},)"
        R"({"ph":"M","name":"process_name","pid":1,"args":{}},)"
        R"({"ph":"M","name":"process_labels","pid":1,"args":{"sort_index":1}},)"
        R"({"ph":"M","name":"thread_sort_index","pid":1,"tid":2,"args":{"sort_index":1e300}},)"
        R"({"ph":"M","name":"thread_name","pid":1,"tid":3,"args":{"name":"worker"}},)"
        R"({"ph":"X","name":"op","pid":1,"tid":2,"ts":1,"dur":2},)"
        R"({"ph":"X","name":"op","pid":1,"tid":3,"ts":1,"dur":2}]})");
    model::TraceBuilder b;
    EXPECT_TRUE(import::kineto::readChromeTrace(f, m_ctx, b)) << m_report.toText();
    const model::Trace t = b.finish().trace;
    EXPECT_EQ(t.eventCount(), 2u);
    bool named = false;
    for (const model::Track &track : t.tracks)
        named |= track.info().threadName == "worker";
    EXPECT_TRUE(named);
    int ignored = 0;
    for (const auto &d : m_report.diagnostics())
        ignored += d.message.find("without a `name`/`labels` arg ignored") != std::string::npos;
    EXPECT_EQ(ignored, 3) << m_report.toText(); // thread_name, process_name, process_labels
}

TEST_F(FuzzFindings, StepNumbersBeyondInt64AreIssuesNotCasts)
{
    // log_metrics_csv, seed 1 (2026-12-01): step "5e78" cast to int64 (UBSan
    // float-cast-overflow in MetricsCsvReader::feed). The same cast was in the trainer_log,
    // trainer_state and torchtitan readers.
    import::losslog::LogBuilder b;
    import::losslog::MetricsCsvReader csv("step,train_loss");
    csv.feed("5e78,1.0", 2, b);
    csv.feed("-1e19,1.0", 3, b);
    csv.feed("7,0.5", 4, b);
    import::losslog::readTrainerLogLine(
        R"({"current_steps": 1e300, "total_steps": 1e300, "loss": 1.0})", 5, b);
    const model::TrainingLog log = b.finish();
    const model::LogSeries *loss = log.find("train_loss");
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->steps, (std::vector<std::int64_t> {7}));
    ASSERT_EQ(log.issues.size(), 3u);
    EXPECT_EQ(log.issues[0].line, 2);
    EXPECT_EQ(log.issues[1].line, 3);
    EXPECT_EQ(log.issues[2].line, 5);
    EXPECT_FALSE(import::losslog::stepFromDouble(std::nan("")));
    EXPECT_FALSE(import::losslog::stepFromDouble(4.7e18));
    EXPECT_EQ(import::losslog::stepFromDouble(-3.0), -3);
}
