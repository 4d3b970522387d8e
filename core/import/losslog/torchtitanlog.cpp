// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// torchtitan and nanoGPT / llm.c console lines (docs/formats.md §10.11; no sample file exists,
// the forms come from public documents):
//   [rank0]:[titan] 2025-10-30 14:32:58,897 - root - INFO - step:  2  loss:  6.1098
//       grad_norm:  4.6416  memory:  2.49GiB(3.14%)  tps: 177,138  tflops: 96.17  mfu: 9.72%
//   step 0 | loss: 10.938573 | lr: 6.0000e-05 | norm: 27.0159 | time: 17830.71ms | tokens/sec: …
// torchtitan separates `key: value` pairs by blanks, numbers may carry thousands separators
// and units as suffixes; the rank comes from the `[rankN]:` prefix (LineCleaner).
#include "linereader.h"

#include <cctype>

namespace stepscope::import::losslog {

namespace {

using model::LogSeriesKind;

struct Field
{
    std::string_view key;
    std::string_view value;
};

class TorchtitanReader final : public LineReader
{
public:
    bool feed(std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b) override
    {
        std::size_t pos = findAnchored(line, "step:");
        if (pos != std::string_view::npos && line.find("loss:", pos) != std::string_view::npos
            && (line.find("tps:", pos) != std::string_view::npos
                || line.find("wps:", pos) != std::string_view::npos))
            return feedTitan(line.substr(pos), rank, lineNo, b);
        std::string_view t = trim(line);
        if (consume(t, "step ")) {
            auto step = takeInt(t);
            skipBlanks(t);
            if (step && consume(t, "|") && t.find("loss:") != std::string_view::npos)
                return feedNanoGpt(*step, t, rank, lineNo, b);
        }
        return false;
    }

private:
    // "step:  2  loss:  6.1098  grad_norm: …" -> fields split at "key:" tokens.
    static std::vector<Field> titanFields(std::string_view s)
    {
        std::vector<Field> fields;
        while (!s.empty()) {
            skipBlanks(s);
            std::size_t colon = s.find(':');
            if (colon == std::string_view::npos)
                break;
            std::string_view key = s.substr(0, colon);
            s.remove_prefix(colon + 1);
            skipBlanks(s);
            std::size_t end = 0;
            while (end < s.size() && s[end] != ' ' && s[end] != '\t')
                ++end;
            fields.push_back({trim(key), s.substr(0, end)});
            s.remove_prefix(end);
        }
        return fields;
    }

    bool feedTitan(std::string_view s, std::int32_t rank, std::int64_t lineNo, LogBuilder &b)
    {
        std::vector<Field> fields = titanFields(s);
        std::optional<double> stepValue;
        if (!fields.empty() && fields.front().key == "step")
            stepValue = parseNumber(fields.front().value);
        const auto stepNumber = stepFromDouble(stepValue);
        if (!stepNumber) {
            b.log().addIssue(lineNo, "torchtitan line without a step number");
            return true;
        }
        const std::int64_t step = *stepNumber;
        b.noteProducer(PriorityTorchtitan, "torchtitan console");
        std::uint32_t run = m_titanRuns.observe(b, step, lineNo, rank);
        b.countRecord();
        for (std::size_t i = 1; i < fields.size(); ++i) {
            std::string_view key = fields[i].key;
            std::string_view rest;
            auto v = parseLeadingNumber(fields[i].value, &rest);
            if (key == "tps" || key == "wps")
                v = parseNumber(fields[i].value, true), rest = {};
            if (!v) {
                b.log().addIssue(
                    lineNo, "torchtitan field `" + std::string(key) + "` is not a number");
                continue;
            }
            if (key == "loss")
                b.add(key, LogSeriesKind::Loss, "", run, step, *v, lineNo, rank);
            else if (key == "grad_norm")
                b.add(key, LogSeriesKind::GradNorm, "", run, step, *v, lineNo, rank);
            else if (key == "memory") {
                // "2.49GiB(3.14%)"
                std::size_t open = rest.find('(');
                std::string_view unit = trim(rest.substr(0, open));
                b.add(key, LogSeriesKind::Memory, unit, run, step, *v, lineNo, rank);
                if (open != std::string_view::npos)
                    if (auto pct = parseLeadingNumber(rest.substr(open + 1)))
                        b.add("memory share", LogSeriesKind::Memory, "%", run, step, *pct, lineNo,
                            rank);
            } else if (key == "tps" || key == "wps")
                b.add(key, LogSeriesKind::Throughput, "tokens/s", run, step, *v, lineNo, rank);
            else if (key == "tflops")
                b.add(key, LogSeriesKind::Throughput, "TFLOP/s", run, step, *v, lineNo, rank);
            else if (key == "mfu")
                b.add(key, LogSeriesKind::Mfu, "%", run, step, *v, lineNo, rank);
            else
                b.add(key, LogSeriesKind::Other, trim(rest), run, step, *v, lineNo, rank);
        }
        return true;
    }

    bool feedNanoGpt(std::int64_t step, std::string_view s, std::int32_t rank, std::int64_t lineNo,
        LogBuilder &b)
    {
        b.noteProducer(PriorityNanoGpt, "nanoGPT-style console");
        std::uint32_t run = m_nanoRuns.observe(b, step, lineNo, rank);
        b.countRecord();
        for (std::string_view part : splitTrim(s, "|")) {
            std::size_t colon = part.find(": ");
            std::string_view rest;
            auto v = colon == std::string_view::npos
                ? std::nullopt
                : parseLeadingNumber(part.substr(colon + 2), &rest);
            if (!v) {
                b.log().addIssue(lineNo, "nanoGPT-style field is not `key: number`");
                continue;
            }
            std::string_view key = trim(part.substr(0, colon));
            std::string_view unit = trim(rest);
            LogSeriesKind kind = LogSeriesKind::Other;
            if (key == "loss" || key == "train loss")
                kind = LogSeriesKind::Loss;
            else if (key == "val loss")
                kind = LogSeriesKind::EvalLoss;
            else if (key == "lr")
                kind = LogSeriesKind::LearningRate;
            else if (key == "norm" || key == "grad norm")
                kind = LogSeriesKind::GradNorm;
            else if (key == "time" || key == "dt")
                kind = LogSeriesKind::StepTime;
            else if (key == "tokens/sec" || key == "tok/s")
                kind = LogSeriesKind::Throughput, unit = "tokens/s";
            else if (key == "mfu")
                kind = LogSeriesKind::Mfu, unit = "%";
            b.add(key, kind, unit, run, step, *v, lineNo, rank);
        }
        return true;
    }

    RunTracker m_titanRuns;
    RunTracker m_nanoRuns;
};

} // namespace

std::unique_ptr<LineReader> makeTorchtitanReader()
{
    return std::make_unique<TorchtitanReader>();
}

} // namespace stepscope::import::losslog
