// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// Megatron-LM / MindSpeed / Megatron-DeepSpeed iteration lines (docs/formats.md §10.4):
//   [2025-05-06 15:54:26] iteration        1/      10 | key: value | key: value |
// found anywhere in a line (records get glued to other ranks' output), plus the per-rank
// `[Rank N] (after K iterations) memory (MB) | allocated: … |` lines.
#include "linereader.h"

namespace stepscope::import::losslog {

namespace {

using model::LogSeriesKind;

struct KeyInfo
{
    LogSeriesKind kind;
    std::string_view unit;
};

KeyInfo classifyKey(std::string_view key)
{
    std::string_view unit = unitInParens(key);
    auto endsWith = [&](std::string_view suffix) {
        return key.size() >= suffix.size() && key.substr(key.size() - suffix.size()) == suffix;
    };
    if (key == "loss scale")
        return {LogSeriesKind::LossScale, {}};
    if (endsWith("loss"))
        return {LogSeriesKind::Loss, {}};
    if (key == "learning rate")
        return {LogSeriesKind::LearningRate, {}};
    if (key == "grad norm")
        return {LogSeriesKind::GradNorm, {}};
    if (key.substr(0, 26) == "elapsed time per iteration")
        return {LogSeriesKind::StepTime, unit};
    if (key.substr(0, 14) == "throughput per")
        return {LogSeriesKind::Throughput, unit};
    if (key == "samples per second")
        return {LogSeriesKind::Throughput, "samples/s"};
    if (key == "tokens per gpu per second(tgs)")
        return {LogSeriesKind::Throughput, "tokens/s/GPU"};
    if (key == "TFLOPs")
        return {LogSeriesKind::Throughput, "TFLOP/s"};
    if (key == "number of skipped iterations" || key == "number of nan iterations")
        return {LogSeriesKind::Skipped, {}};
    return {LogSeriesKind::Other, unit};
}

// Position just after "iteration <spaces><digits>/<spaces><digits> |", reading the numbers;
// npos when `line` has no such record.
std::size_t findIteration(
    std::string_view line, std::int64_t &iteration, std::int64_t &total, std::size_t &recordStart)
{
    std::size_t pos = 0;
    while ((pos = line.find("iteration ", pos)) != std::string_view::npos) {
        std::string_view s = line.substr(pos + 9);
        std::size_t before = s.size();
        auto it = takeInt(s);
        if (it && before - s.size() > 0 && consume(s, "/")) {
            auto tot = takeInt(s);
            if (tot && consume(s, " |")) {
                iteration = *it;
                total = *tot;
                recordStart = pos;
                return line.size() - s.size();
            }
        }
        pos += 10;
    }
    return std::string_view::npos;
}

class MegatronReader final : public LineReader
{
public:
    bool feed(std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b) override
    {
        // Records and memory lines are `|`-separated: cheap test before the word search.
        if (line.find('|') == std::string_view::npos
            || line.find("iteration") == std::string_view::npos)
            return false;
        if (line.find(") memory (") != std::string_view::npos)
            return feedMemory(line, lineNo, b);
        std::int64_t iteration = 0;
        std::int64_t total = 0;
        std::size_t recordStart = 0;
        std::size_t bodyStart = findIteration(line, iteration, total, recordStart);
        if (bodyStart == std::string_view::npos)
            return false;
        b.noteProducer(PriorityMegatron, "Megatron/MindSpeed iteration log");
        std::uint32_t run = m_runs.observe(b, iteration, lineNo, rank);
        b.noteTotalSteps(total);
        b.countRecord();
        // "[YYYY-MM-DD HH:MM:SS(.ffffff)] " right before the record.
        if (recordStart >= 3 && line[recordStart - 1] == ' ' && line[recordStart - 2] == ']') {
            std::size_t open = line.rfind('[', recordStart - 2);
            if (open != std::string_view::npos) {
                if (auto t = parseTimestamp(line.substr(open + 1, recordStart - 2 - open - 1)))
                    b.add("wall time", LogSeriesKind::WallTime, "s", run, iteration, *t, lineNo,
                        rank);
            }
        }
        int bad = 0;
        // Every field of a record ends with " |": a line that does not was cut in its last
        // field (a log read while training writes it), whose number may be short ("9.4" of
        // "9.4827"). That field is not read, and said.
        std::string_view body = line.substr(bodyStart);
        while (!body.empty() && (body.back() == ' ' || body.back() == '\r' || body.back() == '\t'))
            body.remove_suffix(1);
        if (!body.empty() && body.back() != '|') {
            const std::size_t lastBar = body.rfind('|');
            const std::string_view cut = trim(body.substr(lastBar + 1));
            b.log().addIssue(lineNo,
                "iteration record cut short: its last field `" + std::string(cut.substr(0, 60))
                    + "` has no closing `|` and was not read");
            body = lastBar == std::string_view::npos ? std::string_view() : body.substr(0, lastBar);
        }
        for (std::string_view part : splitTrim(body, "|")) {
            std::size_t colon = part.find(": ");
            if (colon == std::string_view::npos) {
                ++bad;
                continue;
            }
            std::string_view key = trim(part.substr(0, colon));
            auto value = parseNumber(part.substr(colon + 2));
            if (!value) {
                ++bad;
                continue;
            }
            KeyInfo info = classifyKey(key);
            b.add(key, info.kind, info.unit, run, iteration, *value, lineNo, rank);
            // training_log() looks for a nan loss only in an iteration it skipped.
            if (key == "number of nan iterations")
                b.series(key, info.kind, info.unit, run, rank).countedIn =
                    "number of skipped iterations";
        }
        if (bad > 0)
            b.log().addIssue(lineNo, "iteration record: a field is not `key: number`");
        return true;
    }

private:
    // [Rank 4] (after 1 iterations) memory (MB) | allocated: 12480.07 | max allocated: … |
    bool feedMemory(std::string_view line, std::int64_t lineNo, LogBuilder &b)
    {
        std::size_t pos = line.find("[Rank ");
        if (pos == std::string_view::npos)
            return false;
        std::string_view s = line.substr(pos + 6);
        auto rank = takeInt(s);
        if (!rank || !consume(s, "] (after "))
            return false;
        auto after = takeInt(s);
        if (!after || !consume(s, " iterations) memory ("))
            return false;
        std::size_t close = s.find(')');
        if (close == std::string_view::npos)
            return false;
        std::string_view unit = s.substr(0, close);
        s.remove_prefix(close + 1);
        for (std::string_view part : splitTrim(s, "|")) {
            std::size_t colon = part.find(": ");
            if (colon == std::string_view::npos)
                continue;
            if (auto v = parseNumber(part.substr(colon + 2)))
                b.add(trim(part.substr(0, colon)), LogSeriesKind::Memory, unit, m_runs.run(),
                    *after, *v, lineNo, static_cast<std::int32_t>(*rank));
        }
        b.countRecord();
        return true;
    }

    RunTracker m_runs;
};

} // namespace

std::unique_ptr<LineReader> makeMegatronReader()
{
    return std::make_unique<MegatronReader>();
}

} // namespace stepscope::import::losslog
