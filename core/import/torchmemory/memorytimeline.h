// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "import/importcontext.h"
#include "model/tracebuilder.h"

#include <filesystem>
#include <string_view>

namespace stepscope::import::torchmemory {

/// Which of PyTorch's memory-timeline exports a text holds (docs/formats.md §6).
enum class MemoryTimelineForm {
    None,
    Raw, ///< export_memory_timeline_raw: [[t_ns, action, bytes, category], ...]
    Timeline, ///< export_memory_timeline: [[t_us, ...], [[0, c0, ..., c7], ...]]
};

/// Guesses the form from the first bytes of the (decompressed) text.
MemoryTimelineForm sniffMemoryTimeline(std::string_view head);

/// Reads a PyTorch memory-timeline export (`.raw.gz`, `.json`, gzipped or not) into
/// builder.trace().memory.categories: one point per row, bytes[c][i] = total of category c
/// after row i, so the categories sum to the total at every point.
///
/// Raw form: pre-existing rows (t = -1) are placed at the first real time; the action code
/// is 1-based (PyTorch) or 0-based (torch_npu), decided by the minimum action in the file.
/// Bad rows are skipped and reported with their byte offset; a truncated file keeps every
/// complete row before the cut. Returns true when at least one point was read. Never
/// throws except util::Cancelled.
bool readMemoryTimeline(
    const std::filesystem::path &file, const ImportContext &ctx, model::TraceBuilder &builder);

} // namespace stepscope::import::torchmemory
