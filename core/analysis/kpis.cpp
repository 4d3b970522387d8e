// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "kpis.h"

#include "analysissummary.h"
#include "util/regularfile.h"
#include "util/saturate.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace stepscope::analysis {

namespace {

/// A positive finite number from a JSON number or numeric string ("7e9").
std::optional<double> positiveNumber(const nlohmann::json &v)
{
    double d = 0;
    if (v.is_number()) {
        d = v.get<double>();
    } else if (v.is_string()) {
        try {
            std::size_t used = 0;
            const std::string s = v.get<std::string>();
            d = std::stod(s, &used);
            if (used != s.size())
                return std::nullopt;
        } catch (const std::exception &) {
            return std::nullopt;
        }
    } else {
        return std::nullopt;
    }
    if (!std::isfinite(d) || d <= 0)
        return std::nullopt;
    return d;
}

/// Linear interpolation between closest ranks (numpy's default percentile).
double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    if (v.size() == 1)
        return v[0];
    const double pos = p * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

Kpi missing(std::string key, std::string unit, std::string reason)
{
    return Kpi {std::move(key), std::nullopt, std::move(unit), std::move(reason)};
}

Kpi value(std::string key, std::string unit, double v)
{
    return Kpi {std::move(key), v, std::move(unit), {}};
}

} // namespace

bool RunConfig::isTransformerLm() const
{
    return modelType == "transformer_lm" || modelType == "transformer" || modelType == "llm";
}

RunConfig parseRunConfig(
    std::string_view jsonText, const std::string &sourceName, model::LoadReport *report)
{
    RunConfig c;
    c.source = sourceName;
    auto warn = [&](const std::string &message) {
        if (report)
            report->add(model::Severity::Warning, sourceName, message);
    };
    // A file that gives nothing at all is an error (compare/summary --config stop on it); a
    // key it cannot use is a warning.
    auto fail = [&](const std::string &message) {
        if (report)
            report->add(model::Severity::Error, sourceName, message);
    };
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(jsonText.begin(), jsonText.end());
    } catch (const nlohmann::json::exception &e) {
        fail(std::string("run config is not valid JSON: ") + e.what());
        return c;
    }
    if (!j.is_object()) {
        fail("run config must be a JSON object");
        return c;
    }
    auto number = [&](const std::string &key, const nlohmann::json &v) -> std::optional<double> {
        auto d = positiveNumber(v);
        if (!d)
            warn("`" + key + "` must be a positive number; ignored");
        return d;
    };
    for (const auto &[key, v] : j.items()) {
        if (key == "parameters" || key == "params") {
            c.parameters = number(key, v);
        } else if (key == "global_batch_size" || key == "global_batch") {
            c.globalBatchSize = number(key, v);
        } else if (key == "sequence_length" || key == "seq_length" || key == "seq_len") {
            c.sequenceLength = number(key, v);
        } else if (key == "peak_flops") {
            c.peakFlops = number(key, v);
        } else if (key == "device_count" || key == "devices") {
            auto d = number(key, v);
            const std::optional<std::int64_t> whole =
                d && std::floor(*d) == *d ? util::int64FromDouble(*d) : std::nullopt;
            if (whole)
                c.deviceCount = *whole;
            else if (d && std::floor(*d) == *d)
                warn("`" + key + "` is beyond int64; ignored");
            else if (d)
                warn("`" + key + "` must be a whole number; ignored");
        } else if (key == "flops_per_token") {
            c.flopsPerToken = number(key, v);
        } else if (key == "flops_per_sample") {
            c.flopsPerSample = number(key, v);
        } else if (key == "bytes_per_parameter") {
            c.bytesPerParameter = number(key, v);
        } else if (key == "precision" || key == "optimizer" || key == "device"
            || key == "model_type") {
            if (!v.is_string()) {
                warn("`" + key + "` must be a string; ignored");
                continue;
            }
            const std::string s = v.get<std::string>();
            if (key == "precision")
                c.precision = util::asciiLower(s);
            else if (key == "optimizer")
                c.optimizer = util::asciiLower(s);
            else if (key == "model_type")
                c.modelType = util::asciiLower(s);
            else
                c.device = s;
        } else if (key == "training") {
            if (v.is_boolean())
                c.training = v.get<bool>();
            else
                warn("`training` must be true or false; ignored");
        } else if (key.substr(0, 1) != "_" && key != "comment") {
            warn("unknown run-config key `" + key + "` ignored");
        }
    }
    return c;
}

