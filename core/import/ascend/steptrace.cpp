// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "steptrace.h"

#include "import/csv/csvfield.h"
#include "import/csv/csvreader.h"
#include "util/decimal.h"

#include <set>
#include <string>
#include <vector>

namespace stepscope::import::ascend {

namespace {

/// Reads rows; `fill` sets rank/kind from the special columns and returns false to skip.
template <typename Fill>
std::vector<model::ReferenceStep> readSteps(const std::filesystem::path &path,
    const ImportContext &ctx, std::initializer_list<std::string_view> special, Fill fill)
{
    std::vector<model::ReferenceStep> steps;
    csv::CsvReader reader(path, &ctx);
    if (!reader.readHeader())
        return steps;
    const int cStep = reader.column("Step");
    if (cStep < 0) {
        ctx.error(path, "no `Step` column: this is not a step_trace_time file", 1);
        return steps;
    }
    std::vector<int> valueColumns;
    for (std::size_t i = 0; i < reader.header().size(); ++i) {
        const std::string &name = reader.header()[i];
        bool isSpecial = name == "Step" || name.empty();
        for (std::string_view s : special)
            isSpecial = isSpecial || name == s;
        if (!isSpecial)
            valueColumns.push_back(static_cast<int>(i));
    }
    std::set<std::vector<std::string>> seen; // the rows kept, field by field
    const std::string source = ctx.relative(path);
    while (reader.next()) {
        model::ReferenceStep step;
        step.source = source;
        const std::string_view stepText = reader.field(cStep);
        if (!csv::isMissing(stepText)) {
            const std::optional<std::int64_t> n = util::parseInt(stepText);
            if (!n) {
                ctx.warn(path, "`Step` must be an integer or empty; row skipped", reader.line());
                continue;
            }
            step.step = *n;
        }
        if (!fill(reader, step))
            continue;
        // Rows appended twice (files joined, a rerun's rows added) are the same row field for
        // field: counted once. Rows that differ are kept, even for one step and rank (steps
        // without an id are told apart by their values only).
        std::vector<std::string> key;
        key.reserve(reader.header().size());
        for (std::size_t c = 0; c < reader.header().size(); ++c)
            key.emplace_back(reader.field(static_cast<int>(c)));
        if (seen.count(key) != 0) {
            ctx.warn(path, "the same row as one already read (a repeat); this one skipped",
                reader.line());
            continue;
        }
        bool ok = true;
        for (int c : valueColumns) {
            const std::string_view text = reader.field(c);
            if (csv::isMissing(text))
                continue;
            const std::optional<double> v = csv::parseNumber(text);
            if (!v) {
                ctx.warn(path,
                    "`" + reader.header()[static_cast<std::size_t>(c)]
                        + "` must be a number; row skipped",
                    reader.line());
                ok = false;
                break;
            }
            step.valuesUs.emplace_back(reader.header()[static_cast<std::size_t>(c)], *v);
        }
        if (ok) {
            seen.insert(std::move(key));
            steps.push_back(std::move(step));
        }
    }
    return steps;
}

} // namespace

std::vector<std::int32_t> parseRankTuple(std::string_view text)
{
    std::vector<std::int32_t> ranks;
    std::int64_t value = 0;
    bool inNumber = false;
    for (char c : text) {
        if (c >= '0' && c <= '9') {
            value = value * 10 + (c - '0');
            inNumber = true;
            if (value > 0x7fffffff)
                return {};
        } else {
            if (inNumber)
                ranks.push_back(static_cast<std::int32_t>(value));
            value = 0;
            inNumber = false;
            if (c != ' ' && c != ',' && c != '(' && c != ')' && c != '[' && c != ']')
                return {};
        }
    }
    if (inNumber)
        ranks.push_back(static_cast<std::int32_t>(value));
    return ranks;
}

std::vector<model::ReferenceStep> readStepTraceTime(const std::filesystem::path &path,
    const ImportContext &ctx, std::int32_t rank, std::string *deviceId)
{
    int cDevice = -2; // resolved on the first row
    return readSteps(
        path, ctx, {"Device_id"}, [&](const csv::CsvReader &r, model::ReferenceStep &step) {
            if (cDevice == -2)
                cDevice = r.column("Device_id");
            if (deviceId && deviceId->empty() && cDevice >= 0 && !csv::isMissing(r.field(cDevice)))
                *deviceId = std::string(r.field(cDevice));
            step.rank = rank;
            return true;
        });
}

std::vector<model::ReferenceStep> readClusterStepTraceTime(
    const std::filesystem::path &path, const ImportContext &ctx)
{
    int cType = -2;
    int cIndex = -2;
    return readSteps(
        path, ctx, {"Type", "Index"}, [&](const csv::CsvReader &r, model::ReferenceStep &step) {
            if (cType == -2) {
                cType = r.column("Type");
                cIndex = r.column("Index");
            }
            step.kind = cType >= 0 ? std::string(r.field(cType)) : std::string("rank");
            const std::string_view index = r.field(cIndex);
            if (step.kind == "stage") {
                step.rank = -1;
                step.stageRanks = parseRankTuple(index);
                if (step.stageRanks.empty()) {
                    ctx.warn(path,
                        "stage row: `Index` must be a rank tuple like \"(0, 1)\"; "
                        "row skipped",
                        r.line());
                    return false;
                }
                return true;
            }
            const std::optional<std::int64_t> rank = util::parseInt(index);
            if (!rank || *rank < 0 || *rank > 0x7fffffff) {
                ctx.warn(path, "rank row: `Index` must be a rank number; row skipped", r.line());
                return false;
            }
            step.rank = static_cast<std::int32_t>(*rank);
            return true;
        });
}

} // namespace stepscope::import::ascend
