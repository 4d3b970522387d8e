// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "trainingsummary.h"

#include "util/jsonnumber.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace stepscope::analysis {

namespace {

using nlohmann::json;

json number(double v)
{
    return util::jsonNumber<json>(v);
}

/// Each log's name: its file name, or as many of its last folders as tell it from the other
/// logs' (a folder of experiments holds a pta_det.txt in each of five folders).
std::vector<std::string> logNames(
    const std::vector<std::shared_ptr<const model::TrainingLog>> &logs)
{
    std::vector<std::vector<std::string>> parts; // path components, last first
    for (const auto &log : logs) {
        std::vector<std::string> p;
        for (const auto &part : std::filesystem::path(log->source))
            if (!part.empty() && part != "/")
                p.insert(p.begin(), part.string());
        parts.push_back(std::move(p));
    }
    const auto suffix = [&](std::size_t i, std::size_t n) {
        std::string name;
        for (std::size_t k = std::min(n, parts[i].size()); k-- > 0;)
            name += parts[i][k] + (k ? "/" : "");
        return name;
    };
    // Level by level (n last components), the logs whose name is not yet told apart: a name
    // is, once no log of another path has it. One hash of every log's name per level, not a
    // comparison of every pair of logs (a thousand-rank job may write a log per rank).
    std::vector<std::size_t> length(logs.size(), 0); // 0: not told apart yet
    std::size_t open = logs.size();
    for (std::size_t n = 1; open > 0; ++n) {
        std::unordered_map<std::string, const std::vector<std::string> *> owner;
        std::unordered_set<std::string> shared; // names of logs of different paths
        for (std::size_t j = 0; j < logs.size(); ++j) {
            const auto [it, added] = owner.try_emplace(suffix(j, n), &parts[j]);
            if (!added && *it->second != parts[j])
                shared.insert(it->first);
        }
        for (std::size_t i = 0; i < logs.size(); ++i)
            if (length[i] == 0 && (n >= parts[i].size() || shared.count(suffix(i, n)) == 0)) {
                length[i] = n;
                --open;
            }
    }
    std::vector<std::string> names;
    names.reserve(logs.size());
    for (std::size_t i = 0; i < logs.size(); ++i)
        names.push_back(suffix(i, length[i]));
    return names;
}

/// First and last step of a run over all its series.
std::pair<std::int64_t, std::int64_t> stepRange(const model::TrainingLog &log, std::uint32_t run)
{
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    bool any = false;
    for (const model::LogSeries &s : log.series) {
        if (s.run != run || s.empty())
            continue;
        for (std::int64_t st : s.steps) {
            lo = any ? std::min(lo, st) : st;
            hi = any ? std::max(hi, st) : st;
            any = true;
        }
    }
    return {lo, hi};
}

} // namespace

std::vector<TrainingRun> trainingRuns(const model::Session &session)
{
    return trainingRuns(session.trainingLogs);
}

std::vector<TrainingRun> trainingRuns(
    const std::vector<std::shared_ptr<const model::TrainingLog>> &logs)
{
    std::vector<TrainingRun> out;
    const std::vector<std::string> names = logNames(logs);
    for (std::size_t l = 0; l < logs.size(); ++l) {
        const auto &log = logs[l];
        for (std::uint32_t r = 0; r < log->runs.size(); ++r) {
            TrainingRun t;
            t.log = log.get();
            t.run = r;
            t.index = static_cast<std::uint32_t>(out.size());
            t.label = names[l];
            if (log->runs.size() > 1)
                t.label += ", " + log->runs[r].label;
            out.push_back(std::move(t));
        }
    }
    return out;
}

const TrainingRun *mainTrainingRun(const std::vector<TrainingRun> &runs)
{
    const TrainingRun *best = nullptr;
    std::size_t bestSize = 0;
    for (const TrainingRun &r : runs) {
        const model::LogSeries *loss = r.log->primaryLoss(r.run);
        if (loss && loss->size() > bestSize) {
            best = &r;
            bestSize = loss->size();
        }
    }
    return best;
}

