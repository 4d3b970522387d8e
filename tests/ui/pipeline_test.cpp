// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// One analysis per load and one comparison (issue 16): the breakdown is computed once per
// trace from the loader to the panels, and the GUI, the report and `stepscope compare --json`
// of the ResNet-50 pair show the same numbers. No number is pinned here: each output is
// checked against the others.
#include "analysis/breakdown.h"
#include "analysis/compareoutput.h"
#include "analysis/units.h"
#include "compare_testsupport.h"
#include "ui/charts/barchart.h"
#include "ui/kpistrip.h"
#include "ui/loading/loadreportview.h"
#include "ui/mainwindow.h"
#include "ui/palette.h"
#include "ui/panels/kernelspanel.h"
#include "ui/panels/memorypanel.h"
#include "ui/panels/stepspanel.h"
#include "ui/panels/tableitems.h"
#include "ui/report/comparereport.h"
#include "ui/timeline/timelinemodel.h"
#include "ui/timeline/timelineview.h"
#include "window_testsupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidgetItemIterator>

#include <algorithm>
#include <cmath>

using namespace stepscope;
using namespace stepscope::ui;

using uitest::loadInWindow;

namespace {

QString demo(const char *run)
{
    return QString::fromStdString(testsupport::demoPairDir() + run);
}

QString us(double value)
{
    return QString::fromStdString(analysis::formatRowValue("us", value));
}

const nlohmann::json &jsonRow(const nlohmann::json &rows, const std::string &key)
{
    for (const auto &r : rows)
        if (r.at("key") == key)
            return r;
    ADD_FAILURE() << "no row " << key;
    static const nlohmann::json none;
    return none;
}

/// The table of `section` whose first column reads `metric`: {before, after} cells.
std::pair<QString, QString> reportCells(
    const Report &report, const QString &section, const QString &metric, int table = 0)
{
    for (const ReportSection &s : report.sections) {
        if (s.title != section || static_cast<int>(s.tables.size()) <= table)
            continue;
        for (const QStringList &row : s.tables[static_cast<std::size_t>(table)].rows)
            if (row.size() >= 3 && row[0] == metric)
                return {row[1], row[2]};
    }
    ADD_FAILURE() << "no report row " << metric.toStdString();
    return {};
}

/// `stepscope ARGS` with no display and no platform plugin chosen: its JSON output.
nlohmann::json cliJson(const QStringList &args)
{
    QProcess cli;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    cli.setProcessEnvironment(env);
    cli.start(QStringLiteral(STEPSCOPE_BINARY_DIR "/app/stepscope"), args);
    if (!cli.waitForFinished(300000) || cli.exitCode() != 0) {
        ADD_FAILURE() << "stepscope failed: " << cli.readAllStandardError().toStdString();
        return nlohmann::json::object();
    }
    return nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
}

int column(const QStandardItemModel &model, const QString &header)
{
    for (int c = 0; c < model.columnCount(); ++c)
        if (model.headerData(c, Qt::Horizontal).toString() == header)
            return c;
    ADD_FAILURE() << "no column " << header.toStdString();
    return -1;
}

} // namespace

TEST(Pipeline, OneBreakdownPassPerTraceFromTheLoaderToThePanels)
{
    MainWindow window;
    window.show();
    const std::uint64_t before = analysis::breakdownPassCount();
    ASSERT_TRUE(loadInWindow(window, demo("resnet50_num_workers_0")));
    const auto *steps = window.findChild<StepsPanel *>();
    ASSERT_NE(steps, nullptr);
    ASSERT_FALSE(steps->breakdowns().empty());
    ASSERT_TRUE(window.session());
    // Loader (analysis), timeline step lane, Steps panel, KPI strips: one pass per trace.
    EXPECT_EQ(analysis::breakdownPassCount() - before, window.session()->traces.size());
    EXPECT_EQ(steps->analysis(), window.profile().analysis); // the same object, not a copy
    EXPECT_TRUE(window.profile().timeline->hasBreakdownSegments());
    EXPECT_FALSE(window.profile().timeline->stepSegments(0).empty());
    for (const KpiStrip *strip : window.findChildren<KpiStrip *>())
        EXPECT_FALSE(strip->isMissing("step_time_mean_us"));
}

