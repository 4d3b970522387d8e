// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Which profiler wrote an SQLite file, from its tables (docs/formats.md §1), never from its name
// alone: Ascend profiler DB (TASK, STRING_IDS, META_DATA), Ascend analysis.db
// (StepTraceTime / CommAnalyzer*), Ascend cluster_analysis.db (Cluster* tables), Nsight
// Systems export (META_DATA_EXPORT, CUPTI_ACTIVITY_KIND_* or TARGET_INFO_* tables).

#include <cstdint>
#include <filesystem>

namespace stepscope::import::sqlite {

enum class SqliteKind : std::uint8_t {
    None, ///< not SQLite, unreadable, or tables of no known profiler
    AscendProfiler,
    AscendAnalysis,
    AscendCluster,
    Nsys,
};

/// Cheap: checks the 16-byte header before opening, then reads only the table list.
SqliteKind sniffSqlite(const std::filesystem::path &file);

} // namespace stepscope::import::sqlite
