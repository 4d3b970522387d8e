// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// The reference rate for SQLite exports in `stepscope-bench import`: SQLite alone stepping
// `SELECT start, end` over the event tables the importer reads (nsys, Ascend DB) (every row, sum of
// end - start), through the same read-only immutable open. What no importer of the file can
// beat.

#include <cstdint>
#include <string>

namespace stepscope::bench {

/// Seconds for the scan, or -1 when the file does not open. `rows` and `sum` receive the
/// rows stepped and the sum of their durations (ns).
double sqliteReferenceSeconds(const std::string &file, std::uint64_t &rows, double &sum);

/// The same for an Ascend profiler DB: `SELECT startNs, endNs` over TASK, CANN_API,
/// PYTORCH_API, COMMUNICATION_OP and STEP_TIME.
double ascendDbReferenceSeconds(const std::string &file, std::uint64_t &rows, double &sum);

} // namespace stepscope::bench
