// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "analysis/bottlenecks.h"
#include "analysis/breakdown.h"
#include "analysis/kpis.h"
#include "analysis/memorycategories.h"
#include "analysis/metricdefinitions.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace stepscope;

TEST(MetricDefinitions, EveryKeyTheAnalysisEmitsHasATooltip)
{
    std::set<std::string> keys;
    for (const auto &d : analysis::metricDefinitions()) {
        EXPECT_TRUE(keys.insert(std::string(d.key)).second) << "duplicate " << d.key;
        EXPECT_FALSE(d.title.empty()) << d.key;
        EXPECT_GT(d.text.size(), 20u) << d.key;
    }
    for (int k = 0; k < analysis::SegmentKindCount; ++k)
        EXPECT_NE(analysis::metricDefinition(
                      analysis::segmentKindKey(static_cast<analysis::SegmentKind>(k))),
            nullptr);
    for (const auto &kpi : analysis::computeKpis(model::Session {}, analysis::RunConfig {}).items)
        EXPECT_NE(analysis::metricDefinition(kpi.key), nullptr) << kpi.key;
    for (int k = 0; k < analysis::BottleneckKindCount; ++k)
        EXPECT_NE(analysis::metricDefinition("bottleneck."
                      + std::string(
                          analysis::bottleneckKindKey(static_cast<analysis::BottleneckKind>(k)))),
            nullptr);
    for (int g = 0; g < analysis::MemoryGroupCount; ++g)
        EXPECT_NE(
            analysis::metricDefinition("memory."
                + std::string(analysis::memoryGroupKey(static_cast<analysis::MemoryGroup>(g)))),
            nullptr);
    for (const char *k : {"step", "free", "reference", "tb_breakdown", "clock_offset", "straggler"})
        EXPECT_NE(analysis::metricDefinition(k), nullptr) << k;
    EXPECT_EQ(analysis::metricDefinition("nope"), nullptr);
}