RunConfig loadRunConfig(const std::filesystem::path &file, model::LoadReport *report)
{
    std::ifstream in;
    if (!util::openRegular(in, file)) {
        if (report)
            report->add(model::Severity::Error, file.filename().string(),
                "cannot open the run config; KPIs that need it stay empty");
        RunConfig c;
        c.source = file.filename().string();
        return c;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parseRunConfig(text.str(), file.filename().string(), report);
}

std::optional<std::filesystem::path> findRunConfig(const std::filesystem::path &profilePath)
{
    std::error_code ec;
    const auto dir =
        std::filesystem::is_directory(profilePath, ec) ? profilePath : profilePath.parent_path();
    const auto candidate = dir / "stepscope.json";
    if (std::filesystem::is_regular_file(candidate, ec))
        return candidate;
    return std::nullopt;
}

const Kpi *Kpis::find(std::string_view key) const
{
    for (const auto &k : items) {
        if (k.key == key)
            return &k;
    }
    return nullptr;
}

std::string_view headlineThroughputKey(const Kpis &kpis, const Kpis *other)
{
    const auto hasValue = [&](std::string_view key) {
        for (const Kpis *k : {&kpis, other}) {
            const Kpi *kpi = k ? k->find(key) : nullptr;
            if (k && (!kpi || !kpi->value))
                return false;
        }
        return true;
    };
    if (!hasValue("tokens_per_s") && hasValue("samples_per_s"))
        return "samples_per_s";
    return "tokens_per_s";
}

namespace {

const std::string NoSteps = "the profile has no steps with a duration";

/// Step-time totals over all ranks and steps, and the mean step time.
struct StepTotals
{
    std::int64_t totalNs = 0;
    std::int64_t tracedNs = 0; ///< of the steps the device timeline covers
    std::int64_t commNs = 0;
    std::int64_t dataNs = 0;
    std::optional<double> meanUs; ///< none without steps with a duration
};

/// Step time per step number: the slowest rank (the job waits for it). Adds the mean,
/// median and p90 step time. A step number that is warm-up on any rank is left out, unless
/// it is all there is.
StepTotals addStepTimes(Kpis &k, const std::vector<StepBreakdown> &breakdowns)
{
    StepTotals t;
    std::map<std::int64_t, std::int64_t> stepNs;
    std::set<std::int64_t> warmUp;
    for (const auto &b : breakdowns) {
        auto &v = stepNs[b.step];
        v = std::max(v, b.durationNs());
        t.totalNs = util::satAdd(t.totalNs, b.durationNs()); // damaged times: held at the limit
        if (b.warmUp)
            warmUp.insert(b.step);
        if (b.outsideShares() || b.warmUp) // not a measurement of the steady state
            continue;
        t.tracedNs = util::satAdd(t.tracedNs, b.durationNs());
        t.commNs = util::satAdd(t.commNs, b.commExposedNs);
        t.dataNs = util::satAdd(t.dataNs, b.dataLoadingNs);
    }
    if (warmUp.size() < stepNs.size())
        for (const std::int64_t step : warmUp)
            stepNs.erase(step);
    std::vector<double> us;
    us.reserve(stepNs.size());
    for (const auto &[step, ns] : stepNs)
        us.push_back(static_cast<double>(ns) / 1000.0);
    if (!us.empty() && t.totalNs > 0) {
        double sum = 0;
        for (double u : us)
            sum += u;
        t.meanUs = sum / static_cast<double>(us.size());
        k.items.push_back(value("step_time_mean_us", "us", *t.meanUs));
        k.items.push_back(value("step_time_median_us", "us", percentile(us, 0.5)));
        k.items.push_back(value("step_time_p90_us", "us", percentile(us, 0.9)));
    } else {
        k.items.push_back(missing("step_time_mean_us", "us", NoSteps));
        k.items.push_back(missing("step_time_median_us", "us", NoSteps));
        k.items.push_back(missing("step_time_p90_us", "us", NoSteps));
    }
    return t;
}

/// Throughput: samples/s and tokens/s from the run config's batch and sequence length.
/// Returns the tokens per step when both are set.
std::optional<double> addThroughput(
    Kpis &k, const RunConfig &config, const std::optional<double> &meanUs)
{
    const double stepS = meanUs ? *meanUs / 1e6 : 0;
    if (!meanUs)
        k.items.push_back(missing("samples_per_s", "samples/s", NoSteps));
    else if (!config.globalBatchSize)
        k.items.push_back(missing(
            "samples_per_s", "samples/s", "global_batch_size is not set in the run config"));
    else
        k.items.push_back(value("samples_per_s", "samples/s", *config.globalBatchSize / stepS));
    std::optional<double> tokensPerStep;
    if (config.globalBatchSize && config.sequenceLength)
        tokensPerStep = *config.globalBatchSize * *config.sequenceLength;
    if (!meanUs)
        k.items.push_back(missing("tokens_per_s", "tokens/s", NoSteps));
    else if (!config.globalBatchSize)
        k.items.push_back(
            missing("tokens_per_s", "tokens/s", "global_batch_size is not set in the run config"));
    else if (!config.sequenceLength)
        k.items.push_back(
            missing("tokens_per_s", "tokens/s", "sequence_length is not set in the run config"));
    else
        k.items.push_back(value("tokens_per_s", "tokens/s", *tokensPerStep / stepS));
    return tokensPerStep;
}

/// MFU inputs: the device and its peak (run config, else the built-in table), the device
/// count (run config, else the world size). Sets k.device, k.peakFlopsPerDevice,
/// k.peakSource, k.deviceCount; returns why there is no peak when there is none.
std::string findMfuInputs(Kpis &k, const model::Session &session, const RunConfig &config)
{
    std::string device = config.device;
    if (device.empty()) {
        for (const auto &t : session.traces) {
            if (!t->metadata.device.empty()) {
                device = t->metadata.device;
                break;
            }
        }
    }
    k.device = device;
    std::string peakReason;
    if (config.peakFlops) {
        k.peakFlopsPerDevice = config.peakFlops;
        k.peakSource = "run config";
    } else if (device.empty()) {
        peakReason =
            "the profile does not name the device; set peak_flops or device in the run config";
    } else if (const auto *e = lookupPeakFlops(device, config.precision)) {
        k.peakFlopsPerDevice = e->flops;
        k.peakSource = std::string(e->source);
    } else {
        peakReason = "no built-in peak for device \"" + device + "\""
            + (config.precision.empty() ? std::string() : " at " + config.precision)
            + "; set peak_flops in the run config";
    }
    if (config.deviceCount) {
        k.deviceCount = config.deviceCount;
    } else {
        std::int64_t world = 0;
        for (const auto &t : session.traces)
            world = std::max<std::int64_t>(world, t->metadata.worldSize);
        if (world > 0)
            k.deviceCount = world;
    }
    return peakReason;
}

/// Model FLOPs of one step from the run config, or why they are unknown: flops_per_sample ×
/// batch (any model), flops_per_token × tokens, or the 6·N·tokens rule (2·N inference), which
/// holds only for transformer language models and is not applied to anything else.
std::optional<double> modelFlopsPerStep(
    const RunConfig &config, const std::optional<double> &tokensPerStep, std::string *reason)
{
    const std::string noBatch = "global_batch_size is not set in the run config";
    if (config.flopsPerSample) {
        if (!config.globalBatchSize) {
            *reason = noBatch;
            return std::nullopt;
        }
        return *config.flopsPerSample * *config.globalBatchSize;
    }
    std::optional<double> flopsPerToken = config.flopsPerToken;
    if (!flopsPerToken && config.parameters && config.isTransformerLm())
        flopsPerToken = (config.training ? 6.0 : 2.0) * *config.parameters;
    if (!flopsPerToken) {
        *reason = config.parameters
            ? "MFU from 6 × parameters × tokens holds only for transformer language models: "
              "set model_type to \"transformer_lm\" if it is one, else flops_per_sample in the "
              "run config"
            : "flops_per_sample (or parameters with model_type \"transformer_lm\") is not set "
              "in the run config";
        return std::nullopt;
    }
    if (!config.globalBatchSize)
        *reason = noBatch;
    else if (!config.sequenceLength)
        *reason = "sequence_length is not set in the run config";
    if (!tokensPerStep)
        return std::nullopt;
    return *flopsPerToken * *tokensPerStep;
}

/// MFU = model FLOPs per step / (step time x peak x devices), or why it is missing.
void addMfu(Kpis &k, const RunConfig &config, const std::optional<double> &meanUs,
    const std::optional<double> &tokensPerStep, const std::string &peakReason)
{
    std::string flopsReason;
    const std::optional<double> flopsPerStep =
        modelFlopsPerStep(config, tokensPerStep, &flopsReason);
    if (!meanUs)
        k.items.push_back(missing("mfu", "fraction", NoSteps));
    else if (!flopsPerStep)
        k.items.push_back(missing("mfu", "fraction", flopsReason));
    else if (!k.peakFlopsPerDevice)
        k.items.push_back(missing("mfu", "fraction", peakReason));
    else if (!k.deviceCount)
        k.items.push_back(missing("mfu", "fraction",
            "device_count is not set in the run config and the profile does "
            "not give the world size"));
    else
        k.items.push_back(value("mfu", "fraction",
            *flopsPerStep
                / (*meanUs / 1e6 * *k.peakFlopsPerDevice * static_cast<double>(*k.deviceCount))));
}

/// Shares of step time over all ranks and the steps the device timeline covers.
void addShares(Kpis &k, const StepTotals &t)
{
    if (t.tracedNs > 0) {
        k.items.push_back(value("comm_share", "fraction",
            static_cast<double>(t.commNs) / static_cast<double>(t.tracedNs)));
        k.items.push_back(value("data_wait_share", "fraction",
            static_cast<double>(t.dataNs) / static_cast<double>(t.tracedNs)));
    } else {
        const std::string why = t.totalNs > 0 ? "no step lies on the device timeline" : NoSteps;
        k.items.push_back(missing("comm_share", "fraction", why));
        k.items.push_back(missing("data_wait_share", "fraction", why));
    }
}

/// Memory peaks: the allocator curves (the whole-process "APP" curve only counts for
/// reserved memory when no allocator curve has reserved figures).
void addMemoryPeaks(Kpis &k, const model::Session &session)
{
    std::optional<std::int64_t> peakAlloc;
    std::optional<std::int64_t> peakReserved;
    std::optional<std::int64_t> peakReservedApp;
    for (const auto &t : session.traces) {
        for (const auto &c : t->memory.curves) {
            for (auto v : c.allocatedBytes) {
                if (v >= 0)
                    peakAlloc = std::max(peakAlloc.value_or(0), v);
            }
            for (auto v : c.reservedBytes) {
                if (v < 0)
                    continue;
                if (c.component == "APP")
                    peakReservedApp = std::max(peakReservedApp.value_or(0), v);
                else
                    peakReserved = std::max(peakReserved.value_or(0), v);
            }
        }
        if (!peakAlloc && !t->memory.categories.timestampsNs.empty()) {
            const auto &cats = t->memory.categories;
            for (std::size_t i = 0; i < cats.timestampsNs.size(); ++i) {
                std::int64_t sum = 0;
                for (const auto &series : cats.bytes)
                    sum += series[i];
                peakAlloc = std::max(peakAlloc.value_or(0), sum);
            }
        }
    }
    if (!peakReserved)
        peakReserved = peakReservedApp;
    const std::string noMemory = "the profile has no memory data (profile_memory off)";
    if (peakAlloc)
        k.items.push_back(
            value("memory_peak_allocated_bytes", "bytes", static_cast<double>(*peakAlloc)));
    else
        k.items.push_back(missing("memory_peak_allocated_bytes", "bytes", noMemory));
    if (peakReserved)
        k.items.push_back(
            value("memory_peak_reserved_bytes", "bytes", static_cast<double>(*peakReserved)));
    else
        k.items.push_back(missing("memory_peak_reserved_bytes", "bytes",
            peakAlloc ? "the profile records no reserved memory" : noMemory));
}

} // namespace

Kpis computeKpis(const model::Session &session, const RunConfig &config)
{
    return analyzeSession(session, config).kpis;
}

Kpis computeKpis(const model::Session &session, const RunConfig &config,
    const std::vector<StepBreakdown> &breakdowns)
{
    Kpis k;
    const StepTotals totals = addStepTimes(k, breakdowns);
    const std::optional<double> tokensPerStep = addThroughput(k, config, totals.meanUs);
    const std::string peakReason = findMfuInputs(k, session, config);
    addMfu(k, config, totals.meanUs, tokensPerStep, peakReason);
    addShares(k, totals);
    addMemoryPeaks(k, session);
    return k;
}

} // namespace stepscope::analysis
