// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// MindFormers training log (docs/formats.md §10.3): a two-line record
//   … - INFO - { Epoch:[  1/  5], step:[  100/  535], loss: 1.968, per_step_time: 1410ms, lr: …
//   … - INFO -    3.7% |█   | 5.67087 samples/s/p  1:00:32 }
// The `{ … }` body is read as a `, `-separated `key: value` list so fields added by other
// versions become series. Global step = (epoch - 1) * steps per epoch + step.
#include "linereader.h"

namespace stepscope::import::losslog {

namespace {

using model::LogSeriesKind;

// "[  1/  5]" -> (1, 5)
bool parsePair(std::string_view v, std::int64_t &a, std::int64_t &b)
{
    v = trim(v);
    if (!consume(v, "["))
        return false;
    auto x = takeInt(v);
    if (!x || !consume(v, "/"))
        return false;
    auto y = takeInt(v);
    if (!y || !consume(v, "]"))
        return false;
    a = *x;
    b = *y;
    return true;
}

class MindFormersReader final : public LineReader
{
public:
    bool feed(std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b) override
    {
        std::size_t pos = line.find("{ Epoch:");
        if (pos != std::string_view::npos)
            return feedRecord(line, pos, rank, lineNo, b);
        if (m_haveRecord && line.find("samples/s/p") != std::string_view::npos)
            return feedProgress(line, rank, lineNo, b);
        return false;
    }

private:
    bool feedRecord(std::string_view line, std::size_t pos, std::int32_t rank, std::int64_t lineNo,
        LogBuilder &b)
    {
        std::string_view body = line.substr(pos + 1);
        if (!body.empty() && body.back() == '}')
            body.remove_suffix(1);
        std::int64_t epoch = -1, epochs = 0, step = -1, stepsPerEpoch = 0;
        std::vector<std::pair<std::string_view, std::string_view>> fields;
        for (std::string_view part : splitTrim(body, ", ")) {
            std::size_t colon = part.find(':');
            if (colon == std::string_view::npos)
                continue;
            std::string_view key = trim(part.substr(0, colon));
            std::string_view value = trim(part.substr(colon + 1));
            if (key == "Epoch")
                parsePair(value, epoch, epochs);
            else if (key == "step")
                parsePair(value, step, stepsPerEpoch);
            else
                fields.emplace_back(key, value);
        }
        if (epoch < 1 || step < 0 || stepsPerEpoch <= 0) {
            b.log().addIssue(lineNo, "MindFormers record without `Epoch:[e/n], step:[s/n]`");
            return true;
        }
        b.noteProducer(PriorityMindFormers, "MindFormers training log");
        std::int64_t global = (epoch - 1) * stepsPerEpoch + step;
        std::uint32_t run = m_runs.observe(b, global, lineNo);
        b.countRecord();
        m_haveRecord = true;
        m_lastStep = global;
        if (pos > 0) {
            std::string_view prefix = line.substr(0, pos);
            if (auto t = parseTimestamp(trim(prefix)))
                b.add("wall time", LogSeriesKind::WallTime, "s", run, global, *t, lineNo, rank);
        }
        b.add("epoch", LogSeriesKind::Epoch, "", run, global, static_cast<double>(epoch), lineNo,
            rank);
        int bad = 0;
        for (const auto &[key, value] : fields) {
            if (key == "overflow cond") {
                bool overflow = value == "True";
                if (!overflow && value != "False")
                    ++bad;
                b.add(key, LogSeriesKind::Skipped, "", run, global, overflow ? 1.0 : 0.0, lineNo,
                    rank);
                continue;
            }
            std::string_view rest;
            auto v = parseLeadingNumber(value, &rest);
            if (!v) {
                ++bad;
                continue;
            }
            std::string_view unit = trim(rest);
            LogSeriesKind kind = LogSeriesKind::Other;
            if (key == "loss")
                kind = LogSeriesKind::Loss;
            else if (key == "per_step_time")
                kind = LogSeriesKind::StepTime;
            else if (key == "lr")
                kind = LogSeriesKind::LearningRate;
            else if (key == "loss_scale")
                kind = LogSeriesKind::LossScale;
            else if (key == "global_norm")
                kind = LogSeriesKind::GradNorm;
            else if (key.find("throughput") != std::string_view::npos)
                kind = LogSeriesKind::Throughput;
            b.add(key, kind, unit, run, global, *v, lineNo, rank);
        }
        if (bad > 0)
            b.log().addIssue(lineNo, "MindFormers record: a field value is not a number");
        return true;
    }

    // "   3.7% |█   | 5.67087 samples/s/p  1:00:32 }"
    bool feedProgress(std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b)
    {
        std::size_t info = line.find("- INFO -");
        std::string_view s = info == std::string_view::npos ? line : line.substr(info + 8);
        std::size_t percent = s.find("% |");
        std::size_t bar = s.rfind('|');
        std::size_t unit = s.find("samples/s/p");
        if (percent == std::string_view::npos || bar == std::string_view::npos || bar < percent
            || unit < bar)
            return false;
        auto progress = parseNumber(s.substr(0, percent));
        auto rate = parseNumber(s.substr(bar + 1, unit - bar - 1));
        if (!progress || !rate) {
            b.log().addIssue(lineNo, "MindFormers progress line: numbers not readable");
            return true;
        }
        b.add("progress", LogSeriesKind::Other, "%", m_runs.run(), m_lastStep, *progress, lineNo,
            rank);
        b.add("throughput", LogSeriesKind::Throughput, "samples/s/p", m_runs.run(), m_lastStep,
            *rate, lineNo, rank);
        m_haveRecord = false; // one progress line per record
        return true;
    }

    RunTracker m_runs;
    bool m_haveRecord = false;
    std::int64_t m_lastStep = 0;
};

} // namespace

std::unique_ptr<LineReader> makeMindFormersReader()
{
    return std::make_unique<MindFormersReader>();
}

} // namespace stepscope::import::losslog