// The worked example of docs/architecture.md: host wait from the Kineto file (what
// `stepscope summary --json` prints for it) to the Steps panel's bar and its pixels.
TEST(Pipeline, HostWaitFromTheFileToTheBar)
{
    const nlohmann::json j = cliJson(
        {QStringLiteral("summary"), demo("resnet50_num_workers_0"), QStringLiteral("--json")});
    ASSERT_TRUE(j.contains("steps"));

    MainWindow window;
    window.resize(1600, 1200);
    window.show();
    ASSERT_TRUE(loadInWindow(window, demo("resnet50_num_workers_0")));
    auto *steps = window.findChild<StepsPanel *>();
    ASSERT_NE(steps, nullptr);
    const auto &kinds = steps->shownKinds();
    const auto it = std::find(kinds.begin(), kinds.end(), analysis::SegmentKind::HostWait);
    ASSERT_NE(it, kinds.end()) << "no host-wait bar set";
    const int set = static_cast<int>(it - kinds.begin());
    auto *dock = window.findChild<QDockWidget *>(QStringLiteral("stepsDock"));
    ASSERT_NE(dock, nullptr);
    dock->raise();
    QCoreApplication::processEvents();
    BarChart *chart = steps->chart();
    const QImage image = chart->grab().toImage();
    const QColor hostWait = segmentColor(analysis::SegmentKind::HostWait);

    int category = 0;
    int painted = 0;
    for (const nlohmann::json &row : j.at("steps")) {
        if (row.at("rank") != steps->currentRank())
            continue;
        ASSERT_LT(category, chart->categoryCount());
        const double fileUs = row.at("host_wait_us").get<double>();
        const double barNs = chart->value(set, category);
        EXPECT_GT(fileUs, 0.0) << "step " << row.at("step");
        EXPECT_EQ(std::llround(fileUs * 1000.0), std::llround(barNs)) << "step " << row.at("step");
        const QPoint centre = chart->barCenter(set, category);
        if (image.rect().contains(centre) && image.pixelColor(centre) == hostWait)
            ++painted;
        ++category;
    }
    EXPECT_GT(category, 0);
    EXPECT_EQ(category, chart->categoryCount());
    EXPECT_EQ(painted, category) << "host-wait segments drawn in the palette's colour";
}

