// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "loadplan.h"

#include "import/ascend/profilerinfo.h"
#include "import/ascend/rankfolder.h"
#include "import/ascend/traceview.h"
#include "import/ascenddb/ascenddb.h"
#include "import/cann/profdevice.h"
#include "import/cann/proftimeline.h"
#include "import/detect/filetext.h"
#include "import/detect/profdirs.h"
#include "import/kineto/kinetotrace.h"
#include "import/mindspore/legacyfolder.h"
#include "import/nsys/nsys.h"
#include "import/torchmemory/memorytimeline.h"
#include "util/text.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <thread>

namespace stepscope::import::plan {

namespace {

namespace fs = std::filesystem;
using detect::Detection;
using detect::Format;

/// The kind of a file met in a folder walk, by its extension; nullopt for files no reader
/// takes (raw binary data, pictures).
std::optional<InputKind> kindByName(const fs::path &file)
{
    const std::string ext = util::asciiLower(file.extension().string());
    if (ext == ".json")
        return InputKind::JsonTrace;
    if (ext == ".gz")
        return InputKind::GzipJson;
    if (ext == ".csv" || ext == ".txt" || ext == ".log" || ext == ".jsonl")
        return InputKind::Table;
    if (ext == ".db" || ext == ".sqlite" || ext == ".sqlite3")
        return InputKind::AscendDb;
    return std::nullopt;
}

/// A file of `kind`; gzip counts its inflated size.
PlannedInput fileInput(const fs::path &file, InputKind kind)
{
    if (kind == InputKind::GzipJson)
        return {file, kind, gzipInflatedEstimate(file)};
    return {file, kind, detect::fileSize(file)};
}

/// A trace file, gzip or not by its first bytes, whatever its name.
PlannedInput traceInput(const fs::path &file)
{
    return fileInput(file, detect::isGzipFile(file) ? InputKind::GzipJson : InputKind::JsonTrace);
}

/// The files a reader may take in `dir` and its subfolders down to `depth` (0: `dir` alone),
/// SQLite files only when `sqlite` is set, the others only when `text` is.
void addFolderInputs(const fs::path &dir, int depth, std::vector<PlannedInput> &out,
    bool text = true, bool sqlite = true)
{
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it.depth() >= depth)
            it.disable_recursion_pending();
        std::error_code fec;
        if (!it->is_regular_file(fec))
            continue;
        const std::optional<InputKind> kind = kindByName(it->path());
        if (kind && (*kind == InputKind::AscendDb ? sqlite : text))
            out.push_back(fileInput(it->path(), *kind));
    }
}

std::vector<TracePart> single(model::TraceBuilder &builder, bool ok, bool sameClock = true)
{
    std::vector<TracePart> out;
    if (ok)
        out.push_back(TracePart {builder.finish().trace, sameClock});
    return out;
}

/// The rank the folder's profiler_info names, as its reader will show it; -1 when none.
std::int32_t rankFromAscendDir(const fs::path &dir)
{
    const std::optional<fs::path> info = ascend::findProfilerInfo(dir);
    const std::optional<std::int32_t> rank = info ? ascend::profilerInfoRank(*info) : std::nullopt;
    return rank.value_or(-1);
}

PartReader memoryReader(const fs::path &file)
{
    return [file](const ImportContext &ctx) {
        model::TraceBuilder b;
        return single(b, torchmemory::readMemoryTimeline(file, ctx, b));
    };
}

void planAscend(const Detection &d, std::vector<RankJob> &jobs)
{
    std::vector<fs::path> dirs = d.ascendRankDirs;
    if (d.format == Format::AscendFragments)
        dirs.push_back(d.fragmentsDir);
    for (const fs::path &dir : dirs) {
        RankJob job;
        job.rank = rankFromAscendDir(dir);
        job.folder = dir;
        // One answer for the budget and the reader: the budget counts what the reader reads.
        const bool text = ascenddb::hasTextExport(dir);
        const bool textExport = d.format == Format::AscendFragments || text;
        addFolderInputs(dir, 0, job.inputs, true, false);
        addFolderInputs(dir / "ASCEND_PROFILER_OUTPUT", 0, job.inputs, textExport, !textExport);
        ascend::RankFolderOptions options;
        if (d.format == Format::AscendFragments && dir == d.fragmentsDir)
            options.traceView = d.fragmentsTraceView;
        job.readers.emplace_back([dir, text, options](const ImportContext &ctx) {
            model::TraceBuilder b;
            // docs/formats.md §11: the DB export when the folder has no text timeline; both of
            // one rank are read once (the text files), never doubled.
            const bool hasDb = !ascenddb::findRankDbFiles(dir).empty();
            if (hasDb && !text)
                return single(b, ascenddb::readAscendDbRank(dir, ctx, b));
            if (hasDb)
                ctx.info(dir,
                    "this folder holds both the text and the DB export of the rank; the text "
                    "files were read, the .db files were not");
            const bool ok = ascend::readAscendRankFolder(dir, ctx, b, options);
            return single(b, ok);
        });
        jobs.push_back(std::move(job));
    }
}

