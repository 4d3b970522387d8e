// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Issue 15 "every panel readable on every sample": the defects the r5 screenshot pass found,
// each checked on geometry, text or known pixels (not "not blank").

#include "analysed.h"
#include "analysis/analysissummary.h"
#include "chartsupport.h"
#include "import/loader.h"
#include "model/tracebuilder.h"
#include "ui/charts/barchart.h"
#include "ui/charts/heatmap.h"
#include "ui/charts/stepchart.h"
#include "ui/charts/timechart.h"
#include "ui/loading/loadreportview.h"
#include "ui/panels/clusterheatmap.h"
#include "ui/panels/clusterpanel.h"
#include "ui/panels/communicationpanel.h"
#include "ui/panels/memorypanel.h"
#include "ui/panels/stepspanel.h"
#include "ui/panels/tableitems.h"
#include "ui/panels/trainingpanel.h"
#include "ui/welcomepage.h"

#include <gtest/gtest.h>

#include <QApplication>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QStandardItemModel>
#include <QStyle>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <cmath>
#include <filesystem>
#include <memory>
#include <set>

using namespace stepscope;

namespace {

std::shared_ptr<const model::Session> loadSample(const std::string &relative)
{
    util::Progress progress;
    return import::loadPath(std::string(STEPSCOPE_TEST_DATA) + "/" + relative, progress).session;
}

QImage grab(QWidget &w)
{
    return w.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

/// The distinct colours inside `r` of `img`.
std::set<QRgb> coloursIn(const QImage &img, const QRect &r)
{
    std::set<QRgb> out;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            out.insert(img.pixel(x, y) & 0xFFFFFFu);
    return out;
}

} // namespace

TEST(Readability, HeatMapEmptyCellsAreHatchedAndNamedInTheLegend)
{
    ui::HeatMap map;
    map.setTitle(QStringLiteral("Rank-to-rank transit size (cluster_communication_matrix.json)"));
    map.setEmptyText(QStringLiteral("no traffic recorded"));
    const double nan = std::nan("");
    map.setMatrix({QStringLiteral("0"), QStringLiteral("1")},
        {QStringLiteral("0"), QStringLiteral("1")}, {nan, 4.0, 1.0, 2.0},
        [](double v) { return QString::number(v); });
    uitest::showAndSettle(map, 500, 400);
    const QImage img = grab(map);
    const QRgb base = map.palette().color(QPalette::Base).rgb() & 0xFFFFFFu;
    const QRgb mid = map.palette().color(QPalette::Mid).rgb() & 0xFFFFFFu;
    // The empty cell holds both the background and the hatch lines; the light end of the scale
    // (value 1.0 here, the smallest is 0 → lighter still) is a flat colour without Mid lines.
    const auto empty = coloursIn(img, map.cellRect(0, 0).adjusted(3, 3, -3, -3));
    EXPECT_TRUE(empty.count(base)) << "no background in the empty cell";
    EXPECT_TRUE(empty.count(mid)) << "no hatching in the empty cell";
    const QRect low = map.cellRect(1, 0).adjusted(3, 3, -3, -3);
    EXPECT_FALSE(coloursIn(img, QRect(low.left(), low.top(), low.width(), 2)).count(mid));
    // The legend's swatch right of the scale is hatched too.
    const QPoint at = map.emptyLegendPos();
    const auto swatch = coloursIn(img, QRect(at.x() + 2, at.y() + 3, 10, 6));
    EXPECT_TRUE(swatch.count(mid));

    // A title wider than the widget: elided in the middle, both ends kept.
    map.resize(260, 300);
    const QString shown = map.shownTitle();
    EXPECT_TRUE(shown.contains(QChar(0x2026))) << shown.toStdString();
    EXPECT_TRUE(shown.startsWith(QStringLiteral("Rank-to"))) << shown.toStdString();
    EXPECT_TRUE(shown.endsWith(QStringLiteral("json)"))) << shown.toStdString();
}

TEST(Readability, CommunicationTableCountsKernelsInsideAnnotations)
{
    // hta-ddp-a100-world2-nccl: every ncclKernel sits inside a gpu_user_annotation on stream
    // 40 (tests/tools/check_nccl_kernels.py: AllReduce 15 kernels 46 762.159 µs, Broadcast 6).
    const auto session = loadSample("kineto/hta-ddp-a100-world2-nccl");
    ASSERT_TRUE(session);
    ui::CommunicationPanel panel;
    uitest::setAnalysed(panel, session);
    ASSERT_FALSE(panel.showsMessage()) << panel.messageText().toStdString();
    const auto &rows = panel.collectives();
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "allreduce"); // the kernels' "Collective name" arg
    EXPECT_EQ(rows[0].count, 15);
    EXPECT_NEAR(rows[0].totalUs, 46762.159, 0.01);
    EXPECT_EQ(rows[1].name, "broadcast");
    EXPECT_EQ(rows[1].count, 6);
    // Their message sizes, from the kernels' args (the same script: 306 684 384 bytes in
    // 46 762 159 ns), as the table shows them; the columns were empty.
    const QAbstractItemModel *shown = panel.table()->model();
    ASSERT_EQ(shown->headerData(7, Qt::Horizontal).toString(), QStringLiteral("Bytes"));
    ASSERT_EQ(shown->headerData(8, Qt::Horizontal).toString(), QStringLiteral("Bandwidth"));
    bool found = false;
    for (int r = 0; r < shown->rowCount(); ++r) {
        if (shown->index(r, 0).data().toString() != QStringLiteral("allreduce"))
            continue;
        found = true;
        EXPECT_EQ(shown->index(r, 7).data().toString(), QStringLiteral("292 MiB"));
        EXPECT_EQ(shown->index(r, 8).data().toString(), QStringLiteral("6.56 GB/s"));
    }
    EXPECT_TRUE(found);

