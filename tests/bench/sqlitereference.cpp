// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "sqlitereference.h"

#include "import/sqlite/database.h"

#include <chrono>
#include <iterator>

namespace stepscope::bench {

namespace {

/// SELECT <start>, <end> over each table present, every row.
double scanSeconds(const std::string &file, const char *const *tables, std::size_t count,
    const char *columns, std::uint64_t &rows, double &sum)
{
    const auto t0 = std::chrono::steady_clock::now();
    std::string error;
    const auto db = import::sqlite::Database::open(file, &error);
    if (!db)
        return -1;
    rows = 0;
    sum = 0;
    try {
        for (std::size_t t = 0; t < count; ++t) {
            if (!db->hasTable(tables[t]))
                continue;
            import::sqlite::Statement s =
                db->prepare(std::string("SELECT ") + columns + " FROM " + tables[t]);
            while (s.step()) {
                ++rows;
                sum += static_cast<double>(s.int64(1).value_or(0) - s.int64(0).value_or(0));
            }
        }
    } catch (const import::sqlite::Error &) {
        return -1;
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

double sqliteReferenceSeconds(const std::string &file, std::uint64_t &rows, double &sum)
{
    static const char *const Tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
        "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        "CUPTI_ACTIVITY_KIND_RUNTIME", "OSRT_API", "NVTX_EVENTS", "PROFILER_OVERHEAD"};
    return scanSeconds(file, Tables, std::size(Tables), "start, end", rows, sum);
}

double ascendDbReferenceSeconds(const std::string &file, std::uint64_t &rows, double &sum)
{
    // PYTORCH_API stores its times as TEXT; Statement::int64 converts them as the reader does.
    static const char *const Tables[] = {
        "TASK", "CANN_API", "PYTORCH_API", "COMMUNICATION_OP", "STEP_TIME"};
    return scanSeconds(file, Tables, std::size(Tables), "startNs, endNs", rows, sum);
}

} // namespace stepscope::bench
