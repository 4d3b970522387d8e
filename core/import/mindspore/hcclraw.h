// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// MindSpore legacy `hccl_raw_<rank>.csv` (docs/formats.md §4.4): per step the communication and
// wait cost (ms), the per-link traffic and, per communication op, a JSON cell
// `{"stream_41_0_AllReduce-op4582": ["<step>", comm_ms, wait_ms, {link_info}]}`. The last
// row (`step_num` "-") is an average and is skipped.

#include "import/importcontext.h"
#include "model/trace.h"

#include <filesystem>

namespace stepscope::import::mindspore {

/// Appends one CollectiveStat per (step, op) to trace.collectives (step "step<N>", name =
/// the op key as written, elapse = transit = comm ms (MindSpore's sum of the op's tasks other
/// than Notify_Wait), wait = wait ms (its Notify_Wait tasks), links with their transport; the
/// link size, written in KB (10^3 bytes, unlabelled), in sizeMb) and one ReferenceStep
/// per step with `communication_cost` and `wait_cost` in us. Bad rows/cells are skipped
/// with their line. Returns the number of steps read. Never throws except util::Cancelled.
std::size_t readHcclRaw(const std::filesystem::path &path, const ImportContext &ctx,
    std::int32_t rank, model::Trace &trace);

} // namespace stepscope::import::mindspore