TEST(Pipeline, GuiReportAndCompareJsonShowTheSameNumbers)
{
    const nlohmann::json j = cliJson({QStringLiteral("compare"), demo("resnet50_num_workers_0"),
        demo("resnet50_num_workers_4"), QStringLiteral("--json")});
    ASSERT_TRUE(j.contains("steps"));

    // The report, from the comparison the compare view shows.
    const auto data = ui::compare::CompareData::build(
        testsupport::loadProfile(testsupport::demoPairDir() + "resnet50_num_workers_0"),
        testsupport::loadProfile(testsupport::demoPairDir() + "resnet50_num_workers_4"));
    const Report report = buildCompareReport(data, QSize(800, 400));

    // The GUI showing "before".
    MainWindow window;
    window.show();
    ASSERT_TRUE(loadInWindow(window, demo("resnet50_num_workers_0")));
    const auto *steps = window.findChild<StepsPanel *>();
    ASSERT_NE(steps, nullptr);

    // KPIs: strip (GUI) == report == JSON.
    for (const auto &[key, label] :
        {std::pair<std::string, QString>("step_time_mean_us", QStringLiteral("step ")),
            std::pair<std::string, QString>("data_wait_share", QStringLiteral("data wait "))}) {
        const nlohmann::json &row = jsonRow(j.at("kpis"), key);
        const QString before = QString::fromStdString(
            analysis::formatRowValue(row.at("unit"), row.at("before").get<double>()));
        const QString after = QString::fromStdString(
            analysis::formatRowValue(row.at("unit"), row.at("after").get<double>()));
        const auto [reportBefore, reportAfter] =
            reportCells(report, QStringLiteral("KPIs"), QString::fromStdString(row.at("label")));
        EXPECT_EQ(reportBefore, before) << key;
        EXPECT_EQ(reportAfter, after) << key;
        for (const KpiStrip *strip : window.findChildren<KpiStrip *>())
            EXPECT_EQ(strip->text(key), label + before) << key;
    }

    // Mean over the paired steps: report == JSON.
    for (const nlohmann::json &row : j.at("mean_step")) {
        const auto [reportBefore, reportAfter] =
            reportCells(report, QStringLiteral("KPIs"), QString::fromStdString(row.at("label")), 1);
        EXPECT_EQ(reportBefore, us(row.at("before").get<double>())) << row.at("key");
        EXPECT_EQ(reportAfter, us(row.at("after").get<double>())) << row.at("key");
    }

    // Kernel deltas, each kernel's median on both sides: report == JSON.
    const nlohmann::json &kernels = j.at("kernels").at("top");
    const auto section = std::find_if(report.sections.begin(), report.sections.end(),
        [](const ReportSection &s) { return s.title == QStringLiteral("Kernel deltas"); });
    ASSERT_NE(section, report.sections.end());
    const ReportTable &kernelTable = section->tables.at(0);
    ASSERT_EQ(kernelTable.header.at(6), QStringLiteral("median before"));
    ASSERT_EQ(kernelTable.rows.size(), kernels.size());
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const auto median = [](const nlohmann::json &side) {
            if (side.at("median_ns").is_null()) // a kernel only one side ran
                return QStringLiteral("—");
            return QString::fromStdString(
                analysis::formatDuration(std::llround(side.at("median_ns").get<double>())));
        };
        EXPECT_EQ(kernelTable.rows[i].at(6), median(kernels[i].at("before"))) << i;
        EXPECT_EQ(kernelTable.rows[i].at(7), median(kernels[i].at("after"))) << i;
    }
    // Totals cover the paired steps; the Δ is per paired step, and its column says so.
    ASSERT_TRUE(j.at("per_paired_step").get<bool>());
    {
        EXPECT_EQ(kernelTable.header.at(5), QStringLiteral("Δ per step"));
        const double pairs = static_cast<double>(j.at("steps").size());
        for (const nlohmann::json &k : kernels) {
            const double before = k.at("before").at("total_ns").get<double>();
            const double after = k.at("after").at("total_ns").get<double>();
            EXPECT_NEAR(k.at("delta_total_ns").get<double>(), (after - before) / pairs, 1.0)
                << k.at("name");
        }
    }

    // Each paired step: the Steps table (GUI) == JSON, text and value.
    const QStandardItemModel &table = *steps->tableModel();
    const int stepColumn = column(table, QStringLiteral("Step"));
    const int durationColumn = column(table, QStringLiteral("Duration"));
    const int dataColumn = column(table, segmentName(analysis::SegmentKind::DataLoading));
    ASSERT_FALSE(j.at("steps").empty());
    for (const nlohmann::json &pair : j.at("steps")) {
        int r = 0;
        while (r < table.rowCount()
            && table.item(r, stepColumn)->data(SortRole).toLongLong() != pair.at("before_step"))
            ++r;
        ASSERT_LT(r, table.rowCount()) << "step " << pair.at("before_step");
        const double stepUs = jsonRow(pair.at("rows"), "step_time_us").at("before");
        const double dataUs = jsonRow(pair.at("rows"), "segment.data_loading").at("before");
        EXPECT_EQ(table.item(r, durationColumn)->text(), us(stepUs));
        EXPECT_EQ(table.item(r, dataColumn)->text(), us(dataUs));
        EXPECT_DOUBLE_EQ(table.item(r, dataColumn)->data(SortRole).toDouble(), dataUs * 1000.0);
    }
}