PartReader profReader(const detect::ProfDevice &dev, std::int32_t rank)
{
    return [dev, rank](const ImportContext &ctx) {
        model::TraceBuilder b;
        if (dev.exportDir.empty())
            return single(b, cann::readProfDevice(dev.dir, ctx, b));
        const fs::path deviceDir =
            dev.dir.parent_path() == dev.exportDir.parent_path() ? dev.dir : fs::path();
        return single(b, cann::readProfExport(dev.exportDir, deviceDir, rank, ctx, b));
    };
}

/// Legacy ranks and PROF devices grouped by rank; PROF (wall clock) parts first, so the
/// legacy tick-clock parts of the same rank are aligned to them (docs/formats.md §4.1: the clocks
/// cannot be related).
void planLegacyAndProf(const Detection &d, std::vector<RankJob> &jobs)
{
    std::map<std::int32_t, RankJob> byRank;
    for (const detect::ProfDevice &dev : d.profDevices) {
        const std::int32_t rank = cann::profDeviceRank(dev.dir, dev.device);
        RankJob &job = byRank[rank];
        job.rank = rank;
        job.readers.push_back(profReader(dev, rank));
        if (dev.exportDir.empty())
            addFolderInputs(dev.dir, 1, job.inputs);
        else
            for (const fs::path &f : detect::profExportTimelines(dev.exportDir.parent_path()))
                job.inputs.push_back(fileInput(f, InputKind::JsonTrace));
    }
    for (const detect::LegacyFolder &folder : d.legacyFolders) {
        std::vector<PlannedInput> files;
        addFolderInputs(folder.dir, 0, files);
        for (std::int32_t rank : folder.ranks) {
            RankJob &job = byRank[rank];
            const bool afterProf = !job.readers.empty();
            job.rank = rank;
            for (const PlannedInput &f : files)
                if (detect::legacyRankOf(f.path.filename().string()) == rank)
                    job.inputs.push_back(f);
            job.readers.emplace_back([dir = folder.dir, rank, afterProf](const ImportContext &ctx) {
                std::vector<TracePart> parts = mindspore::readLegacyRank(dir, rank, ctx);
                if (afterProf && !parts.empty()) {
                    // Another clock (and, in real folders, often another run): show its lanes
                    // aligned by their first event, but keep its steps only as reference
                    // steps so the rank's step list is the PROF timeline's alone.
                    for (TracePart &p : parts) {
                        p.sameClock = false;
                        p.trace.steps.clear();
                    }
                    ctx.info(dir,
                        "rank " + std::to_string(rank)
                            + ": the MindSpore files use the device tick clock and the "
                              "CANN PROF timeline the wall clock; their lanes are "
                              "aligned by the first event and their steps kept as "
                              "reference steps only");
                }
                return parts;
            });
        }
    }
    for (auto &[rank, job] : byRank)
        jobs.push_back(std::move(job));
}

void planKineto(const Detection &d, std::vector<RankJob> &jobs)
{
    // Files of one rank merge only without distributedInfo: the same worker name in the same
    // folder (two captures of one worker). Two files claiming one distributedInfo rank are
    // kept apart (collectTraces renumbers the second and warns): merged, every step of a
    // copied file would count twice.
    std::vector<std::string> order;
    std::map<std::string, std::vector<fs::path>> groups;
    std::map<std::string, std::int32_t> groupRank;
    std::set<std::int32_t> used;
    std::set<fs::path> genericFiles;
    std::set<fs::path> ascendFiles;
    for (const detect::KinetoFile &f : d.kinetoFiles) {
        if (f.generic)
            genericFiles.insert(f.path);
        if (f.ascend)
            ascendFiles.insert(f.path);
        const std::string key = f.rank >= 0
            ? "rank:" + std::to_string(f.rank) + ":" + f.path.generic_string()
            : "worker:" + f.path.parent_path().generic_string() + "/" + f.worker;
        if (groups.find(key) == groups.end()) {
            order.push_back(key);
            groupRank[key] = f.rank;
            if (f.rank >= 0)
                used.insert(f.rank);
        }
        groups[key].push_back(f.path);
    }
    std::int32_t next = 0;
    for (const std::string &key : order) {
        RankJob job;
        job.rank = groupRank[key];
        if (job.rank >= 0)
            job.claimedBy = groups[key].front();
        if (job.rank < 0) {
            while (used.count(next) != 0)
                ++next;
            job.rank = next;
            job.numberedInOrder = true;
            used.insert(next);
        }
        for (const fs::path &file : groups[key]) {
            const bool generic = genericFiles.count(file) != 0;
            const bool ascend = ascendFiles.count(file) != 0;
            job.inputs.push_back(traceInput(file));
            job.readers.emplace_back([file, generic, ascend](const ImportContext &ctx) {
                model::TraceBuilder b;
                if (ascend)
                    return single(b, ascend::readTraceView(file, ctx, b));
                const bool ok = generic ? kineto::readChromeTrace(file, ctx, b)
                                        : kineto::readTrace(file, ctx, b);
                return single(b, ok);
            });
        }
        jobs.push_back(std::move(job));
    }
}

