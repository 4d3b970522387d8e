// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "losslog.h"

#include "jsonlogs.h"
#include "linecleaner.h"
#include "linereader.h"
#include "logbuilder.h"
#include "util/regularfile.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <map>
#include <memory>
#include <set>

namespace stepscope::import::losslog {

namespace fs = std::filesystem;

std::string_view logFormatName(LogFormat f)
{
    switch (f) {
    case LogFormat::Unknown:
        return "unknown";
    case LogFormat::HfTrainerState:
        return "Hugging Face trainer_state.json";
    case LogFormat::MegatronGolden:
        return "Megatron golden values JSON";
    case LogFormat::TrainerLogJsonl:
        return "LLaMA-Factory trainer_log.jsonl";
    case LogFormat::MetricsCsv:
        return "metrics CSV";
    case LogFormat::ConsoleLog:
        return "console log";
    }
    return "unknown";
}

namespace {

constexpr std::size_t ChunkBytes = 4u << 20;
constexpr std::uintmax_t MaxJsonBytes = 256u << 20;

std::string_view firstLine(std::string_view text, std::size_t from = 0)
{
    // First non-empty line, BOM and leading blank lines skipped.
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    while (from < text.size()) {
        std::size_t nl = text.find('\n', from);
        std::string_view line = text.substr(from, nl == std::string_view::npos ? nl : nl - from);
        if (!trim(line).empty())
            return line;
        if (nl == std::string_view::npos)
            break;
        from = nl + 1;
    }
    return {};
}

// `'key': scalar` pairs of a printed Python config dict, kept while no record was seen.
void collectConfig(std::string_view line, model::TrainingLog &log)
{
    if (log.recordCount > 0 || log.config.size() >= 500
        || line.find("': ") == std::string_view::npos)
        return;
    std::size_t pos = 0;
    while ((pos = line.find('\'', pos)) != std::string_view::npos) {
        std::size_t close = line.find("': ", pos + 1);
        if (close == std::string_view::npos)
            return;
        std::string_view key = line.substr(pos + 1, close - pos - 1);
        bool word = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
        });
        std::string_view rest = line.substr(close + 3);
        std::size_t end = rest.find_first_of(",}");
        std::string_view value = trim(rest.substr(0, end));
        bool scalar =
            !value.empty() && value.front() != '{' && value.front() != '[' && value.front() != '(';
        if (word && scalar) {
            bool known = std::any_of(log.config.begin(), log.config.end(),
                [&](const auto &kv) { return kv.first == key; });
            if (!known)
                log.config.emplace_back(std::string(key), std::string(value));
        }
        pos = word ? close + 3 : pos + 1;
    }
}

/// Calls `onLine(text, lineNo)` for every line of the file, reading 4 MiB at a time.
template <typename OnLine>
bool forEachLine(const fs::path &file, const ImportContext *context, OnLine onLine)
{
    std::ifstream in;
    if (!util::openRegular(in, file))
        return false;
    std::string carry;
    // No bigger than the file (plus room to see its end): a 4 MiB buffer zeroed for a
    // small log was most of the cost of reading it.
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(file, ec);
    std::string chunk(ec
            ? ChunkBytes
            : static_cast<std::size_t>(std::clamp<std::uintmax_t>(size + 1, 4096, ChunkBytes)),
        '\0');
    std::int64_t lineNo = 0;
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0)
            break;
        carry.append(chunk.data(), got);
        std::size_t start = 0;
        std::size_t nl = 0;
        while ((nl = carry.find('\n', start)) != std::string::npos) {
            onLine(std::string_view(carry).substr(start, nl - start), ++lineNo);
            start = nl + 1;
        }
        carry.erase(0, start);
        if (context && context->progress) {
            context->progress->advance(got);
            context->progress->checkCancel();
        }
    }
    if (!carry.empty())
        onLine(std::string_view(carry), ++lineNo);
    return true;
}

std::string readHead(const fs::path &file, std::size_t bytes)
{
    std::ifstream in;
    if (!util::openRegular(in, file))
        return {};
    // Only what the file holds: detection asks for up to 8 MiB of every candidate file.
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(file, ec);
    if (!ec)
        bytes = static_cast<std::size_t>(std::min<std::uintmax_t>(bytes, size + 1));
    std::string text(bytes, '\0');
    in.read(text.data(), static_cast<std::streamsize>(bytes));
    text.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    return text;
}

