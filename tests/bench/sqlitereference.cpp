// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "sqlitereference.h"

#include "import/sqlite/database.h"

#include <chrono>

namespace stepscope::bench {

double sqliteReferenceSeconds(const std::string &file, std::uint64_t &rows, double &sum)
{
    static const char *const Tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
        "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
        "CUPTI_ACTIVITY_KIND_RUNTIME", "OSRT_API", "NVTX_EVENTS", "PROFILER_OVERHEAD"};
    const auto t0 = std::chrono::steady_clock::now();
    std::string error;
    const auto db = import::sqlite::Database::open(file, &error);
    if (!db)
        return -1;
    rows = 0;
    sum = 0;
    try {
        for (const char *table : Tables) {
            if (!db->hasTable(table))
                continue;
            import::sqlite::Statement s =
                db->prepare(std::string("SELECT start, end FROM ") + table);
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

} // namespace stepscope::bench
