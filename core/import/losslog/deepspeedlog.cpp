// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// DeepSpeed console (docs/formats.md §10.7). Several record kinds per file:
//   [Rank 0] step=2, skipped=0, lr=[4.98e-05, 4.98e-05], mom=[(0.9, 0.999), (0.9, 0.999)]
//   [timer.py:198:stop] 0/4, RunningAvgSamplesPerSec=…, CurrSamplesPerSec=…, MemAllocated=2.29GB, …
//   [timer.py:199:stop] epoch=0/micro_step=10/global_step=10, RunningAvgSamplesPerSec=…
//   OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536, reducing to 32768
//   fp16 dynamic loss scale overflow! Skipping step. Attempted loss scale: 65536.0, …
// and the user script's loss lines that come with the DeepSpeed examples:
//   Step at 30 with Perplexity: 80.38   (per-epoch counter)   Epoch at 262 with Perplexity: …
//   ***** Evaluating perplexity, Epoch 9/16 *****  then  ppl: 1.83
//
// Step axis: DeepSpeed's optimizer step (`step=`, `global_step=`). The old timer form `E/N`
// and the example's `Step at N` count micro-steps; they are mapped to optimizer steps with
// the config dump's `gradient_accumulation_steps`, else the ratio seen when a timer line
// directly follows a `step=` line. Overflow markers (value 1) sit at the step DeepSpeed 0.7's
// `Grad overflow on iteration: N` line before them names: iteration N is optimizer step
// N + 1 (after iterations 0 and 1, both skipped, it prints `step=2, skipped=2`). Newer
// DeepSpeed names none; the marker then sits at the last optimizer step printed. The
// attempted loss scale is its own series.
#include "linereader.h"

#include <cmath>
#include <optional>
#include <utility>

namespace stepscope::import::losslog {

namespace {

using model::LogSeriesKind;

class DeepSpeedReader final : public LineReader
{
public:
    bool feed(std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b) override
    {
        if (findAnchored(line, "step=") != std::string_view::npos
            && line.find("[Rank ") != std::string_view::npos)
            return feedStep(line, lineNo, b);
        if (line.find("[timer.py:") != std::string_view::npos)
            return feedTimer(line, rank, lineNo, b);
        if (line.find("Skipping step") != std::string_view::npos)
            return feedOverflow(line, rank, lineNo, b);
        if (std::size_t at = line.find("Grad overflow on iteration:");
            at != std::string_view::npos) {
            std::string_view s = trim(line.substr(at + 27));
            if (auto iteration = takeInt(s))
                m_overflowStep = *iteration + 1;
            return false; // the OVERFLOW line after it is the record
        }
        if (findAnchored(line, "with Perplexity:") != std::string_view::npos)
            return feedPerplexity(line, rank, lineNo, b);
        if (std::size_t at = line.find("gradient_accumulation_steps ..");
            at != std::string_view::npos) { // the config dump: "gradient_accumulation_steps .. 2"
            std::string_view s = line.substr(at + 27);
            while (!s.empty() && (s.front() == '.' || s.front() == ' '))
                s.remove_prefix(1);
            if (auto n = takeInt(s); n && *n > 0)
                m_microPerStep = *n;
            return false;
        }
        std::string_view t = trim(line);
        if (consume(t, "***** Evaluating perplexity, Epoch ")) {
            if (auto e = takeInt(t))
                m_evalEpoch = *e;
            return false;
        }
        if (consume(t, "ppl:")) {
            auto v = parseNumber(t);
            if (!v) {
                b.log().addIssue(lineNo, "`ppl:` line without a number");
                return true;
            }
            b.add("ppl", LogSeriesKind::Perplexity, "", m_runs.run(), m_lastStep, *v, lineNo, rank);
            if (m_evalEpoch >= 0)
                b.add("ppl epoch", LogSeriesKind::Epoch, "", m_runs.run(), m_lastStep,
                    static_cast<double>(m_evalEpoch), lineNo, rank);
            b.countRecord();
            return true;
        }
        return false;
    }

private:
    bool feedStep(std::string_view line, std::int64_t lineNo, LogBuilder &b)
    {
        std::size_t pos = line.find("[Rank ");
        std::string_view s = line.substr(pos + 6);
        auto rank = takeInt(s);
        if (!rank || !consume(s, "] step="))
            return false;
        auto step = takeInt(s);
        if (!step || !consume(s, ", skipped="))
            return bad(b, lineNo);
        auto skipped = takeInt(s);
        if (!skipped || !consume(s, ", lr=["))
            return bad(b, lineNo);
        std::size_t close = s.find(']');
        if (close == std::string_view::npos)
            return bad(b, lineNo);
        b.noteProducer(PriorityDeepSpeed, "DeepSpeed console");
        auto r = static_cast<std::int32_t>(*rank);
        std::uint32_t run = m_runs.observe(b, *step, lineNo, r);
        b.countRecord();
        std::vector<std::string_view> lrs = splitTrim(s.substr(0, close), ",");
        for (std::size_t i = 0; i < lrs.size(); ++i) {
            auto v = parseNumber(lrs[i]);
            if (!v)
                continue;
            std::string name = i == 0 ? std::string("lr") : "lr group " + std::to_string(i + 1);
            b.add(name, LogSeriesKind::LearningRate, "", run, *step, *v, lineNo, r);
        }
        model::LogSeries &skippedSeries =
            b.series("skipped steps", LogSeriesKind::Skipped, "", run, r);
        skippedSeries.cumulative = true;
        b.add("skipped steps", LogSeriesKind::Skipped, "", run, *step,
            static_cast<double>(*skipped), lineNo, r);
        m_lastStep = *step;
        m_overflowStep.reset(); // a `Grad overflow` line no OVERFLOW line followed names nothing
        m_stepLine = lineNo;
        return true;
    }