// The Steps table's Compute is the one `summary --json` prints and the profiler's Computing,
// overlapped communication included; the chart stacks the lane's segment under its own name.
// msinsight-cnn-level2-2rank overlaps 4.01 ms of its 8.87 ms compute, so the two differ.
TEST(Pipeline, StepsTableComputeIsTheSummarysAndTheProfilers)
{
    const QString folder =
        QStringLiteral(STEPSCOPE_TEST_DATA "/ascend_pt/msinsight-cnn-level2-2rank");
    const nlohmann::json j = cliJson({QStringLiteral("summary"), folder, QStringLiteral("--json")});
    ASSERT_TRUE(j.contains("steps"));

    MainWindow window;
    window.show();
    ASSERT_TRUE(loadInWindow(window, folder));
    const auto *steps = window.findChild<StepsPanel *>();
    ASSERT_NE(steps, nullptr);
    const QStandardItemModel &table = *steps->tableModel();
    const int stepColumn = column(table, QStringLiteral("Step"));
    const int computeColumn = column(table, QStringLiteral("Compute"));
    const auto &kinds = steps->shownKinds();
    const auto it = std::find(kinds.begin(), kinds.end(), analysis::SegmentKind::Compute);
    ASSERT_NE(it, kinds.end());
    const int set = static_cast<int>(it - kinds.begin());
    const BarChart *chart = steps->chart();

    int checked = 0;
    for (const nlohmann::json &row : j.at("steps")) {
        if (row.at("rank") != steps->currentRank())
            continue;
        int r = 0;
        while (r < table.rowCount()
            && table.item(r, stepColumn)->data(SortRole).toLongLong() != row.at("step"))
            ++r;
        ASSERT_LT(r, table.rowCount()) << "step " << row.at("step");
        const double computeUs = row.at("compute_us");
        const double overlappedUs = row.at("comm_overlapped_us");
        EXPECT_GT(overlappedUs, 0.0);
        EXPECT_EQ(table.item(r, computeColumn)->text(), us(computeUs));
        EXPECT_EQ(std::llround(table.item(r, computeColumn)->data(SortRole).toDouble()),
            std::llround(computeUs * 1000.0));
        for (const nlohmann::json &c : row.at("reference").at("categories")) {
            if (c.at("column") == "Computing") {
                EXPECT_NEAR(c.at("reference_us").get<double>(), computeUs, 0.01);
            }
        }
        // The bar: compute minus the overlapped part, named for it.
        EXPECT_EQ(std::llround(chart->value(set, checked)),
            std::llround((computeUs - overlappedUs) * 1000.0));
        EXPECT_TRUE(
            chart->toolTipFor(set, checked).contains(QStringLiteral("Compute (not overlapped)")));
        ++checked;
    }
    EXPECT_GT(checked, 0);
}