/// Loose Ascend DB files (msprof_*.db, a .db opened alone): one rank each, the file's own.
void planSqlite(const Detection &d, std::vector<RankJob> &jobs)
{
    for (const fs::path &file : d.ascendDbFiles) {
        RankJob job;
        job.inputs.push_back(fileInput(file, InputKind::AscendDb));
        job.readers.emplace_back([file](const ImportContext &ctx) {
            model::TraceBuilder b;
            return single(b, ascenddb::readAscendDbFile(file, ctx, b));
        });
        jobs.push_back(std::move(job));
    }
}

/// Nsight Systems exports: one rank each, numbered by the number ending the file names
/// when every file has a different one (`report.%q{OMPI_COMM_WORLD_RANK}`), else in file
/// order. An export holding several processes with GPU work (`nsys profile torchrun ...`)
/// gives one rank per process; then every rank is numbered in file, then pid, order.
void planNsys(const Detection &d, std::vector<RankJob> &jobs)
{
    // `report.3`, `rank_3`, `trace-3`, `rank3`: a number set off at the end of the stem.
    static const std::regex trailing(R"((?:^|[._-]|rank)(\d+)$)");
    std::set<std::int32_t> numbers;
    std::vector<std::int32_t> ranks;
    std::vector<std::vector<std::int64_t>> processes;
    bool split = false;
    for (const fs::path &file : d.nsysFiles) {
        std::smatch m;
        const std::string stem = file.stem().string();
        std::int32_t r = -1;
        if (std::regex_search(stem, m, trailing) && m[1].length() < 7)
            r = static_cast<std::int32_t>(std::stol(m[1].str()));
        ranks.push_back(r);
        numbers.insert(r);
        processes.push_back(nsys::devicePrograms(file));
        split = split || processes.back().size() > 1;
    }
    const bool byName = !split && numbers.size() == ranks.size() && numbers.count(-1) == 0;
    std::int32_t next = 0;
    for (std::size_t i = 0; i < d.nsysFiles.size(); ++i) {
        const fs::path file = d.nsysFiles[i];
        std::vector<std::optional<std::int64_t>> parts;
        if (processes[i].size() > 1)
            parts.assign(processes[i].begin(), processes[i].end());
        else
            parts.emplace_back(std::nullopt);
        for (const std::optional<std::int64_t> &process : parts) {
            RankJob job;
            job.rank = byName ? ranks[i] : next++;
            PlannedInput input = fileInput(file, InputKind::NsysExport);
            input.bytes /= parts.size(); // one export split by process: a share each
            job.inputs.push_back(std::move(input));
            const std::int32_t rank = job.rank;
            job.readers.emplace_back([file, rank, process](const ImportContext &ctx) {
                model::TraceBuilder b;
                return single(b, nsys::readNsysFile(file, ctx, b, nullptr, rank, process));
            });
            jobs.push_back(std::move(job));
        }
    }
}

void planMemory(const Detection &d, std::vector<RankJob> &jobs)
{
    if (d.memoryFiles.empty())
        return;
    if (jobs.empty() || d.format == Format::TorchMemory) {
        // Memory exports alone: one rank per file, in file order.
        std::int32_t rank = 0;
        for (const fs::path &file : d.memoryFiles) {
            RankJob job;
            job.rank = rank++;
            job.readers.push_back(memoryReader(file));
            job.inputs.push_back(traceInput(file));
            jobs.push_back(std::move(job));
        }
        return;
    }
    // Beside traces: a memory timeline is one device's, given to the first rank.
    for (const fs::path &file : d.memoryFiles) {
        jobs.front().readers.push_back(memoryReader(file));
        jobs.front().inputs.push_back(traceInput(file));
    }
}

} // namespace