    // No matrix in a Kineto trace: the explanation is a side note, the table keeps the width.
    uitest::showAndSettle(panel, 1200, 500);
    EXPECT_FALSE(panel.matrixNote().isEmpty());
    EXPECT_LT(panel.matrixPane()->width(), 1200 * 40 / 100);
    EXPECT_GT(panel.table()->width(), 1200 * 60 / 100);
}

TEST(Readability, ClusterSummaryCountsInWordsAndUnknownStagesAreNotZero)
{
    const auto named = loadSample("mindspore_legacy/mindinsight-cluster-pp-4rank");
    ASSERT_TRUE(named);
    const auto summary = [](const std::shared_ptr<const model::Session> &session) {
        ui::ClusterPanel panel;
        panel.setAnalysis(std::make_shared<const analysis::SessionAnalysis>(
            analysis::analyzeSession(*session, analysis::RunConfig {})));
        panel.setSession(session);
        return panel.summaryLabel()->text();
    };
    // The cluster files' names give the stages (2 of 4 ranks).
    QString text = summary(named);
    EXPECT_TRUE(text.contains(QStringLiteral("4 ranks × 5 steps"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("2 pipeline stages"))) << text.toStdString();
    // Without those files, the step traces measure a bubble (receive waits) but name no stage
    // membership.
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    namespace fs = std::filesystem;
    for (const auto &e : fs::directory_iterator(
             fs::path(STEPSCOPE_TEST_DATA) / "mindspore_legacy/mindinsight-cluster-pp-4rank")) {
        if (e.path().filename().string().rfind("ascend_cluster_analyse_", 0) != 0)
            fs::copy(e.path(), fs::path(dir.path().toStdString()) / e.path().filename(),
                fs::copy_options::recursive);
    }
    util::Progress progress;
    const std::shared_ptr<const model::Session> unnamed =
        import::loadPath(dir.path().toStdString(), progress).session;
    ASSERT_TRUE(unnamed);
    text = summary(unnamed);
    EXPECT_TRUE(text.contains(QStringLiteral("pipeline stages not named in the files")))
        << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("0 pipeline stage")));
    EXPECT_FALSE(text.contains(QStringLiteral("(s)")));
    EXPECT_EQ(ui::countText(1, QStringLiteral("rank"), QStringLiteral("ranks")),
        QStringLiteral("1 rank"));
}

TEST(Readability, ClusterHeatMapCaptionIsNeverCut)
{
    ui::ClusterHeatMap map;
    map.setDiverging(true);
    map.setMatrix({0, 1}, {50}, {-1.0, 2.0}, QStringLiteral("Δ step time (after − before)"),
        [](double v) { return QString::number(v); });
    for (int width : {900, 420, 300}) {
        uitest::showAndSettle(map, width, 200);
        map.repaint();
        const QRect r = map.captionRect();
        const int need = map.fontMetrics().horizontalAdvance(map.legendCaption());
        EXPECT_TRUE(map.rect().contains(r)) << width;
        if (width >= 420) {
            EXPECT_GE(r.width(), need) << "caption cut at width " << width;
        }
    }
}