// The Memory panel prints the times the timeline's ruler gives (as the Details pane does:
// start + the rank's offset - the model's first time), not the trace clock's (it printed
// "11589050 s" for an allocation a few ms into a capture). Checked on both ranks, after the
// rank is switched, and after Raw Clocks moves the ranks.
TEST(Pipeline, MemoryTimesAreTheRulersTimes)
{
    const QString folder =
        QStringLiteral(STEPSCOPE_TEST_DATA "/ascend_pt/msinsight-cnn-level2-2rank");
    MainWindow window;
    window.show();
    ASSERT_TRUE(loadInWindow(window, folder));
    auto *memory = window.findChild<MemoryPanel *>();
    ASSERT_NE(memory, nullptr);
    const auto check = [&](int rank) {
        memory->setRank(rank);
        const auto &model = window.timelineView()->model();
        const auto &traces = model->session().traces;
        int index = 0;
        while (index < static_cast<int>(traces.size()) && traces[index]->rank != rank)
            ++index;
        ASSERT_LT(index, static_cast<int>(traces.size()));
        const std::int64_t zero = model->extent().first - model->offsetNs(index);
        EXPECT_EQ(memory->timeZero(), zero) << "rank " << rank;
        const analysis::AllocationGroups *grouped = memory->summary().allocations.get();
        ASSERT_TRUE(grouped && !grouped->listed.empty());
        // The table sorts by size, largest first, as the list is.
        const model::Allocation &a = grouped->listed.front().allocation;
        const QAbstractItemModel *table = memory->allocationTable()->model();
        const std::int64_t onRuler = a.allocatedNs + model->offsetNs(index) - model->extent().first;
        EXPECT_EQ(
            table->index(0, 2).data().toString().toStdString(), analysis::formatDuration(onRuler));
        EXPECT_EQ(std::llround(table->index(0, 2).data(SortRole).toDouble()), onRuler);
        // Within the trace's span on the ruler, not the clock's epoch.
        EXPECT_GE(onRuler, -(model->extent().second - model->extent().first));
        EXPECT_LE(onRuler, 2 * (model->extent().second - model->extent().first));
        EXPECT_TRUE(memory->curveChart()->toolTipAt(zero).startsWith(QStringLiteral("<b>t = 0 ns")))
            << memory->curveChart()->toolTipAt(zero).toStdString();
    };
    check(1);
    check(0);
    auto *raw = window.findChild<QAction *>(QStringLiteral("rawClocksAction"));
    ASSERT_NE(raw, nullptr);
    raw->setChecked(true);
    check(memory->currentRank());
}

// The allocator holds memory that no allocation record does: the CNN sample's 297 MiB from
// before its records begin, most of the trimmed GPT-3 rank 0's 4.49 GiB. The Memory panel's
// peak bars then add up to the allocator's peak with an "In no record" bar, which is
// `summary --json`'s not_in_categories_bytes. Figures: tests/tools/check_memory_peaks.py.
TEST(Pipeline, ThePeakBarsAddUpToTheAllocatorsPeak)
{
    struct Case
    {
        const char *sample;
        std::int64_t notInRecords;
        std::int64_t allocatorPeak;
        const char *notePrefix;
    };
    for (const Case c : {Case {"/ascend_pt/msinsight-cnn-level0-2rank", 311933440, 1245819904,
                             "2 ranks (0 to 1): 297 MiB of the allocator's peak in no allocation"},
             Case {"/ascend_pt/msinsight-gpt3-pp2-16rank-trimmed", 4739357184, 4823308800,
                 "rank 0: Memory by category peaks at 80.1 MiB, the allocator's Total"}}) {
        const QString path = QStringLiteral(STEPSCOPE_TEST_DATA) + QLatin1String(c.sample);
        SCOPED_TRACE(c.sample);
        const nlohmann::json summary =
            cliJson({QStringLiteral("summary"), QStringLiteral("--json"), path});
        const nlohmann::json &memory = summary.at("memory");
        const nlohmann::json &rank0 = memory.at("per_rank").at(0);
        ASSERT_EQ(rank0.at("rank"), 0);
        EXPECT_EQ(rank0.at("not_in_categories_bytes"), c.notInRecords);
        EXPECT_EQ(rank0.at("peak_allocated_bytes"), c.allocatorPeak);
        // One note for the session, whatever the number of ranks with the gap (the CNN's ranks
        // 0 and 1, GPT-3's rank 0).
        int memoryNotes = 0;
        for (const auto &n : summary.at("analysis_notes"))
            if (n.at("where") == "memory by category") {
                ++memoryNotes;
                EXPECT_EQ(n.at("severity"), "info");
                EXPECT_EQ(n.at("message").get<std::string>().rfind(c.notePrefix, 0), 0u)
                    << n.at("message");
            }
        EXPECT_EQ(memoryNotes, 1);

        MainWindow window;
        window.show();
        ASSERT_TRUE(loadInWindow(window, path));
        auto *panel = window.findChild<MemoryPanel *>();
        ASSERT_NE(panel, nullptr);
        panel->setRank(0);
        const BarChart *bars = panel->peakChart();
        const int last = bars->categoryCount() - 1;
        ASSERT_GE(last, 1);
        EXPECT_TRUE(bars->toolTipFor(0, last).contains(QStringLiteral("In no record")))
            << bars->toolTipFor(0, last).toStdString();
        EXPECT_EQ(bars->value(0, last), static_cast<double>(c.notInRecords));
        double sum = 0;
        for (int k = 0; k <= last; ++k)
            sum += bars->value(0, k);
        EXPECT_EQ(sum, static_cast<double>(c.allocatorPeak));
        const std::string note = panel->peakNote().toStdString();
        const std::string says = " are in none of the profile's allocation records";
        EXPECT_NE(note.find(analysis::formatBytes(c.notInRecords) + says), std::string::npos)
            << note;
    }
}