/// How many jobs run at once: a few (each importer may use its own chunk workers too).
std::size_t jobWorkers(std::size_t jobs, const LoadOptions &options)
{
    const unsigned hw =
        options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    return std::min<std::size_t>({jobs, hw, 4});
}

unsigned fileThreads(std::size_t jobs, std::size_t workers, const LoadOptions &options)
{
    if (jobs <= workers || workers == 0)
        return options.threads;
    const unsigned hw =
        options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    return std::max(1u, hw / static_cast<unsigned>(workers));
}

std::vector<RankJob> planJobs(const Detection &d)
{
    std::vector<RankJob> jobs;
    switch (d.format) {
    case Format::Ascend:
    case Format::AscendFragments:
        planAscend(d, jobs);
        break;
    case Format::MindSporeLegacy:
    case Format::CannProf:
        planLegacyAndProf(d, jobs);
        break;
    case Format::Kineto:
    case Format::ChromeTrace:
        planKineto(d, jobs);
        break;
    case Format::AscendDb:
        planSqlite(d, jobs);
        break;
    case Format::NsysSqlite:
        planNsys(d, jobs);
        break;
    case Format::TorchMemory:
    case Format::JaxXplane:
    case Format::TrainingLog:
    case Format::Unknown:
        break;
    }
    planMemory(d, jobs);
    return jobs;
}

/// The rank each job is planned as (RankNeed::rank): its own number, else the first number
/// no job has, in job order.
std::vector<std::int32_t> plannedRanks(const std::vector<RankJob> &jobs)
{
    std::set<std::int32_t> used;
    for (const RankJob &job : jobs)
        if (job.rank >= 0)
            used.insert(job.rank);
    std::vector<std::int32_t> out;
    out.reserve(jobs.size());
    std::int32_t next = 0;
    for (const RankJob &job : jobs) {
        if (job.rank >= 0) {
            out.push_back(job.rank);
            continue;
        }
        while (used.count(next) != 0)
            ++next;
        used.insert(next);
        out.push_back(next);
    }
    return out;
}

/// Keeps the jobs whose planned rank LoadOptions::ranks names, and says which were left out.
void keepRanks(std::vector<RankJob> &jobs, std::vector<std::int32_t> &planned,
    const ImportContext &ctx, const fs::path &path)
{
    const std::set<std::int32_t> wanted(ctx.options.ranks.begin(), ctx.options.ranks.end());
    std::vector<RankJob> kept;
    std::vector<std::int32_t> keptRanks;
    std::vector<std::int32_t> leftOut;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (wanted.count(planned[i]) != 0) {
            kept.push_back(std::move(jobs[i]));
            keptRanks.push_back(planned[i]);
        } else {
            leftOut.push_back(planned[i]);
        }
    }
    const std::string asked = "--ranks " + formatRankList(ctx.options.ranks);
    if (jobs.empty())
        ctx.report->add(model::Severity::Warning, path.filename().string(),
            asked
                + ": this profile has no rank timelines to choose from (a cluster summary or "
                  "training logs alone); all of it was read");
    else if (kept.empty())
        ctx.report->add(model::Severity::Error, path.filename().string(),
            asked + ": no rank of this profile has these numbers (its ranks: "
                + formatRankList(planned) + "); nothing was read");
    else if (!leftOut.empty())
        ctx.report->add(model::Severity::Info, path.filename().string(),
            asked + ": read " + std::to_string(kept.size()) + " of " + std::to_string(jobs.size())
                + " planned ranks; left out: " + formatRankList(leftOut));
    jobs = std::move(kept);
    planned = std::move(keptRanks);
}

MemoryBudget budgetOf(const std::vector<RankJob> &jobs, const std::vector<std::int32_t> &planned,
    const Detection &d, const LoadOptions &options)
{
    MemoryBudget budget;
    budget.concurrency =
        static_cast<unsigned>(std::max<std::size_t>(1, jobWorkers(jobs.size(), options)));
    budget.ranks.reserve(jobs.size());
    for (std::size_t i = 0; i < jobs.size(); ++i)
        budget.ranks.push_back(rankNeedOf(planned[i], jobs[i].inputs));
    std::vector<PlannedInput> shared;
    if (!d.clusterDir.empty())
        addFolderInputs(d.clusterDir, 0, shared);
    for (const fs::path &log : d.logFiles)
        shared.push_back(fileInput(log, InputKind::Table));
    budget.sharedBytes = sharedNeedOf(shared);
    budget.availableBytes = options.availableBytes != 0
        ? options.availableBytes
        : availableMemoryBytes().value_or(std::numeric_limits<std::uint64_t>::max());
    return budget;
}

} // namespace stepscope::import::plan
