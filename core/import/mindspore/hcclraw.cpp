// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "hcclraw.h"

#include "import/csv/csvfield.h"
#include "import/csv/csvreader.h"
#include "util/decimal.h"

#include <nlohmann/json.hpp>

namespace stepscope::import::mindspore {

namespace {

using json = nlohmann::ordered_json; // keep the file's operator order

/// {"<src>-<dst>": {"SDMA": [time_ms, size_kb, bandwidth_kb_s]}} -> links; false when malformed.
bool parseLinks(const json &j, std::vector<model::LinkTraffic> &links)
{
    if (!j.is_object())
        return false;
    for (const auto &[pair, transports] : j.items()) {
        if (!transports.is_object())
            return false;
        for (const auto &[transport, v] : transports.items()) {
            if (!v.is_array() || v.size() < 2 || !v[0].is_number() || !v[1].is_number())
                return false;
            model::LinkTraffic t;
            t.transport = transport;
            t.timeMs = v[0].get<double>();
            // KB: MindSpore's hccl_parser sums the tasks' bytes and multiplies by 1e-3 (its
            // bandwidth column, KB/s, is size / time x 1000: 93279.232 in 4.34695 ms, 21.5 GB/s).
            t.sizeMb = v[1].get<double>() / 1e3;
            links.push_back(std::move(t));
        }
        (void)pair;
    }
    return true;
}

bool isP2p(const std::string &name)
{
    return name.find("Send") != std::string::npos || name.find("Receive") != std::string::npos
        || name.find("Recv") != std::string::npos;
}

} // namespace

std::size_t readHcclRaw(const std::filesystem::path &path, const ImportContext &ctx,
    std::int32_t rank, model::Trace &trace)
{
    if (ctx.progress != nullptr)
        ctx.progress->setStage("Reading " + ctx.relative(path));
    csv::CsvReader reader(path, &ctx);
    if (!reader.isOpen() || !reader.readHeader())
        return 0;
    const int stepCol = reader.column("step_num");
    const int commCol = reader.column("communication_cost");
    const int waitCol = reader.column("wait_cost");
    const int opsCol = reader.column("communication_operator_cost");
    if (stepCol < 0 || commCol < 0 || waitCol < 0) {
        ctx.error(path, "missing column step_num, communication_cost or wait_cost", 1);
        return 0;
    }
    const std::string source = ctx.relative(path);
    std::size_t steps = 0;
    while (reader.next()) {
        const std::string_view stepText = reader.field(stepCol);
        if (stepText == "-")
            continue; // the average row
        const auto step = util::parseInt(stepText);
        const auto comm = csv::parseNumber(reader.field(commCol));
        const auto wait = csv::parseNumber(reader.field(waitCol));
        if (!step || !comm || !wait) {
            ctx.warn(path,
                "skipped a row whose step_num, communication_cost or wait_cost is "
                "not a number",
                reader.line());
            continue;
        }
        model::ReferenceStep ref;
        ref.rank = rank;
        ref.step = *step;
        ref.source = source;
        ref.valuesUs = {{"communication_cost", *comm * 1000.0}, {"wait_cost", *wait * 1000.0}};
        trace.referenceSteps.push_back(std::move(ref));
        ++steps;

        if (opsCol < 0 || csv::isMissing(reader.field(opsCol)))
            continue;
        json ops;
        try {
            ops = json::parse(reader.field(opsCol));
        } catch (const json::exception &e) {
            ctx.warn(path,
                std::string("communication_operator_cost is not valid JSON: ") + e.what(),
                reader.line());
            continue;
        }
        if (!ops.is_object()) {
            ctx.warn(path, "communication_operator_cost is not a JSON object", reader.line());
            continue;
        }
        for (const auto &[name, v] : ops.items()) {
            model::CollectiveStat stat;
            stat.rank = rank;
            stat.step = "step" + std::to_string(*step);
            stat.name = name;
            stat.p2p = isP2p(name);
            const bool shapeOk = v.is_array() && v.size() >= 3 && v[1].is_number()
                && v[2].is_number() && (v.size() < 4 || parseLinks(v[3], stat.links));
            if (!shapeOk) {
                ctx.warn(path,
                    "skipped an operator entry that is not [step, comm_ms, wait_ms, "
                    "{links}]",
                    reader.line());
                continue;
            }
            // hccl_parser: comm = the op's tasks other than Notify_Wait (the transfer), wait =
            // its Notify_Wait tasks. The op's wall time is not written; comm stands for it.
            stat.elapseMs = v[1].get<double>();
            stat.transitMs = stat.elapseMs;
            stat.waitMs = v[2].get<double>();
            trace.collectives.push_back(std::move(stat));
        }
    }
    if (steps > 0)
        trace.metadata.sourceFiles.push_back(source);
    if (!trace.collectives.empty())
        trace.collectivesSource = path.filename().string();
    return steps;
}

} // namespace stepscope::import::mindspore