    bool feedTimer(std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b)
    {
        std::size_t pos = line.find(":stop] ");
        if (pos == std::string_view::npos)
            return false;
        std::string_view s = line.substr(pos + 7);
        std::int64_t step = 0;
        if (consume(s, "epoch=")) {
            auto epoch = takeInt(s);
            if (!epoch || !consume(s, "/micro_step="))
                return bad(b, lineNo);
            auto micro = takeInt(s);
            if (!micro || !consume(s, "/global_step="))
                return bad(b, lineNo);
            auto global = takeInt(s);
            if (!global)
                return bad(b, lineNo);
            step = *global;
        } else {
            auto epoch = takeInt(s);
            if (!epoch || !consume(s, "/"))
                return bad(b, lineNo);
            auto micro = takeInt(s);
            if (!micro)
                return bad(b, lineNo);
            if (m_stepLine == lineNo - 1 && m_lastStep > 0 && *micro % m_lastStep == 0)
                m_microPerStep = *micro / m_lastStep;
            step = *micro / m_microPerStep;
        }
        b.noteProducer(PriorityDeepSpeed, "DeepSpeed console");
        b.countRecord();
        std::uint32_t run = m_runs.run();
        m_lastStep = std::max(m_lastStep, step);
        int fields = 0;
        for (std::string_view part : splitTrim(s, ",")) {
            std::size_t eq = part.find('=');
            if (eq == std::string_view::npos)
                continue;
            std::string_view key = part.substr(0, eq);
            std::string_view rest;
            auto v = parseLeadingNumber(part.substr(eq + 1), &rest);
            if (!v)
                continue;
            ++fields;
            if (key.find("SamplesPerSec") != std::string_view::npos)
                b.add(key, LogSeriesKind::Throughput, "samples/s", run, step, *v, lineNo, rank);
            else if (key.find("Mem") != std::string_view::npos)
                b.add(key, LogSeriesKind::Memory, trim(rest), run, step, *v, lineNo, rank);
            else
                b.add(key, LogSeriesKind::Other, trim(rest), run, step, *v, lineNo, rank);
        }
        if (fields == 0)
            b.log().addIssue(lineNo, "DeepSpeed timer line without `Name=number` fields");
        return true;
    }

