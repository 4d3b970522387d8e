// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The files and folders of Ascend's text export (docs/formats.md §2) for the detection, known
// by what they hold: a trace view under any name, the step and kernel tables, msprof-analyze's
// cluster summary folder whatever it is called.
#pragma once

#include "detect.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace stepscope::import::detect {

/// A bare array whose head names Ascend's processes (or holds string timestamps).
bool looksLikeAscendTraceView(const std::filesystem::path &file);

/// A bare-array trace of any name that is an Ascend trace view (formats.md §1, §2.3): its head
/// or tail names Ascend's processes or holds torch_npu's `async_npu` flows (a trace view ends
/// with them; its metadata sit between the host and the device events). The tail is read for
/// a plain file only: a gzip file of another name is not inflated to its end for this.
bool looksLikeAscendByContent(const std::filesystem::path &file);

/// The folder's trace view as written (trace_view.json) or gzipped (trace_view.json.gz).
std::optional<std::filesystem::path> ascendTraceViewIn(const std::filesystem::path &dir);

/// kernel_details.csv by its `Accelerator Core` column.
bool looksLikeAscendKernelDetails(const std::filesystem::path &file);

/// §2.4: the header names the step table's columns (with or without Device_id first).
bool looksLikeAscendStepTrace(const std::filesystem::path &file);

/// Files the Ascend text export writes into ASCEND_PROFILER_OUTPUT/ or cluster_analysis_output/:
/// opened alone, they open their folder.
bool isAscendOutputFile(const std::string &name);

/// The cluster summary's database in `dir`: cluster_analysis.db (whatever it holds), else the
/// first `.db` file there that holds a cluster summary's tables (a renamed copy); nullopt when
/// there is none.
std::optional<std::filesystem::path> clusterDbIn(const std::filesystem::path &dir);

/// msprof-analyze's cluster summary folder, by its name or by what it holds: a copy renamed
/// (`gpt3_cluster/`), or its files moved into the job's folder beside the rank folders.
bool isClusterOutputDir(const std::filesystem::path &dir);

/// The cluster summary among `dirs` (the job's folder and its folders, rank folders left out)
/// into `d.clusterDir`: the one folder holding its files, or the one named
/// cluster_analysis_output among several. The others go to `d.skipped`: which of them goes with
/// the ranks cannot be told.
void pickClusterDir(const std::vector<std::filesystem::path> &dirs, Detection &d);

} // namespace stepscope::import::detect
