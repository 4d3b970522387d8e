// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "analysis/kpis.h"
#include "model/session.h"
#include "report.h"

#include <nlohmann/json_fwd.hpp>

#include <QSize>
#include <QString>

#include <memory>

namespace stepscope::ui {

/// One side of a comparison: the loaded session, where it came from and its run config.
struct CompareSide
{
    std::shared_ptr<const model::Session> session;
    QString name; ///< short label ("resnet50_num_workers_0")
    QString path;
    analysis::RunConfig config;
};

/// The before/after report of DESIGN.md "The report": header → KPI table with deltas →
/// paired step breakdown chart → bottlenecks of each run → memory by category → kernel
/// deltas → loss overlay (when logs are found beside the profiles) → timelines of the
/// aligned step → load diagnostics. Every number comes from core/analysis.
Report buildCompareReport(
    const CompareSide &before, const CompareSide &after, QSize imageSize = QSize(1600, 700));

/// The deltas as JSON (`stepscope compare --json`): kpis, mean step rows, per-step rows,
/// kernel deltas, loss divergence when available.
nlohmann::json compareJson(const CompareSide &before, const CompareSide &after);

} // namespace stepscope::ui
