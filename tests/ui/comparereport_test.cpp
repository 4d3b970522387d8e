// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "import/loader.h"
#include "ui/report/comparereport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QRegularExpression>

using namespace stepscope;
using namespace stepscope::ui;

namespace {
CompareSide side(const char *relative, const char *name)
{
    util::Progress progress;
    CompareSide s;
    s.path =
        QString::fromUtf8(STEPSCOPE_TEST_DATA) + QLatin1Char('/') + QString::fromUtf8(relative);
    s.session = import::loadPath(s.path.toStdString(), progress).session;
    s.name = QString::fromUtf8(name);
    return s;
}

const nlohmann::json *row(const nlohmann::json &rows, const std::string &key)
{
    for (const auto &r : rows)
        if (r.at("key") == key)
            return &r;
    return nullptr;
}
} // namespace

class DemoPair : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_before = new CompareSide(side(
            "kineto/kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_0", "workers0"));
        s_after = new CompareSide(side(
            "kineto/kineto-resnet50-dataloader-workers0-vs-4/resnet50_num_workers_4", "workers4"));
    }
    static void TearDownTestSuite()
    {
        delete s_before;
        delete s_after;
    }
    static CompareSide *s_before;
    static CompareSide *s_after;
};
CompareSide *DemoPair::s_before = nullptr;
CompareSide *DemoPair::s_after = nullptr;

TEST_F(DemoPair, ReportHasEverySectionAndOnlyEmbeddedImages)
{
    const Report report = buildCompareReport(*s_before, *s_after, QSize(1000, 500));
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
    EXPECT_EQ(images, 3); // paired steps + the aligned step's timeline before and after
}

TEST_F(DemoPair, DataLoadingCollapsesAndStepTimeFalls)
{
    const nlohmann::json j = compareJson(*s_before, *s_after);
    EXPECT_EQ(j.at("pairing"), "by step number");
    const nlohmann::json *dl = row(j.at("mean_step"), "segment.data_loading");
    ASSERT_NE(dl, nullptr);
    EXPECT_GT(dl->at("before").get<double>(), 40000.0); // > 40 ms per step before
    EXPECT_LT(dl->at("after").get<double>(), 1000.0); // < 1 ms after
    EXPECT_EQ(dl->at("verdict"), "improved");
    const nlohmann::json *st = row(j.at("kpis"), "step_time_median_us");
    ASSERT_NE(st, nullptr);
    EXPECT_LT(st->at("delta").get<double>(), 0.0);
    // The first bottleneck of "before" is data loading and it is not first "after".
    ASSERT_FALSE(j.at("bottlenecks_before").empty());
    EXPECT_EQ(j.at("bottlenecks_before")[0].at("kind"), "data_loading");
    ASSERT_FALSE(j.at("bottlenecks_after").empty());
    EXPECT_NE(j.at("bottlenecks_after")[0].at("kind"), "data_loading");
}
