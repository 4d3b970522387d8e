// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "model/traininglog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace stepscope::model;

namespace {

LogSeries makeSeries(std::string name, LogSeriesKind kind, std::uint32_t run, std::size_t n)
{
    LogSeries s;
    s.name = std::move(name);
    s.kind = kind;
    s.run = run;
    for (std::size_t i = 0; i < n; ++i)
        s.add(static_cast<std::int64_t>(i + 1), 1.0 / static_cast<double>(i + 1),
            static_cast<std::int64_t>(10 + i));
    return s;
}

} // namespace

TEST(TrainingLog, SeriesKeepsParallelArraysAndNonFiniteMarkers)
{
    LogSeries s;
    s.add(1, 2.5, 7);
    s.add(2, std::numeric_limits<double>::quiet_NaN(), 8, true);
    s.add(3, std::numeric_limits<double>::infinity(), 9);
    EXPECT_EQ(s.size(), 3u);
    EXPECT_EQ(s.lines, (std::vector<std::int64_t> {7, 8, 9}));
    EXPECT_EQ(s.duplicate, (std::vector<std::uint8_t> {0, 1, 0}));
    EXPECT_EQ(s.nonFiniteCount(), 2u);
}

TEST(TrainingLog, PrimaryLossPrefersLossWithMostPointsThenPerplexity)
{
    TrainingLog log;
    log.runs.resize(2);
    log.series.push_back(makeSeries("eval_loss", LogSeriesKind::EvalLoss, 0, 50));
    log.series.push_back(makeSeries("wide_loss", LogSeriesKind::Loss, 0, 3));
    log.series.push_back(makeSeries("lm loss", LogSeriesKind::Loss, 0, 5));
    log.series.push_back(makeSeries("perplexity", LogSeriesKind::Perplexity, 1, 4));
    ASSERT_NE(log.primaryLoss(0), nullptr);
    EXPECT_EQ(log.primaryLoss(0)->name, "lm loss");
    ASSERT_NE(log.primaryLoss(1), nullptr);
    EXPECT_EQ(log.primaryLoss(1)->name, "perplexity");
    EXPECT_EQ(log.primaryLoss(2), nullptr);
    EXPECT_EQ(log.find("lm loss", 1), nullptr);
    EXPECT_NE(log.find("lm loss", 0), nullptr);
    EXPECT_EQ(log.findKind(LogSeriesKind::Perplexity, 1)->size(), 4u);
}

// Of loss series with as many points, the shortest name, then the first in byte order,
// then the lowest rank: the order the log printed them in never decides.
TEST(TrainingLog, PrimaryLossTiesAreDecidedByNameNotByOrder)
{
    for (const auto &[names, expected] :
        {std::pair(std::vector<std::string> {"train_loss_Ph", "train_loss_W"}, "train_loss_W"),
            std::pair(std::vector<std::string> {"aux_loss", "loss"}, "loss"),
            std::pair(std::vector<std::string> {"wide_loss", "deep_loss"}, "deep_loss")}) {
        for (bool reversed : {false, true}) {
            TrainingLog log;
            log.runs.resize(1);
            for (const std::string &name : names)
                log.series.push_back(makeSeries(name, LogSeriesKind::Loss, 0, 4));
            if (reversed)
                std::reverse(log.series.begin(), log.series.end());
            ASSERT_NE(log.primaryLoss(0), nullptr);
            EXPECT_EQ(log.primaryLoss(0)->name, expected) << reversed;
        }
    }
    TrainingLog ranks;
    ranks.runs.resize(1);
    for (std::int32_t rank : {3, 1, 2}) {
        ranks.series.push_back(makeSeries("loss", LogSeriesKind::Loss, 0, 4));
        ranks.series.back().rank = rank;
    }
    EXPECT_EQ(ranks.primaryLoss(0)->rank, 1);
}

TEST(TrainingLog, IssuesAreCountedBeyondTheKeptOnes)
{
    TrainingLog log;
    for (int i = 1; i <= 1005; ++i)
        log.addIssue(i, "bad");
    EXPECT_EQ(log.badLineCount, 1005u);
    EXPECT_EQ(log.issues.size(), 1000u);
    EXPECT_EQ(log.issues.front().line, 1);
    log.scalars.emplace_back("train_runtime", 16812.9961);
    ASSERT_NE(log.scalar("train_runtime"), nullptr);
    EXPECT_DOUBLE_EQ(*log.scalar("train_runtime"), 16812.9961);
    EXPECT_EQ(log.scalar("nope"), nullptr);
    EXPECT_EQ(logSeriesKindName(LogSeriesKind::StepTime), "step time");
}
