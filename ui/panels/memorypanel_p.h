// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Helpers the Memory panel's two source files share (memorypanel.cpp: layout and charts,
// memorypaneltables.cpp: the peak chart and the allocation table). Not a public header.
#pragma once

#include "analysis/memorycategories.h"
#include "analysis/units.h"
#include "model/memory.h"
#include "ui/palette.h"
#include "ui/text.h"

#include <QColor>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

namespace stepscope::ui::memorydetail {

using analysis::MemoryGroup;

/// The palette has colours per PyTorch category; a group takes its main category's colour.
inline QColor groupColor(MemoryGroup g)
{
    using model::MemoryCategory;
    switch (g) {
    case MemoryGroup::Parameters:
        return memoryCategoryColor(MemoryCategory::Parameter);
    case MemoryGroup::Gradients:
        return memoryCategoryColor(MemoryCategory::Gradient);
    case MemoryGroup::OptimizerState:
        return memoryCategoryColor(MemoryCategory::OptimizerState);
    case MemoryGroup::Activations:
        return memoryCategoryColor(MemoryCategory::Activation);
    case MemoryGroup::Temporary:
        return memoryCategoryColor(MemoryCategory::Temporary);
    case MemoryGroup::CommunicationBuffers:
        return memoryCategoryColor(MemoryCategory::CommunicationBuffer);
    case MemoryGroup::Other:
        break;
    }
    return memoryCategoryColor(MemoryCategory::Unknown);
}

inline QString curveLabel(const model::MemoryCurve &c)
{
    if (c.device.empty() || c.device == c.component)
        return QString::fromStdString(c.component);
    return QStringLiteral("%1 (%2)").arg(
        QString::fromStdString(c.component), QString::fromStdString(c.device));
}

/// "at 470 s, 7.00 ms long": when a curve starts (from the trace origin) and how long it runs.
inline QString timeSpan(const model::MemoryCurve &c)
{
    if (c.timestampsNs.empty())
        return {};
    return QStringLiteral("at %1, %2 long")
        .arg(QString::fromStdString(analysis::formatDuration(c.timestampsNs.front())),
            QString::fromStdString(
                analysis::formatDuration(c.timestampsNs.back() - c.timestampsNs.front())));
}

/// True when another of `shown` has the same device as curve `i` (their lines would share a
/// legend name).
inline bool duplicated(std::size_t i, const std::vector<std::size_t> &shown,
    const std::vector<model::MemoryCurve> &curves)
{
    return std::count_if(shown.begin(), shown.end(), [&](std::size_t j) {
        return curves[j].device == curves[i].device;
    }) > 1;
}

inline bool anyRecorded(const std::vector<std::int64_t> &v)
{
    return std::any_of(v.begin(), v.end(), [](std::int64_t x) { return x >= 0; });
}

inline std::vector<double> toDouble(const std::vector<std::int64_t> &v)
{
    return std::vector<double>(v.begin(), v.end());
}

inline const QString HowToCollect = QStringLiteral(
    "<p>To record memory: PyTorch — <code>torch.profiler.profile(profile_memory=True, "
    "record_shapes=True, with_stack=True)</code>; for categories (parameters, gradients, "
    "optimizer state, activations...) also <code>prof.export_memory_timeline_raw(path, "
    "device)</code> and put the <code>.raw.gz</code> file next to the trace. Ascend "
    "(torch_npu) — <code>torch_npu.profiler.profile(profile_memory=True, ...)</code> writes "
    "<code>memory_record.csv</code> and <code>operator_memory.csv</code>.</p>");

} // namespace stepscope::ui::memorydetail