TEST(Readability, DiagnosticsSayWhenEmptyAndWrapTheMessage)
{
    ui::LoadReportView view;
    uitest::showAndSettle(view, 600, 300);
    EXPECT_TRUE(view.emptyText().contains(QStringLiteral("open a profile")));
    // The sentence is painted: text-coloured pixels in the empty viewport's first lines.
    const QImage empty = view.viewport()->grab().toImage();
    const auto colours = coloursIn(empty.convertToFormat(QImage::Format_RGB32),
        QRect(0, 0, empty.width(), std::min(empty.height(), 40)));
    EXPECT_GT(colours.size(), 2u);

    model::LoadReport report;
    model::Diagnostic d;
    d.severity = model::Severity::Warning;
    d.file = "ASCEND_PROFILER_OUTPUT/a/very/long/path/to/kernel_details.csv";
    d.line = 12;
    d.message = std::string(
        "row has 11 fields, the header has 12: the row is skipped and the rest of the file "
        "loads; this message is long enough to need more than one line at this width");
    report.add(d);
    view.setReport(report);
    QApplication::processEvents();
    EXPECT_TRUE(view.emptyText().contains(QStringLiteral("every file read")));
    const int right = view.columnViewportPosition(3) + view.columnWidth(3);
    EXPECT_LE(right, view.viewport()->width() + 1);
    EXPECT_GT(view.columnWidth(3), view.columnWidth(1)) << "the path squeezes the message";
    EXPECT_GT(view.visualItemRect(view.topLevelItem(0)).height(), view.fontMetrics().height() + 8)
        << "message not wrapped";
    EXPECT_EQ(view.topLevelItem(0)->toolTip(1).toStdString(), d.file);
}

TEST(Readability, StepStartsTellTheStepsApart)
{
    constexpr std::int64_t Ms = 1'000'000;
    // Six steps 470 s into the trace, 150 ms apart: not six times "470 s".
    EXPECT_EQ(ui::formatStartOffset(0, 750 * Ms, 150 * Ms), QStringLiteral("0 ms"));
    EXPECT_EQ(ui::formatStartOffset(300 * Ms, 750 * Ms, 150 * Ms), QStringLiteral("300 ms"));
    EXPECT_EQ(ui::formatStartOffset(1500 * Ms, 2 * 1000 * Ms, 500 * Ms), QStringLiteral("1.50 s"));
    EXPECT_EQ(ui::formatStartOffset(1234, 5000, 1234), QStringLiteral("1.23 µs"));
    EXPECT_EQ(ui::formatStartOffset(1500, 5000, 500), QStringLiteral("1.50 µs"));
    // Three significant digits of the latest start: 4.504 s was "5 s" with steps 2.2 s apart.
    EXPECT_EQ(ui::formatStartOffset(4504 * Ms, 4504 * Ms, 2216 * Ms), QStringLiteral("4.50 s"));

    model::TraceBuilder tb;
    for (int k = 0; k < 6; ++k)
        tb.trace().steps.push_back(
            {10 + k, 470'000 * Ms + k * 150 * Ms, 470'000 * Ms + (k + 1) * 150 * Ms});
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));
    ui::StepsPanel panel;
    panel.setSession(session);
    auto *model = qobject_cast<QStandardItemModel *>(panel.table()->model());
    ASSERT_TRUE(model);
    ASSERT_EQ(model->rowCount(), 6);
    std::set<QString> starts;
    for (int r = 0; r < 6; ++r)
        starts.insert(model->item(r, 2)->text());
    EXPECT_EQ(starts.size(), 6u);
    EXPECT_TRUE(starts.count(QStringLiteral("750 ms")));
}

// The bottleneck list ended its evidence in "…" ("… with the device idle. Host wait, data
// loading and …") at any width short of the sentence, in the window and in exported pictures,
// which have no tooltip. The sentence now wraps onto as many lines as it needs.
TEST(Readability, BottleneckEvidenceWrapsInsteadOfBeingCut)
{
    const auto session = loadSample("kineto/hta-sampled-2of128-ranks");
    ASSERT_TRUE(session);
    ui::StepsPanel panel;
    panel.setSession(session);
    uitest::showAndSettle(panel, 1000, 700);
    QTreeWidget *list = panel.bottleneckList();
    ASSERT_GE(list->topLevelItemCount(), 2);
    const QFontMetrics fm = list->fontMetrics();
    const int width = list->viewport()->width();
    // What the style leaves for the text of an item as wide as the viewport (QCommonStyle).
    const int margin = list->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, list) + 1;
    int longer = 0;
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        ASSERT_EQ(list->topLevelItem(i)->childCount(), 1); // the finding's evidence
        QTreeWidgetItem *item = list->topLevelItem(i)->child(0);
        ASSERT_TRUE(item->isFirstColumnSpanned());
        const QString text = item->text(0);
        const int lines =
            fm.boundingRect(QRect(0, 0, width - list->indentation() - 2 * margin, 100000),
                  Qt::TextWordWrap, text)
                .height()
            / fm.lineSpacing();
        if (fm.horizontalAdvance(text) <= width)
            continue;
        ++longer;
        EXPECT_GE(lines, 2);
        EXPECT_GE(list->visualItemRect(item).height(), lines * fm.lineSpacing())
            << text.toStdString();
    }
    EXPECT_GE(longer, 1) << "no evidence longer than the list is wide: the test checks nothing";
}

