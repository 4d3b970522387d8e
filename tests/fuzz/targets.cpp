// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The fuzz targets: one per reader (docs/robustness.md lists them with their longest run).
#include "targets.h"

#include <deque>
#include <string>

namespace stepscope::fuzz {

namespace {

constexpr const char *Rank = "r0_ascend_pt/ASCEND_PROFILER_OUTPUT/";
constexpr const char *AscendSeeds = "ascend_pt/*/*/ASCEND_PROFILER_OUTPUT/";
constexpr const char *AscendDbSeeds = "ascend_db/*/*/ASCEND_PROFILER_OUTPUT/";
constexpr const char *Prof = "PROF_000001_20230818142704322_FUZZ/device_0/";

std::string cat(const char *a, const char *b)
{
    return std::string(a) + b;
}

std::vector<Target> build()
{
    // Strings built once and kept alive for the process (Target holds const char *); a
    // deque never moves its elements.
    static std::deque<std::string> keep;
    auto s = [](std::string v) { return keep.emplace_back(std::move(v)).c_str(); };
    auto ascend = [&](const char *name, const char *file) {
        return Target {name, Mode::Folder, s(cat(Rank, file)), s(cat(AscendSeeds, file))};
    };
    auto cluster = [&](const char *name, const char *file) {
        return Target {name, Mode::Folder, s(cat("cluster_analysis_output/", file)),
            s(cat("ascend_pt/*/cluster_analysis_output/", file)),
            s(cat(Rank, "kernel_details.csv"))};
    };
    auto legacy = [&](const char *name, const char *file, const char *seeds,
                      const char *companion = "framework_raw_0.csv") {
        return Target {name, Mode::Folder, file, s(cat("mindspore_legacy/*/", seeds)), companion};
    };
    auto log = [&](const char *name, const char *file, const char *seeds) {
        return Target {name, Mode::TrainingLog, file, seeds};
    };
    return {
        // Chrome trace (Kineto dialect): plain and gzip (the harness compresses the input).
        {"kineto_json", Mode::Folder, "w0.1.pt.trace.json",
            "kineto/*/*.json.gz|kineto/*/*/*.json.gz"},
        {"kineto_gzip", Mode::FolderGzip, "w0.1.pt.trace.json.gz",
            "kineto/*/*.json.gz|kineto/*/*/*.json.gz"},
        {"kineto_ranges", Mode::FolderRanges, "w0.1.pt.trace.json",
            "kineto/*/*.json.gz|kineto/*/*/*.json.gz"},
        // Ascend rank folder: the Chrome-array trace, each CSV family, each small JSON.
        ascend("ascend_trace_view", "trace_view.json"),
        ascend("ascend_kernel_details", "kernel_details.csv"),
        ascend("ascend_step_trace_time", "step_trace_time.csv"),
        ascend("ascend_op_statistic", "op_statistic.csv"),
        ascend("ascend_memory_record", "memory_record.csv"),
        ascend("ascend_operator_memory", "operator_memory.csv"),
        ascend("ascend_npu_module_mem", "npu_module_mem.csv"),
        ascend("ascend_static_op_mem", "static_op_mem.csv"),
        ascend("ascend_communication", "communication.json"),
        ascend("ascend_communication_matrix", "communication_matrix.json"),
        {"ascend_profiler_info", Mode::Folder, "r0_ascend_pt/profiler_info_0.json",
            "ascend_pt/*/*/profiler_info_*.json", s(cat(Rank, "kernel_details.csv"))},
        {"ascend_profiler_metadata", Mode::Folder, "r0_ascend_pt/profiler_metadata.json",
            "ascend_pt/*/*/profiler_metadata.json", s(cat(Rank, "kernel_details.csv"))},
        // Ascend cluster_analysis_output.
        cluster("cluster_step_trace_time", "cluster_step_trace_time.csv"),
        cluster("cluster_communication", "cluster_communication.json"),
        cluster("cluster_communication_matrix", "cluster_communication_matrix.json"),
        cluster("cluster_communication_group", "communication_group.json"),
        // MindSpore legacy files.
        legacy("legacy_step_trace_raw", "step_trace_raw_0_detail_time.csv",
            "step_trace_raw_*_detail_time.csv", nullptr),
        legacy("legacy_timeline_display", "ascend_timeline_display_0.json",
            "*timeline_display_*.json", nullptr),
        legacy("legacy_output_timeline", "output_timeline_data_0.txt", "output_timeline_data_*.txt",
            nullptr),
        legacy("legacy_min_cycle_counter", "min_cycle_counter_0.txt", "min_cycle_counter_*.txt",
            "output_timeline_data_0.txt"),
        legacy("legacy_hccl_raw", "hccl_raw_0.csv", "hccl_raw_*.csv", nullptr),
        legacy("legacy_cluster_analyse", "ascend_cluster_analyse_pipeline-parallel_2_4_0.csv",
            "ascend_cluster_analyse_*.csv"),
        legacy("legacy_flops_summary", "flops_summary_0.json", "flops_summary_*.json"),
        legacy("legacy_minddata_pipeline", "minddata_pipeline_raw_0.csv",
            "minddata_pipeline_raw_*.csv", nullptr),
        // CANN PROF_*/device_N timelines (Chrome trace, PROF dialect) and the device info.
        {"cann_msprof_timeline", Mode::Folder, s(cat(Prof, "timeline/msprof_0_1_1.json")),
            "mindspore_legacy/*/PROF_*/device_*/timeline/msprof_*.json"},
        // SQLite exports (seeds: the samples cut to -max_len, i.e. truncated databases, plus
        // the same databases shrunk below it by make_db_seeds.py, so that mutations reach the
        // row readers). The Ascend DB in its rank folder, its analysis.db, an nsys export.
        {"ascend_db", Mode::Folder, s(cat(Rank, "ascend_pytorch_profiler_0.db")),
            s(cat(AscendDbSeeds, "ascend_pytorch_profiler_*.db"))},
        {"ascend_analysis_db", Mode::Folder, s(cat(Rank, "analysis.db")),
            s(cat(AscendDbSeeds, "analysis.db"))},
        {"nsys_sqlite", Mode::Folder, "report.sqlite", "nsys_sqlite/*/*.sqlite"},
        // PyTorch memory-timeline exports.
        {"torch_memory_timeline", Mode::Folder, "memory_timeline.raw.json",
            "torch_memory/*/*.raw.gz|torch_memory/*/*.json*"},
        // Training logs, every format of docs/formats.md §10 (the reader detects by content).
        log("log_hf_trainer_state", "trainer_state.json", "loss_logs/*/*/trainer_state.json"),
        log("log_megatron_golden", "golden_values.json",
            "loss_logs/megatron-golden-values/*/*/*.json"),
        log("log_trainer_jsonl", "trainer_log.jsonl", "loss_logs/*/trainer_log.jsonl"),
        log("log_metrics_csv", "metrics.csv", "loss_logs/*/*/*/metrics.csv"),
        log("log_megatron_console", "train.txt",
            "loss_logs/mindspeed-megatron-det-vs-nondet/*/*.txt"),
        log("log_deepspeed", "train.log",
            "loss_logs/deepspeed-*/*.log|loss_logs/deepspeed-*/*/*/*.log"),
        log("log_mindformers", "worker_0.log", "loss_logs/mindformers-*/*/worker_0.log"),
        log("log_torchtitan", "train_titan.log", ""), // seeds: tests/fuzz/seeds/log_torchtitan
        log("log_mindspore_lossmonitor", "loss.log",
            "loss_logs/mindspore-lossmonitor-xidian/*/*.log|loss_logs/mindspore-lossmonitor-xidian/"
            "*/*/*.log|loss_logs/mindspore-lossmonitor-xidian/*/*.txt"),
    };
}

} // namespace

const std::vector<Target> &targets()
{
    static const std::vector<Target> all = build();
    return all;
}

} // namespace stepscope::fuzz
