// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// The structured training logs: Hugging Face trainer_state.json (§10.8), Megatron CI golden
// values (§10.6), LLaMA-Factory trainer_log.jsonl (§10.9) and metrics CSV (§10.10).
#include "jsonlogs.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace stepscope::import::losslog {

namespace {

using model::LogSeriesKind;
using nlohmann::json;

// A JSON value as a number: numbers, the strings "nan"/"inf"/numeric text; nullopt otherwise.
std::optional<double> jsonNumber(const json &v)
{
    if (v.is_number())
        return v.get<double>();
    if (v.is_string())
        return parseNumber(v.get_ref<const std::string &>());
    return std::nullopt;
}

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Kind of a key of trainer_state / trainer_log / metrics.csv.
std::pair<LogSeriesKind, std::string_view> classifyTrainerKey(std::string_view key)
{
    bool eval = key.substr(0, 5) == "eval_" || key.substr(0, 4) == "val_"
        || key.substr(0, 4) == "val/" || key.substr(0, 5) == "eval/";
    if (key.find("loss") != std::string_view::npos)
        return {eval ? LogSeriesKind::EvalLoss : LogSeriesKind::Loss, {}};
    if (key.find("perplexity") != std::string_view::npos || key == "ppl")
        return {LogSeriesKind::Perplexity, {}};
    if (key == "learning_rate" || key == "lr" || key.substr(0, 3) == "lr-"
        || key.substr(0, 3) == "lr/")
        return {LogSeriesKind::LearningRate, {}};
    if (key == "grad_norm")
        return {LogSeriesKind::GradNorm, {}};
    if (key == "epoch")
        return {LogSeriesKind::Epoch, {}};
    if (endsWith(key, "_runtime"))
        return {LogSeriesKind::Other, "s"};
    if (endsWith(key, "samples_per_second"))
        return {LogSeriesKind::Throughput, "samples/s"};
    if (endsWith(key, "steps_per_second"))
        return {LogSeriesKind::Throughput, "steps/s"};
    return {LogSeriesKind::Other, {}};
}

void readHfTrainerState(const json &doc, LogBuilder &b)
{
    b.noteProducer(1, "Hugging Face trainer_state.json");
    const json &history = doc.at("log_history");
    std::int64_t index = 0;
    for (const json &entry : history) {
        ++index;
        ++b.log().lineCount;
        if (!entry.is_object() || !entry.contains("step") || !entry["step"].is_number()) {
            b.log().addIssue(
                index, "log_history entry " + std::to_string(index) + " has no numeric `step`");
            continue;
        }
        auto step = entry["step"].get<std::int64_t>();
        bool training = entry.contains("loss");
        bool summary = entry.contains("train_runtime") || entry.contains("train_loss");
        b.countRecord();
        for (const auto &[key, value] : entry.items()) {
            if (key == "step")
                continue;
            auto v = jsonNumber(value);
            if (!v)
                continue;
            if (summary) {
                if (key != "epoch")
                    b.log().scalars.emplace_back(key, *v);
                continue;
            }
            auto [kind, unit] = classifyTrainerKey(key);
            // The epoch, lr and grad norm series follow the training entries only, so
            // eval entries do not add a second point per step.
            if (!training && (kind == LogSeriesKind::Epoch || kind == LogSeriesKind::LearningRate))
                continue;
            b.add(key, kind, unit, 0, step, *v, 0);
        }
    }
    if (doc.contains("global_step") && doc["global_step"].is_number())
        b.log().scalars.emplace_back("global_step", doc["global_step"].get<double>());
    if (doc.contains("max_steps") && doc["max_steps"].is_number())
        b.log().scalars.emplace_back("total_steps", doc["max_steps"].get<double>());
}

// Megatron's golden values write a step they did not record as "nan" (formats.md §10.6):
// steps 1-50 of a resumed run, 3 801 of BERT's 4 001 iteration times (timed every 100th
// step). Such points before the series' last number are left out, and the load says so. A
// "nan" after the last number stays a NaN point: a loss that diverged is written the same
// way, and the health check must see it.
void leaveOutUnrecorded(model::LogSeries &series, LogBuilder &b)
{
    std::size_t end = series.size();
    while (end > 0 && std::isnan(series.values[end - 1]))
        --end;
    std::size_t kept = 0;
    std::size_t left = 0;
    std::int64_t firstStep = 0;
    std::int64_t lastStep = 0;
    for (std::size_t i = 0; i < series.size(); ++i) {
        if (i < end && std::isnan(series.values[i])) {
            firstStep = left++ == 0 ? series.steps[i] : firstStep;
            lastStep = series.steps[i];
            continue;
        }
        series.steps[kept] = series.steps[i];
        series.values[kept] = series.values[i];
        series.lines[kept] = series.lines[i];
        series.duplicate[kept] = series.duplicate[i];
        ++kept;
    }
    if (left == 0)
        return;
    b.note("`" + series.name + "`: " + std::to_string(left) + " of " + std::to_string(series.size())
        + " values between steps " + std::to_string(firstStep) + " and " + std::to_string(lastStep)
        + " are \"nan\", the golden values' mark of a step not recorded: left out");
    series.steps.resize(kept);
    series.values.resize(kept);
    series.lines.resize(kept);
    series.duplicate.resize(kept);
}

void readGolden(const json &doc, LogBuilder &b)
{
    b.noteProducer(2, "Megatron golden values JSON");
    for (const auto &[name, metric] : doc.items()) {
        if (!metric.is_object()) {
            if (auto v = jsonNumber(metric))
                b.log().scalars.emplace_back(name, *v);
            continue;
        }
        if (!metric.contains("values"))
            continue;
        LogSeriesKind kind = LogSeriesKind::Other;
        std::string_view unit;
        if (endsWith(name, "loss"))
            kind = LogSeriesKind::Loss;
        else if (name == "iteration-time")
            kind = LogSeriesKind::StepTime, unit = "s";
        else if (name.substr(0, 4) == "mem-")
            kind = LogSeriesKind::Memory, unit = endsWith(name, "bytes") ? "bytes" : "";
        else if (name == "throughput")
            kind = LogSeriesKind::Throughput;
        const json &values = metric["values"];
        model::LogSeries &series = b.series(name, kind, unit, 0);
        const std::string &metricName = name; // C++17 lambdas cannot capture a binding
        // A value that is no number is reported and left out: the step has no point.
        auto pointValue = [&](const json &v) {
            auto n = jsonNumber(v);
            if (!n)
                b.log().addIssue(
                    0, "`" + metricName + "`: a value is neither a number nor \"nan\"");
            return n;
        };
        if (values.is_object()) {
            for (const auto &[key, v] : values.items()) {
                const auto step = stepFromDouble(parseNumber(key));
                if (!step) {
                    b.log().addIssue(0, "`" + name + "`: step key \"" + key + "\" is not a number");
                    continue;
                }
                if (const auto n = pointValue(v))
                    series.add(*step, *n);
            }
            // Object keys come sorted as text ("10" < "5"): restore step order.
            std::vector<std::size_t> order(series.size());
            for (std::size_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::stable_sort(order.begin(), order.end(),
                [&](std::size_t x, std::size_t y) { return series.steps[x] < series.steps[y]; });
            model::LogSeries sorted = series;
            for (std::size_t i = 0; i < order.size(); ++i) {
                sorted.steps[i] = series.steps[order[i]];
                sorted.values[i] = series.values[order[i]];
            }
            series = std::move(sorted);
        } else if (values.is_array()) {
            std::int64_t start = metric.value("start_step", std::int64_t {0});
            std::int64_t interval = metric.value("step_interval", std::int64_t {1});
            std::int64_t i = 0;
            for (const json &v : values) {
                if (const auto n = pointValue(v))
                    series.add(start + interval * i, *n);
                ++i;
            }
        }
        b.log().lineCount += values.is_structured() ? values.size() : 0;
        leaveOutUnrecorded(series, b);
        b.log().recordCount += series.size();
    }
}

} // namespace

namespace {

// Python's json.dump writes NaN / Infinity / -Infinity, which strict JSON rejects: turn
// them into the strings "nan" / "inf" / "-inf" (outside string literals only).
std::string quoteNonFiniteLiterals(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 64);
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (inString) {
            out.push_back(c);
            if (c == '\\' && i + 1 < text.size())
                out.push_back(text[++i]);
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"')
            inString = true;
        std::string_view rest = text.substr(i);
        if (rest.substr(0, 3) == "NaN") {
            out += "\"nan\"";
            i += 2;
        } else if (rest.substr(0, 9) == "-Infinity") {
            out += "\"-inf\"";
            i += 8;
        } else if (rest.substr(0, 8) == "Infinity") {
            out += "\"inf\"";
            i += 7;
        } else {
            out.push_back(c);
        }
    }
    return out;
}

} // namespace

