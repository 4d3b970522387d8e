// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Compare mode's memory chart (ui/compare/memorybars.h): the Memory tab and the report's
// picture show the comparison's memory rows, the figures of the Δ table and compare --json.
#include "compare_testsupport.h"
#include "ui/charts/barchart.h"
#include "ui/compare/compareview.h"
#include "ui/compare/memorybars.h"
#include "ui/report/comparereport.h"

#include <gtest/gtest.h>

#include <QTabWidget>

#include <cmath>
#include <string>

using namespace stepscope;
using ui::compare::CompareView;

namespace {

const std::string Data = STEPSCOPE_TEST_DATA;

/// A memory snapshot (categories of PyTorch's memory timeline) against a Kineto rank with
/// profile_memory (categories inferred from its allocations): both say what their memory held.
std::shared_ptr<const ui::compare::CompareData> memoryPair()
{
    static const auto data = ui::compare::CompareData::build(
        testsupport::loadProfile(Data + "/torch_memory/hta-memory-timeline-raw"),
        testsupport::loadProfile(Data + "/kineto/hta-ddp-2rank-rank1-memory"), false);
    return data;
}

const analysis::DeltaRow *rowOf(const analysis::RunComparison &c, const std::string &key)
{
    for (const analysis::DeltaRow &r : c.memoryRows)
        if (r.key == key)
            return &r;
    return nullptr;
}

int tabIndex(const QTabWidget *tabs, const QString &text)
{
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->tabText(i) == text)
            return i;
    return -1;
}

} // namespace

TEST(CompareMemory, TheTabShowsWhatEachRunHeldAtItsPeak)
{
    CompareView view;
    view.resize(1400, 1000);
    view.setData(memoryPair());
    const int tab = tabIndex(view.tabs(), QStringLiteral("Memory"));
    ASSERT_GE(tab, 0);
    EXPECT_TRUE(view.tabs()->isTabVisible(tab));
    const ui::BarChart *chart = view.memoryBars();
    ASSERT_EQ(chart->setCount(), 2);
    // The categories either run holds at its peak; communication buffers, empty in both,
    // have no bar.
    const QStringList expected {QStringLiteral("Parameters"), QStringLiteral("Gradients"),
        QStringLiteral("Optimizer state"), QStringLiteral("Activations"),
        QStringLiteral("Temporary"), QStringLiteral("Other")};
    const char *keys[] = {"memory.parameters", "memory.gradients", "memory.optimizer_state",
        "memory.activations", "memory.temporary", "memory.other"};
    ASSERT_EQ(chart->categoryCount(), expected.size());
    const analysis::RunComparison &c = view.data()->comparison;
    for (int i = 0; i < chart->categoryCount(); ++i) {
        EXPECT_EQ(chart->toolTipFor(0, i).contains(expected[i]), true)
            << chart->toolTipFor(0, i).toStdString();
        const analysis::DeltaRow *row = rowOf(c, keys[i]);
        ASSERT_NE(row, nullptr) << keys[i];
        EXPECT_EQ(chart->value(0, i), *row->before) << keys[i];
        EXPECT_EQ(chart->value(1, i), *row->after) << keys[i];
    }
    // The snapshot's parameters against the DDP rank's: the figures of compare --json.
    EXPECT_EQ(chart->value(0, 0), 102440608.0);
    EXPECT_EQ(chart->value(1, 0), 4096614400.0);
}

TEST(CompareMemory, WithoutCategoriesOnBothSidesItFallsBack)
{
    // Categories on one side only: each category's own peak, NaN where the run has none.
    const auto oneSided = ui::compare::CompareData::build(
        testsupport::loadProfile(Data + "/kineto/hta-ddp-2rank-rank1-memory"),
        testsupport::loadProfile(Data + "/kineto/hta-ddp-a100-world2-nccl"), false);
    ASSERT_TRUE(oneSided);
    const ui::compare::MemoryBars peaks = ui::compare::memoryBars(oneSided->comparison.memoryRows);
    EXPECT_EQ(peaks.title, QStringLiteral("Peak of each memory category"));
    EXPECT_EQ(peaks.categories,
        (QStringList {QStringLiteral("Parameters"), QStringLiteral("Activations"),
            QStringLiteral("Temporary")}));
    for (double v : peaks.after)
        EXPECT_TRUE(std::isnan(v));
    EXPECT_EQ(peaks.before.front(), *rowOf(oneSided->comparison, "memory_peak.parameters")->before);

    // No categories at all (the ResNet-50 pair): the allocator's peak; no reserved figure.
    const ui::compare::MemoryBars demo =
        ui::compare::memoryBars(testsupport::demoPair()->comparison.memoryRows);
    EXPECT_EQ(demo.title, QStringLiteral("Peak memory"));
    EXPECT_EQ(demo.categories, QStringList {QStringLiteral("Peak allocated")});

    // Two training logs: no memory rows, no Memory tab.
    const std::string dir = Data + "/loss_logs/mindspeed-megatron-det-vs-nondet/test_qwen_sft/";
    CompareView logs;
    logs.setData(ui::compare::CompareData::build(testsupport::loadProfile(dir + "pta_det.txt"),
        testsupport::loadProfile(dir + "pta_non_det.txt")));
    const int tab = tabIndex(logs.tabs(), QStringLiteral("Memory"));
    ASSERT_GE(tab, 0);
    EXPECT_FALSE(logs.tabs()->isTabVisible(tab));
}

TEST(CompareMemory, TheReportHasTheChartAndTheTable)
{
    const ui::Report report = ui::buildCompareReport(memoryPair(), QSize(1000, 500));
    const ui::ReportSection *memory = nullptr;
    for (const ui::ReportSection &s : report.sections)
        if (s.title == QStringLiteral("Memory"))
            memory = &s;
    ASSERT_NE(memory, nullptr);
    ASSERT_EQ(memory->images.size(), 1u);
    EXPECT_EQ(memory->images.front().caption,
        QStringLiteral("Memory at the peak by category, before and after"));
    EXPECT_EQ(memory->images.front().fileName, QStringLiteral("memory.png"));
    EXPECT_FALSE(memory->images.front().image.isNull());
    ASSERT_EQ(memory->tables.size(), 1u);
    EXPECT_EQ(memory->tables.front().rows.size(), memoryPair()->comparison.memoryRows.size());
}
