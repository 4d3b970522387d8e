// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stepscope::import::detect {

/// The profile formats StepScope recognises (docs/formats.md §1).
enum class Format {
    Unknown,
    Ascend, ///< unified layout: rank folders holding ASCEND_PROFILER_OUTPUT/
    AscendFragments, ///< loose trace_view.json / kernel_details.csv (no rank folder)
    MindSporeLegacy, ///< MindInsight-era profiler folder (may hold CANN PROF_* dirs)
    CannProf, ///< CANN PROF_*/device_N folders only
    Kineto, ///< PyTorch profiler Chrome trace(s)
    ChromeTrace, ///< any other Chrome trace-event file (bare array), recognised by content
    TorchMemory, ///< PyTorch export_memory_timeline(_raw) files only
    JaxXplane, ///< JAX/XLA *.xplane.pb: recognised, not supported
    TrainingLog, ///< training logs only (docs/formats.md §10): a log file or a folder of logs
    AscendDb, ///< Ascend SQLite files outside a rank folder (msprof_*.db, a .db opened alone)
    NsysSqlite, ///< Nsight Systems SQLite exports (formats.md §12), by their tables
};

/// Stable lower-case name used in `summary --json` ("ascend", "mindspore-legacy", ...).
std::string_view formatName(Format f);

/// What a single file holds, from its name and first bytes.
enum class FileKind {
    Unknown,
    KinetoTrace, ///< JSON object with traceEvents and schemaVersion/distributedInfo/...
    ChromeArray, ///< bare JSON array of trace events (Ascend trace_view.json and kin)
    TorchMemoryRaw, ///< [[t, action, bytes, category], ...]
    TorchMemoryTimeline, ///< [times, sizes]
    JaxXplane,
    AscendDb, ///< SQLite: Ascend profiler DB or analysis.db (docs/formats.md §11)
    AscendClusterDb, ///< SQLite: cluster_analysis.db
    NsysSqlite, ///< SQLite: Nsight Systems export (docs/formats.md §12)
};

FileKind sniffFile(const std::filesystem::path &file);

/// One Kineto file with the rank it belongs to.
struct KinetoFile
{
    std::filesystem::path path;
    std::int32_t rank = -1; ///< from distributedInfo; -1 when the file has none
    std::string
        worker; ///< worker name from the file name ("worker0" in worker0.<ms>.pt.trace.json)
    /// A generic Chrome trace-event file (bare array, any tool), read with the same reader
    /// and reported as format "chrome-trace".
    bool generic = false;
    /// A generic file that holds an Ascend timeline under another name than trace_view.json
    /// (torch_npu's trace view, msprof's timeline): read with the Ascend dialect, as that
    /// file opened alone is.
    bool ascend = false;
};

/// A MindSpore legacy folder and the ranks found in its file names.
struct LegacyFolder
{
    std::filesystem::path dir;
    std::vector<std::int32_t> ranks; ///< sorted, unique
};

/// A CANN PROF_*/device_<n> folder, or a PROF folder's newer export.
struct ProfDevice
{
    std::filesystem::path dir;
    std::int32_t device = 0; ///< n of device_<n>
    /// `mindstudio_profiler_output/` (docs/formats.md §3a), read instead of dir/timeline/;
    /// then dir is the PROF folder's one device folder (its info.json), or the PROF folder.
    std::filesystem::path exportDir;
};

/// The result of looking at a path: its format and the pieces each importer needs.
///
/// Invariant: every list is sorted by path so that loading is deterministic.
struct Detection
{
    Format format = Format::Unknown;
    std::vector<std::filesystem::path> ascendRankDirs; ///< dirs holding ASCEND_PROFILER_OUTPUT
    std::filesystem::path clusterDir; ///< cluster_analysis_output, if any
    std::filesystem::path fragmentsDir; ///< loose Ascend files' folder
    /// An Ascend trace view opened under another name than trace_view.json: read as the
    /// fragments' trace view (empty: the folder's trace_view.json, if any).
    std::filesystem::path fragmentsTraceView;
    std::vector<LegacyFolder> legacyFolders;
    std::vector<ProfDevice> profDevices;
    std::vector<KinetoFile> kinetoFiles;
    std::vector<std::filesystem::path> memoryFiles; ///< PyTorch memory-timeline exports
    std::vector<std::filesystem::path> xplaneFiles;
    /// Training logs: the whole input (TrainingLog format) or the files beside a profile.
    std::vector<std::filesystem::path> logFiles;
    std::vector<std::filesystem::path> ascendDbFiles; ///< Format::AscendDb
    std::vector<std::filesystem::path> nsysFiles; ///< Format::NsysSqlite
    /// Special files (FIFOs, sockets, devices, links to them) where a profile file could
    /// be, and profiles of another kind beside the detected one, with why they are not read:
    /// the loader reports each (docs/robustness.md).
    std::vector<std::pair<std::filesystem::path, std::string>> skipped;
    /// Why nothing was recognised (for the Unknown format's diagnostic).
    std::string reason;
};

/// Detects the format of a folder or single file. First match wins, in the order of
/// docs/formats.md §1; a folder is searched a few levels deep (rank folders under a parent,
/// PROF_* inside a legacy folder). Never throws (filesystem errors read as "not found").
/// Each real folder and file is taken once, by device and inode: a symlink loop or a second
/// link to a rank folder does not load it twice.
Detection detectPath(const std::filesystem::path &path);

/// The rank in a MindSpore legacy file name (`step_trace_raw_3_detail_time.csv` -> 3,
/// `hccl_raw_1.csv` -> 1, `ascend_cluster_analyse_pipeline-parallel_2_4_3.csv` -> 3), or -1
/// when the name is not a legacy profiler file.
std::int32_t legacyRankOf(const std::string &fileName);

} // namespace stepscope::import::detect
