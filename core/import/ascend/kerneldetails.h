// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// Ascend `kernel_details.csv` (docs/formats.md §2.6): one row per device task, times in us.
// All header variants are read by column name: Level0 (8 columns, no stream), Level1/2
// 2023-2025 (with `Stream ID`, PMU columns varying), CANN 8.3 (`Device_id` after `Step Id`).
//
// Category mapping: `Accelerator Core` HCCL or COMMUNICATION, or a name starting `hcom_` ->
// Communication; `Type` containing MEMCPY -> Memcpy, MEMSET -> Memset; everything else
// (AI_CORE, AI_VECTOR_CORE, MIX_*, AI_CPU, DSA_SQE, N/A) -> Compute.

#include "import/importcontext.h"
#include "model/tracebuilder.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace stepscope::import::ascend {

/// One row of kernel_details.csv. Times are absolute: ns since the Unix epoch, exact.
struct KernelRow
{
    std::int64_t step = -1; ///< `Step Id`, -1 when empty/N/A
    std::string name;
    std::string type; ///< `Type` (N/A at Level0)
    std::string acceleratorCore;
    std::string stream; ///< `Stream ID`, empty when absent or N/A (HCCL rows, Level0)
    std::string taskId; ///< `Task ID`, empty when absent or N/A
    std::string deviceId; ///< `Device_id` (CANN 8.3), empty when absent
    std::int64_t startNs = 0;
    std::int64_t durationNs = 0;
    std::int64_t waitNs = 0; ///< `Wait Time(us)` in ns, 0 when empty
    std::int64_t blockDim = 0;
    std::int64_t line = 0; ///< 1-based line of the row in the file
    model::Category category = model::Category::Compute;

    bool isCommunication() const { return category == model::Category::Communication; }
};

/// The category of a kernel from its `Accelerator Core`, `Type` and `Name`.
model::Category kernelCategory(
    std::string_view acceleratorCore, std::string_view type, std::string_view name);

/// Reads every valid row (file order). A row without a usable start or duration is skipped
/// with a diagnostic giving its line; a missing required column drops the file (error).
/// Never throws except util::Cancelled.
std::vector<KernelRow> readKernelDetails(
    const std::filesystem::path &path, const ImportContext &ctx);

/// Adds the rows as device tracks of `out`, relative to out.trace().originNs: one
/// DeviceStream track per `Stream ID` ("Stream <id>"); rows without a stream go to one
/// CommunicationGroup track ("HCCL") when they are communication, else to one DeviceStream
/// track ("Device tasks", the Level0 layout). Args (Type, Accelerator Core, Step Id, Task ID,
/// Block Dim, Wait Time(us)) are kept when keepArgs is set.
void addKernelTracks(const std::vector<KernelRow> &rows, model::TraceBuilder &out,
    std::int32_t rank, bool keepArgs = true);

} // namespace stepscope::import::ascend