// The Kernels tab shows what `summary --json` writes under "kernels" (one analysis), and a
// click on a row selects that name's longest kernel on the timeline, in view.
TEST(Pipeline, KernelsTableIsTheSummarysAndSelectsTheLongest)
{
    const QString folder = QStringLiteral(STEPSCOPE_TEST_DATA "/kineto/hta-ddp-a100-world2-nccl");
    const nlohmann::json j = cliJson({QStringLiteral("summary"), folder, QStringLiteral("--json")});
    ASSERT_TRUE(j.contains("kernels") && !j.at("kernels").empty());
    const nlohmann::json &rank = j.at("kernels").at(0);

    MainWindow window;
    window.show();
    ASSERT_TRUE(loadInWindow(window, folder));
    auto *kernels = window.findChild<KernelsPanel *>();
    ASSERT_NE(kernels, nullptr);
    EXPECT_EQ(kernels->currentRank(), rank.at("rank").get<int>());
    EXPECT_TRUE(kernels->headline().contains(
        QStringLiteral("%L1 names").arg(rank.at("names").get<long long>())));
    const QAbstractItemModel *shown = kernels->table()->model();
    ASSERT_GE(shown->rowCount(), static_cast<int>(rank.at("top").size()));
    EXPECT_EQ(shown->headerData(6, Qt::Horizontal).toString(), QStringLiteral("Median"));
    EXPECT_EQ(shown->headerData(9, Qt::Horizontal).toString(), QStringLiteral("StdDev"));
    for (std::size_t r = 0; r < rank.at("top").size(); ++r) {
        const nlohmann::json &row = rank.at("top").at(r);
        const int i = static_cast<int>(r);
        EXPECT_EQ(shown->index(i, 0).data().toString().toStdString(), row.at("name"));
        EXPECT_EQ(shown->index(i, 2).data(SortRole).toLongLong(), row.at("count"));
        EXPECT_EQ(std::llround(shown->index(i, 3).data(SortRole).toDouble()),
            std::llround(row.at("total_us").get<double>() * 1000.0));
        EXPECT_NEAR(shown->index(i, 6).data(SortRole).toDouble(),
            row.at("median_us").get<double>() * 1000.0, 1e-6);
        EXPECT_EQ(std::llround(shown->index(i, 8).data(SortRole).toDouble()),
            std::llround(row.at("max_us").get<double>() * 1000.0));
        EXPECT_NEAR(shown->index(i, 9).data(SortRole).toDouble(),
            row.at("stddev_us").get<double>() * 1000.0, 1e-6);
    }

    auto *dock = window.findChild<QDockWidget *>(QStringLiteral("kernelsDock"));
    ASSERT_NE(dock, nullptr);
    dock->raise();
    QCoreApplication::processEvents();
    QTableView *view = kernels->table();
    const QRect cell = view->visualRect(shown->index(0, 3));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QCoreApplication::processEvents();
    const auto &state = window.timelineView()->viewState();
    ASSERT_TRUE(state.selected.has_value());
    const auto &model = window.timelineView()->model();
    const timeline::EventKey e = *state.selected;
    EXPECT_EQ(model->nameOf(e).toStdString(), rank.at("top").at(0).at("name"));
    EXPECT_EQ(model->endOf(e) - model->startOf(e),
        std::llround(rank.at("top").at(0).at("max_us").get<double>() * 1000.0));
    EXPECT_LE(state.axis.startNs(), model->startOf(e));
    EXPECT_GE(state.axis.endNs(), model->endOf(e));
    // The Kernels tab stays on top, for the next row.
    QCoreApplication::processEvents();
    EXPECT_FALSE(dock->visibleRegion().isEmpty());

    // A double-click searches for every kernel of that name: as many matches as its count.
    const QRect second = view->visualRect(shown->index(1, 3));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, second.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, second.center());
    const QString name = shown->index(1, 0).data().toString();
    EXPECT_EQ(window.searchBox()->text(), name);
    QElapsedTimer t;
    t.start();
    while ((window.timelineView()->matchCount() <= 0 || window.timelineView()->isSearching())
        && t.elapsed() < 20000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    EXPECT_EQ(window.timelineView()->matchCount(), shown->index(1, 2).data(SortRole).toInt());
}

