// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// JSON and Markdown of the training-log comparison (compare --json, --markdown).
#include "compareoutput.h"
#include "convergence.h"
#include "units.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <set>
#include <sstream>

namespace stepscope::analysis {

namespace {

using nlohmann::json;

json opt(const std::optional<double> &v)
{
    return v ? json(*v) : json();
}

std::string cell(const std::optional<double> &v, const char *format = "%.4g")
{
    if (!v)
        return "—";
    char buf[48];
    std::snprintf(buf, sizeof buf, format, *v);
    return buf;
}

/// A row's value as the report's tables write it ("16618", not "1.662e+04").
std::string value(const std::optional<double> &v)
{
    return v ? formatShort(*v) : "—";
}

} // namespace

json convergenceJson(const Convergence &c)
{
    json j;
    j["metric"] = c.metric;
    j["before"] = c.beforeLabel;
    j["after"] = c.afterLabel;
    j["common_steps"] = c.commonSteps;
    j["finite_common_steps"] = c.finiteCommonSteps;
    j["max_rel_delta"] = opt(c.maxRelDelta);
    j["max_rel_delta_step"] = c.maxRelDelta ? json(c.maxRelDeltaStep) : json();
    j["max_rel_delta_raw"] = opt(c.maxRelDeltaRaw);
    j["first_step_outside"] = c.firstStepOutside ? json(*c.firstStepOutside) : json();
    j["tolerance"] = c.tolerance;
    j["verdict"] = std::string(convergenceVerdictName(c.verdict));
    j["reason"] = c.reason;
    return j;
}

json trainingDeltasJson(const std::vector<TrainingDelta> &rows)
{
    json out = json::array();
    for (const TrainingDelta &r : rows) {
        out.push_back(
            {{"key", r.key}, {"label", r.label}, {"unit", r.unit}, {"statistic", r.statistic},
                {"before", opt(r.before)}, {"after", opt(r.after)}, {"delta", opt(r.delta)},
                {"percent", opt(r.percent)}, {"verdict", std::string(verdictName(r.verdict))}});
    }
    return out;
}

void addTrainingToCompareJson(json &out, const TrainingComparison &c)
{
    if (!c.hasLogs)
        return;
    out["convergence"] = convergenceJson(c.convergence);
    out["training"] = trainingDeltasJson(c.rows);
}

void profileRegressions(const json &compare, const TrainingThresholds &t,
    std::vector<std::string> &out, std::set<std::string> *failedKeys)
{
    struct Rule
    {
        const char *key;
        double limit;
        double sign; ///< +1: an increase is worse
    };
    // The keys of compare --json's rows. The memory rule once named a key no row has
    // ("memory.peak_allocated"), so the gate never failed on memory.
    const Rule rules[] = {{"step_time_median_us", t.stepTime, 1},
        {"samples_per_s", t.throughput, -1}, {"tokens_per_s", t.throughput, -1},
        {"mfu", t.throughput, -1}, {"memory_peak_allocated_bytes", t.memory, 1}};
    std::set<std::string> failed;
    // A side whose one step is its whole capture: step time and what is computed from it
    // (throughput, MFU) are the capture's; compare says so (step_notes) and they are not gated.
    const bool stepTimes =
        !compare.contains("step_times_comparable") || compare["step_times_comparable"] != false;
    for (const char *table : {"kpis", "memory"}) {
        if (!compare.contains(table) || !compare[table].is_array())
            continue;
        for (const json &row : compare[table]) {
            if (!row.is_object() || !row.contains("key") || !row["key"].is_string()
                || !row.contains("percent") || !row["percent"].is_number())
                continue;
            const std::string key = row["key"].get<std::string>();
            const double percent = row["percent"].get<double>();
            for (const Rule &r : rules) {
                if (!stepTimes && std::string_view(r.key) != "memory_peak_allocated_bytes")
                    continue;
                // The peak is a row of both tables: one failure.
                if (key == r.key && r.sign * percent / 100 > r.limit && failed.insert(key).second)
                    out.push_back("profile " + key + " " + cell(percent, "%+.1f") + " % (limit "
                        + cell(r.limit * 100, "%.3g") + " %)");
            }
        }
    }
    if (failedKeys)
        failedKeys->insert(failed.begin(), failed.end());
}

std::vector<std::pair<std::string, std::string>> regressedNotFailed(
    const std::vector<DeltaRow> &profileRows, const std::vector<TrainingDelta> &trainingRows,
    const std::set<std::string> &failedKeys)
{
    std::vector<std::pair<std::string, std::string>> out;
    for (const DeltaRow &r : profileRows)
        if (r.verdict == Verdict::Regressed && failedKeys.count(r.key) == 0)
            out.emplace_back(r.key, rowTitle(r)); // as the table names it
    for (const TrainingDelta &r : trainingRows)
        if (r.verdict == Verdict::Regressed && failedKeys.count(r.key) == 0)
            out.emplace_back(r.key, r.label);
    return out;
}

std::string trainingMarkdown(const TrainingComparison &c)
{
    if (!c.hasLogs)
        return {};
    const Convergence &v = c.convergence;
    std::ostringstream md;
    md << "### Training logs\n\n";
    md << "**Convergence: " << convergenceVerdictName(v.verdict) << "** — " << v.metric << ", "
       << commonStepsText(v.commonSteps, v.finiteCommonSteps) << ", max relative difference "
       << cell(
              v.maxRelDelta ? std::optional<double>(*v.maxRelDelta * 100) : std::nullopt, "%.3g %%")
       << " (tolerance " << cell(v.tolerance * 100, "%.3g %%") << ")";
    if (v.firstStepOutside)
        md << ", first outside at step " << *v.firstStepOutside;
    md << ".\n\n" << v.reason << "\n\n";
    md << "Before: `" << v.beforeLabel << "`, after: `" << v.afterLabel << "`\n\n";
    if (!c.rows.empty()) {
        md << "| metric | statistic | before | after | Δ % | verdict |\n";
        md << "|---|---|---:|---:|---:|---|\n";
        for (const TrainingDelta &r : c.rows) {
            // "elapsed time per iteration (ms)" names its unit already: never "(ms) (ms)".
            const std::string unitTag = " (" + r.unit + ")";
            const bool named = r.unit.empty()
                || (r.label.size() >= unitTag.size()
                    && r.label.compare(r.label.size() - unitTag.size(), unitTag.size(), unitTag)
                        == 0);
            md << "| " << r.label << (named ? std::string() : unitTag) << " | " << r.statistic
               << " | " << value(r.before) << " | " << value(r.after) << " | "
               << cell(r.percent, "%+.1f") << " | " << verdictName(r.verdict) << " |\n";
        }
        md << '\n';
    }
    return md.str();
}

} // namespace stepscope::analysis