namespace {

/// End (one past) of the JSON object starting at text[from] == '{', or npos when the text
/// ends first. Strings and escapes are respected.
std::size_t objectEnd(std::string_view text, std::size_t from)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = from; i < text.size(); ++i) {
        char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return std::string_view::npos;
}

json parseLenient(std::string_view text)
{
    json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded()
        && (text.find("NaN") != std::string_view::npos
            || text.find("Infinity") != std::string_view::npos))
        doc = json::parse(quoteNonFiniteLiterals(text), nullptr, false);
    return doc;
}

/// A trainer_state.json that is not one JSON document (truncated while being written or
/// copied): the complete log_history entries before the damage are read, with one issue
/// saying where the damage is. False when the text has no log_history array.
bool salvageTrainerState(std::string_view text, LogBuilder &b)
{
    const std::size_t key = text.find("\"log_history\"");
    if (key == std::string_view::npos)
        return false;
    std::size_t pos = text.find_first_not_of(" \t\r\n", key + 13);
    if (pos == std::string_view::npos || text[pos] != ':')
        return false;
    pos = text.find_first_not_of(" \t\r\n", pos + 1);
    if (pos == std::string_view::npos || text[pos] != '[')
        return false;
    json doc = json::object();
    doc["log_history"] = json::array();
    // Scalars printed before the history (global_step, max_steps) are kept when readable.
    for (std::string_view name : {"global_step", "max_steps"}) {
        const std::size_t at = text.substr(0, key).find("\"" + std::string(name) + "\"");
        if (at == std::string_view::npos)
            continue;
        std::size_t colon = text.find(':', at);
        if (colon == std::string_view::npos || colon > key)
            continue;
        if (auto v = parseLeadingNumber(trim(text.substr(colon + 1, 32))))
            doc[std::string(name)] = *v;
    }
    std::size_t damage = std::string_view::npos;
    ++pos;
    while (true) {
        pos = text.find_first_not_of(" \t\r\n,", pos);
        if (pos == std::string_view::npos) {
            damage = text.size();
            break;
        }
        if (text[pos] == ']')
            break;
        const std::size_t end = text[pos] == '{' ? objectEnd(text, pos) : std::string_view::npos;
        json entry = end == std::string_view::npos ? json(nullptr)
                                                   : parseLenient(text.substr(pos, end - pos));
        if (end == std::string_view::npos || entry.is_discarded()) {
            damage = pos;
            break;
        }
        doc["log_history"].push_back(std::move(entry));
        pos = end;
    }
    readHfTrainerState(doc, b);
    const std::size_t kept = doc["log_history"].size();
    b.log().addIssue(0,
        "trainer_state.json is not complete JSON (truncated?): "
            + (damage == std::string_view::npos
                    ? std::string("log_history is whole, the rest of the document is damaged")
                    : "log_history breaks off at byte " + std::to_string(damage))
            + "; the " + std::to_string(kept) + " complete entries before it are kept");
    return true;
}

} // namespace

