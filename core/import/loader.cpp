// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "loader.h"

#include "import/ascend/clusterranks.h"
#include "import/ascend/rankfolder.h"
#include "import/ascenddb/ascenddb.h"
#include "import/cann/profdevice.h"
#include "import/cann/proftimeline.h"
#include "import/detect/detect.h"
#include "import/detect/filetext.h"
#include "import/importcontext.h"
#include "import/kineto/kinetotrace.h"
#include "import/losslog/losslog.h"
#include "import/mindspore/legacyfolder.h"
#include "import/nsys/nsys.h"
#include "import/torchmemory/memorytimeline.h"
#include "import/tracemerge.h"
#include "util/regularfile.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <thread>

namespace stepscope::import {

namespace {

namespace fs = std::filesystem;
using detect::Detection;
using detect::Format;

/// Reads one piece of a rank; may throw util::Cancelled.
using PartReader = std::function<std::vector<TracePart>(const ImportContext &)>;

/// Everything one rank needs, read on one worker thread into its own report.
struct RankJob
{
    std::int32_t rank = -1; ///< -1: the rank the importer found
    std::vector<PartReader> readers;
    std::vector<TracePart> parts;
    model::LoadReport report;
    bool cancelled = false;
    /// For a rank claimed by one file (Kineto distributedInfo): the file, named when a
    /// second file claims the same rank.
    fs::path claimedBy;
};

std::vector<TracePart> single(model::TraceBuilder &builder, bool ok, bool sameClock = true)
{
    std::vector<TracePart> out;
    if (ok)
        out.push_back(TracePart {builder.finish().trace, sameClock});
    return out;
}

std::uint64_t totalBytes(const fs::path &root)
{
    std::error_code ec;
    if (fs::is_regular_file(root, ec))
        return detect::fileSize(root);
    std::uint64_t total = 0;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
        if (it.depth() > 6) {
            it.disable_recursion_pending();
            continue;
        }
        std::error_code fec;
        if (it->is_regular_file(fec))
            total += detect::fileSize(it->path());
    }
    return total;
}

std::int32_t rankFromAscendDir(const fs::path &dir)
{
    static const std::regex re(R"(profiler_info_(\d+)\.json)");
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::smatch m;
        const std::string name = it->path().filename().string();
        if (std::regex_match(name, m, re)) {
            try {
                return static_cast<std::int32_t>(std::stol(m[1].str()));
            } catch (...) {
                return -1;
            }
        }
    }
    return -1;
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
        job.readers.emplace_back([dir](const ImportContext &ctx) {
            model::TraceBuilder b;
            // docs/formats.md §11: the DB export when the folder has no text timeline; both of
            // one rank are read once (the text files), never doubled.
            const bool hasDb = !ascenddb::findRankDbFiles(dir).empty();
            if (hasDb && !ascenddb::hasTextExport(dir))
                return single(b, ascenddb::readAscendDbRank(dir, ctx, b));
            if (hasDb)
                ctx.info(dir,
                    "this folder holds both the text and the DB export of the rank; the text "
                    "files were read, the .db files were not");
            const bool ok = ascend::readAscendRankFolder(dir, ctx, b);
            return single(b, ok);
        });
        jobs.push_back(std::move(job));
    }
}

