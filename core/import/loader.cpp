// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "loader.h"

#include "import/ascend/clusterranks.h"
#include "import/ascend/rankfolder.h"
#include "import/ascenddb/ascenddb.h"
#include "import/detect/ascendfiles.h"
#include "import/detect/detect.h"
#include "import/detect/filetext.h"
#include "import/detect/folderfiles.h"
#include "import/importcontext.h"
#include "import/loadplan.h"
#include "import/losslog/losslog.h"
#include "import/memorybudget.h"
#include "import/tracemerge.h"
#include "util/regularfile.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <thread>

namespace stepscope::import {

namespace {

namespace fs = std::filesystem;
using detect::Detection;
using detect::Format;
using plan::PartReader;
using plan::RankJob;

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

/// Runs the jobs on a few threads (ranks in parallel). Results stay in job order:
/// deterministic output.
void runJobs(std::vector<RankJob> &jobs, const ImportContext &base)
{
    const std::size_t workers = plan::jobWorkers(jobs.size(), base.options);
    if (workers <= 1) {
        for (RankJob &job : jobs)
            runJob(job, base);
        return;
    }
    ImportContext ctx = base;
    ctx.options.threads = plan::fileThreads(jobs.size(), workers, base.options);
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

/// What the warnings that suspect two runs in one load advise, worded once.
constexpr const char *TwoRunsHint =
    "Open each run on its own, or compare the two (File > Compare…, or stepscope compare A B)";

/// The warning for a second folder that claims `rank`: both named, and when they lie in
/// different folders, a hint that they may be two runs.
std::string rankClash(const ImportContext &ctx, std::int32_t rank, const fs::path &first,
    const fs::path &second, std::int32_t shownAs)
{
    std::string text = "two folders claim rank " + std::to_string(rank);
    if (first.empty() || second.empty())
        return text + "; the second is shown as rank " + std::to_string(shownAs);
    text += " (" + ctx.relative(first) + " and " + ctx.relative(second)
        + "); the second is shown as rank " + std::to_string(shownAs);
    if (first.parent_path() != second.parent_path())
        text += ". Two runs in one folder? " + std::string(TwoRunsHint);
    return text;
}

std::set<std::int64_t> stepNumbers(const model::Trace &trace)
{
    std::set<std::int64_t> out;
    for (const model::Step &s : trace.steps)
        out.insert(s.number);
    return out;
}

/// Captures of one worker name merge into one rank (a process profiled in several windows):
/// its step numbers only grow. Captures that repeat each other's step numbers are two runs
/// (two trainings profiled into one log folder): each becomes a rank of its own, said.
void splitRepeatedCaptures(std::vector<RankJob> &jobs, model::LoadReport &report)
{
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        if (!jobs[j].numberedInOrder || jobs[j].parts.size() < 2)
            continue;
        std::vector<std::vector<TracePart>> runs;
        std::vector<std::set<std::int64_t>> runSteps;
        for (TracePart &part : jobs[j].parts) {
            const std::set<std::int64_t> steps = stepNumbers(part.trace);
            std::size_t r = 0;
            for (; r < runs.size(); ++r) {
                if (std::none_of(steps.begin(), steps.end(),
                        [&](std::int64_t n) { return runSteps[r].count(n) != 0; }))
                    break;
            }
            if (r == runs.size()) {
                runs.emplace_back();
                runSteps.emplace_back();
            }
            runSteps[r].insert(steps.begin(), steps.end());
            runs[r].push_back(std::move(part));
        }
        jobs[j].parts = std::move(runs.front());
        const auto name = [](const std::vector<TracePart> &parts) {
            const auto &files = parts.front().trace.metadata.sourceFiles;
            return files.empty() ? std::string("?") : files.front();
        };
        for (std::size_t r = 1; r < runs.size(); ++r) {
            report.add(model::Severity::Warning, name(runs[r]),
                "repeats step numbers of " + name(jobs[j].parts)
                    + ", a capture of the same worker name: two runs in one folder? Kept "
                      "apart as a rank of its own. "
                    + TwoRunsHint);
            RankJob split;
            split.numberedInOrder = true;
            split.parts = std::move(runs[r]);
            jobs.insert(jobs.begin() + static_cast<std::ptrdiff_t>(j + r), std::move(split));
        }
    }
}

/// Detection reads a Kineto file's head for its rank; a `distributedInfo` after the events
/// (a re-written or merged file) is read only with the file. Such a job takes the rank its
/// file names, and the files that name none are numbered again around it, in the same order.
void nameRanksFoundOnReading(std::vector<RankJob> &jobs)
{
    std::set<std::int32_t> taken;
    for (RankJob &job : jobs) {
        if (job.parts.empty())
            continue;
        const model::RunMetadata &meta = job.parts.front().trace.metadata;
        if (job.numberedInOrder && meta.rankNamed && meta.rank >= 0) {
            job.rank = meta.rank;
            job.numberedInOrder = false;
            if (!job.inputs.empty())
                job.claimedBy = job.inputs.front().path;
        }
        if (!job.numberedInOrder && job.rank >= 0)
            taken.insert(job.rank);
    }
    std::int32_t next = 0;
    for (RankJob &job : jobs) {
        if (!job.numberedInOrder || job.parts.empty())
            continue;
        while (taken.count(next) != 0)
            ++next;
        job.rank = next;
        taken.insert(next);
    }
}

/// The folder already holding a capture of this job's worker, for files that name no rank: a
/// worker name met again in another folder is most often another run (a TensorBoard log
/// folder holds one folder per run), not another rank.
class WorkerFolders
{
public:
    /// The first folder that held `file`'s worker name, when it is another folder than
    /// `file`'s; empty otherwise.
    fs::path earlierFolder(const fs::path &file)
    {
        const auto [it, first] = m_first.emplace(detect::kinetoWorker(file), file.parent_path());
        return first || it->second == file.parent_path() ? fs::path() : it->second;
    }

private:
    std::map<std::string, fs::path> m_first;
};

/// Merges each job's parts into its rank's trace (in job order, so output is deterministic);
/// a rank claimed twice is renumbered with a warning.
void collectTraces(std::vector<RankJob> &jobs, const ImportContext &ctx, model::Session &session)
{
    splitRepeatedCaptures(jobs, session.report);
    nameRanksFoundOnReading(jobs);
    std::set<std::int32_t> used;
    std::map<std::int32_t, fs::path> claims; // rank -> the file that claimed it first
    std::map<std::int32_t, fs::path> folders; // rank -> its Ascend rank folder
    // Several files that name no rank: the numbers are ours, which each file's line says.
    const auto numbered = std::count_if(jobs.begin(), jobs.end(),
        [](const RankJob &job) { return job.numberedInOrder && !job.parts.empty(); });
    WorkerFolders workers;
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
                        + "shown as rank " + std::to_string(free)
                        + (first->second.parent_path() != job.claimedBy.parent_path()
                                ? ". Files of two folders: two runs side by side? "
                                    + std::string(TwoRunsHint)
                                : std::string()));
            else
                session.report.add(model::Severity::Warning, ctx.root.filename().string(),
                    rankClash(ctx, rank, folders[rank], job.folder, free));
            rank = free;
        }
        used.insert(rank);
        folders.emplace(rank, job.folder);
        if (numbered > 1 && job.numberedInOrder && !job.inputs.empty()) {
            const fs::path &file = job.inputs.front().path;
            const fs::path earlier = workers.earlierFolder(file);
            if (!earlier.empty())
                ctx.warn(file,
                    "the file names no rank (no distributedInfo), and " + ctx.relative(earlier)
                        + " holds a capture of the same worker: two runs side by side? Shown as "
                          "rank "
                        + std::to_string(rank) + ". " + TwoRunsHint);
            else
                ctx.info(file,
                    "the file names no rank (no distributedInfo): shown as rank "
                        + std::to_string(rank) + ", one of " + std::to_string(numbered)
                        + " ranks numbered in file-name order");
        }
        if (!job.claimedBy.empty())
            claims.emplace(rank, job.claimedBy);
        model::Trace trace = mergeTraces(std::move(job.parts), rank);
        if (traceHasContent(trace))
            session.traces.push_back(std::make_shared<const model::Trace>(std::move(trace)));
    }
}

