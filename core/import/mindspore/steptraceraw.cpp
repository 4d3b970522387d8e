// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "steptraceraw.h"

#include "import/csv/csvreader.h"
#include "util/decimal.h"

#include <algorithm>
#include <map>
#include <optional>
#include <regex>

namespace stepscope::import::mindspore {

namespace {

namespace fs = std::filesystem;

/// One reduce op's three columns (duration, start, end), found by suffix.
struct ReduceColumns
{
    std::string base; ///< "stream_520_parallel_0" or "stream_48_0_Receive-op663"
    std::string stream;
    int duration = -1;
    int start = -1;
    int end = -1;
};

bool endsWith(const std::string &s, std::string_view suffix)
{
    return s.size() >= suffix.size()
        && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<ReduceColumns> reduceColumns(const std::vector<std::string> &header)
{
    static const std::regex nameRe(R"(stream_(\d+)_(.+))");
    std::vector<ReduceColumns> out;
    std::map<std::string, std::size_t> index;
    for (std::size_t c = 9; c < header.size(); ++c) {
        std::string base = std::string(util::trimBlanks(header[c]));
        int ReduceColumns::*slot = &ReduceColumns::duration;
        if (endsWith(base, "_start_point")) {
            base.resize(base.size() - 12);
            slot = &ReduceColumns::start;
        } else if (endsWith(base, "_end_point")) {
            base.resize(base.size() - 10);
            slot = &ReduceColumns::end;
        }
        std::smatch m;
        if (!std::regex_match(base, m, nameRe))
            continue; // not a reduce column (unknown extra column)
        auto [it, inserted] = index.emplace(base, out.size());
        if (inserted)
            out.push_back(ReduceColumns {base, m[1].str()});
        out[it->second].*slot = static_cast<int>(c);
    }
    return out;
}

struct Row
{
    std::int64_t step = 0;
    std::int64_t start = 0, end = 0, fp = 0, bp = 0;
    std::int64_t interval = 0, fpbp = 0, tail = 0, total = 0;
};

double ticksToUs(std::int64_t ticks)
{
    return static_cast<double>(ticks) * static_cast<double>(TickNs) / 1000.0;
}

} // namespace

std::int64_t firstStepStartTicks(const fs::path &path)
{
    csv::CsvReader reader(path);
    if (!reader.isOpen() || !reader.readHeader())
        return -1;
    const int stepCol = reader.column("step_num");
    const int startCol = reader.column("start_point");
    while (reader.next()) {
        const auto step = util::parseInt(reader.field(stepCol));
        const auto start = util::parseInt(reader.field(startCol));
        if (step && *step > 0 && start)
            return *start >= 0 && ticksInRange(*start) ? *start : -1;
    }
    return -1;
}

namespace {

/// Turns the rows of one file into steps, reference steps and lanes (one instance per file).
class RowSink
{
public:
    RowSink(
        const fs::path &path, const ImportContext &ctx, std::int32_t rank, model::TraceBuilder &out)
        : m_path(path)
        , m_ctx(ctx)
        , m_rank(rank)
        , m_out(out)
        , m_origin(out.trace().originNs)
        , m_source(ctx.relative(path))
        , m_phaseNames {
              out.intern("iteration_interval"), out.intern("fp_and_bp"), out.intern("tail")}
    {
    }

    const std::string &source() const { return m_source; }
    void addStep(const Row &r);
    void addReduces(const csv::CsvReader &reader, const std::vector<ReduceColumns> &reduces);

private:
    std::int64_t rel(std::int64_t ticks) const { return ticks * TickNs - m_origin; }
    model::TrackId laneTrack(const std::string &stream);