std::string readAll(const fs::path &file)
{
    std::ifstream in;
    if (!util::openRegular(in, file))
        return {};
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// trainer_log.jsonl prints no step time, only the elapsed time (1 s resolution): the step
// time between two records is Δelapsed / Δstep (docs/formats.md §10.9).
void deriveStepTimeFromElapsed(LogBuilder &b)
{
    const model::LogSeries *elapsed = b.log().find("elapsed_time");
    if (!elapsed || elapsed->size() < 2)
        return;
    model::LogSeries derived;
    for (std::size_t i = 1; i < elapsed->size(); ++i) {
        std::int64_t ds = elapsed->steps[i] - elapsed->steps[i - 1];
        if (ds <= 0)
            continue;
        derived.add(elapsed->steps[i],
            (elapsed->values[i] - elapsed->values[i - 1]) / static_cast<double>(ds),
            elapsed->lines[i]);
    }
    model::LogSeries &out = b.series(
        "step time (from elapsed_time)", model::LogSeriesKind::StepTime, "s", elapsed->run);
    out.steps = std::move(derived.steps);
    out.values = std::move(derived.values);
    out.lines = std::move(derived.lines);
    out.duplicate = std::move(derived.duplicate);
}

std::vector<std::unique_ptr<LineReader>> makeReaders()
{
    std::vector<std::unique_ptr<LineReader>> readers;
    readers.push_back(makeMegatronReader());
    readers.push_back(makeGrpoReader());
    readers.push_back(makeMindFormersReader());
    readers.push_back(makeDeepSpeedReader());
    readers.push_back(makeMindSporeReader());
    readers.push_back(makeTorchtitanReader());
    return readers;
}

/// Record lines that repeat one of the last few, byte for byte and of the same rank: a log
/// written twice (by `tee` and a redirect, or two ranks printing the same lines), whose
/// steps would otherwise read as restarts (a step that does not grow opens a new run).
class RepeatedRecords
{
public:
    bool seen(std::string_view text, std::int32_t rank, std::int64_t lineNo)
    {
        for (const auto &[recent, recentRank] : m_recent) {
            if (recentRank == rank && recent == text) {
                if (m_count++ == 0)
                    m_firstLine = lineNo;
                return true;
            }
        }
        return false;
    }
    void remember(std::string_view text, std::int32_t rank)
    {
        m_recent[m_next].first.assign(text); // the slot's buffer is reused
        m_recent[m_next].second = rank;
        m_next = (m_next + 1) % m_recent.size();
    }
    std::string note() const
    {
        if (m_count == 0)
            return {};
        const std::string where = m_count == 1
            ? " record line is a repeat, byte for byte, of one just before it (line "
            : " record lines are repeats, byte for byte, of ones just before them (first at line ";
        return std::to_string(m_count) + where + std::to_string(m_firstLine)
            + "): the log was written twice (tee, or two ranks printing the same lines?); each "
              "record is read once";
    }

private:
    std::array<std::pair<std::string, std::int32_t>, 8> m_recent {};
    std::size_t m_next = 0;
    std::int64_t m_count = 0;
    std::int64_t m_firstLine = 0;
};

void readConsole(const fs::path &file, const ImportContext *context, const LogReadOptions &options,
    LogBuilder &b)
{
    auto readers = makeReaders();
    const std::size_t builtIn = readers.size();
    for (const UserPattern &pattern : options.userPatterns)
        if (!pattern.name.empty() && !pattern.valueKey.empty())
            readers.push_back(makeUserPatternReader(pattern));
    LineCleaner cleaner;
    model::TrainingLog &log = b.log();
    RepeatedRecords repeats;
    forEachLine(file, context, [&](std::string_view raw, std::int64_t lineNo) {
        ++log.lineCount;
        CleanLine line = cleaner.clean(raw);
        if (line.hadControl)
            ++log.controlLineCount;
        if (line.text.empty())
            return;
        // The built-in formats print the step in each record: a record line seen again is the
        // log written twice, not a new step (a user pattern may count its lines as steps).
        const bool repeat = repeats.seen(line.text, line.rank, lineNo);
        bool record = false; // by a built-in reader
        for (std::size_t i = repeat ? builtIn : 0; i < readers.size(); ++i)
            record = (readers[i]->feed(line.text, line.rank, lineNo, b) && i < builtIn) || record;
        if (record)
            repeats.remember(line.text, line.rank);
        collectConfig(line.text, log);
    });
    for (auto &reader : readers)
        reader->finish(b);
    if (const std::string note = repeats.note(); !note.empty())
        b.note(note);
}

// Detects the format of `file` and reads it into `b`.
LogFormat readInto(const fs::path &file, const ImportContext *context,
    const LogReadOptions &options, LogBuilder &b)
{
    std::error_code ec;
    std::uintmax_t size = fs::file_size(file, ec);
    std::string head = readHead(file, 64u << 10);
    std::string_view first = firstLine(head);
    std::string_view firstTrim = trim(first);
    if (!firstTrim.empty() && firstTrim.front() == '{') {
        if (isTrainerLogLine(firstTrim)) {
            forEachLine(file, context, [&](std::string_view line, std::int64_t lineNo) {
                ++b.log().lineCount;
                readTrainerLogLine(line, lineNo, b);
            });
            deriveStepTimeFromElapsed(b);
            return LogFormat::TrainerLogJsonl;
        }
        if (!ec && size <= MaxJsonBytes) {
            std::string text = readAll(file);
            if (context && context->progress)
                context->progress->advance(text.size());
            JsonLogKind kind = readJsonDocument(text, b);
            if (kind == JsonLogKind::HfTrainerState)
                return LogFormat::HfTrainerState;
            if (kind == JsonLogKind::MegatronGolden)
                return LogFormat::MegatronGolden;
        }
    }
    if (!first.empty() && isMetricsCsvHeader(first)) {
        std::unique_ptr<MetricsCsvReader> csv;
        forEachLine(file, context, [&](std::string_view line, std::int64_t lineNo) {
            if (!csv) {
                if (!trim(line).empty())
                    csv = std::make_unique<MetricsCsvReader>(line);
                return;
            }
            ++b.log().lineCount;
            csv->feed(line, lineNo, b);
        });
        return LogFormat::MetricsCsv;
    }
    readConsole(file, context, options, b);
    return b.log().recordCount > 0 ? LogFormat::ConsoleLog : LogFormat::Unknown;
}

} // namespace

