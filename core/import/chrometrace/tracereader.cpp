// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "tracereader.h"

#include "bytesource.h"
#include "chunk.h"
#include "eventscanner.h"
#include "gzipindex.h"
#include "lenientjson.h"
#include "rangescan.h"
#include "recordargs.h"
#include "traceassembly.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>

namespace stepscope::import::chrometrace {

namespace {

constexpr std::size_t ChunkBytes = 4u << 20;

/// One piece of work for a worker: a chunk the stream scanner cut (parse it), or a byte
/// range of a plain file (cut it with scanRange, then parse it).
struct Job
{
    std::uint64_t index = 0;
    Chunk chunk; ///< the scanned chunk, or the buffers to cut the range into
    bool range = false;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint64_t exactStart = RangeScan::NoStart; ///< NoStart: guess (rangescan.h)
};

struct JobResult
{
    ChunkResult parsed;
    RangeScan scan; ///< range jobs only
};

/// Cuts a range (when the job is one) and parses the chunk. Never throws.
JobResult runJob(Job &job, ChunkParser &parser, const ByteSource &source,
    const ParseSettings &settings, ChunkResult spare = ChunkResult())
{
    JobResult result;
    bool cut = !job.range;
    try {
        if (job.range)
            result.scan = scanRange(source, job.begin, job.end, job.exactStart, job.chunk);
        cut = true;
        job.chunk.index = job.index;
        if (!job.chunk.events.empty())
            result.parsed = parser.parse(job.chunk, settings, std::move(spare));
    } catch (const std::exception &e) {
        if (!cut) { // out of memory cutting the range: the load ends here, and says so
            result.scan = RangeScan();
            result.scan.start = job.exactStart;
            result.scan.fileEnded = true;
            result.scan.problems.push_back(
                {model::Severity::Error, static_cast<std::int64_t>(job.begin),
                    std::string("reading stopped: ") + e.what()
                        + "; every complete event before this byte was kept"});
            job.chunk.events.clear();
        }
        result.parsed = ChunkResult();
        result.parsed.counts.skipped = job.chunk.events.size();
        result.parsed.report.add(model::Severity::Error, settings.file,
            std::string("events of a chunk dropped: ") + e.what(), 0,
            static_cast<std::int64_t>(job.chunk.fileOffset));
    }
    result.parsed.index = job.index;
    return result;
}

/// Runs jobs on worker threads; results are taken back strictly in job order.
/// The destructor stops and joins every worker, also while an exception (Cancelled)
/// unwinds, so no thread outlives the load and every buffer is freed.
class WorkerPool
{
public:
    WorkerPool(unsigned threads, const ByteSource &source, const ParseSettings &settings)
        : m_source(source)
        , m_settings(settings)
    {
        for (unsigned i = 0; i < threads; ++i)
            m_threads.emplace_back([this] { run(); });
    }
    ~WorkerPool()
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_stop = true;
            m_queue.clear();
        }
        m_work.notify_all();
        for (std::thread &t : m_threads)
            t.join();
    }
    WorkerPool(const WorkerPool &) = delete;
    WorkerPool &operator=(const WorkerPool &) = delete;

    void submit(Job &&job)
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_queue.push_back(std::move(job));
        }
        m_work.notify_one();
    }

    /// A chunk whose buffers can be refilled (avoids page faults of fresh 4 MiB buffers).
    Chunk reuse()
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_free.empty())
            return Chunk();
        Chunk c = std::move(m_free.back());
        m_free.pop_back();
        return c;
    }

    /// A merged result whose lists a worker fills again (ChunkResult::clearForReuse).
    void recycle(ChunkResult &&result)
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (m_spare.size() < m_threads.size() * 2 + 1)
            m_spare.push_back(std::move(result));
    }

    JobResult take(std::uint64_t index)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_done.wait(lock, [&] { return m_results.count(index) > 0; });
        JobResult r = std::move(m_results[index]);
        m_results.erase(index);
        return r;
    }

private:
    void run()
    {
        ChunkParser parser;
        for (;;) {
            Job job;
            ChunkResult spare;
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_work.wait(lock, [&] { return m_stop || !m_queue.empty(); });
                if (m_stop)
                    return;
                job = std::move(m_queue.front());
                m_queue.pop_front();
                if (!m_spare.empty()) {
                    spare = std::move(m_spare.back());
                    m_spare.pop_back();
                }
            }
            JobResult result = runJob(job, parser, m_source, m_settings, std::move(spare));
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                m_results[job.index] = std::move(result);
                // Every chunk comes back here: at most 2 per thread are in flight plus the
                // one being filled, so none is freed and refaulted during the load.
                if (m_free.size() < m_threads.size() * 2 + 1)
                    m_free.push_back(std::move(job.chunk));
            }
            m_done.notify_all();
        }
    }

    const ByteSource &m_source;
    const ParseSettings &m_settings;
    std::mutex m_mutex;
    std::condition_variable m_work;
    std::condition_variable m_done;
    std::deque<Job> m_queue;
    std::vector<Chunk> m_free;
    std::vector<ChunkResult> m_spare;
    std::map<std::uint64_t, JobResult> m_results;
    bool m_stop = false;
    std::vector<std::thread> m_threads;
};

