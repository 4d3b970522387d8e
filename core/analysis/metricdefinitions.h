// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <string_view>
#include <vector>

namespace stepscope::analysis {

/// The tooltip text of a metric: one short paragraph per stable key, the same definitions as
/// docs/metrics.md (which has the long form). Keys: the SegmentKind keys plus "step" and
/// "free"; the KPI keys; "bottleneck." + a BottleneckKind key; "memory." + a MemoryGroup key;
/// "clock_offset", "straggler", "reference", "tb_breakdown".
struct MetricDefinition
{
    std::string_view key;
    std::string_view title;
    std::string_view text;
};
const std::vector<MetricDefinition> &metricDefinitions();
/// nullptr for an unknown key.
const MetricDefinition *metricDefinition(std::string_view key);

} // namespace stepscope::analysis