LogFormat detectLogFormat(const fs::path &file, std::size_t scanBytes)
{
    try {
        std::string head = readHead(file, std::min<std::size_t>(scanBytes, 64u << 10));
        std::string_view first = trim(firstLine(head));
        if (!first.empty() && first.front() == '{') {
            if (isTrainerLogLine(first))
                return LogFormat::TrainerLogJsonl;
            // Parse the whole document only when its head names a key of ours: profile
            // folders hold JSON traces of hundreds of MB.
            bool ours = head.find("\"log_history\"") != std::string::npos
                || head.find("\"start_step\"") != std::string::npos;
            std::error_code ec;
            std::uintmax_t size = fs::file_size(file, ec);
            if (ours && !ec && size <= MaxJsonBytes) {
                LogBuilder b;
                JsonLogKind kind = readJsonDocument(readAll(file), b);
                if (kind == JsonLogKind::HfTrainerState)
                    return LogFormat::HfTrainerState;
                if (kind == JsonLogKind::MegatronGolden)
                    return LogFormat::MegatronGolden;
            }
            // A console log may start with a printed Python dict (MindSpore MMoE's config):
            // only .json files stop here (profile traces are JSON of hundreds of MB).
            const std::string ext = util::asciiLower(file.extension().string());
            if (ext == ".json" || ext == ".gz")
                return LogFormat::Unknown;
        }
        if (!first.empty() && isMetricsCsvHeader(first))
            return LogFormat::MetricsCsv;
        // Console: run the line readers over the first scanBytes.
        std::string text = readHead(file, scanBytes);
        auto readers = makeReaders();
        LineCleaner cleaner;
        LogBuilder b;
        std::size_t pos = 0;
        std::int64_t lineNo = 0;
        while (pos < text.size() && b.log().recordCount == 0) {
            std::size_t nl = text.find('\n', pos);
            std::string_view raw = std::string_view(text).substr(
                pos, nl == std::string::npos ? std::string::npos : nl - pos);
            CleanLine line = cleaner.clean(raw);
            ++lineNo;
            for (auto &reader : readers)
                reader->feed(line.text, line.rank, lineNo, b);
            if (nl == std::string::npos)
                break;
            pos = nl + 1;
        }
        return b.log().recordCount > 0 ? LogFormat::ConsoleLog : LogFormat::Unknown;
    } catch (const std::exception &) {
        return LogFormat::Unknown;
    }
}