/// The opened path as detection needs it: detection knows a file by its folder's name
/// (ASCEND_PROFILER_OUTPUT, a MindSpore rank's folder), which a bare `trace_view.json` or
/// `./step_trace_raw_2_detail_time.csv` does not give.
fs::path absoluteForDetection(const fs::path &opened)
{
    std::error_code ec;
    fs::path path = opened.is_relative() ? fs::absolute(opened, ec).lexically_normal() : opened;
    if (ec)
        return opened;
    if (!path.has_filename() && path.has_parent_path())
        path = path.parent_path(); // "dir/." normalises to "dir/"
    return path;
}

/// Detects, plans, runs; returns false when cancelled. A load the memory budget refuses
/// reads nothing and fills `refused`.
bool load(const fs::path &opened, util::Progress &progress, const LoadOptions &options,
    model::Session &session, std::optional<MemoryBudget> &refused)
{
    const fs::path path = absoluteForDetection(opened);
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

    std::vector<RankJob> jobs = plan::planJobs(d);
    std::vector<std::int32_t> planned = plan::plannedRanks(jobs);
    if (!options.ranks.empty())
        plan::keepRanks(jobs, planned, ctx, path);
    if (options.checkMemory) {
        progress.setStage("Estimating the memory needed");
        MemoryBudget budget = plan::budgetOf(jobs, planned, d, options);
        if (!budget.fits()) {
            session.report.add(
                model::Severity::Error, path.filename().string(), memoryBudgetMessage(budget));
            refused = std::move(budget);
            return true;
        }
    }
    runJobs(jobs, ctx);
    if (progress.isCancelled()
        || std::any_of(jobs.begin(), jobs.end(), [](const RankJob &j) { return j.cancelled; }))
        return false;

    collectTraces(jobs, ctx, session);
    jobs.clear();
    // Generic trace-event files whose events turned out to be PyTorch's (readChromeTrace), or
    // that were all Ascend trace views of other names: named as each file alone is.
    const auto allTraces = [&session](const char *format) {
        return !session.traces.empty()
            && std::all_of(session.traces.begin(), session.traces.end(),
                [format](const auto &t) { return t->metadata.format == format; });
    };
    if (d.format == Format::ChromeTrace && allTraces("kineto"))
        session.format = std::string(detect::formatName(Format::Kineto));
    if (d.format == Format::ChromeTrace && allTraces("ascend"))
        session.format = std::string(detect::formatName(Format::AscendFragments));

    if (!d.clusterDir.empty()) {
        progress.setStage("Reading " + ctx.relative(d.clusterDir));
        try {
            const bool text = ascend::readAscendClusterFolder(d.clusterDir, ctx, session);
            const std::optional<fs::path> db = detect::clusterDbIn(d.clusterDir);
            if (!text && db)
                ascenddb::readClusterAnalysisDb(*db, ctx, session);
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
        if (!load(path, progress, options, *session, result.refused)) {
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
