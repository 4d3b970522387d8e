// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Training logs open through import::loadPath like a profile (issue 17 item 1), and a
// truncated trainer_state.json keeps its complete entries (issue 14, silent drops). Counts
// checked with python3 on the sample files (grep -c, json module).
#include "import/detect/detect.h"
#include "import/loader.h"
#include "import/losslog/losslog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

const fs::path Data = fs::path(STEPSCOPE_TEST_DATA);
const fs::path Logs = Data / "loss_logs";

std::shared_ptr<const model::Session> load(const fs::path &p)
{
    util::Progress progress;
    return import::loadPath(p, progress).session;
}

bool hasMessage(const model::Session &s, model::Severity severity, const std::string &part)
{
    for (const model::Diagnostic &d : s.report.diagnostics()) {
        if (d.severity == severity && d.message.find(part) != std::string::npos)
            return true;
    }
    return false;
}

std::string readFile(const fs::path &p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

/// A fresh, empty folder under the temp dir.
fs::path tempDir(const std::string &name)
{
    const fs::path dir = fs::temp_directory_path() / ("stepscope_losslog_load_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

} // namespace

TEST(LossLogLoad, EveryLossLogFolderOpensAlone)
{
    // Number of log files per sample folder (find -type f | wc -l; of the checkpoint copies
    // of a trainer_state.json only one is kept, there are none here).
    const std::map<std::string, std::size_t> expected = {
        {"deepspeed-chat-step1-opt1.3b", 1},
        {"deepspeed-random-ltd-kernel-vs-python", 4},
        {"hf-trainer-state-alpaca-llama7b", 1},
        {"lightning-csvlogger-2runs", 2},
        {"llamafactory-trainer-log-jsonl", 1},
        {"megatron-golden-values", 8},
        {"mindformers-llama3-8b-lora-2runs", 2},
        {"mindspeed-megatron-det-vs-nondet", 9},
        {"mindspore-lossmonitor-xidian", 5},
    };
    std::size_t folders = 0;
    for (const fs::directory_entry &e : fs::directory_iterator(Logs)) {
        if (!e.is_directory())
            continue;
        ++folders;
        const std::string name = e.path().filename().string();
        SCOPED_TRACE(name);
        const auto s = load(e.path());
        ASSERT_TRUE(s);
        EXPECT_TRUE(s->hasContent());
        EXPECT_EQ(s->format, "training-log");
        EXPECT_TRUE(s->traces.empty());
        ASSERT_TRUE(expected.count(name));
        std::string names;
        for (const auto &log : s->trainingLogs)
            names += log->source + "\n";
        EXPECT_EQ(s->trainingLogs.size(), expected.at(name)) << names;
        EXPECT_FALSE(hasMessage(*s, model::Severity::Error, "no profiler output"));
    }
    EXPECT_EQ(folders, expected.size());
}

TEST(LossLogLoad, ASingleLogFileOpens)
{
    const fs::path file = Logs / "mindspeed-megatron-det-vs-nondet/test_qwen_sft/pta_det.txt";
    const import::detect::Detection d = import::detect::detectPath(file);
    EXPECT_EQ(d.format, import::detect::Format::TrainingLog);
    ASSERT_EQ(d.logFiles.size(), 1u);
    const auto s = load(file);
    ASSERT_TRUE(s && s->hasContent());
    EXPECT_EQ(s->format, "training-log");
    ASSERT_EQ(s->trainingLogs.size(), 1u);
    const model::LogSeries *loss = s->trainingLogs[0]->primaryLoss();
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->name, "lm loss");
    EXPECT_EQ(loss->size(), 10u); // grep -c "lm loss:" pta_det.txt
}

TEST(LossLogLoad, AppendedRunsAreSeparateRuns)
{
    // EDCN loss.log: four runs appended, the epoch counter restarts three times.
    const auto s = load(Logs / "mindspore-lossmonitor-xidian/Frapple_EDCN/loss.log");
    ASSERT_TRUE(s && s->hasContent());
    ASSERT_EQ(s->trainingLogs.size(), 1u);
    EXPECT_EQ(s->trainingLogs[0]->runs.size(), 4u);
}

TEST(LossLogLoad, AProfileFolderShowsTheLogBesideIt)
{
    const fs::path dir = tempDir("beside");
    fs::copy_file(Data / "kineto/hta-mi250-minitoy-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
        dir / "trace.json.gz");
    fs::copy_file(
        Logs / "mindspeed-megatron-det-vs-nondet/test_qwen_sft/pta_det.txt", dir / "train.log");
    const auto s = load(dir);
    fs::remove_all(dir);
    ASSERT_TRUE(s && s->hasContent());
    EXPECT_EQ(s->format, "kineto");
    EXPECT_FALSE(s->traces.empty());
    ASSERT_EQ(s->trainingLogs.size(), 1u);
    EXPECT_NE(s->trainingLogs[0]->primaryLoss(), nullptr);
}

TEST(LossLogLoad, AFolderWithoutLogsOrProfilesStillSaysSo)
{
    const fs::path dir = tempDir("nothing");
    std::ofstream(dir / "notes.txt") << "no records here\n";
    const auto s = load(dir);
    fs::remove_all(dir);
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->hasContent());
    EXPECT_EQ(s->format, "unknown");
}

