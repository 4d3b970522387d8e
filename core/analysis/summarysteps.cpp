// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "summarysteps.h"

#include "units.h"
#include "util/jsontext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>

namespace stepscope::analysis {

namespace {

/// A step's rank and number; `valid` false for an object without both as integers.
struct StepKey
{
    bool valid = false;
    std::int64_t rank = 0;
    std::int64_t step = 0;

    bool operator<(const StepKey &o) const
    {
        return std::tie(rank, step) < std::tie(o.rank, o.step);
    }
};

StepKey keyOfObject(const nlohmann::json &s)
{
    if (!s.is_object())
        return {};
    const auto rank = s.find("rank");
    auto number = s.find("step");
    if (number == s.end())
        number = s.find("number");
    if (rank == s.end() || number == s.end() || !rank->is_number_integer()
        || !number->is_number_integer())
        return {};
    return {true, rank->get<std::int64_t>(), number->get<std::int64_t>()};
}

/// The merge of mergeSteps, one object at a time: `count` importer steps, the i-th read by
/// `importerStep(i)` (twice: once for its key), each given to `emit` with its breakdowns
/// merged in, then the breakdowns no importer step matched. Sorted indexes instead of maps:
/// the 200 000 steps of a 10 000-rank cluster cost a few MB.
void mergeEach(std::size_t count, const std::function<nlohmann::json(std::size_t)> &importerStep,
    const std::vector<StepBreakdown> &breakdowns,
    const std::function<void(nlohmann::json &&)> &emit)
{
    using Keyed = std::pair<StepKey, std::size_t>; // a key and the index of its step
    const auto byKey = [](const Keyed &a, const Keyed &b) { return a.first < b.first; };
    // Both lists by key, each key's steps in their order: the first importer step of a key
    // takes all of the key's breakdowns.
    std::vector<Keyed> importer;
    for (std::size_t i = 0; i < count; ++i)
        if (const StepKey k = keyOfObject(importerStep(i)); k.valid)
            importer.emplace_back(k, i);
    std::stable_sort(importer.begin(), importer.end(), byKey);
    std::vector<Keyed> analysed;
    analysed.reserve(breakdowns.size());
    for (std::size_t b = 0; b < breakdowns.size(); ++b)
        analysed.emplace_back(StepKey {true, breakdowns[b].rank, breakdowns[b].step}, b);
    std::stable_sort(analysed.begin(), analysed.end(), byKey);
    const auto firstImporterOf = [&](const StepKey &k) {
        const auto it = std::lower_bound(importer.begin(), importer.end(), Keyed {k, 0}, byKey);
        return it != importer.end() && !(k < it->first) ? it->second : count;
    };

    for (std::size_t i = 0; i < count; ++i) {
        nlohmann::json s = importerStep(i);
        const StepKey k = keyOfObject(s);
        if (k.valid && firstImporterOf(k) == i) {
            const auto [from, to] =
                std::equal_range(analysed.begin(), analysed.end(), Keyed {k, 0}, byKey);
            for (auto b = from; b != to; ++b) {
                const nlohmann::json add = stepJson(breakdowns[b->second]);
                for (auto e = add.begin(); e != add.end(); ++e)
                    s[e.key()] = e.value();
            }
            if (from == to)
                s["left_out"] = true;
        }
        emit(std::move(s));
    }
    for (std::size_t b = 0; b < breakdowns.size(); ++b)
        if (firstImporterOf(StepKey {true, breakdowns[b].rank, breakdowns[b].step}) == count)
            emit(stepJson(breakdowns[b]));
}

/// `text` with each line after the first indented by `indent` more spaces.
void writeIndented(std::ostream &out, const std::string &text, const std::string &indent)
{
    std::size_t from = 0;
    for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
        out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
        out << indent;
        from = nl + 1;
    }
    out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

} // namespace

nlohmann::json stepJson(const StepBreakdown &b)
{
    nlohmann::json j;
    j["rank"] = b.rank;
    j["step"] = b.step;
    j["start_us"] = b.startMeasured ? nlohmann::json(nsToUs(b.startNs)) : nlohmann::json(nullptr);
    j["duration_us"] = nsToUs(b.durationNs());
    if (b.warmUp)
        j["warm_up"] = true;
    j["compute_us"] = nsToUs(b.computeNs);
    j["comm_exposed_us"] = nsToUs(b.commExposedNs);
    j["comm_overlapped_us"] = nsToUs(b.commOverlappedNs);
    j["free_us"] = nsToUs(b.freeNs);
    const auto part = [&b](std::int64_t ns) {
        return b.freePartsKnown() ? nlohmann::json(nsToUs(ns)) : nlohmann::json(nullptr);
    };
    j["host_wait_us"] = part(b.hostWaitNs);
    j["data_loading_us"] = part(b.dataLoadingNs);
    j["launch_gap_us"] = part(b.launchGapNs);
    j["other_idle_us"] = part(b.otherIdleNs);
    j["bubble_us"] = nsToUs(b.bubbleNs);
    j["preparing_us"] = nsToUs(b.preparingNs);
    j["basis"] = b.basis == BreakdownBasis::ProfilerTable ? "profiler_table" : "timeline";
    if (b.untraced)
        j["untraced"] = true;
    if (b.partlyTraced)
        j["partly_traced"] = true;
    if (b.stageNs >= 0)
        j["stage_us"] = nsToUs(b.stageNs);
    if (b.reference) {
        nlohmann::json r;
        r["source"] = b.reference->source;
        r["within_1_percent"] = b.reference->withinTolerance;
        nlohmann::json cats = nlohmann::json::array();
        for (const auto &c : b.reference->categories) {
            cats.push_back({{"key", c.key}, {"column", c.column}, {"reference_us", c.referenceUs},
                {"ours_us", c.oursUs}, {"difference_us", c.differenceUs},
                {"relative_difference", c.relativeDifference}});
        }
        r["categories"] = cats;
        j["reference"] = r;
    }
    if (b.tbBreakdown) {
        const auto &t = *b.tbBreakdown;
        j["tb_breakdown_us"] = {{"start_us", nsToUs(t.startNs)},
            {"duration_us", nsToUs(t.endNs - t.startNs)}, {"kernel", nsToUs(t.kernelNs)},
            {"memcpy", nsToUs(t.memcpyNs)}, {"memset", nsToUs(t.memsetNs)},
            {"communication", nsToUs(t.communicationNs)}, {"runtime", nsToUs(t.runtimeNs)},
            {"dataloader", nsToUs(t.dataLoaderNs)}, {"cpu_exec", nsToUs(t.cpuExecNs)},
            {"other", nsToUs(t.otherNs)}};
    }
    return j;
}

void mergeSteps(nlohmann::json &summary, const std::vector<StepBreakdown> &breakdowns)
{
    const char *key = "steps";
    if (summary.contains(key) && !summary[key].is_array())
        key = "step_breakdown";
    nlohmann::json importer = std::move(summary[key]);
    if (!importer.is_array())
        importer = nlohmann::json::array();
    nlohmann::json steps = nlohmann::json::array();
    mergeEach(
        importer.size(), [&](std::size_t i) { return importer[i]; }, breakdowns,
        [&](nlohmann::json &&s) { steps.push_back(std::move(s)); });
    summary[key] = std::move(steps);
}

void writeSummaryJson(std::ostream &out, const nlohmann::json &summary, std::size_t importerSteps,
    const std::function<nlohmann::json(std::size_t)> &importerStep,
    const std::vector<StepBreakdown> &breakdowns)
{
    const auto writeSteps = [&] {
        out << "\"steps\": [";
        bool any = false;
        mergeEach(importerSteps, importerStep, breakdowns, [&](nlohmann::json &&s) {
            out << (any ? ",\n    " : "\n    ");
            writeIndented(out, util::jsonText(s, 2), "    ");
            any = true;
        });
        out << (any ? "\n  ]" : "]");
    };
    // nlohmann's objects keep their keys sorted: "steps" goes before the first greater key.
    out << '{';
    bool first = true;
    bool stepsWritten = false;
    const auto separate = [&] {
        out << (first ? "\n  " : ",\n  ");
        first = false;
    };
    for (auto it = summary.begin(); it != summary.end(); ++it) {
        if (it.key() == "steps")
            continue;
        if (!stepsWritten && it.key() > "steps") {
            separate();
            writeSteps();
            stepsWritten = true;
        }
        separate();
        out << util::jsonText(nlohmann::json(it.key())) << ": ";
        writeIndented(out, util::jsonText(it.value(), 2), "  ");
    }
    if (!stepsWritten) {
        separate();
        writeSteps();
    }
    out << "\n}";
}

} // namespace stepscope::analysis
