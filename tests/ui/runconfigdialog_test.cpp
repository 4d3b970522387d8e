// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "ui/runconfigdialog.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QLineEdit>

using stepscope::ui::RunConfigDialog;

TEST(RunConfigDialog, AmountsAcceptSuffixesAndSeparators)
{
    EXPECT_DOUBLE_EQ(*RunConfigDialog::parseAmount(QStringLiteral("7B")), 7e9);
    EXPECT_DOUBLE_EQ(*RunConfigDialog::parseAmount(QStringLiteral("7,000,000,000")), 7e9);
    EXPECT_DOUBLE_EQ(*RunConfigDialog::parseAmount(QStringLiteral("1.5M")), 1.5e6);
    EXPECT_DOUBLE_EQ(*RunConfigDialog::parseAmount(QStringLiteral("312e12")), 312e12);
    EXPECT_DOUBLE_EQ(*RunConfigDialog::parseAmount(QStringLiteral("989.5T")), 989.5e12);
    EXPECT_FALSE(RunConfigDialog::parseAmount(QString()).has_value());
    EXPECT_FALSE(RunConfigDialog::parseAmount(QStringLiteral("abc")).has_value());
    EXPECT_FALSE(RunConfigDialog::parseAmount(QStringLiteral("-3")).has_value());
}

TEST(RunConfigDialog, EmptyFieldsStayUnsetAndJsonHasOnlySetKeys)
{
    stepscope::analysis::RunConfig start;
    start.parameters = 25e6;
    start.precision = "bf16";
    RunConfigDialog dialog(start);
    const auto edits = dialog.findChildren<QLineEdit *>();
    ASSERT_GE(edits.size(), 6);
    edits[1]->setText(QStringLiteral("256")); // global batch size
    const auto config = dialog.config();
    ASSERT_TRUE(config.parameters.has_value());
    EXPECT_DOUBLE_EQ(*config.parameters, 25e6);
    ASSERT_TRUE(config.globalBatchSize.has_value());
    EXPECT_DOUBLE_EQ(*config.globalBatchSize, 256);
    EXPECT_FALSE(config.sequenceLength.has_value());
    EXPECT_FALSE(config.peakFlops.has_value());
    EXPECT_EQ(config.precision, "bf16");
    const auto json = nlohmann::json::parse(dialog.toJson());
    EXPECT_EQ(json.size(), 3u);
    EXPECT_EQ(json.at("global_batch_size"), 256);
    EXPECT_EQ(json.at("precision"), "bf16");
    // What the dialog writes is what the core reads back.
    stepscope::model::LoadReport report;
    const auto parsed =
        stepscope::analysis::parseRunConfig(dialog.toJson(), "stepscope.json", &report);
    EXPECT_TRUE(report.empty()) << report.toText();
    ASSERT_TRUE(parsed.globalBatchSize.has_value());
    EXPECT_DOUBLE_EQ(*parsed.globalBatchSize, 256);
}

TEST(RunConfigDialog, ModelTypeAndFlopsPerSampleRoundTrip)
{
    // MFU from 6 × parameters × tokens needs the model type (issue 15); the dialog keeps it.
    stepscope::analysis::RunConfig start;
    start.parameters = 25e6;
    start.modelType = "cnn";
    start.flopsPerSample = 12.3e9;
    RunConfigDialog dialog(start);
    const auto config = dialog.config();
    EXPECT_EQ(config.modelType, "cnn");
    EXPECT_FALSE(config.isTransformerLm());
    ASSERT_TRUE(config.flopsPerSample.has_value());
    EXPECT_DOUBLE_EQ(*config.flopsPerSample, 12.3e9);
    stepscope::model::LoadReport report;
    const auto parsed =
        stepscope::analysis::parseRunConfig(dialog.toJson(), "stepscope.json", &report);
    EXPECT_TRUE(report.empty()) << report.toText();
    EXPECT_EQ(parsed.modelType, "cnn");
    EXPECT_DOUBLE_EQ(parsed.flopsPerSample.value_or(0), 12.3e9);

    start.modelType = "transformer";
    RunConfigDialog lm(start);
    EXPECT_EQ(lm.config().modelType, "transformer_lm");
}
