// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// CANN `PROF_*` folders (docs/formats.md §3) for the detection: which device folders hold the
// timeline export StepScope reads, and what to tell the user about a PROF folder that holds
// only the raw data the profiler collected (never parsed into any export).
#pragma once

#include "detect.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace stepscope::import::detect {

/// `PROF_<digits>_<digits>_<letters>`, the name CANN gives the folder.
bool isProfDirName(const std::string &name);

/// The n of `device_<n>`, -1 for any other name.
std::int32_t deviceNumber(const std::string &name);

/// A device folder by what it holds, whatever the PROF_* folder above it is called:
/// `device_<n>/timeline/` with `msprof_*.json`.
bool isProfDeviceDir(const std::filesystem::path &dir);

/// The `msprof*.json` timelines in a PROF folder's `mindstudio_profiler_output/` (the export
/// of newer CANN versions, docs/formats.md §3a), sorted; empty when there is none.
std::vector<std::filesystem::path> profExportTimelines(const std::filesystem::path &profDir);

/// A PROF_* folder by its name, by a device folder with a timeline export, by a newer
/// export's timeline or by the raw data folders it holds (`device_<n>/data/`, `host/data/`):
/// a renamed copy is one too.
bool isProfDir(const std::filesystem::path &dir);

/// The PROF folders (or device folders) that hold no export StepScope reads, for the message
/// of the detection.
struct UnreadProf
{
    std::vector<std::filesystem::path> dirs;
};

/// Adds the device folders of `profDir` that hold a timeline export to `out`. A device folder
/// without one is raw data: when no device of the folder has an export the folder goes to
/// `unread`, unless its mindstudio_profiler_output/ holds a timeline (then that export is
/// added), else that device goes to `skipped` with the reason.
void addProfDevices(const std::filesystem::path &profDir, std::vector<ProfDevice> &out,
    UnreadProf &unread, std::vector<std::pair<std::filesystem::path, std::string>> &skipped);

/// Why `profDir` (a PROF folder, or a device folder of one) shows nothing and what to run so
/// that it does: parse the raw data with msprof, or with torch_npu / MindSpore when the
/// folder is their output (a FRAMEWORK/ folder beside it); or, when msprof's summaries
/// (mindstudio_profiler_output/) hold no timeline, export the DB StepScope reads.
std::string unreadProfReason(const std::filesystem::path &profDir);

} // namespace stepscope::import::detect