json trainingLogJson(const model::Session &session, const HealthRules &rules)
{
    json out = json::object();
    std::set<std::string> producers;
    std::string producer;
    for (const auto &log : session.trainingLogs) {
        if (producers.insert(log->producer).second)
            producer += (producer.empty() ? "" : ", ") + log->producer;
    }
    out["producer"] = producer;
    json runs = json::array();
    json series = json::array();
    json health = json::array();
    const std::vector<TrainingRun> all = trainingRuns(session);
    std::size_t first = 0; // index in `all` of the current log's run 0
    for (const auto &log : session.trainingLogs) {
        for (std::uint32_t r = 0; r < log->runs.size(); ++r) {
            const TrainingRun &t = all[first + r];
            const auto [lo, hi] = stepRange(*log, r);
            runs.push_back({{"index", t.index}, {"source", log->source}, {"label", t.label},
                {"first_line", log->runs[r].firstLine}, {"last_line", log->runs[r].lastLine},
                {"first_step", lo}, {"last_step", hi}});
        }
        for (const model::LogSeries &s : log->series) {
            json points = json::array();
            for (std::size_t i = 0; i < s.size(); ++i)
                points.push_back(json::array({s.steps[i], number(s.values[i])}));
            json o = {{"name", s.name}, {"kind", std::string(model::logSeriesKindName(s.kind))},
                {"unit", s.unit}, {"run", all[first + s.run].index}, {"rank", s.rank},
                {"points", std::move(points)}};
            series.push_back(std::move(o));
        }
        for (const HealthFinding &f : trainingHealth(*log, rules)) {
            health.push_back({{"kind", std::string(healthKindName(f.kind))},
                {"severity", std::string(healthSeverityName(f.severity))},
                {"run", all[first + f.run].index}, {"step", f.step}, {"line", f.line},
                {"source", log->source}, {"series", f.series}, {"value", number(f.value)},
                {"rule", f.rule}, {"threshold", f.threshold}, {"count", f.count},
                {"evidence", f.evidence}});
        }
        first += log->runs.size();
    }
    out["runs"] = std::move(runs);
    out["series"] = std::move(series);
    out["health"] = std::move(health);
    return out;
}

void addTrainingLogToSummary(json &summary, const model::Session &session)
{
    if (!session.trainingLogs.empty())
        summary["training_log"] = trainingLogJson(session);
}

std::size_t loggedPoints(const TrainingRun &run)
{
    std::size_t points = 0;
    for (const model::LogSeries &s : run.log->series)
        if (s.run == run.run && s.kind != model::LogSeriesKind::WallTime)
            points += s.size();
    return points;
}

std::string trainingLogText(const model::Session &session, const HealthRules &rules)
{
    if (session.trainingLogs.empty())
        return {};
    std::ostringstream out;
    out << "\nTraining log\n";
    const std::vector<TrainingRun> all = trainingRuns(session);
    for (const TrainingRun &t : all) {
        const auto [lo, hi] = stepRange(*t.log, t.run);
        out << "  run " << t.index << ": " << t.label << " (" << t.log->producer << "), steps "
            << lo << "–" << hi;
        if (const model::LogSeries *loss = t.log->primaryLoss(t.run)) {
            // From the first finite value to the last: a NaN/inf point (a loss that diverged)
            // is no loss the run started from or ended at.
            const std::size_t bad = loss->nonFiniteCount();
            out << ", " << loss->name << " " << loss->size() << " points";
            if (bad > 0)
                out << " (" << bad << " NaN/inf)";
            const auto finite = [](double v) { return std::isfinite(v); };
            const auto first = std::find_if(loss->values.begin(), loss->values.end(), finite);
            const auto last = std::find_if(loss->values.rbegin(), loss->values.rend(), finite);
            if (first != loss->values.end())
                out << ", " << number(*first).dump() << " → " << number(*last).dump();
        }
        out << '\n';
    }
    out << "\nTraining health\n";
    std::size_t first = 0;
    std::size_t shown = 0;
    for (const auto &log : session.trainingLogs) {
        for (const HealthFinding &f : trainingHealth(*log, rules)) {
            out << "  [" << healthSeverityName(f.severity) << "] run " << all[first + f.run].index
                << ", " << healthKindName(f.kind) << ": " << f.evidence
                << "\n      rule: " << f.rule << '\n';
            ++shown;
        }
        first += log->runs.size();
    }
    if (shown == 0)
        out << "  no finding (rules: docs/metrics.md \"Training health\")\n";
    return out.str();
}

} // namespace stepscope::analysis