TEST(Readability, ALoneTrainingChartTakesTheWholeWidth)
{
    const auto session = loadSample("loss_logs/lightning-csvlogger-2runs");
    ASSERT_TRUE(session);
    ui::TrainingPanel panel;
    panel.setSession(session);
    uitest::showAndSettle(panel, 1200, 700);
    const auto charts = panel.charts();
    ASSERT_FALSE(charts.empty());
    if (charts.size() % 2 == 1) {
        EXPECT_GT(charts.back()->width(), 1200 * 9 / 10);
    }
}

TEST(Readability, WelcomePageListsEveryFormatRead)
{
    const QString all = ui::WelcomePage::formatsRead().join(QLatin1Char('\n'));
    // One phrase per import::detect::Format (Unknown aside).
    for (const char *phrase : {"ASCEND_PROFILER_OUTPUT", "trace_view.json", "Ascend SQLite",
             "MindSpore / MindInsight", "CANN PROF_", "Kineto", "Chrome trace-event",
             "memory exports", "JAX", "Training logs", "Nsight Systems"})
        EXPECT_TRUE(all.contains(QString::fromUtf8(phrase))) << phrase;
    ui::WelcomePage page;
    auto *hint = page.findChild<QLabel *>(QStringLiteral("welcomeHint"));
    ASSERT_TRUE(hint);
    EXPECT_TRUE(hint->text().contains(QStringLiteral("Nsight Systems SQLite")));
}

/// A first launch had nothing to click but Open: the bundled demo comparison is a button
/// when its folder holds both runs, and the button opens that pair.
TEST(Readability, WelcomePageOpensTheDemoComparison)
{
    ui::WelcomePage page;
    auto *demo = page.findChild<QPushButton *>(QStringLiteral("demoButton"));
    ASSERT_TRUE(demo);
    page.show();
    EXPECT_FALSE(demo->isVisible());
    page.setDemoDir(QStringLiteral("/nonexistent"));
    EXPECT_FALSE(demo->isVisible());
    const QString dir = QString::fromUtf8(STEPSCOPE_SOURCE_DIR) + QStringLiteral("/resources/demo");
    page.setDemoDir(dir);
    EXPECT_TRUE(demo->isVisible());
    QStringList opened;
    QObject::connect(&page, &ui::WelcomePage::openCompareClicked,
        [&opened](const QString &b, const QString &a) { opened << b << a; });
    demo->click();
    EXPECT_EQ(opened,
        (QStringList {dir + QStringLiteral("/resnet50_num_workers_0"),
            dir + QStringLiteral("/resnet50_num_workers_4")}));
}

