// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "tracereader.h"

#include "bytesource.h"
#include "chunk.h"
#include "eventscanner.h"
#include "gzipindex.h"
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

/// Parses chunks on worker threads; results are taken back strictly in chunk order.
/// The destructor stops and joins every worker, also while an exception (Cancelled)
/// unwinds, so no thread outlives the load and every buffer is freed.
class WorkerPool
{
public:
    WorkerPool(unsigned threads, const ParseSettings &settings)
        : m_settings(settings)
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

    void submit(Chunk &&chunk)
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_queue.push_back(std::move(chunk));
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

    ChunkResult take(std::uint64_t index)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_done.wait(lock, [&] { return m_results.count(index) > 0; });
        ChunkResult r = std::move(m_results[index]);
        m_results.erase(index);
        return r;
    }

private:
    void run()
    {
        ChunkParser parser;
        for (;;) {
            Chunk chunk;
            {
                std::unique_lock<std::mutex> lock(m_mutex);
                m_work.wait(lock, [&] { return m_stop || !m_queue.empty(); });
                if (m_stop)
                    return;
                chunk = std::move(m_queue.front());
                m_queue.pop_front();
            }
            ChunkResult result;
            try {
                result = parser.parse(chunk, m_settings);
            } catch (const std::exception &e) {
                result = ChunkResult();
                result.index = chunk.index;
                result.counts.skipped = chunk.events.size();
                result.report.add(model::Severity::Error, m_settings.file,
                    std::string("events of a chunk dropped: ") + e.what(), 0,
                    static_cast<std::int64_t>(chunk.fileOffset));
            }
            {
                std::lock_guard<std::mutex> lock(m_mutex);
                m_results[chunk.index] = std::move(result);
                // Every chunk comes back here: at most 2 per thread are in flight plus the
                // one being filled, so none is freed and refaulted during the load.
                if (m_free.size() < m_threads.size() * 2 + 1)
                    m_free.push_back(std::move(chunk));
            }
            m_done.notify_all();
        }
    }

    const ParseSettings &m_settings;
    std::mutex m_mutex;
    std::condition_variable m_work;
    std::condition_variable m_done;
    std::deque<Chunk> m_queue;
    std::vector<Chunk> m_free;
    std::map<std::uint64_t, ChunkResult> m_results;
    bool m_stop = false;
    std::vector<std::thread> m_threads;
};

void checkCancel(const ImportContext &ctx)
{
    if (ctx.progress)
        ctx.progress->checkCancel();
}

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

    EventScanner scanner(*source, ChunkBytes);
    ParseSettings settings;
    settings.dialect = &dialect;
    settings.file = rel;
    settings.keepArgs = ctx.options.keepArgs;
    settings.argsOnDemand = onDemand;
    TraceAssembly assembly(dialect, ctx, rel, out);
    assembly.setRecords(std::move(records));

    std::uint64_t reported = 0;
    auto advance = [&] {
        const std::uint64_t consumed = source->fileBytesConsumed();
        if (ctx.progress && consumed > reported)
            ctx.progress->advance(consumed - reported);
        reported = std::max(reported, consumed);
    };

    unsigned threads = ctx.options.threads;
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    std::uint64_t chunks = 0;
    if (threads <= 1) {
        ChunkParser parser;
        Chunk chunk;
        for (;;) {
            checkCancel(ctx);
            if (!scanner.next(chunk))
                break;
            assembly.merge(parser.parse(chunk, settings));
            ++chunks;
            advance();
        }
    } else {
        WorkerPool pool(threads, settings);
        const std::uint64_t maxInFlight = 2u * threads;
        std::uint64_t merged = 0;
        for (;;) {
            checkCancel(ctx);
            Chunk chunk = pool.reuse();
            if (!scanner.next(chunk))
                break;
            pool.submit(std::move(chunk));
            ++chunks;
            advance();
            while (chunks - merged >= maxInFlight)
                assembly.merge(pool.take(merged++));
        }
        while (merged < chunks) {
            checkCancel(ctx);
            assembly.merge(pool.take(merged++));
        }
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
        if (value.is_discarded())
            ctx.report->add(model::Severity::Warning, rel,
                "top-level key \"" + key + "\" is not valid JSON; ignored");
        else
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
