// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "opstatistic.h"

#include "import/csv/csvfield.h"
#include "import/csv/csvreader.h"
#include "util/decimal.h"

namespace stepscope::import::ascend {

std::vector<model::OpStatistic> readOpStatistic(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    std::vector<model::OpStatistic> stats;
    csv::CsvReader reader(path, &ctx);
    if (!reader.readHeader())
        return stats;
    const int cName = reader.column("OP Type");
    const int cCore = reader.column("Core Type");
    const int cCount = reader.column("Count");
    const int cTotal = reader.column("Total Time(us)");
    const int cMin = reader.column("Min Time(us)");
    const int cAvg = reader.column("Avg Time(us)");
    const int cMax = reader.column("Max Time(us)");
    if (cName < 0 || cCount < 0 || cTotal < 0) {
        ctx.error(path,
            "op_statistic.csv needs the columns `OP Type`, `Count` and "
            "`Total Time(us)`; the file was not loaded",
            1);
        return stats;
    }
    while (reader.next()) {
        const std::optional<std::int64_t> count = util::parseInt(reader.field(cCount));
        const std::optional<double> total = csv::parseNumber(reader.field(cTotal));
        if (!count || !total) {
            ctx.warn(
                path, "`Count` and `Total Time(us)` must be numbers; row skipped", reader.line());
            continue;
        }
        model::OpStatistic s;
        s.name = std::string(reader.field(cName));
        s.coreType = std::string(reader.field(cCore));
        s.count = *count;
        s.totalUs = *total;
        s.minUs = csv::parseNumber(reader.field(cMin)).value_or(0);
        s.avgUs = csv::parseNumber(reader.field(cAvg)).value_or(0);
        s.maxUs = csv::parseNumber(reader.field(cMax)).value_or(0);
        stats.push_back(std::move(s));
    }
    return stats;
}

} // namespace stepscope::import::ascend
