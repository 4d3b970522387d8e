// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "logdump.h"

#include "util/jsonnumber.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

namespace stepscope::import::losslog {

namespace {

using nlohmann::ordered_json;

ordered_json number(double v)
{
    return util::jsonNumber<ordered_json>(v);
}

ordered_json point(const model::LogSeries &s, std::size_t i)
{
    ordered_json p = ordered_json::array();
    p.push_back(s.steps[i]);
    p.push_back(number(s.values[i]));
    return p;
}

} // namespace

std::string trainingLogToJson(const model::TrainingLog &log, bool withPoints)
{
    ordered_json j;
    j["source"] = log.source;
    j["producer"] = log.producer;
    j["lines"] = log.lineCount;
    j["records"] = log.recordCount;
    j["bad_lines"] = log.badLineCount;
    j["control_lines"] = log.controlLineCount;
    ordered_json runs = ordered_json::array();
    for (const model::LogRun &r : log.runs)
        runs.push_back(
            {{"label", r.label}, {"first_line", r.firstLine}, {"last_line", r.lastLine}});
    j["runs"] = runs;
    ordered_json scalars = ordered_json::object();
    for (const auto &[key, value] : log.scalars)
        scalars[key] = number(value);
    j["scalars"] = scalars;
    ordered_json config = ordered_json::object();
    for (const auto &[key, value] : log.config)
        config[key] = value;
    j["config"] = config;
    ordered_json issues = ordered_json::array();
    for (std::size_t i = 0; i < log.issues.size() && i < 20; ++i)
        issues.push_back({{"line", log.issues[i].line}, {"message", log.issues[i].message}});
    j["issues"] = issues;
    ordered_json series = ordered_json::array();
    for (const model::LogSeries &s : log.series) {
        ordered_json o;
        o["name"] = s.name;
        o["kind"] = std::string(model::logSeriesKindName(s.kind));
        o["unit"] = s.unit;
        o["run"] = s.run;
        o["rank"] = s.rank;
        if (s.cumulative)
            o["cumulative"] = true;
        o["points"] = s.size();
        o["non_finite"] = s.nonFiniteCount();
        std::size_t duplicates = 0;
        for (std::uint8_t d : s.duplicate)
            duplicates += d ? 1 : 0;
        o["duplicates"] = duplicates;
        if (!s.empty()) {
            o["first"] = point(s, 0);
            o["last"] = point(s, s.size() - 1);
        }
        if (withPoints) {
            ordered_json all = ordered_json::array();
            for (std::size_t i = 0; i < s.size(); ++i)
                all.push_back(point(s, i));
            o["data"] = all;
        }
        series.push_back(o);
    }
    j["series"] = series;
    return j.dump(1, ' ', false, ordered_json::error_handler_t::replace);
}

std::string describeTrainingLog(const model::TrainingLog &log)
{
    std::ostringstream out;
    out << log.source << ": " << (log.producer.empty() ? "no training-log records" : log.producer)
        << ", " << log.recordCount << " records in " << log.lineCount << " lines";
    if (log.badLineCount > 0)
        out << ", " << log.badLineCount << " unreadable record lines";
    out << "\n";
    for (std::uint32_t r = 0; r < log.runs.size(); ++r) {
        out << "  " << log.runs[r].label << ":";
        if (const model::LogSeries *loss = log.primaryLoss(r)) {
            out << " " << loss->name << " " << loss->size() << " points, step "
                << loss->steps.front() << " = " << loss->values.front() << " .. step "
                << loss->steps.back() << " = " << loss->values.back();
            if (loss->nonFiniteCount() > 0)
                out << " (" << loss->nonFiniteCount() << " NaN/inf)";
        }
        out << "\n    series:";
        for (const model::LogSeries &s : log.series)
            if (s.run == r) {
                out << " " << s.name;
                if (!s.unit.empty())
                    out << " [" << s.unit << "]";
                if (s.rank >= 0)
                    out << " @rank" << s.rank;
                out << ";";
            }
        out << "\n";
    }
    return out.str();
}

} // namespace stepscope::import::losslog
