// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Ascend `op_statistic.csv` (docs/formats.md §2.9):
// `OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)`.

#include "import/importcontext.h"
#include "model/trace.h"

#include <filesystem>
#include <vector>

namespace stepscope::import::ascend {

/// Rows in file order; a row with a non-numeric count or time is skipped with a diagnostic.
std::vector<model::OpStatistic> readOpStatistic(
    const std::filesystem::path &path, const ImportContext &ctx);

} // namespace stepscope::import::ascend