/// Merges the stream's chunk `index` and hands its lists back to the workers.
void mergeNext(WorkerPool &pool, TraceAssembly &assembly, std::uint64_t index)
{
    ChunkResult parsed = pool.take(index).parsed;
    assembly.merge(parsed);
    pool.recycle(std::move(parsed));
}

void checkCancel(const ImportContext &ctx)
{
    if (ctx.progress)
        ctx.progress->checkCancel();
}

/// The event array of a plain file, cut into fixed byte ranges that the workers scan and
/// parse at once (rangescan.h). Range 0 starts exactly after the array's '['; every other
/// range guesses its first event, and the guess is checked here, in range order, against
/// where the previous range really ended: a wrong guess is cut again from there.
struct RangeReader
{
    WorkerPool &pool;
    const ByteSource &source;
    const ParseSettings &settings;
    EventScanner &scanner;
    TraceAssembly &assembly;
    const ImportContext &ctx;
    std::uint64_t size = 0; ///< of the file when the load began
    unsigned threads = 1;
    std::uint64_t recut = 0; ///< ranges whose guess was wrong

    /// Returns the ranges merged; the scanner then stands after the array (or at its end).
    template <class Progress>
    std::uint64_t read(std::uint64_t rangeBytes, const Progress &advanceTo)
    {
        const std::uint64_t arrayStart = scanner.offset();
        size = std::max(size, arrayStart + 1);
        const std::uint64_t ranges = (size - arrayStart + rangeBytes - 1) / rangeBytes;
        auto begin = [&](std::uint64_t k) { return arrayStart + k * rangeBytes; };
        auto end = [&](std::uint64_t k) { return k + 1 >= ranges ? size : begin(k + 1); };
        const std::uint64_t maxInFlight = 2u * threads;
        std::uint64_t submitted = 0;
        std::uint64_t merged = 0;
        std::uint64_t expected = arrayStart; // where the next range really starts
        bool ended = false;
        ChunkParser parser; // for ranges cut again
        while (!ended && merged < ranges) {
            for (; submitted < ranges && submitted - merged < maxInFlight; ++submitted) {
                Job job;
                job.index = submitted;
                job.chunk = pool.reuse();
                job.range = true;
                job.begin = begin(submitted);
                job.end = end(submitted);
                job.exactStart = submitted == 0 ? arrayStart : RangeScan::NoStart;
                pool.submit(std::move(job));
            }
            checkCancel(ctx);
            JobResult r = pool.take(merged);
            if (r.scan.start == RangeScan::NoStart && expected >= end(merged)) {
                ++merged; // no element starts in it, as guessed
                continue;
            }
            if (r.scan.start != expected) {
                ++recut;
                Job job;
                job.index = merged;
                job.range = true;
                job.begin = begin(merged);
                job.end = end(merged);
                job.exactStart = expected;
                r = runJob(job, parser, source, settings);
            }
            ++merged;
            scanner.absorb(r.scan);
            assembly.merge(r.parsed);
            pool.recycle(std::move(r.parsed));
            if (r.scan.arrayEnded) {
                ended = true;
                if (!scanner.resumeAfterEventArray(r.scan.arrayEnd))
                    scanner.endInsideEventArray();
            } else if (r.scan.fileEnded) {
                ended = true;
                scanner.endInsideEventArray();
            } else {
                expected = r.scan.next;
            }
            advanceTo(ended ? (r.scan.arrayEnded ? r.scan.arrayEnd + 1 : size) : expected);
        }
        // Ranges past the array's end are dropped; take them back so that the stream's
        // chunks that may follow (keys after the array) start from a clean pool.
        for (std::uint64_t k = merged; k < submitted; ++k)
            pool.take(k);
        if (!ended) {
            ctx.report->add(model::Severity::Warning, settings.file,
                "the file grew while it was read: what follows byte " + std::to_string(size)
                    + " was not read",
                0, static_cast<std::int64_t>(size));
            scanner.endInsideEventArray();
        }
        return merged;
    }
};