    bool feedOverflow(std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b)
    {
        std::size_t pos = line.find("Attempted loss scale:");
        if (pos == std::string_view::npos)
            return false;
        std::string_view rest;
        auto scale = parseLeadingNumber(line.substr(pos + 21), &rest);
        std::int32_t r = rank;
        std::size_t rk = line.find("OVERFLOW! Rank ");
        if (rk != std::string_view::npos) {
            std::string_view s = line.substr(rk + 15);
            if (auto n = takeInt(s))
                r = static_cast<std::int32_t>(*n);
        }
        const std::int64_t step = m_overflowStep.value_or(m_lastStep);
        m_overflowStep.reset();
        b.add("overflow (skipped step)", LogSeriesKind::Skipped, "", m_runs.run(), step, 1.0,
            lineNo, r);
        if (scale)
            b.add("overflow loss scale", LogSeriesKind::LossScale, "", m_runs.run(), step, *scale,
                lineNo, r);
        b.countRecord();
        return true;
    }

    bool feedPerplexity(
        std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b)
    {
        std::size_t pos = line.find(" with Perplexity:");
        auto value = parseNumber(line.substr(pos + 17));
        std::string_view head = line.substr(0, pos);
        std::size_t stepAt = head.rfind("Step at ");
        std::size_t epochAt = head.rfind("Epoch at ");
        if (!value || (stepAt == std::string_view::npos && epochAt == std::string_view::npos)) {
            b.log().addIssue(lineNo, "perplexity line not readable");
            return true;
        }
        b.noteProducer(PriorityDeepSpeed + 50, "DeepSpeed example (perplexity lines)");
        b.countRecord();
        if (stepAt != std::string_view::npos) {
            std::string_view s = head.substr(stepAt + 8);
            auto n = takeInt(s);
            if (!n) {
                b.log().addIssue(lineNo, "perplexity line not readable");
                return true;
            }
            // `Step at N` counts micro-steps (per epoch); N of them make N / m optimizer
            // steps, the axis of every other series. The micro-steps of one optimizer step
            // print the same weights' figure: a repeat is a duplicate, not a new sample.
            const std::int64_t step = m_perplexitySteps.observe(*n) / m_microPerStep;
            const bool repeat = step == m_lastPerplexity.first && *value == m_lastPerplexity.second;
            m_lastPerplexity = {step, *value};
            b.add("perplexity", LogSeriesKind::Perplexity, "", m_runs.run(), step, *value, lineNo,
                rank, repeat);
        } else {
            b.add("epoch perplexity", LogSeriesKind::Perplexity, "", m_runs.run(),
                m_perplexitySteps.last() / m_microPerStep, *value, lineNo, rank);
        }
        return true;
    }

    bool bad(LogBuilder &b, std::int64_t lineNo)
    {
        b.log().addIssue(lineNo, "DeepSpeed line not readable");
        return true;
    }

    RunTracker m_runs;
    ResetCounter m_perplexitySteps;
    std::int64_t m_lastStep = 0;
    /// The step a `Grad overflow on iteration: N` line names for the OVERFLOW line after it.
    std::optional<std::int64_t> m_overflowStep;
    std::int64_t m_stepLine = -1;
    /// Micro-steps per optimizer step: the config dump's gradient_accumulation_steps, else
    /// the ratio of a timer line to the `step=` line before it.
    std::int64_t m_microPerStep = 1;
    std::pair<std::int64_t, double> m_lastPerplexity {-1, 0};
    std::int64_t m_evalEpoch = -1;
};

} // namespace

std::unique_ptr<LineReader> makeDeepSpeedReader()
{
    return std::make_unique<DeepSpeedReader>();
}

} // namespace stepscope::import::losslog
