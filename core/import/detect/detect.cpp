// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "detect.h"

#include "import/detect/ascendfiles.h"
#include "import/detect/dirwalk.h"
#include "import/detect/filetext.h"
#include "import/detect/folderfiles.h"
#include "import/detect/packedfiles.h"
#include "import/detect/profdirs.h"
#include "import/losslog/losslog.h"
#include "import/sqlite/database.h"
#include "import/sqlite/sqlitekind.h"
#include "import/torchmemory/memorytimeline.h"
#include "util/regularfile.h"
#include "util/text.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <regex>
#include <set>

namespace stepscope::import::detect {

namespace fs = std::filesystem;

namespace {

constexpr int MaxDepth = 3;

/// rank8.json before rank10.json, as the traces are listed.
bool naturalPathLess(const fs::path &a, const fs::path &b)
{
    return util::naturalLess(a.generic_string(), b.generic_string());
}

/// The skipped files in the order the traces are listed, so warnings name rank8 before rank10.
void sortSkipped(Detection &d)
{
    std::stable_sort(d.skipped.begin(), d.skipped.end(),
        [](const auto &a, const auto &b) { return naturalPathLess(a.first, b.first); });
}

/// Subdirectories of `dir` up to `depth` levels below it (not `dir` itself), sorted; each
/// real folder once.
void collectDirs(
    const fs::path &dir, int depth, std::vector<fs::path> &out, std::set<util::FileId> &seen)
{
    if (depth <= 0)
        return;
    for (const fs::path &p : listDir(dir)) {
        if (!isDir(p) || !firstVisit(p, seen))
            continue;
        out.push_back(p);
        collectDirs(p, depth - 1, out, seen);
    }
}

void collectDirs(const fs::path &dir, int depth, std::vector<fs::path> &out)
{
    std::set<util::FileId> seen;
    firstVisit(dir, seen);
    collectDirs(dir, depth, out, seen);
}

const std::regex &legacySignal()
{
    // The file names docs/formats.md §1 lists as MindSpore legacy signals.
    static const std::regex re(
        R"((step_trace_raw_\d+_detail_time\.csv|(ascend_|gpu_)?timeline_display_\d+\.json|)"
        R"(output_timeline_data_\d+\.txt|hccl_raw_\d+\.csv|framework_raw_\d+\.csv|)"
        R"(minddata_pipeline_raw_\d+\.csv))");
    return re;
}

bool hasLegacyFiles(const fs::path &dir)
{
    for (const fs::path &p : listDir(dir)) {
        if (isFile(p) && std::regex_match(p.filename().string(), legacySignal()))
            return true;
    }
    return false;
}

/// Drops the entries whose folder is the same real folder as an earlier one.
template <typename T, typename Dir> void dropRepeats(std::vector<T> &list, Dir dirOf)
{
    std::set<util::FileId> seen;
    list.erase(std::remove_if(list.begin(), list.end(),
                   [&](const T &item) { return !firstVisit(dirOf(item), seen); }),
        list.end());
}

/// The folder above a job's folder (or above a few runs'): rank folders one level deeper than
/// detectDir looks first, and the cluster summary when there is exactly one. Only when nothing
/// was found nearer, so that a thousand-rank folder is not listed a level deeper.
void findDeeperAscendRun(const fs::path &dir, Detection &d)
{
    std::vector<fs::path> sub;
    collectDirs(dir, MaxDepth, sub);
    std::vector<fs::path> clusters;
    for (const fs::path &p : sub) {
        if (p.filename() == "ASCEND_PROFILER_OUTPUT")
            d.ascendRankDirs.push_back(p.parent_path());
        else if (isClusterOutputDir(p))
            clusters.push_back(p);
    }
    if (clusters.size() == 1)
        d.clusterDir = clusters.front();
}

/// Other profiles lying in the folder of an Ascend job (a PyTorch trace, an Nsight export):
/// the first format found is the one loaded, so each of them is said not to be read.
void noteProfilesBeside(const fs::path &dir, Detection &d)
{
    Detection beside;
    scanFiles(dir, 0, beside);
    std::vector<fs::path> files;
    for (const KinetoFile &f : beside.kinetoFiles)
        files.push_back(f.path);
    for (const auto *list : {&beside.memoryFiles, &beside.nsysFiles, &beside.ascendDbFiles})
        files.insert(files.end(), list->begin(), list->end());
    for (const fs::path &f : files)
        d.skipped.emplace_back(f,
            "a profile of another kind beside the Ascend rank folders; only those were read. "
            "Open this file on its own to see it");
}

void detectDir(const fs::path &dir, Detection &d)
{
    const std::string dirName = dir.filename().string();
    // §2 Ascend unified layout.
    if (dirName == "ASCEND_PROFILER_OUTPUT") {
        d.format = Format::Ascend;
        d.ascendRankDirs.push_back(dir.parent_path());
        return;
    }
    if (dirName == "cluster_analysis_output") {
        d.format = Format::Ascend;
        d.clusterDir = dir;
        return;
    }
    std::vector<fs::path> sub;
    collectDirs(dir, 2, sub);
    if (isDir(dir / "ASCEND_PROFILER_OUTPUT"))
        d.ascendRankDirs.push_back(dir);
    for (const fs::path &p : sub) {
        if (p.filename() == "ASCEND_PROFILER_OUTPUT" && p.parent_path() != dir)
            d.ascendRankDirs.push_back(p.parent_path());
    }
    std::sort(d.ascendRankDirs.begin(), d.ascendRankDirs.end());
    std::vector<fs::path> clusterCandidates {dir};
    for (const fs::path &p : sub)
        if (p.parent_path() == dir
            && !std::binary_search(d.ascendRankDirs.begin(), d.ascendRankDirs.end(), p))
            clusterCandidates.push_back(p);
    pickClusterDir(clusterCandidates, d);
    if (d.ascendRankDirs.empty() && d.clusterDir.empty())
        findDeeperAscendRun(dir, d);
    if (!d.ascendRankDirs.empty()) {
        std::sort(d.ascendRankDirs.begin(), d.ascendRankDirs.end());
        dropRepeats(d.ascendRankDirs, [](const fs::path &p) { return p; });
        d.format = Format::Ascend;
        noteProfilesBeside(dir, d);
        return;
    }
    // §2 fragments: a loose trace_view.json (or .json.gz) or kernel_details.csv.
    if (ascendTraceViewIn(dir)
        || (isFile(dir / "kernel_details.csv")
            && looksLikeAscendKernelDetails(dir / "kernel_details.csv"))
        || (isFile(dir / "step_trace_time.csv")
            && looksLikeAscendStepTrace(dir / "step_trace_time.csv"))) {
        d.format = Format::AscendFragments;
        d.fragmentsDir = dir;
        return;
    }
    // A cluster summary alone (this folder, or its one folder): every rank from its rows.
    if (!d.clusterDir.empty()) {
        d.format = Format::Ascend;
        return;
    }
    // §4 MindSpore legacy: the folder itself or its profiler/ subfolder, else the folders up
    // to MaxDepth levels down (rank_0/profiler/, a run copied into a folder of any name).
    std::vector<fs::path> legacyDirs;
    for (const fs::path &candidate : {dir, dir / "profiler"})
        if (isDir(candidate) && hasLegacyFiles(candidate))
            legacyDirs.push_back(candidate);
    if (legacyDirs.empty()) {
        std::vector<fs::path> deeper;
        collectDirs(dir, MaxDepth, deeper);
        std::copy_if(deeper.begin(), deeper.end(), std::back_inserter(legacyDirs), hasLegacyFiles);
    }
    std::set<std::int32_t> taken; // ranks of the folders kept
    for (const fs::path &candidate : legacyDirs) {
        LegacyFolder folder {candidate, {}};
        std::set<std::int32_t> ranks;
        for (const fs::path &p : listDir(candidate)) {
            const std::int32_t r = legacyRankOf(p.filename().string());
            if (r >= 0 && isFile(p))
                ranks.insert(r);
        }
        // A folder repeating a kept folder's rank is another run: merged, each of that
        // rank's steps would count twice.
        if (std::any_of(
                ranks.begin(), ranks.end(), [&](std::int32_t r) { return taken.count(r); })) {
            d.skipped.emplace_back(candidate,
                "MindSpore profiler files of a rank another folder here holds too (another "
                "run?): not read. Open this folder on its own to see it");
            continue;
        }
        taken.insert(ranks.begin(), ranks.end());
        folder.ranks.assign(ranks.begin(), ranks.end());
        d.legacyFolders.push_back(std::move(folder));
        d.format = Format::MindSporeLegacy;
    }
    // §3 CANN PROF_* dirs (alone, or inside the legacy folder).
    // By name or by content: renamed copies, a device folder or its timeline/ opened alone.
    // A PROF folder of raw data only (never exported) is named, not read.
    const fs::path parent = dir.parent_path();
    UnreadProf unread;
    if (deviceNumber(dirName) >= 0 && isProfDeviceDir(dir)) {
        d.profDevices.push_back(ProfDevice {dir, deviceNumber(dirName), {}});
    } else if (deviceNumber(dirName) >= 0 && isProfDir(parent)) {
        // Raw data; the PROF folder's newer export, if any, is this device's timeline.
        if (profExportTimelines(parent).empty())
            unread.dirs.push_back(dir);
        else
            addProfDevices(parent, d.profDevices, unread, d.skipped);
    } else if (dirName == "timeline" && isProfDeviceDir(parent)) {
        d.profDevices.push_back(ProfDevice {parent, deviceNumber(parent.filename().string()), {}});
    } else if (dirName == "mindstudio_profiler_output" && isProfDir(parent)) {
        addProfDevices(parent, d.profDevices, unread, d.skipped);
    } else if (isProfDir(dir)) {
        addProfDevices(dir, d.profDevices, unread, d.skipped);
    } else {
        for (const fs::path &p : sub) {
            if (isProfDir(p))
                addProfDevices(p, d.profDevices, unread, d.skipped);
        }
    }
    dropRepeats(d.profDevices, [](const ProfDevice &p) { return p.dir; });
    dropRepeats(d.legacyFolders, [](const LegacyFolder &f) { return f.dir; });
    if (!d.profDevices.empty() && d.format == Format::Unknown)
        d.format = Format::CannProf;
    if (d.format != Format::Unknown) {
        for (const fs::path &p : unread.dirs)
            d.skipped.emplace_back(p, unreadProfReason(p));
        return;
    }
    // §5 Kineto, §6 memory exports, §7 xplane: files in the folder, else a few levels down.
    scanFiles(dir, 0, d);
    if (d.kinetoFiles.empty() && d.memoryFiles.empty() && d.xplaneFiles.empty()
        && d.ascendDbFiles.empty() && d.nsysFiles.empty()) {
        d.skipped.clear(); // found again below
        scanFiles(dir, MaxDepth, d);
    } else {
        noteProfilesBelow(dir, MaxDepth, d);
    }
    sortSkipped(d); // the reason below names the first
    settleGeneric(d);
    if (!d.kinetoFiles.empty())
        d.format = d.kinetoFiles.front().generic ? Format::ChromeTrace : Format::Kineto;
    else if (!d.ascendDbFiles.empty())
        d.format = Format::AscendDb;
    else if (!d.nsysFiles.empty())
        d.format = Format::NsysSqlite;
    else if (!d.memoryFiles.empty())
        d.format = Format::TorchMemory;
    else if (!d.xplaneFiles.empty())
        d.format = Format::JaxXplane;
    else if (!unread.dirs.empty())
        d.reason = unreadProfReason(unread.dirs.front())
            + (unread.dirs.size() > 1
                    ? " (" + std::to_string(unread.dirs.size() - 1) + " more PROF folders alike)"
                    : std::string());
    else {
        d.reason = "no profiler output recognised here (this folder and " + std::to_string(MaxDepth)
            + " levels of folders below it were searched): expected an Ascend rank folder "
              "(ASCEND_PROFILER_OUTPUT/), MindSpore profiler files, a CANN PROF_* folder, "
              "Chrome or PyTorch trace files (JSON, plain or gzip), Nsight Systems SQLite exports "
              "or memory-timeline exports";
        // Files that looked like a profile but hold none (an empty trace): the first named.
        if (!d.skipped.empty()) {
            const auto &[file, why] = d.skipped.front();
            d.reason += ". " + file.filename().string() + ": " + why;
            const std::size_t more = d.skipped.size() - 1;
            if (more > 0)
                d.reason += " (" + std::to_string(more) + (more == 1 ? " more file" : " more files")
                    + " not read)";
        }
        // A shared profile often comes packed: say which file, and how to unpack it.
        if (const std::string packed = packedFilesIn(dir); !packed.empty())
            d.reason += ". " + packed;
    }
}

/// Why an SQLite file is none of the databases StepScope reads: the tables each would have,
/// and a few of the file's own.
std::string sqliteOfNoProfiler(const fs::path &file)
{
    std::string error;
    const std::optional<sqlite::Database> db = sqlite::Database::open(file, &error);
    if (!db)
        return "the file begins as an SQLite database but cannot be opened: " + error;
    const std::vector<std::string> &all = db->tables();
    std::string tables;
    for (std::size_t i = 0; i < all.size() && i < 6; ++i)
        tables += (i ? ", " : "") + all[i];
    if (all.size() > 6)
        tables += ", … (" + std::to_string(all.size()) + " tables)";
    tables = all.empty() ? std::string("it has no tables") : "its tables: " + tables;
    return "an SQLite database of no profiler StepScope reads (" + tables
        + "): an Nsight Systems export (`nsys export --type sqlite`) has the table "
          "META_DATA_EXPORT, CUPTI_ACTIVITY_KIND_* or TARGET_INFO_* tables, an Ascend profiler "
          "database TASK or STRING_IDS and META_DATA, an Ascend analysis.db StepTraceTime";
}

void detectFile(const fs::path &file, Detection &d)
{
    const std::string name = file.filename().string();
    if (const std::int32_t rank = legacyRankOf(name); rank >= 0) {
        // The folder holds every rank's files side by side: the file opened is one rank's.
        detectDir(file.parent_path(), d);
        for (LegacyFolder &folder : d.legacyFolders) {
            if (folder.dir != file.parent_path() || folder.ranks.size() < 2)
                continue;
            std::string others;
            for (const std::int32_t r : folder.ranks)
                if (r != rank)
                    others += (others.empty() ? "" : ", ") + std::to_string(r);
            d.skipped.emplace_back(folder.dir,
                std::string(folder.ranks.size() == 2 ? "the files of rank " : "the files of ranks ")
                    + others + ": " + name + " is rank " + std::to_string(rank)
                    + "'s. Open the folder to see every rank");
            folder.ranks = {rank};
        }
        // CANN PROF devices beside them: the opened rank's device alone.
        const auto other = std::stable_partition(d.profDevices.begin(), d.profDevices.end(),
            [&](const ProfDevice &p) { return p.device == rank; });
        for (auto it = other; it != d.profDevices.end(); ++it)
            d.skipped.emplace_back(it->dir,
                "another device's PROF timeline: " + name + " is rank " + std::to_string(rank)
                    + "'s");
        d.profDevices.erase(other, d.profDevices.end());
        return;
    }
    // A file of the Ascend text export opens its folder (the rank, fragments or cluster).
    const std::string parent = file.parent_path().filename().string();
    if (name == "trace_view.json" || name == "trace_view.json.gz"
        || (isAscendOutputFile(name)
            && (!isJsonName(name) || parent == "ASCEND_PROFILER_OUTPUT"
                || isClusterOutputDir(file.parent_path())))) {
        detectDir(file.parent_path(), d);
        if (d.format != Format::Unknown || !isJsonName(name))
            return;
        d = Detection {}; // a trace_view.json that is not Ascend's: read by content below
    }
    // A timeline of a PROF folder's newer export opens that export (docs/formats.md §3a).
    if (file.parent_path().filename() == "mindstudio_profiler_output" && isJsonName(name)) {
        detectDir(file.parent_path(), d);
        if (d.format != Format::Unknown)
            return;
        d = Detection {};
    }
    if (endsWith(name, ".nsys-rep") || endsWith(name, ".qdrep")) {
        d.reason = "an Nsight Systems report is binary: convert it with `nsys export --type "
                   "sqlite "
            + name + "` and open the .sqlite file";
        return;
    }
    const FileKind kind = sniffFile(file);
    if (kind == FileKind::AscendDb || kind == FileKind::AscendClusterDb) {
        // A rank folder's (or the cluster summary's) database: the whole folder loads.
        if (file.parent_path().filename() == "ASCEND_PROFILER_OUTPUT"
            || kind == FileKind::AscendClusterDb) {
            detectDir(file.parent_path(), d);
        } else {
            d.ascendDbFiles.push_back(file);
            d.format = Format::AscendDb;
        }
        return;
    }
    if (kind == FileKind::ChromeArray && looksLikeAscendByContent(file)) {
        // An Ascend trace view under another name: the fragments of its folder, with it as
        // their trace_view.json.
        d.format = Format::AscendFragments;
        d.fragmentsDir = file.parent_path();
        d.fragmentsTraceView = file;
        return;
    }
    d.format = addFile(file, kind, d);
    if (d.format != Format::Unknown)
        return;
    if (std::string packed = packedFileReason(file); !packed.empty()) {
        d.reason = "this file is " + std::move(packed);
        return;
    }
    if (losslog::detectLogFormat(file) != losslog::LogFormat::Unknown) {
        d.logFiles.push_back(file);
        d.format = Format::TrainingLog;
        return;
    }
    if (sqlite::Database::hasSqliteHeader(file)) {
        d.reason = sqliteOfNoProfiler(file);
        return;
    }
    if (std::string empty = emptyFileReason(file); !empty.empty()) {
        d.reason = std::move(empty);
        return;
    }
    d.reason = "this file is not a profile StepScope can read: expected a PyTorch profiler "
               "trace (a JSON object with traceEvents), any Chrome trace-event file (a JSON "
               "array of events), a memory-timeline export, a training log, or a profiler "
               "folder";
}

} // namespace

std::string_view formatName(Format f)
{
    switch (f) {
    case Format::Unknown:
        return "unknown";
    case Format::Ascend:
        return "ascend";
    case Format::AscendFragments:
        return "ascend-fragments";
    case Format::MindSporeLegacy:
        return "mindspore-legacy";
    case Format::CannProf:
        return "cann-prof";
    case Format::Kineto:
        return "kineto";
    case Format::ChromeTrace:
        return "chrome-trace";
    case Format::TorchMemory:
        return "torch-memory";
    case Format::JaxXplane:
        return "jax-xplane";
    case Format::TrainingLog:
        return "training-log";
    case Format::AscendDb:
        return "ascend-db";
    case Format::NsysSqlite:
        return "nsys";
    }
    return "unknown";
}

FileKind sniffFile(const fs::path &file)
{
    const std::string name = file.filename().string();
    if (endsWith(name, ".xplane.pb"))
        return FileKind::JaxXplane;
    switch (sqlite::sniffSqlite(file)) {
    case sqlite::SqliteKind::AscendProfiler:
    case sqlite::SqliteKind::AscendAnalysis:
        return FileKind::AscendDb;
    case sqlite::SqliteKind::AscendCluster:
        return FileKind::AscendClusterDb;
    case sqlite::SqliteKind::Nsys:
        return FileKind::NsysSqlite;
    case sqlite::SqliteKind::None:
        break;
    }
    const auto head = readFileText(file, SniffBytes);
    if (!head)
        return FileKind::Unknown;
    const std::string_view h(*head);
    const auto first = h.find_first_not_of(" \t\r\n\xef\xbb\xbf");
    if (first == std::string_view::npos)
        return FileKind::Unknown;
    if (h[first] == '{') {
        for (std::string_view key : {"\"traceEvents\"", "\"schemaVersion\"", "\"distributedInfo\"",
                 "\"deviceProperties\""}) {
            if (h.find(key) != std::string_view::npos)
                return FileKind::KinetoTrace;
        }
        return FileKind::Unknown;
    }
    if (h[first] != '[')
        return FileKind::Unknown;
    switch (torchmemory::sniffMemoryTimeline(h.substr(first))) {
    case torchmemory::MemoryTimelineForm::Raw:
        return FileKind::TorchMemoryRaw;
    case torchmemory::MemoryTimelineForm::Timeline:
        return FileKind::TorchMemoryTimeline;
    case torchmemory::MemoryTimelineForm::None:
        break;
    }
    const auto next = h.find_first_not_of(" \t\r\n", first + 1);
    if (next != std::string_view::npos && h[next] == '{'
        && h.find("\"ph\"") != std::string_view::npos)
        return FileKind::ChromeArray;
    return FileKind::Unknown;
}

std::int32_t legacyRankOf(const std::string &fileName)
{
    static const std::regex re(R"((?:step_trace_raw_(\d+)_detail_time\.csv)"
                               R"(|(?:ascend_|gpu_)?timeline_display_(\d+)\.json)"
                               R"(|(?:ascend_|gpu_)?timeline_summary_(\d+)\.json)"
                               R"(|output_timeline_data_(\d+)\.txt)"
                               R"(|hccl_raw_(\d+)\.csv)"
                               R"(|framework_raw_(\d+)\.csv)"
                               R"(|minddata_pipeline_raw_(\d+)\.csv)"
                               R"(|ascend_cluster_analyse_.*_(\d+)\.csv)"
                               R"(|flops_summary_(\d+)\.json)"
                               R"(|min_cycle_counter_(\d+)\.txt))");
    std::smatch m;
    if (!std::regex_match(fileName, m, re))
        return -1;
    for (std::size_t i = 1; i < m.size(); ++i) {
        if (m[i].matched) {
            try {
                return static_cast<std::int32_t>(std::stol(m[i].str()));
            } catch (...) {
                return -1;
            }
        }
    }
    return -1;
}

Detection detectPath(const fs::path &path)
{
    Detection d;
    try {
        if (isDir(path)) {
            detectDir(path, d);
            // Logs alone (a few levels down), or the logs lying beside a profile.
            d.logFiles =
                losslog::findTrainingLogs(path, d.format == Format::Unknown ? MaxDepth : 0);
            if (d.format == Format::Unknown && !d.logFiles.empty()) {
                d.format = Format::TrainingLog;
                d.reason.clear();
            }
        } else if (isFile(path))
            detectFile(path, d);
        else
            d.reason = "no such file or folder";
    } catch (const std::exception &e) {
        d = Detection {};
        d.reason = std::string("cannot read the folder: ") + e.what();
    }
    std::sort(d.profDevices.begin(), d.profDevices.end(),
        [](const ProfDevice &a, const ProfDevice &b) { return a.dir < b.dir; });
    // Files without a rank of their own are numbered in this order: rank2 before rank10.
    const auto natural = naturalPathLess;
    std::sort(d.kinetoFiles.begin(), d.kinetoFiles.end(),
        [&](const KinetoFile &a, const KinetoFile &b) { return natural(a.path, b.path); });
    std::sort(d.memoryFiles.begin(), d.memoryFiles.end(), natural);
    std::sort(d.xplaneFiles.begin(), d.xplaneFiles.end());
    std::sort(d.logFiles.begin(), d.logFiles.end());
    std::sort(d.ascendDbFiles.begin(), d.ascendDbFiles.end());
    std::sort(d.nsysFiles.begin(), d.nsysFiles.end());
    dropCopies(d); // after the sort: the first copy in name order is the one read
    sortSkipped(d);
    return d;
}

} // namespace stepscope::import::detect
