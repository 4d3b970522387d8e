// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/losslog/losslog.h"

#include <gtest/gtest.h>

#include <string>

using namespace stepscope;
using import::losslog::LogFormat;

TEST(LossLogFind, FindsEverySampleLogByContent)
{
    const std::filesystem::path root = std::string(STEPSCOPE_TEST_DATA) + "/loss_logs";
    auto found = import::losslog::findTrainingLogs(root, 6);
    // 33 log files in tests/data/loss_logs (NOTICE/README files are not logs), MMoE's
    // loss_adult.txt included although it starts with a printed Python dict.
    EXPECT_EQ(found.size(), 33u);
    for (const auto &f : found)
        EXPECT_NE(import::losslog::detectLogFormat(f), LogFormat::Unknown) << f;
    // Depth limit: Wide_and_Deep_movie/log/criteo/loss.log is 5 levels down.
    auto shallow = import::losslog::findTrainingLogs(root, 3);
    EXPECT_LT(shallow.size(), found.size());
}

TEST(LossLogFind, ProfileFolderHasNoTrainingLog)
{
    const std::filesystem::path root = std::string(STEPSCOPE_TEST_DATA) + "/kineto";
    for (const auto &f : import::losslog::findTrainingLogs(root, 4))
        ADD_FAILURE() << "detected as a training log: " << f;
}

TEST(LossLogFind, ConsoleDetectionScansPastThePreamble)
{
    // MindFormers: first record at line 837, ~150 KB into the file.
    const std::string file = std::string(STEPSCOPE_TEST_DATA)
        + "/loss_logs/mindformers-llama3-8b-lora-2runs/run-0/worker_0.log";
    EXPECT_EQ(import::losslog::detectLogFormat(file), LogFormat::ConsoleLog);
    EXPECT_EQ(import::losslog::detectLogFormat(file, 4096), LogFormat::Unknown);
}

#include "import/losslog/logdump.h"

#include <nlohmann/json.hpp>

TEST(LossLogDump, JsonAndSummaryOfARealLog)
{
    model::LoadReport report;
    const std::string file = std::string(STEPSCOPE_TEST_DATA)
        + "/loss_logs/megatron-golden-values/gpt/"
          "gpt3_mcore_te_tp2_pp2_resume_torch_dist/golden_values_dev_dgx_h100_2nd.json";
    model::TrainingLog log = import::losslog::readTrainingLog(file, report);
    nlohmann::json j = nlohmann::json::parse(import::losslog::trainingLogToJson(log, true));
    EXPECT_EQ(j["producer"], "Megatron golden values JSON");
    ASSERT_EQ(j["series"].size(), 5u);
    const nlohmann::json *loss = nullptr;
    for (const auto &s : j["series"])
        if (s["name"] == "lm loss")
            loss = &s;
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ((*loss)["kind"], "loss");
    // Steps 1-50 ran before the resume: "nan" in the file, not recorded, left out.
    EXPECT_EQ((*loss)["points"], 50);
    EXPECT_EQ((*loss)["non_finite"], 0);
    EXPECT_EQ((*loss)["first"][0], 51);
    EXPECT_EQ((*loss)["first"][1], 10.19745);
    EXPECT_EQ((*loss)["last"][0], 100);
    EXPECT_EQ((*loss)["data"].size(), 50u);
    std::string text = import::losslog::describeTrainingLog(log);
    EXPECT_NE(text.find("lm loss 50 points"), std::string::npos) << text;
    EXPECT_EQ(text.find("NaN/inf"), std::string::npos) << text;
}