    const fs::path &m_path;
    const ImportContext &m_ctx;
    std::int32_t m_rank;
    model::TraceBuilder &m_out;
    std::int64_t m_origin;
    std::string m_source;
    model::StringId m_phaseNames[3];
    model::TrackId m_stepTrack;
    std::map<std::string, model::TrackId> m_streamTrack;
};

void RowSink::addStep(const Row &r)
{
    model::Trace &trace = m_out.trace();
    trace.steps.push_back(model::Step {r.step, rel(r.start), rel(r.end)});

    model::ReferenceStep ref;
    ref.rank = m_rank;
    ref.step = r.step;
    ref.source = m_source;
    ref.valuesUs = {{"total", ticksToUs(r.total)}, {"iteration_interval", ticksToUs(r.interval)},
        {"fp_and_bp", ticksToUs(r.fpbp)}, {"tail", ticksToUs(r.tail)}};
    trace.referenceSteps.push_back(std::move(ref));

    if (!m_stepTrack.isValid()) {
        model::TrackInfo info;
        info.kind = model::TrackKind::Synthetic;
        info.rank = m_rank;
        info.processId = "Step Trace";
        info.processName = "Step Trace";
        info.threadId = "steps";
        info.threadName = "Steps";
        m_stepTrack = m_out.addTrack(info);
    }
    model::TrackBuilder &tb = m_out.track(m_stepTrack);
    tb.add(rel(r.start), (r.end - r.start) * TickNs, m_out.intern("Step " + std::to_string(r.step)),
        model::Category::Annotation);
    // Phases laid end to end from the step start (fp_point/bp_point are where they meet; the
    // durations are the profiler's, and add up to total on every real row).
    const std::int64_t phaseTicks[3] = {r.interval, r.fpbp, r.tail};
    std::int64_t at = r.start;
    for (int p = 0; p < 3; ++p) {
        if (phaseTicks[p] > 0)
            tb.add(rel(at), phaseTicks[p] * TickNs, m_phaseNames[p],
                p == 0 ? model::Category::DataLoading : model::Category::Annotation);
        at += phaseTicks[p];
    }
}

model::TrackId RowSink::laneTrack(const std::string &stream)
{
    auto it = m_streamTrack.find(stream);
    if (it == m_streamTrack.end()) {
        model::TrackInfo info;
        info.kind = model::TrackKind::CommunicationGroup;
        info.rank = m_rank;
        info.processId = "Step Trace";
        info.processName = "Step Trace";
        info.threadId = stream;
        info.threadName = "stream_" + stream;
        it = m_streamTrack.emplace(stream, m_out.addTrack(info)).first;
    }
    return it->second;
}

void RowSink::addReduces(const csv::CsvReader &reader, const std::vector<ReduceColumns> &reduces)
{
    for (const ReduceColumns &rc : reduces) {
        const auto s = util::parseInt(reader.field(rc.start));
        const auto e = util::parseInt(reader.field(rc.end));
        if (!s || !e) {
            m_ctx.warn(
                m_path, "skipped a reduce entry whose start/end are not integers", reader.line());
            continue;
        }
        if (!ticksInRange(*s) || !ticksInRange(*e)) {
            m_ctx.warn(
                m_path, "skipped a reduce entry whose start/end are beyond 2^58 ns", reader.line());
            continue;
        }
        if (*s == 0 && *e == 0)
            continue; // the op did not run in this step
        if (*e < *s) {
            m_ctx.warn(m_path, "skipped a reduce entry that ends before it starts", reader.line());
            continue;
        }
        m_out.track(laneTrack(rc.stream))
            .add(
                rel(*s), (*e - *s) * TickNs, m_out.intern(rc.base), model::Category::Communication);
    }
}

} // namespace

std::size_t readStepTraceRaw(const fs::path &path, const ImportContext &ctx, std::int32_t rank,
    model::TraceBuilder &out, const StepTraceOptions &options)
{
    if (ctx.progress != nullptr)
        ctx.progress->setStage("Reading " + ctx.relative(path));
    csv::CsvReader reader(path, &ctx);
    if (!reader.isOpen() || !reader.readHeader())
        return 0;
    const char *names[] = {"step_num", "start_point", "end_point", "fp_point", "bp_point",
        "iteration_interval", "fp_and_bp", "tail", "total"};
    int cols[9];
    for (int i = 0; i < 9; ++i) {
        cols[i] = reader.column(names[i]);
        if (cols[i] < 0) {
            ctx.error(path,
                std::string("missing column '") + names[i]
                    + "': not a step_trace_raw file this version can read",
                1);
            return 0;
        }
    }
    const std::vector<ReduceColumns> reduces = reduceColumns(reader.header());
    RowSink sink(path, ctx, rank, out);
    std::size_t steps = 0;
    while (reader.next()) {
        const std::string_view stepText = reader.field(cols[0]);
        if (stepText == "-" || stepText == "0")
            continue; // the average row (docs/formats.md §4.2), not a step
        std::int64_t v[9] = {};
        bool ok = true;
        for (int i = 0; i < 9 && ok; ++i) {
            const auto parsed = util::parseInt(reader.field(cols[i]));
            ok = parsed.has_value();
            v[i] = parsed.value_or(0);
        }
        if (!ok || v[0] < 0) {
            ctx.warn(path, "skipped a row whose step number or tick columns are not integers",
                reader.line());
            continue;
        }
        if (!std::all_of(v + 1, v + 9, ticksInRange)) {
            ctx.warn(path, "skipped a row with a tick value beyond 2^58 ns", reader.line());
            continue;
        }
        const Row r {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
        if (r.end < r.start) {
            ctx.warn(
                path, "skipped a row whose end_point is before its start_point", reader.line());
            continue;
        }
        sink.addStep(r);
        if (options.reduceLanes)
            sink.addReduces(reader, reduces);
        ++steps;
    }
    if (steps > 0)
        out.trace().metadata.sourceFiles.push_back(sink.source());
    return steps;
}

} // namespace stepscope::import::mindspore