PartReader profReader(const fs::path &deviceDir)
{
    return [deviceDir](const ImportContext &ctx) {
        model::TraceBuilder b;
        const bool ok = cann::readProfDevice(deviceDir, ctx, b);
        return single(b, ok);
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
        job.readers.push_back(profReader(dev.dir));
    }
    for (const detect::LegacyFolder &folder : d.legacyFolders) {
        for (std::int32_t rank : folder.ranks) {
            RankJob &job = byRank[rank];
            const bool afterProf = !job.readers.empty();
            job.rank = rank;
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
    for (const detect::KinetoFile &f : d.kinetoFiles) {
        if (f.generic)
            genericFiles.insert(f.path);
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
            used.insert(next);
        }
        for (const fs::path &file : groups[key]) {
            const bool generic = genericFiles.count(file) != 0;
            job.readers.emplace_back([file, generic](const ImportContext &ctx) {
                model::TraceBuilder b;
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
            jobs.push_back(std::move(job));
        }
        return;
    }
    // Beside traces: a memory timeline is one device's, given to the first rank.
    for (const fs::path &file : d.memoryFiles)
        jobs.front().readers.push_back(memoryReader(file));
}

void runJob(RankJob &job, const ImportContext &base)
{
    ImportContext ctx = base;
    ctx.report = &job.report;
    try {
        for (const PartReader &read : job.readers) {
            if (ctx.progress != nullptr)
                ctx.progress->checkCancel();
            try {
                for (TracePart &p : read(ctx))
                    job.parts.push_back(std::move(p));
            } catch (const util::Cancelled &) {
                throw;
            } catch (const std::exception &e) {
                job.report.add(model::Severity::Error, ctx.relative(ctx.root),
                    std::string("an importer failed: ") + e.what());
            }
        }
    } catch (const util::Cancelled &) {
        job.cancelled = true;
        job.parts.clear();
    } catch (...) {
        job.report.add(model::Severity::Error, ctx.relative(ctx.root),
            "an importer failed with an unknown error");
    }
}

/// Runs the jobs on a few threads (ranks in parallel; each importer may use its own chunk
/// workers too, so this stays small). Results stay in job order: deterministic output.
void runJobs(std::vector<RankJob> &jobs, const ImportContext &ctx)
{
    unsigned hw = ctx.options.threads != 0 ? ctx.options.threads
                                           : std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min<std::size_t>({jobs.size(), hw, 4});
    if (workers <= 1) {
        for (RankJob &job : jobs)
            runJob(job, ctx);
        return;
    }
    std::atomic<std::size_t> next {0};
    std::vector<std::thread> threads;
    threads.reserve(workers);
    for (std::size_t w = 0; w < workers; ++w) {
        threads.emplace_back([&] {
            for (std::size_t i = next++; i < jobs.size(); i = next++) {
                if (ctx.progress != nullptr && ctx.progress->isCancelled()) {
                    jobs[i].cancelled = true;
                    continue;
                }
                runJob(jobs[i], ctx);
            }
        });
    }
    for (std::thread &t : threads)
        t.join();
}

bool traceHasContent(const model::Trace &t)
{
    return t.eventCount() > 0 || !t.steps.empty() || !t.memory.empty() || !t.counters.empty()
        || !t.referenceSteps.empty() || !t.collectives.empty() || !t.commMatrix.empty()
        || !t.opStatistics.empty();
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

/// Merges each job's parts into its rank's trace (in job order, so output is deterministic);
/// a rank claimed twice is renumbered with a warning.
void collectTraces(std::vector<RankJob> &jobs, const ImportContext &ctx, model::Session &session)
{
    std::set<std::int32_t> used;
    std::map<std::int32_t, fs::path> claims; // rank -> the file that claimed it first
    for (RankJob &job : jobs) {
        session.report.merge(job.report);
        if (job.parts.empty())
            continue;
        std::int32_t rank = job.rank >= 0 ? job.rank : job.parts.front().trace.rank;
        if (used.count(rank) != 0) {
            std::int32_t free = 0;
            while (used.count(free) != 0)
                ++free;
            const auto first = claims.find(rank);
            if (!job.claimedBy.empty() && first != claims.end())
                ctx.warn(job.claimedBy,
                    "this file and " + ctx.relative(first->second) + " both claim rank "
                        + std::to_string(rank) + " (distributedInfo); kept apart, this one is "
                        + "shown as rank " + std::to_string(free));
            else
                session.report.add(model::Severity::Warning, ctx.root.filename().string(),
                    "two folders claim rank " + std::to_string(rank)
                        + "; the second is shown as rank " + std::to_string(free));
            rank = free;
        }
        used.insert(rank);
        if (!job.claimedBy.empty())
            claims.emplace(rank, job.claimedBy);
        model::Trace trace = mergeTraces(std::move(job.parts), rank);
        if (traceHasContent(trace))
            session.traces.push_back(std::make_shared<const model::Trace>(std::move(trace)));
    }
}

/// Detects, plans, runs; returns false when cancelled.
bool load(const fs::path &path, util::Progress &progress, const LoadOptions &options,
    model::Session &session)
{
    ImportContext ctx;
    std::error_code ec;
    ctx.root = fs::is_directory(path, ec) ? path : path.parent_path();
    ctx.report = &session.report;
    ctx.progress = &progress;
    ctx.options = options;

    progress.setStage("Detecting the format");
    progress.setTotal(totalBytes(path));
    const Detection d = detect::detectPath(path);
    session.format = std::string(detect::formatName(d.format));
    if (progress.isCancelled())
        return false;
    for (const auto &[file, why] : d.skipped)
        ctx.warn(file, "skipped: " + why);

    for (const fs::path &xplane : d.xplaneFiles) {
        ctx.error(xplane,
            "JAX/XLA xplane.pb is not supported: export a Chrome trace "
            "(jax.profiler.trace(dir, create_perfetto_trace=True) writes "
            "perfetto_trace.json.gz) and open that instead");
    }
    if (d.format == Format::Unknown) {
        session.report.add(model::Severity::Error, path.filename().string(),
            d.reason.empty() ? "no supported profile format was recognised here" : d.reason);
        return true;
    }

    std::vector<RankJob> jobs = planJobs(d);
    runJobs(jobs, ctx);
    if (progress.isCancelled()
        || std::any_of(jobs.begin(), jobs.end(), [](const RankJob &j) { return j.cancelled; }))
        return false;

    collectTraces(jobs, ctx, session);
    jobs.clear();

    if (!d.clusterDir.empty()) {
        progress.setStage("Reading " + ctx.relative(d.clusterDir));
        try {
            const bool text = ascend::readAscendClusterFolder(d.clusterDir, ctx, session);
            const fs::path db = d.clusterDir / "cluster_analysis.db";
            if (!text && fs::is_regular_file(db, ec))
                ascenddb::readClusterAnalysisDb(db, ctx, session);
            ascend::addClusterRanks(session, ctx);
        } catch (const util::Cancelled &) {
            return false;
        } catch (const std::exception &e) {
            ctx.error(d.clusterDir, std::string("reading the cluster summary failed: ") + e.what());
        }
    }
    std::sort(session.traces.begin(), session.traces.end(),
        [](const auto &a, const auto &b) { return a->rank < b->rank; });
    for (const fs::path &file : d.logFiles) {
        auto log = std::make_shared<model::TrainingLog>(losslog::readTrainingLog(file, ctx));
        if (!log->empty())
            session.trainingLogs.push_back(std::move(log));
    }
    if (!session.hasContent() && d.format != Format::JaxXplane)
        session.report.add(model::Severity::Error, path.filename().string(),
            "nothing usable was found in this " + session.format
                + " profile (see the messages above)");
    return !progress.isCancelled();
}

/// Why the opened path itself cannot be loaded, in words; empty when it can be.
std::string unreadablePath(const fs::path &path)
{
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        fs::directory_iterator it(path, ec);
        if (ec == std::errc::permission_denied)
            return "permission denied: this folder cannot be listed";
        return {};
    }
    std::string why = util::whyNotRegular(path);
    if (why == "no such file")
        return "no such file or folder";
    if (!why.empty() && why != "permission denied")
        why += ": StepScope opens profile folders and regular files only";
    return why;
}

} // namespace

LoadResult loadPath(
    const std::filesystem::path &path, util::Progress &progress, const LoadOptions &options)
{
    LoadResult result;
    auto session = std::make_shared<model::Session>();
    session->rootPath = path.string();
    if (const std::string why = unreadablePath(path); !why.empty()) {
        session->report.add(model::Severity::Error, path.string(), why);
        result.session = std::move(session);
        return result;
    }
    try {
        if (!load(path, progress, options, *session)) {
            result.cancelled = true;
            return result; // the partial session is freed here
        }
    } catch (const util::Cancelled &) {
        result.cancelled = true;
        return result;
    } catch (const std::exception &e) {
        session->report.add(model::Severity::Error, path.filename().string(),
            std::string("loading failed: ") + e.what());
    } catch (...) {
        session->report.add(model::Severity::Error, path.filename().string(),
            "loading failed with an unknown error");
    }
    result.session = std::move(session);
    return result;
}

} // namespace stepscope::import
