// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Ascend memory CSVs (docs/formats.md §2.8): memory_record.csv, operator_memory.csv,
// npu_module_mem.csv, static_op_mem.csv. Both header variants of each are read by name.
//
// Units: Ascend's "MB" and "KB" are binary (torch_npu divides bytes by 1024 / 1024*1024),
// so 1 MB = 2^20 bytes and 1 KB = 1024 bytes here. The values are written as exact binary
// fractions (`4599.74072265625`), so bytes come out exact (rounded to the nearest byte
// otherwise). Times are returned ABSOLUTE (ns since the Unix epoch, exact from the decimal
// text); shiftMemoryTimes() makes them relative to a trace origin.

#include "import/importcontext.h"
#include "model/memory.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace stepscope::import::ascend {

/// Binary megabytes / kilobytes as text to bytes; nullopt when missing or not a number.
std::optional<std::int64_t> megabytesToBytes(std::string_view text);
std::optional<std::int64_t> kilobytesToBytes(std::string_view text);

/// memory_record.csv: one curve per `Component` (APP, PTA, GE, PTA+GE, ...), each sorted by
/// time (the file is grouped by component, not sorted). Empty value cells are -1; a column
/// the variant lacks (`Total Active(MB)` in 2023 files) leaves that vector empty. When the
/// timestamps were mangled by a spreadsheet (`1.69512E+15`) the time axis is unusable: no
/// curve is returned and a warning says so.
std::vector<model::MemoryCurve> readMemoryRecord(
    const std::filesystem::path &path, const ImportContext &ctx);

/// operator_memory.csv: one Allocation per row (category Unknown, not inferred). An empty
/// `Release Time(us)` means alive at the end of the capture (releasedNs = -1).
std::vector<model::Allocation> readOperatorMemory(
    const std::filesystem::path &path, const ImportContext &ctx);

/// npu_module_mem.csv: one series per module, sorted by time. Components that are not a
/// module name (a bare number such as `76`, or empty) are gathered under "other".
std::vector<model::ModuleMemory> readNpuModuleMem(
    const std::filesystem::path &path, const ImportContext &ctx);

/// static_op_mem.csv (graph-mode static allocations).
std::vector<model::StaticAllocation> readStaticOpMem(
    const std::filesystem::path &path, const ImportContext &ctx);

/// Subtracts originNs from every timestamp of curves, allocations and modules
/// (releasedNs = -1 stays -1).
void shiftMemoryTimes(model::MemoryData &memory, std::int64_t originNs);

} // namespace stepscope::import::ascend