// What the analysis notes (`summary --json`'s analysis_notes) is in the window's Diagnostics
// too, and counted in the status bar: a host-only trace, analysed as one step with no device
// activity (two infos), and the 16-rank cluster, whose timelines disagree with the profiler's
// step tables (two warnings) and whose rank 0 allocator holds memory no allocation record
// does (one info), beside two of the load's.
TEST(Pipeline, TheAnalysisNotesAreInTheDiagnosticsPanel)
{
    QTemporaryDir dir;
    const QString hostOnly = dir.filePath(QStringLiteral("host_only.json"));
    QFile f(hostOnly);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"([{"ph":"X","name":"aten::mm","cat":"cpu_op","pid":1,"tid":1,"ts":0,"dur":500},
{"ph":"X","name":"aten::add","cat":"cpu_op","pid":1,"tid":1,"ts":600,"dur":300}])");
    f.close();
    const QString cluster =
        QStringLiteral(STEPSCOPE_TEST_DATA "/ascend_pt/msinsight-gpt3-pp2-16rank-trimmed");
    for (const auto &[path, noteCount] : {std::pair(hostOnly, 2u), std::pair(cluster, 3u)}) {
        SCOPED_TRACE(path.toStdString());
        const nlohmann::json summary =
            cliJson({QStringLiteral("summary"), QStringLiteral("--json"), path});
        const auto &notes = summary.at("analysis_notes");
        ASSERT_EQ(notes.size(), noteCount) << notes.dump();
        std::uint64_t warnings = 0;
        for (const auto &d : summary.at("diagnostics"))
            warnings += d.at("severity") == "warning" ? d.at("count").get<std::uint64_t>() : 0;
        for (const auto &n : notes)
            warnings += n.at("severity") == "warning" ? 1 : 0;

        MainWindow window;
        window.show();
        ASSERT_TRUE(loadInWindow(window, path));
        const LoadReportView *diagnostics = window.loadReportView();
        for (const auto &note : notes) {
            bool found = false;
            // A note stands on its own row, or under the row of its group.
            for (QTreeWidgetItemIterator it(const_cast<LoadReportView *>(diagnostics)); *it; ++it)
                found = found
                    || ((*it)->childCount() == 0 && (*it)->text(1).toStdString() == note.at("where")
                        && (*it)->text(3).toStdString() == note.at("message"));
            EXPECT_TRUE(found) << note.dump();
        }
        const QString status = window.statusBar()->findChild<QLabel *>()->text();
        if (warnings > 0) {
            EXPECT_TRUE(status.contains(QStringLiteral(" · %1 warnings,").arg(warnings)))
                << status.toStdString() << ", expected " << warnings << " warnings";
        }
    }
}
