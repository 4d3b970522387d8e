// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
//
// Built-in dense peak throughput per device and precision (no 2:4 sparsity: MFU uses dense
// peaks). Each figure cites the public document it comes from. Patterns are matched against
// the lower-cased device name as the trace writes it with spaces, '-' and '_' removed, so
// "NVIDIA A100-SXM4-80GB", "Tesla V100-DGXS-32GB", "AMD Instinct MI300X" and "Ascend910B2"
// all resolve. More specific rows come first (H100 NVL before H100 PCIe before H100).
#include "kpis.h"
#include "util/text.h"

#include <algorithm>
#include <string>

namespace stepscope::analysis {

namespace {

constexpr double T = 1e12;

// clang-format off
const std::vector<PeakFlopsEntry> Table = {
    // NVIDIA V100 (no bf16/tf32 units): "NVIDIA Tesla V100 GPU Accelerator" datasheet (2020).
    {"NVIDIA V100S", "v100s", "fp16", 130 * T, "NVIDIA V100S datasheet: 130 TFLOPS tensor"},
    {"NVIDIA V100S", "v100s", "fp32", 16.4 * T, "NVIDIA V100S datasheet: 16.4 TFLOPS FP32"},
    {"NVIDIA V100 PCIe", "v100|pcie", "fp16", 112 * T, "NVIDIA Tesla V100 datasheet: 112 TFLOPS tensor (PCIe)"},
    {"NVIDIA V100 PCIe", "v100|pcie", "fp32", 14 * T, "NVIDIA Tesla V100 datasheet: 14 TFLOPS FP32 (PCIe)"},
    {"NVIDIA V100 SXM2", "v100", "fp16", 125 * T, "NVIDIA Tesla V100 datasheet: 125 TFLOPS tensor (SXM2; DGX Station V100 likewise)"},
    {"NVIDIA V100 SXM2", "v100", "fp32", 15.7 * T, "NVIDIA Tesla V100 datasheet: 15.7 TFLOPS FP32 (SXM2)"},
    // NVIDIA T4: "NVIDIA T4 Tensor Core GPU" datasheet.
    {"NVIDIA T4", "teslat4", "fp16", 65 * T, "NVIDIA T4 datasheet: 65 TFLOPS mixed precision"},
    {"NVIDIA T4", "teslat4", "fp32", 8.1 * T, "NVIDIA T4 datasheet: 8.1 TFLOPS FP32"},
    // NVIDIA A100 (40 and 80 GB, SXM and PCIe share the peaks): "NVIDIA A100 Tensor Core GPU" datasheet.
    {"NVIDIA A100", "a100", "bf16", 312 * T, "NVIDIA A100 datasheet: 312 TFLOPS BF16 tensor"},
    {"NVIDIA A100", "a100", "fp16", 312 * T, "NVIDIA A100 datasheet: 312 TFLOPS FP16 tensor"},
    {"NVIDIA A100", "a100", "tf32", 156 * T, "NVIDIA A100 datasheet: 156 TFLOPS TF32 tensor"},
    {"NVIDIA A100", "a100", "fp32", 19.5 * T, "NVIDIA A100 datasheet: 19.5 TFLOPS FP32"},
    {"NVIDIA A100", "a100", "int8", 624 * T, "NVIDIA A100 datasheet: 624 TOPS INT8 tensor"},
    // NVIDIA A800 (export variant of A100, same compute): "NVIDIA A800 Tensor Core GPU" datasheet.
    {"NVIDIA A800", "a800", "bf16", 312 * T, "NVIDIA A800 datasheet: 312 TFLOPS BF16 tensor"},
    {"NVIDIA A800", "a800", "fp16", 312 * T, "NVIDIA A800 datasheet: 312 TFLOPS FP16 tensor"},
    {"NVIDIA A800", "a800", "fp32", 19.5 * T, "NVIDIA A800 datasheet: 19.5 TFLOPS FP32"},
    // NVIDIA H100: "NVIDIA H100 Tensor Core GPU" datasheet (sparsity figures halved).
    {"NVIDIA H100 NVL", "h100|nvl", "bf16", 835.5 * T, "NVIDIA H100 datasheet: 1 671 TFLOPS BF16 with sparsity (NVL)"},
    {"NVIDIA H100 NVL", "h100|nvl", "fp16", 835.5 * T, "NVIDIA H100 datasheet: 1 671 TFLOPS FP16 with sparsity (NVL)"},
    {"NVIDIA H100 NVL", "h100|nvl", "fp8", 1670.5 * T, "NVIDIA H100 datasheet: 3 341 TFLOPS FP8 with sparsity (NVL)"},
    {"NVIDIA H100 NVL", "h100|nvl", "fp32", 60 * T, "NVIDIA H100 datasheet: 60 TFLOPS FP32 (NVL)"},
    {"NVIDIA H100 PCIe", "h100|pcie", "bf16", 756 * T, "NVIDIA H100 datasheet: 1 513 TFLOPS BF16 with sparsity (PCIe)"},
    {"NVIDIA H100 PCIe", "h100|pcie", "fp16", 756 * T, "NVIDIA H100 datasheet: 1 513 TFLOPS FP16 with sparsity (PCIe)"},
    {"NVIDIA H100 PCIe", "h100|pcie", "fp8", 1513 * T, "NVIDIA H100 datasheet: 3 026 TFLOPS FP8 with sparsity (PCIe)"},
    {"NVIDIA H100 PCIe", "h100|pcie", "tf32", 378 * T, "NVIDIA H100 datasheet: 756 TFLOPS TF32 with sparsity (PCIe)"},
    {"NVIDIA H100 PCIe", "h100|pcie", "fp32", 51 * T, "NVIDIA H100 datasheet: 51 TFLOPS FP32 (PCIe)"},
    {"NVIDIA H100 SXM", "h100", "bf16", 989.5 * T, "NVIDIA H100 datasheet: 1 979 TFLOPS BF16 with sparsity (SXM)"},
    {"NVIDIA H100 SXM", "h100", "fp16", 989.5 * T, "NVIDIA H100 datasheet: 1 979 TFLOPS FP16 with sparsity (SXM)"},
    {"NVIDIA H100 SXM", "h100", "fp8", 1979 * T, "NVIDIA H100 datasheet: 3 958 TFLOPS FP8 with sparsity (SXM)"},
    {"NVIDIA H100 SXM", "h100", "tf32", 494.5 * T, "NVIDIA H100 datasheet: 989 TFLOPS TF32 with sparsity (SXM)"},
    {"NVIDIA H100 SXM", "h100", "fp32", 67 * T, "NVIDIA H100 datasheet: 67 TFLOPS FP32 (SXM)"},
    // NVIDIA H800 (export variant of H100 SXM, same tensor peaks): "NVIDIA H800" product brief.
    {"NVIDIA H800", "h800", "bf16", 989.5 * T, "NVIDIA H800 product brief: 1 979 TFLOPS BF16 with sparsity"},
    {"NVIDIA H800", "h800", "fp8", 1979 * T, "NVIDIA H800 product brief: 3 958 TFLOPS FP8 with sparsity"},
    // NVIDIA H200 SXM: "NVIDIA H200 Tensor Core GPU" datasheet.
    {"NVIDIA H200", "h200", "bf16", 989.5 * T, "NVIDIA H200 datasheet: 1 979 TFLOPS BF16 with sparsity (SXM)"},
    {"NVIDIA H200", "h200", "fp16", 989.5 * T, "NVIDIA H200 datasheet: 1 979 TFLOPS FP16 with sparsity (SXM)"},
    {"NVIDIA H200", "h200", "fp8", 1979 * T, "NVIDIA H200 datasheet: 3 958 TFLOPS FP8 with sparsity (SXM)"},
    {"NVIDIA H200", "h200", "tf32", 494.5 * T, "NVIDIA H200 datasheet: 989 TFLOPS TF32 with sparsity (SXM)"},
    {"NVIDIA H200", "h200", "fp32", 67 * T, "NVIDIA H200 datasheet: 67 TFLOPS FP32 (SXM)"},
    // NVIDIA L40S: "NVIDIA L40S GPU" datasheet.
    {"NVIDIA L40S", "l40s", "bf16", 362.05 * T, "NVIDIA L40S datasheet: 733 TFLOPS BF16 with sparsity"},
    {"NVIDIA L40S", "l40s", "fp16", 362.05 * T, "NVIDIA L40S datasheet: 733 TFLOPS FP16 with sparsity"},
    {"NVIDIA L40S", "l40s", "fp8", 733 * T, "NVIDIA L40S datasheet: 1 466 TFLOPS FP8 with sparsity"},
    {"NVIDIA L40S", "l40s", "fp32", 91.6 * T, "NVIDIA L40S datasheet: 91.6 TFLOPS FP32"},
    // AMD Instinct: "AMD Instinct MI250X / MI250 Accelerator" and "AMD Instinct MI300X / MI300A /
    // MI325X" datasheets (dense figures; sparsity not used).
    {"AMD Instinct MI250X", "mi250x", "bf16", 383 * T, "AMD Instinct MI250X datasheet: 383 TFLOPS BF16"},
    {"AMD Instinct MI250X", "mi250x", "fp16", 383 * T, "AMD Instinct MI250X datasheet: 383 TFLOPS FP16"},
    {"AMD Instinct MI250X", "mi250x", "fp32", 95.7 * T, "AMD Instinct MI250X datasheet: 95.7 TFLOPS FP32 matrix"},
    {"AMD Instinct MI250", "mi250", "bf16", 362.1 * T, "AMD Instinct MI250 datasheet: 362.1 TFLOPS BF16"},
    {"AMD Instinct MI250", "mi250", "fp16", 362.1 * T, "AMD Instinct MI250 datasheet: 362.1 TFLOPS FP16"},
    {"AMD Instinct MI250", "mi250", "fp32", 90.5 * T, "AMD Instinct MI250 datasheet: 90.5 TFLOPS FP32 matrix"},
    {"AMD Instinct MI300A", "mi300a", "bf16", 980.6 * T, "AMD Instinct MI300A datasheet: 980.6 TFLOPS BF16"},
    {"AMD Instinct MI300A", "mi300a", "fp16", 980.6 * T, "AMD Instinct MI300A datasheet: 980.6 TFLOPS FP16"},
    {"AMD Instinct MI300A", "mi300a", "fp8", 1961.2 * T, "AMD Instinct MI300A datasheet: 1 961.2 TFLOPS FP8"},
    {"AMD Instinct MI300A", "mi300a", "fp32", 122.6 * T, "AMD Instinct MI300A datasheet: 122.6 TFLOPS FP32 matrix"},
    {"AMD Instinct MI325X", "mi325", "bf16", 1307.4 * T, "AMD Instinct MI325X datasheet: 1 307.4 TFLOPS BF16"},
    {"AMD Instinct MI325X", "mi325", "fp16", 1307.4 * T, "AMD Instinct MI325X datasheet: 1 307.4 TFLOPS FP16"},
    {"AMD Instinct MI325X", "mi325", "fp8", 2614.9 * T, "AMD Instinct MI325X datasheet: 2 614.9 TFLOPS FP8"},
    {"AMD Instinct MI300X", "mi300", "bf16", 1307.4 * T, "AMD Instinct MI300X datasheet: 1 307.4 TFLOPS BF16"},
    {"AMD Instinct MI300X", "mi300", "fp16", 1307.4 * T, "AMD Instinct MI300X datasheet: 1 307.4 TFLOPS FP16"},
    {"AMD Instinct MI300X", "mi300", "fp8", 2614.9 * T, "AMD Instinct MI300X datasheet: 2 614.9 TFLOPS FP8"},
    {"AMD Instinct MI300X", "mi300", "tf32", 653.7 * T, "AMD Instinct MI300X datasheet: 653.7 TFLOPS TF32"},
    {"AMD Instinct MI300X", "mi300", "fp32", 163.4 * T, "AMD Instinct MI300X datasheet: 163.4 TFLOPS FP32 matrix"},
    // Huawei Ascend. Ascend 910 (910A / Pro / Premium): Huawei's Ascend 910 launch release
    // (2019-08-23, "256 TeraFLOPS FP16, 512 TeraOPS INT8"). Huawei publishes no per-chip
    // datasheet for the 910B family; the rows below are the figures reported in Huawei's Atlas
    // 800T A2 material and the community, marked as such: set peak_flops to be exact.
    {"Huawei Ascend 910B2", "ascend910b2", "fp16", 376 * T, "reported figure (no Huawei per-chip datasheet): 376 TFLOPS FP16"},
    {"Huawei Ascend 910B2", "ascend910b2", "bf16", 376 * T, "reported figure (no Huawei per-chip datasheet): 376 TFLOPS BF16"},
    {"Huawei Ascend 910B3", "ascend910b3", "fp16", 313 * T, "reported figure (Atlas 800T A2 material): 313 TFLOPS FP16"},
    {"Huawei Ascend 910B3", "ascend910b3", "bf16", 313 * T, "reported figure (Atlas 800T A2 material): 313 TFLOPS BF16"},
    {"Huawei Ascend 910B4", "ascend910b4", "fp16", 280 * T, "reported figure (no Huawei per-chip datasheet): 280 TFLOPS FP16"},
    {"Huawei Ascend 910B4", "ascend910b4", "bf16", 280 * T, "reported figure (no Huawei per-chip datasheet): 280 TFLOPS BF16"},
    {"Huawei Ascend 910", "ascend910a|", "fp16", 256 * T, "Huawei Ascend 910 launch (2019): 256 TFLOPS FP16"},
    {"Huawei Ascend 910", "ascend910|premium", "fp16", 256 * T, "Huawei Ascend 910 launch (2019): 256 TFLOPS FP16"},
    {"Huawei Ascend 910", "ascend910|pro", "fp16", 256 * T, "Huawei Ascend 910 launch (2019): 256 TFLOPS FP16"},
    {"Huawei Ascend 910", "ascend910a", "int8", 512 * T, "Huawei Ascend 910 launch (2019): 512 TOPS INT8"},
};
// clang-format on

std::string normalise(std::string_view s)
{
    std::string out = util::asciiLower(s);
    out.erase(std::remove_if(
                  out.begin(), out.end(), [](char c) { return c == ' ' || c == '-' || c == '_'; }),
        out.end());
    return out;
}

bool matches(const std::string &device, std::string_view pattern)
{
    std::size_t pos = 0;
    while (pos <= pattern.size()) {
        const std::size_t bar = pattern.find('|', pos);
        const std::string_view part =
            pattern.substr(pos, bar == std::string_view::npos ? std::string_view::npos : bar - pos);
        if (!part.empty() && device.find(std::string(part)) == std::string::npos)
            return false;
        if (bar == std::string_view::npos)
            break;
        pos = bar + 1;
    }
    return true;
}

const PeakFlopsEntry *find(const std::string &device, std::string_view precision)
{
    for (const auto &e : Table) {
        if (e.precision == precision && matches(device, e.pattern))
            return &e;
    }
    return nullptr;
}

} // namespace

const std::vector<PeakFlopsEntry> &peakFlopsTable()
{
    return Table;
}

const PeakFlopsEntry *lookupPeakFlops(std::string_view deviceName, std::string_view precision)
{
    const std::string device = normalise(deviceName);
    if (device.empty())
        return nullptr;
    std::string p = util::asciiLower(precision);
    if (p == "float32")
        p = "fp32";
    else if (p == "float16" || p == "half")
        p = "fp16";
    else if (p == "bfloat16")
        p = "bf16";
    if (!p.empty())
        return find(device, p);
    // Unknown precision: mixed-precision training, bf16 where the device has it, else fp16.
    if (const auto *e = find(device, "bf16"))
        return e;
    return find(device, "fp16");
}

} // namespace stepscope::analysis