TEST(LossLogLoad, TruncatedTrainerStateKeepsItsCompleteEntries)
{
    const std::string text =
        readFile(Logs / "hf-trainer-state-alpaca-llama7b/output/trainer_state.json");
    // Cut inside the 501st log_history entry: python3 -c "import json; ..." shows entries
    // 1..500 hold step 1..500 (logging_steps 1); the cut is right after its '{'.
    std::size_t pos = text.find("\"log_history\"");
    ASSERT_NE(pos, std::string::npos);
    for (int i = 0; i < 501; ++i)
        pos = text.find('{', pos + 1);
    const fs::path dir = tempDir("truncated");
    const fs::path file = dir / "trainer_state.json";
    std::ofstream(file, std::ios::binary) << text.substr(0, pos + 10);

    EXPECT_EQ(import::losslog::detectLogFormat(file), import::losslog::LogFormat::HfTrainerState);
    const auto s = load(file);
    ASSERT_TRUE(s && s->hasContent());
    ASSERT_EQ(s->trainingLogs.size(), 1u);
    const model::LogSeries *loss = s->trainingLogs[0]->primaryLoss();
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ(loss->size(), 500u);
    EXPECT_EQ(loss->steps.back(), 500);
    EXPECT_TRUE(hasMessage(
        *s, model::Severity::Warning, "log_history breaks off at byte " + std::to_string(pos)));
    EXPECT_TRUE(hasMessage(*s, model::Severity::Warning, "the 500 complete entries"));
    // The folder opens too (findTrainingLogs uses the same salvage).
    const auto folder = load(dir);
    fs::remove_all(dir);
    ASSERT_TRUE(folder && folder->hasContent());
    EXPECT_EQ(folder->format, "training-log");
}

// A log copied beside itself read as two runs of the same losses (or, for a folder of one
// worker log copied four times, four runs). Now the copy is a skipped file, as a copied trace
// is; a log of other bytes stays a run of its own.
TEST(LossLogLoad, ACopyOfALogIsReadOnce)
{
    const fs::path dir = tempDir("copied");
    const fs::path folder = Logs / "mindspeed-megatron-det-vs-nondet/test_qwen_sft";
    fs::copy_file(folder / "pta_det.txt", dir / "train.log");
    fs::copy_file(folder / "pta_det.txt", dir / "train (1).log");
    fs::copy_file(folder / "pta_non_det.txt", dir / "other.log");
    const auto s = load(dir);
    fs::remove_all(dir);
    ASSERT_TRUE(s && s->hasContent());
    ASSERT_EQ(s->trainingLogs.size(), 2u);
    std::vector<std::string> sources;
    for (const auto &log : s->trainingLogs)
        sources.push_back(fs::path(log->source).filename().string());
    std::sort(sources.begin(), sources.end());
    EXPECT_EQ(sources, (std::vector<std::string> {"other.log", "train (1).log"}));
    EXPECT_TRUE(hasMessage(*s, model::Severity::Warning,
        "skipped: the same bytes as train (1).log (a copy of that log): read once"));
}
