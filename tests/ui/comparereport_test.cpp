// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "compare_testsupport.h"
#include "ui/report/comparereport.h"

#include <gtest/gtest.h>

#include <QRegularExpression>

using namespace stepscope;
using namespace stepscope::ui;

TEST(CompareReport, DemoPairHasEverySectionAndOnlyEmbeddedImages)
{
    const Report report = buildCompareReport(testsupport::demoPair(), QSize(1000, 500));
    QStringList titles;
    for (const ReportSection &s : report.sections)
        titles << s.title;
    EXPECT_EQ(titles,
        (QStringList {QStringLiteral("Runs"), QStringLiteral("KPIs"),
            QStringLiteral("Step breakdown, paired"), QStringLiteral("Bottlenecks"),
            QStringLiteral("Memory"), QStringLiteral("Kernel deltas"),
            QStringLiteral("Loss curves"), QStringLiteral("Timelines of the aligned step"),
            QStringLiteral("Load diagnostics")}));
    const QString html = reportHtml(report);
    const QRegularExpression ref(QStringLiteral("(?:src|href)\\s*=\\s*\"([^\"]*)\""));
    int images = 0;
    for (auto it = ref.globalMatch(html); it.hasNext(); ++images)
        EXPECT_TRUE(it.next().captured(1).startsWith(QStringLiteral("data:image/png;base64,")));
    EXPECT_EQ(images, 3); // paired step times, peak memory, both aligned timelines (no logs)
    // The Markdown summary is core's (analysis::compareMarkdown of the same comparison).
    EXPECT_EQ(report.summaryMarkdown.toStdString(),
        analysis::compareMarkdown(testsupport::demoPair()->comparison,
            testsupport::demoPair()->beforeInfo(), testsupport::demoPair()->afterInfo()));
}

/// Two training logs and no profile: no empty profile tables, no "neither profile records
/// memory" (the logs have memory lines); the loss curves and the logs' own figures.
TEST(CompareReport, TwoLogsAloneGetTheLogsSectionsOnly)
{
    const std::string dir = std::string(STEPSCOPE_TEST_DATA)
        + "/loss_logs/mindspeed-megatron-det-vs-nondet/test_qwen_sft/";
    const auto data = ui::compare::CompareData::build(testsupport::loadProfile(dir + "pta_det.txt"),
        testsupport::loadProfile(dir + "pta_non_det.txt"));
    ASSERT_TRUE(data);
    const Report report = buildCompareReport(data, QSize(1000, 500));
    QStringList titles;
    for (const ReportSection &s : report.sections)
        titles << s.title;
    EXPECT_EQ(titles,
        (QStringList {QStringLiteral("Runs"), QStringLiteral("Loss curves"),
            QStringLiteral("Load diagnostics")}));
    ASSERT_FALSE(report.sections.front().paragraphs.isEmpty());
    EXPECT_TRUE(report.sections.front().paragraphs.front().startsWith(
        QStringLiteral("Training logs only, no profile")));
    EXPECT_FALSE(reportHtml(report).contains(QStringLiteral("Neither profile records memory")));
    // The logs' memory lines, one row per rank, each naming its rank.
    const ReportSection &loss = report.sections[1];
    ASSERT_FALSE(loss.tables.empty());
    int allocated = 0;
    for (const QStringList &row : loss.tables.back().rows) {
        if (row.front().startsWith(QStringLiteral("allocated"))) {
            ++allocated;
            EXPECT_TRUE(row.front().startsWith(QStringLiteral("allocated (rank ")))
                << row.front().toStdString();
        }
    }
    EXPECT_GT(allocated, 1);
}

TEST(CompareReport, KpiAndStepRowsAreTheComparisonRows)
{
    const auto data = testsupport::demoPair();
    const Report report = buildCompareReport(data, QSize(800, 400));
    const ReportSection *kpis = nullptr;
    for (const ReportSection &s : report.sections)
        if (s.title == QStringLiteral("KPIs"))
            kpis = &s;
    ASSERT_NE(kpis, nullptr);
    ASSERT_EQ(kpis->tables.size(), 2u);
    ASSERT_EQ(kpis->tables[0].rows.size(), data->comparison.kpiRows.size());
    ASSERT_EQ(kpis->tables[1].rows.size(), data->comparison.meanStepRows.size());
    for (std::size_t i = 0; i < data->comparison.meanStepRows.size(); ++i) {
        const analysis::DeltaRow &r = data->comparison.meanStepRows[i];
        const QStringList &cells = kpis->tables[1].rows[i];
        EXPECT_EQ(cells[0].toStdString(), analysis::rowTitle(r));
        EXPECT_EQ(cells[1].toStdString(), analysis::formatRowValue(r.unit, *r.before));
        EXPECT_EQ(cells[2].toStdString(), analysis::formatRowValue(r.unit, *r.after));
        // Data loading collapses with four workers: green (better) in the report.
        if (r.key == "segment.data_loading") {
            EXPECT_EQ(kpis->tables[1].tones[i][3], CellTone::Better);
        }
    }
}

/// The report judges the loss curves with the band the gate used (compare --tolerance): the
/// MoE pair's smoothed curves differ by 0.00475 % at most, held at 2 % and drifted at 0.001 %.
TEST(CompareReport, LossVerdictUsesTheGatesTolerance)
{
    const std::string moe = std::string(STEPSCOPE_TEST_DATA)
        + "/loss_logs/megatron-golden-values/moe/gpt3_moe_mcore_te_ep8_resume_torch_dist_dist_muon";
    const auto verdictWith = [&](double tolerance) {
        analysis::TrainingThresholds t;
        t.tolerance = tolerance;
        const auto data = ui::compare::CompareData::build(
            testsupport::loadProfile(moe + "_param_layout/golden_values_dev_dgx_h100.json"),
            testsupport::loadProfile(moe + "/golden_values_dev_dgx_h100.json"), true, {}, t);
        const Report report = buildCompareReport(data, QSize(800, 400));
        for (const ReportSection &s : report.sections)
            if (s.title == QStringLiteral("Loss curves") && !s.paragraphs.isEmpty())
                return s.paragraphs.front();
        return QString();
    };
    EXPECT_TRUE(verdictWith(0.02).startsWith(QStringLiteral("Convergence of lm loss: held")))
        << verdictWith(0.02).toStdString();
    EXPECT_TRUE(verdictWith(1e-5).startsWith(QStringLiteral("Convergence of lm loss: drifted")))
        << verdictWith(1e-5).toStdString();
}