bool readEvents(const std::filesystem::path &file, const Dialect &dialect, const ImportContext &ctx,
    model::TraceBuilder &out, TopLevel &top)
{
    const std::string rel = ctx.relative(file);
    std::string openError;
    // A trace holds at most MaxSources on-demand files; the ones beyond keep their args text.
    const bool onDemand = ctx.options.keepArgs && ctx.options.argsOnDemand
        && out.trace().args.sourceCount() < model::ArgsTable::MaxSources;
    std::unique_ptr<ByteSource> source =
        ByteSource::open(file, openError, onDemand ? GzipIndex::SpanBytes : 0);
    if (!source) {
        ctx.error(file, openError);
        return false;
    }
    if (ctx.progress)
        ctx.progress->setStage("Reading " + file.filename().string());
    // Stamped (size, time) now, so a change during or after the load is noticed on a read.
    std::shared_ptr<const model::ArgsSource> records =
        onDemand ? std::make_shared<RecordArgs>(file, rel, source->seekIndex()) : nullptr;

    const std::size_t chunkBytes = ctx.options.chunkBytes > 0 ? ctx.options.chunkBytes : ChunkBytes;
    EventScanner scanner(*source, chunkBytes);
    ParseSettings settings;
    settings.dialect = &dialect;
    settings.file = rel;
    settings.keepArgs = ctx.options.keepArgs;
    settings.argsOnDemand = onDemand;
    settings.plainEvents = ctx.options.plainEvents;
    TraceAssembly assembly(dialect, ctx, rel, out);
    assembly.setRecords(std::move(records));

    std::uint64_t reported = 0;
    auto advanceTo = [&](std::uint64_t consumed) {
        if (ctx.progress && consumed > reported)
            ctx.progress->advance(consumed - reported);
        reported = std::max(reported, consumed);
    };
    auto advance = [&] { advanceTo(source->fileBytesConsumed()); };

    unsigned threads = ctx.options.threads;
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    out.setFinishThreads(threads);
    std::uint64_t chunks = 0;
    if (threads <= 1) {
        // The thread keeps these between files: a job worker of a thousand-rank load reads
        // file after file, and fresh buffers cost every file their page faults again.
        thread_local ChunkParser parser;
        thread_local Chunk chunk;
        thread_local ChunkResult parsed;
        for (;;) {
            checkCancel(ctx);
            if (!scanner.next(chunk))
                break;
            parsed = parser.parse(chunk, settings, std::move(parsed));
            assembly.merge(parsed);
            ++chunks;
            advance();
        }
    } else {
        WorkerPool pool(threads, *source, settings);
        // A plain file's event array is cut by the workers themselves (no thread scans the
        // whole file); gzip is a stream, cut here as it inflates.
        std::error_code sizeError;
        const std::uint64_t size = std::filesystem::file_size(file, sizeError);
        if (!source->compressed() && !sizeError && scanner.enterEventArray()) {
            assembly.expectBytes(size);
            RangeReader ranges {pool, *source, settings, scanner, assembly, ctx, size, threads};
            chunks += ranges.read(chunkBytes, advanceTo);
            top.counts.rangesRecut += ranges.recut;
        }
        const std::uint64_t maxInFlight = 2u * threads;
        std::uint64_t streamed = 0;
        std::uint64_t merged = 0;
        for (;;) {
            checkCancel(ctx);
            Job job;
            job.chunk = pool.reuse();
            if (!scanner.next(job.chunk))
                break;
            job.index = job.chunk.index;
            pool.submit(std::move(job));
            ++streamed;
            advance();
            while (streamed - merged >= maxInFlight)
                mergeNext(pool, assembly, merged++);
        }
        while (merged < streamed) {
            checkCancel(ctx);
            mergeNext(pool, assembly, merged++);
        }
        chunks += streamed;
    }
    advance();
    top.counts.chunks += chunks;
    top.objectForm = scanner.objectForm();
    top.truncated = scanner.truncated();

    for (const EventScanner::Problem &p : scanner.problems())
        ctx.report->add(p.severity, rel, p.message, 0, p.offset);
    if (!source->warning().empty())
        ctx.report->add(model::Severity::Warning, rel, source->warning());
    if (!source->error().empty())
        ctx.report->add(model::Severity::Warning, rel,
            source->error() + "; every complete event before that was kept", 0,
            static_cast<std::int64_t>(scanner.offset()));
    for (const auto &[key, raw] : scanner.otherKeys()) {
        nlohmann::json value = nlohmann::json::parse(raw, nullptr, false);
        if (value.is_discarded()) {
            // What profilers write, as inside the events: trailing commas and the like.
            std::string strict;
            const LenientFixes fixes = makeStrict(raw, strict);
            if (fixes.any())
                value = nlohmann::json::parse(strict, nullptr, false);
            if (value.is_discarded()) {
                ctx.report->add(model::Severity::Warning, rel,
                    "top-level key \"" + key + "\" is not valid JSON; ignored");
                continue;
            }
            ctx.report->add(model::Severity::Warning, rel,
                "top-level key \"" + key + "\": " + fixes.describe() + " read leniently");
        }
        top.keys[key] = std::move(value);
    }
    if (!scanner.sawEventArray()) {
        if (scanner.objectForm())
            ctx.report->add(
                model::Severity::Error, rel, "no \"traceEvents\" array: not a Chrome trace");
        return false;
    }
    if (assembly.empty()) {
        ctx.report->add(model::Severity::Error, rel, "no usable events in the file");
        assembly.finish(top);
        return false;
    }
    assembly.finish(top);
    return true;
}

} // namespace

bool readTraceFile(const std::filesystem::path &file, const Dialect &dialect,
    const ImportContext &ctx, model::TraceBuilder &out, TopLevel *topLevel)
{
    TopLevel local;
    TopLevel &top = topLevel ? *topLevel : local;
    try {
        return readEvents(file, dialect, ctx, out, top);
    } catch (const util::Cancelled &) {
        throw;
    } catch (const std::exception &e) {
        ctx.error(file, std::string("reading stopped: ") + e.what());
        return false;
    }
}

} // namespace stepscope::import::chrometrace
