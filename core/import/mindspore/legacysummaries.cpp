// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "legacysummaries.h"

#include "import/csv/csvfield.h"
#include "import/csv/csvreader.h"
#include "import/detect/filetext.h"
#include "import/mindspore/steptraceraw.h"
#include "util/decimal.h"

#include <nlohmann/json.hpp>

namespace stepscope::import::mindspore {

namespace fs = std::filesystem;

std::size_t readClusterAnalyse(
    const fs::path &path, const ImportContext &ctx, std::int32_t rank, model::Trace &trace)
{
    csv::CsvReader reader(path, &ctx);
    if (!reader.isOpen() || !reader.readHeader())
        return 0;
    const std::string source = ctx.relative(path);
    std::size_t rows = 0;
    while (reader.next()) {
        model::ReferenceStep ref;
        ref.rank = rank;
        ref.step = -1;
        ref.source = source;
        bool ok = true;
        for (std::size_t c = 0; c < reader.header().size() && ok; ++c) {
            const auto v = csv::parseNumber(reader.field(static_cast<int>(c)));
            ok = v.has_value();
            if (v)
                ref.valuesUs.emplace_back(
                    std::string(util::trimBlanks(reader.header()[c])), *v * 1000.0);
        }
        if (!ok || ref.valuesUs.empty()) {
            ctx.warn(path, "skipped a row with a value that is not a number", reader.line());
            continue;
        }
        trace.referenceSteps.push_back(std::move(ref));
        ++rows;
    }
    if (rows > 0)
        trace.metadata.sourceFiles.push_back(source);
    return rows;
}

bool readFlopsSummary(const fs::path &path, const ImportContext &ctx, model::Trace &trace)
{
    std::string why;
    const auto text = detect::readFileText(path, 1 << 20, nullptr, &why);
    if (!text) {
        ctx.error(path, "cannot open the file: " + why);
        return false;
    }
    try {
        const nlohmann::json j = nlohmann::json::parse(*text);
        if (!j.is_object()) {
            ctx.warn(path, "expected a JSON object of FLOPs figures");
            return false;
        }
        for (const auto &[key, value] : j.items())
            trace.metadata.extra["flops." + key] =
                value.is_string() ? value.get<std::string>() : value.dump();
    } catch (const nlohmann::json::parse_error &e) {
        ctx.warn(
            path, std::string("not valid JSON: ") + e.what(), 0, static_cast<std::int64_t>(e.byte));
        return false;
    } catch (const nlohmann::json::exception &e) {
        ctx.warn(path, std::string("not valid JSON: ") + e.what());
        return false;
    }
    trace.metadata.sourceFiles.push_back(ctx.relative(path));
    return true;
}

std::size_t readMinddataPipeline(
    const fs::path &path, const ImportContext &ctx, model::Trace &trace)
{
    csv::CsvReader reader(path, &ctx);
    if (!reader.isOpen() || !reader.readHeader())
        return 0;
    const int idCol = reader.column("op_id");
    const int typeCol = reader.column("op_type");
    const int workersCol = reader.column("num_workers");
    const int parentCol = reader.column("parent_id");
    const int usageCol = reader.column("output_queue_usage_rate");
    if (idCol < 0 || typeCol < 0) {
        ctx.error(path, "missing column op_id or op_type", 1);
        return 0;
    }
    std::size_t ops = 0;
    while (reader.next()) {
        const auto id = util::parseInt(reader.field(idCol));
        if (!id || reader.field(typeCol).empty()) {
            ctx.warn(path, "skipped a row without an integer op_id and an op_type", reader.line());
            continue;
        }
        std::string text(reader.field(typeCol));
        if (workersCol >= 0 && !reader.field(workersCol).empty())
            text += " workers=" + std::string(reader.field(workersCol));
        if (parentCol >= 0 && !reader.field(parentCol).empty())
            text += " parent=" + std::string(reader.field(parentCol));
        if (usageCol >= 0 && !reader.field(usageCol).empty())
            text += " queue_usage=" + std::string(reader.field(usageCol));
        trace.metadata.extra["minddata.op" + std::to_string(*id)] = std::move(text);
        ++ops;
    }
    if (ops > 0)
        trace.metadata.sourceFiles.push_back(ctx.relative(path));
    return ops;
}

std::optional<std::int64_t> readMinCycleCounter(const fs::path &path, const ImportContext &ctx)
{
    std::string why;
    const auto text = detect::readFileText(path, 4096, nullptr, &why);
    if (!text) {
        ctx.error(path, "cannot open the file: " + why);
        return std::nullopt;
    }
    // Written as a float ("43806841592.0") but it is an integer tick count.
    const auto ticks = util::parseScaledDecimal(util::trimBlanks(*text), 0);
    if (!ticks) {
        ctx.warn(path, "expected one number (the first device tick), got something else", 1);
        return std::nullopt;
    }
    if (!ticksInRange(*ticks)) {
        ctx.warn(
            path, "the first device tick is beyond 2^58 ns: not used as the clock's origin", 1);
        return std::nullopt;
    }
    return ticks;
}

} // namespace stepscope::import::mindspore