JsonLogKind readJsonDocument(std::string_view text, LogBuilder &b)
{
    json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded()
        && (text.find("NaN") != std::string_view::npos
            || text.find("Infinity") != std::string_view::npos)) {
        std::string fixed = quoteNonFiniteLiterals(text);
        doc = json::parse(fixed, nullptr, false);
    }
    if (doc.is_discarded()) {
        try {
            return salvageTrainerState(text, b) ? JsonLogKind::HfTrainerState : JsonLogKind::None;
        } catch (const json::exception &) {
            return JsonLogKind::None;
        }
    }
    if (!doc.is_object())
        return JsonLogKind::None;
    try {
        if (doc.contains("log_history") && doc["log_history"].is_array()
            && doc.contains("global_step")) {
            readHfTrainerState(doc, b);
            return JsonLogKind::HfTrainerState;
        }
        for (const auto &item : doc.items()) {
            const json &v = item.value();
            if (v.is_object() && v.contains("values") && v.contains("start_step")) {
                readGolden(doc, b);
                return JsonLogKind::MegatronGolden;
            }
        }
    } catch (const json::exception &e) {
        b.log().addIssue(0, std::string("JSON structure not as expected: ") + e.what());
        return JsonLogKind::HfTrainerState;
    }
    return JsonLogKind::None;
}

bool isTrainerLogLine(std::string_view line)
{
    line = trim(line);
    if (line.empty() || line.front() != '{')
        return false;
    // Detection asks this of the first line of every JSON file beside a profile (a one-line
    // trace of MBs): parse only a line that names both keys.
    if (line.find("\"current_steps\"") == std::string_view::npos
        || line.find("\"total_steps\"") == std::string_view::npos)
        return false;
    json doc = json::parse(line.begin(), line.end(), nullptr, false);
    return !doc.is_discarded() && doc.is_object() && doc.contains("current_steps")
        && doc.contains("total_steps");
}

