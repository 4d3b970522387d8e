// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "legacysummaries.h"

#include "import/csv/csvfield.h"
#include "import/csv/csvreader.h"
#include "import/detect/filetext.h"
#include "import/mindspore/steptraceraw.h"
#include "model/metadatakeys.h"
#include "util/decimal.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace stepscope::import::mindspore {

namespace fs = std::filesystem;

namespace {

/// The rank's pipeline stage from `ascend_cluster_analyse_pipeline-parallel_<stages>_<ranks>_
/// <rank>.csv`, as MindInsight's ParallelAnalyser numbers it: rank // (ranks / stages) + 1.
/// Nothing for the other modes, or for counts that do not hold the rank.
void notePipelineStage(
    const fs::path &path, const ImportContext &ctx, std::int32_t rank, model::Trace &trace)
{
    const std::string name = path.stem().string();
    const std::string_view prefix = "ascend_cluster_analyse_pipeline-parallel_";
    if (name.rfind(prefix, 0) != 0)
        return;
    // <stages>_<ranks>_<rank>
    std::int64_t parts[3] = {-1, -1, -1};
    std::string_view rest = std::string_view(name).substr(prefix.size());
    for (std::int64_t &part : parts) {
        const std::size_t cut = rest.find('_');
        part = util::parseInt(rest.substr(0, cut)).value_or(-1);
        rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 1);
    }
    const auto [stages, ranks, fileRank] = parts;
    if (stages < 1 || ranks < stages || ranks > std::numeric_limits<std::int32_t>::max() || rank < 0
        || rank >= ranks || fileRank != rank) {
        ctx.warn(path,
            "its name does not give the pipeline stage of rank " + std::to_string(rank)
                + " (<stages>_<ranks>_<rank>: " + std::to_string(stages) + ", "
                + std::to_string(ranks) + ", " + std::to_string(fileRank)
                + "): the rank's stage is not known");
        return;
    }
    trace.metadata.extra[std::string(model::PipelineStageKey)] =
        std::to_string(rank * stages / ranks + 1);
}

} // namespace

std::size_t readClusterAnalyse(
    const fs::path &path, const ImportContext &ctx, std::int32_t rank, model::Trace &trace)
{
    notePipelineStage(path, ctx, rank, trace);
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

std::size_t placeClusterAnalyseRows(
    const fs::path &path, const ImportContext &ctx, model::Trace &trace)
{
    const std::string source = ctx.relative(path);
    std::vector<const model::ReferenceStep *> steps; // the step trace's rows, by step
    std::vector<model::ReferenceStep *> rows; // this file's rows, in file order
    for (model::ReferenceStep &r : trace.referenceSteps) {
        if (r.source == source && r.step < 0)
            rows.push_back(&r);
        else if (r.step >= 0 && r.source != source && r.find("total") && r.find("fp_and_bp"))
            steps.push_back(&r);
    }
    if (rows.empty() || steps.empty())
        return 0;
    std::stable_sort(steps.begin(), steps.end(),
        [](const model::ReferenceStep *a, const model::ReferenceStep *b) {
            return a->step < b->step;
        });
    const std::size_t placed = std::min(rows.size(), steps.size());
    std::int64_t overStep = -1; // first step whose parts exceed its total
    double overUs = 0;
    for (std::size_t i = 0; i < placed; ++i) {
        model::ReferenceStep &row = *rows[i];
        const model::ReferenceStep &step = *steps[i];
        row.step = step.step;
        const double *computing = row.find("computation_time");
        if (!computing)
            computing = row.find("computation");
        const double *alone = row.find("communication_alone_time");
        if (!computing || !alone)
            continue; // the data-parallel variant: fp/bp/tail, as the step trace has them
        const double totalUs = *step.find("total");
        const double freeUs = totalUs - *computing - *alone;
        if (freeUs < 0 && overStep < 0) {
            overStep = row.step;
            overUs = -freeUs;
        }
        std::vector<std::pair<std::string, double>> canonical = {
            {"Computing", *computing},
            {"Communication(Not Overlapped)", *alone},
            {"Free", std::max(freeUs, 0.0)},
        };
        if (const double *receive = row.find("receive_alone_time"))
            canonical.emplace_back("Bubble", *receive);
        if (const double *stage = row.find("stage_time"))
            canonical.emplace_back("Stage", *stage);
        // The step trace's total stays the step's length, where the parts sum to more too.
        canonical.emplace_back("total", totalUs);
        row.valuesUs.insert(row.valuesUs.end(), canonical.begin(), canonical.end());
    }
    if (rows.size() != steps.size()) {
        std::string unused;
        if (rows.size() == steps.size() + 1)
            unused = "; row " + std::to_string(rows.size()) + " has no step and is not used";
        else if (rows.size() > steps.size())
            unused = "; rows " + std::to_string(steps.size() + 1) + " to "
                + std::to_string(rows.size()) + " have no step and are not used";
        ctx.info(path,
            std::to_string(rows.size()) + " rows for " + std::to_string(steps.size())
                + " steps of the step trace: rows matched to steps by position (the file has "
                  "no step column)"
                + unused);
    }
    if (overStep >= 0) {
        char by[32];
        std::snprintf(by, sizeof by, "%.1f", overUs);
        ctx.info(path,
            "computation plus communication exceeds the step trace's total (first in step "
                + std::to_string(overStep) + ", by " + by
                + " us): free time there is 0 and the step's parts sum to more than its total");
    }
    return placed;
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
