// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "breakdown.h"
#include "model/loadreport.h"
#include "model/session.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::analysis {

/// What the profile does not say about the run, from `stepscope.json` beside the profile,
/// `--config FILE`, or the GUI's run-config dialog. Schema (JSON object, every key optional,
/// unknown keys ignored with a diagnostic) in docs/metrics.md "Run config":
/// `parameters`, `global_batch_size`, `sequence_length`, `peak_flops` (per device, FLOP/s),
/// `device_count`, `precision` ("fp32", "tf32", "bf16", "fp16", "fp8", "int8"), `optimizer`
/// ("adam", "adamw", "sgd", ...), `flops_per_token`, `training` (bool, default true),
/// `device` (name used to look up the peak), `bytes_per_parameter` (memory estimate),
/// `model_type` ("transformer_lm" allows the 6 × parameters × tokens rule), `flops_per_sample`.
struct RunConfig
{
    std::optional<double> parameters;
    std::optional<double> globalBatchSize; ///< samples per step, whole job
    std::optional<double> sequenceLength; ///< tokens per sample
    std::optional<double> peakFlops; ///< per device, FLOP/s; overrides the table
    std::optional<std::int64_t> deviceCount;
    std::string precision; ///< lower case; empty = unknown
    std::string optimizer; ///< lower case; empty = unknown
    /// Given, or 6 × parameters (training) / 2 × (inference) for a transformer language model
    /// only: the rule counts the matrix products of a transformer, not a CNN's convolutions.
    std::optional<double> flopsPerToken;
    /// Model FLOPs of one sample (forward and backward when training); any model.
    std::optional<double> flopsPerSample;
    /// "transformer_lm" (aliases "transformer", "llm"), "cnn", "other", ...; lower case,
    /// empty = not said. Only "transformer_lm" derives MFU from the parameter count.
    std::string modelType;
    bool training = true;
    std::string device; ///< overrides the device name of the trace for the peak lookup
    std::optional<double> bytesPerParameter; ///< overrides the optimizer/precision default
    std::string source; ///< where it was read from ("" = defaults / GUI)

    /// The run config says the model is a transformer language model.
    bool isTransformerLm() const;
};

/// Parses a run config from JSON text. Bad values become diagnostics (file = `sourceName`)
/// and are left unset; never throws.
RunConfig parseRunConfig(
    std::string_view jsonText, const std::string &sourceName, model::LoadReport *report);
/// Reads `file`; a missing or unreadable file gives a default config and a diagnostic.
RunConfig loadRunConfig(const std::filesystem::path &file, model::LoadReport *report);
/// `stepscope.json` beside the profile: in the folder itself when `profilePath` is a folder,
/// else in the file's folder. Empty when there is none.
std::optional<std::filesystem::path> findRunConfig(const std::filesystem::path &profilePath);

/// One row of the built-in peak table: dense (no sparsity) peak per device.
struct PeakFlopsEntry
{
    std::string_view device; ///< display name, e.g. "NVIDIA A100 SXM"
    std::string_view pattern; ///< lower-case substrings, '|' separated, all must occur
    std::string_view precision; ///< "fp32", "tf32", "bf16", "fp16", "fp8", "int8"
    double flops = 0; ///< FLOP/s
    std::string_view source; ///< public source (vendor datasheet / whitepaper name)
};
const std::vector<PeakFlopsEntry> &peakFlopsTable();
/// The entry for a device name as a trace writes it ("NVIDIA A100-SXM4-80GB",
/// "Ascend910B2", "AMD Instinct MI300X") and a precision (empty → bf16, the usual
/// mixed-precision training type). nullptr when unknown.
const PeakFlopsEntry *lookupPeakFlops(std::string_view deviceName, std::string_view precision);

/// One headline number. value empty ⇒ missingReason says which input is missing.
struct Kpi
{
    std::string key; ///< stable key (docs/metrics.md): "step_time_mean_us", "mfu", ...
    std::optional<double> value;
    std::string unit; ///< "us", "samples/s", "tokens/s", "fraction", "bytes"
    std::string missingReason;
};

/// The KPI strip. Keys in order: step_time_mean_us, step_time_median_us, step_time_p90_us,
/// samples_per_s, tokens_per_s, mfu, comm_share, data_wait_share,
/// memory_peak_allocated_bytes, memory_peak_reserved_bytes.
struct Kpis
{
    std::vector<Kpi> items;
    std::string device; ///< device the peak was chosen for ("" if unknown)
    std::string peakSource; ///< "run config" or the table entry's source
    std::optional<double> peakFlopsPerDevice;
    std::optional<std::int64_t> deviceCount; ///< from the config, else ranks in the session

    const Kpi *find(std::string_view key) const;
};

/// The throughput a one-line view heads with: "tokens_per_s", else "samples_per_s" when the
/// run config gives a batch but no sequence length (a CNN). With `other` (compare), the one
/// both sessions have a value for, so the two sides show the same KPI.
std::string_view headlineThroughputKey(const Kpis &kpis, const Kpis *other = nullptr);

/// KPIs of a session. Step times are per step (the slowest rank's step when several ranks
/// have the same step number: the job waits for it). Never invents a number: a KPI whose
/// input is missing has no value and says why. These are analyzeSession(session,
/// config).kpis: the one breakdown pass of the session's analysis, not a pass of its own.
Kpis computeKpis(const model::Session &session, const RunConfig &config);
/// Same, from breakdowns already computed (all ranks; SessionAnalysis::breakdowns).
Kpis computeKpis(const model::Session &session, const RunConfig &config,
    const std::vector<StepBreakdown> &breakdowns);

} // namespace stepscope::analysis