void readTrainerLogLine(std::string_view line, std::int64_t lineNo, LogBuilder &b)
{
    line = trim(line);
    if (line.empty())
        return;
    json doc = json::parse(line.begin(), line.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        b.log().addIssue(lineNo, "not a JSON object");
        return;
    }
    const auto step = stepFromDouble(
        doc.contains("current_steps") ? jsonNumber(doc["current_steps"]) : std::nullopt);
    if (!step) {
        b.log().addIssue(lineNo, "JSON line without numeric `current_steps`");
        return;
    }
    b.noteProducer(3, "LLaMA-Factory trainer_log.jsonl");
    b.countRecord();
    const std::int64_t s = *step;
    if (auto total = stepFromDouble(jsonNumber(doc["total_steps"])))
        b.noteTotalSteps(*total);
    for (const auto &[key, value] : doc.items()) {
        if (key == "current_steps" || key == "total_steps" || key == "percentage")
            continue;
        if (key == "elapsed_time" || key == "remaining_time") {
            if (value.is_string())
                if (auto t = parseTimedelta(value.get_ref<const std::string &>()))
                    b.add(key, LogSeriesKind::Other, "s", 0, s, *t, lineNo);
            continue;
        }
        auto v = jsonNumber(value);
        if (!v)
            continue;
        auto [kind, unit] = classifyTrainerKey(key);
        b.add(key, kind, unit, 0, s, *v, lineNo);
    }
}

namespace {

std::vector<std::string_view> splitCsv(std::string_view line)
{
    std::vector<std::string_view> cells;
    std::size_t pos = 0;
    while (true) {
        std::size_t comma = line.find(',', pos);
        std::string_view cell = line.substr(
            pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        cell = trim(cell);
        if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"')
            cell = cell.substr(1, cell.size() - 2);
        cells.push_back(cell);
        if (comma == std::string_view::npos)
            break;
        pos = comma + 1;
    }
    return cells;
}

} // namespace

bool isMetricsCsvHeader(std::string_view header)
{
    header = trim(header);
    if (header.substr(0, 11) == "epoch,step,")
        return true;
    // Most first lines tried are not CSV (a one-line JSON trace of MBs): no split then.
    if (header.find("step") == std::string_view::npos
        || header.find("loss") == std::string_view::npos)
        return false;
    bool step = false;
    bool loss = false;
    for (std::string_view cell : splitCsv(header)) {
        step = step || cell == "step";
        loss = loss || cell.find("loss") != std::string_view::npos;
    }
    return step && loss;
}

MetricsCsvReader::MetricsCsvReader(std::string_view header)
    : m_runs(false)
{
    // A file saved with a byte-order mark (Excel, Windows tools): not part of the first name.
    if (header.substr(0, 3) == "\xEF\xBB\xBF")
        header.remove_prefix(3);
    std::vector<std::string_view> cells = splitCsv(trim(header));
    for (std::size_t i = 0; i < cells.size(); ++i) {
        m_columns.emplace_back(cells[i]);
        if (cells[i] == "step")
            m_stepColumn = i;
    }
}

void MetricsCsvReader::feed(std::string_view line, std::int64_t lineNo, LogBuilder &b)
{
    line = trim(line);
    if (line.empty())
        return;
    std::vector<std::string_view> cells = splitCsv(line);
    if (cells.size() != m_columns.size()) {
        b.log().addIssue(lineNo,
            "row has " + std::to_string(cells.size()) + " cells, header has "
                + std::to_string(m_columns.size()));
        return;
    }
    const auto step = stepFromDouble(parseNumber(cells[m_stepColumn]));
    if (!step) {
        b.log().addIssue(lineNo, "`step` cell is not a number (or beyond 2^62)");
        return;
    }
    b.noteProducer(4, "metrics CSV");
    const std::int64_t s = *step;
    std::uint32_t run = m_runs.observe(b, s, lineNo);
    b.countRecord();
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i == m_stepColumn || cells[i].empty()) // empty cell = not logged, never 0
            continue;
        auto v = parseNumber(cells[i]);
        if (!v) {
            b.log().addIssue(lineNo, "cell of `" + m_columns[i] + "` is not a number");
            continue;
        }
        auto [kind, unit] = classifyTrainerKey(m_columns[i]);
        b.add(m_columns[i], kind, unit, run, s, *v, lineNo);
    }
}

} // namespace stepscope::import::losslog