TEST(Readability, MemoryChartsShareOneTimeBaseAndLegendNamesAreDistinct)
{
    constexpr std::int64_t Ms = 1'000'000;
    model::TraceBuilder tb;
    model::Trace &t = tb.trace();
    // Two records of one device (resnet's two captures, 470 s apart) and allocations between.
    for (std::int64_t start : {1 * Ms, 470'000 * Ms}) {
        model::MemoryCurve c;
        c.component = "cuda:0";
        c.device = "cuda:0";
        c.timestampsNs = {start, start + 7 * Ms};
        c.allocatedBytes = {1 << 20, 2 << 20};
        c.reservedBytes = {4 << 20, 4 << 20};
        t.memory.curves.push_back(c);
    }
    model::Allocation a;
    a.op = "aten::empty";
    a.sizeBytes = 1 << 20;
    a.allocatedNs = 10 * Ms;
    a.releasedNs = 75 * Ms;
    t.memory.allocations.push_back(a);
    auto session = std::make_shared<model::Session>();
    session->traces.push_back(std::make_shared<const model::Trace>(std::move(tb.finish().trace)));
    ui::MemoryPanel panel;
    uitest::setAnalysed(panel, session);
    uitest::showAndSettle(panel, 1200, 700);
    ui::TimeChart *curves = panel.curveChart();
    ui::TimeChart *groups = panel.categoryChart();
    ASSERT_GT(curves->seriesCount(), 0);
    ASSERT_GT(groups->seriesCount(), 0);
    const auto window = curves->shownWindow();
    EXPECT_EQ(window, groups->shownWindow());
    EXPECT_EQ(window.first, 1 * Ms);
    EXPECT_EQ(window.second, 470'007 * Ms);
    // A zoom and its reset keep them together.
    curves->setTimeWindow(20 * Ms, 30 * Ms);
    EXPECT_EQ(groups->shownWindow(), std::make_pair(20 * Ms, 30 * Ms));
    groups->resetTimeWindow();
    EXPECT_EQ(curves->shownWindow(), window);

    std::set<QString> names;
    for (int i = 0; i < curves->seriesCount(); ++i) {
        const QString name = curves->seriesName(i);
        EXPECT_FALSE(name.contains(QStringLiteral("#2"))) << name.toStdString();
        names.insert(name);
    }
    EXPECT_EQ(names.size(), static_cast<std::size_t>(curves->seriesCount()));
    EXPECT_TRUE(names.count(QStringLiteral("cuda:0 allocated, at 470 s, 7.00 ms long")))
        << QStringList(names.begin(), names.end()).join(QLatin1Char('|')).toStdString();
}

TEST(Readability, Gpt3MemoryOnOneAxisOfMillisecondsWithWholeCategoryNames)
{
    // tests/data gpt3 rank 0: npu_module_mem.csv is 29.6 Ms (0.94 years) after the
    // operator_memory.csv it sits beside; the category chart used to span that year.
    const auto session = loadSample("ascend_pt/msinsight-gpt3-pp2-16rank-trimmed");
    ASSERT_TRUE(session);
    ui::MemoryPanel panel;
    uitest::setAnalysed(panel, session);
    uitest::showAndSettle(panel, 1200, 720);
    const auto [lo, hi] = panel.categoryChart()->shownWindow();
    EXPECT_LT(hi - lo, 1'000'000'000) << lo << " … " << hi;
    EXPECT_EQ(panel.curveChart()->shownWindow(), panel.categoryChart()->shownWindow());
    // Only the categories with a bar, their names whole or on two whole lines.
    const QStringList shown = panel.peakChart()->shownCategories();
    ASSERT_FALSE(shown.isEmpty());
    EXPECT_LT(shown.size(), 7);
    for (const QString &c : shown)
        EXPECT_FALSE(c.contains(QChar(0x2026))) << c.toStdString();
}

TEST(Readability, AProblemOfEveryRankIsOneDiagnosticsRowThatOpensOnEach)
{
    ui::LoadReportView view;
    uitest::showAndSettle(view, 900, 300);
    model::LoadReport report;
    report.add(model::Severity::Info, "rank0.pt.trace.json", "15 events overlap a neighbour");
    for (int rank = 0; rank < 1000; ++rank)
        report.add(model::Severity::Warning, "[memory] events",
            "rank " + std::to_string(rank) + ": 276 frees match no allocation");
    report.add(model::Severity::Error, "rank7.pt.trace.json", "the event array is cut off");
    view.setReport(report);
    QApplication::processEvents();

    // Sorted by severity as it opens: the error, the group of warnings, the information.
    ASSERT_EQ(view.topLevelItemCount(), 3);
    EXPECT_EQ(view.topLevelItem(0)->text(0), QStringLiteral("error"));
    const QTreeWidgetItem *group = view.topLevelItem(1);
    EXPECT_EQ(group->text(0), QStringLiteral("warning"));
    EXPECT_EQ(group->text(1), QStringLiteral("[memory] events"));
    EXPECT_EQ(group->text(3),
        QStringLiteral("rank 0: 276 frees match no allocation (and 999 more like it: expand the "
                       "row to see each)"));
    EXPECT_EQ(group->text(4), QStringLiteral("1000"));
    ASSERT_EQ(group->childCount(), 1000);
    EXPECT_EQ(
        group->child(999)->text(3), QStringLiteral("rank 999: 276 frees match no allocation"));
    EXPECT_FALSE(group->isExpanded());
    EXPECT_EQ(view.topLevelItem(2)->text(0), QStringLiteral("info"));
    EXPECT_EQ(view.topLevelItem(2)->childCount(), 0);
}