model::TrainingLog readTrainingLog(
    const fs::path &file, const ImportContext &context, const LogReadOptions &options)
{
    LogBuilder b;
    b.log().source = file.generic_string();
    if (context.progress)
        context.progress->setStage("Reading training log " + context.relative(file));
    if (const std::string why = util::whyNotRegular(file); !why.empty()) {
        context.error(file, "training log skipped: " + why);
        return b.finish();
    }
    {
        std::ifstream probe(file, std::ios::binary);
        if (!probe) {
            context.error(file, "training log cannot be opened for reading");
            return b.finish();
        }
    }
    LogFormat format = LogFormat::Unknown;
    try {
        format = readInto(file, &context, options, b);
    } catch (const util::Cancelled &) {
        throw;
    } catch (const std::exception &e) {
        context.error(file, std::string("training log could not be read: ") + e.what());
    }
    for (const std::string &note : b.notes())
        context.info(file, note);
    model::TrainingLog log = b.finish();
    for (const model::LogIssue &issue : log.issues)
        context.warn(file, issue.message, issue.line);
    if (log.badLineCount > log.issues.size())
        context.warn(file,
            std::to_string(log.badLineCount - log.issues.size())
                + " more unreadable record lines not listed");
    if (log.empty())
        context.error(file,
            "no training-log records found (formats: MindSpore, MindFormers, "
            "Megatron/MindSpeed, DeepSpeed, torchtitan, nanoGPT, "
            "trainer_state.json, golden values, trainer_log.jsonl, metrics CSV)");
    else if (log.producer.empty())
        log.producer = std::string(logFormatName(format));
    return log;
}

model::TrainingLog readTrainingLog(const fs::path &file, model::LoadReport &report)
{
    ImportContext context;
    context.root = file.parent_path();
    context.report = &report;
    return readTrainingLog(file, context);
}

std::vector<fs::path> findTrainingLogs(const fs::path &dir, int maxDepth)
{
    std::vector<fs::path> found;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return found;
    static const std::set<std::string> extensions = {
        ".log", ".txt", ".out", ".json", ".jsonl", ".csv"};
    fs::path bestState;
    double bestStep = -1;
    try {
        fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
        for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (it.depth() >= maxDepth)
                it.disable_recursion_pending();
            const fs::directory_entry &entry = *it;
            std::error_code fec;
            if (!entry.is_regular_file(fec))
                continue;
            const std::string ext = util::asciiLower(entry.path().extension().string());
            if (!extensions.count(ext))
                continue;
            std::uintmax_t size = entry.file_size(fec);
            if (fec || size == 0 || size > (std::uintmax_t {2} << 30))
                continue;
            if ((ext == ".json") && size > MaxJsonBytes)
                continue;
            LogFormat format = detectLogFormat(entry.path());
            if (format == LogFormat::Unknown)
                continue;
            if (format == LogFormat::HfTrainerState) {
                nlohmann::json doc = nlohmann::json::parse(readAll(entry.path()), nullptr, false);
                double step =
                    doc.is_object() && doc.contains("global_step") && doc["global_step"].is_number()
                    ? doc["global_step"].get<double>()
                    : 0;
                if (step > bestStep) {
                    bestStep = step;
                    bestState = entry.path();
                }
                continue;
            }
            found.push_back(entry.path());
        }
    } catch (const std::exception &) {
        // A folder that vanished while walking: return what was found.
    }
    if (!bestState.empty())
        found.push_back(bestState);
    std::sort(found.begin(), found.end());
    return found;
}

} // namespace stepscope::import::losslog
