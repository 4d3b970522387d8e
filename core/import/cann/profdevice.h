// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

// CANN `PROF_*/device_<n>/` folders (docs/formats.md §3): which rank a device folder belongs to,
// so the loader can group it with the MindSpore legacy files of the same rank before the
// timeline itself is read (by readProfDevice, proftimeline.h).

#include "import/importcontext.h"

#include <filesystem>

namespace stepscope::import::cann {

/// The rank of a device folder: `rank_id` of `info.json.<n>` when it is a valid rank (not -1
/// or 4294967295), else `fallback` (the device number). Never throws.
std::int32_t profDeviceRank(const std::filesystem::path &deviceDir, std::int32_t fallback);

} // namespace stepscope::import::cann
