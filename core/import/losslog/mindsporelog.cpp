// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// MindSpore LossMonitor / TimeMonitor console (docs/formats.md §10.2):
//   [2024-11-14 07:51:57 ]epoch: 1 step: 1017, loss is 1.063
//   epoch: 1, step: 2582, wide_loss: 0.4467863, deep_loss: 0.45492005
//   Train epoch time: 26550.733 ms, per step time: 26.107 ms
//
// `step` counts within the epoch. Records are buffered and turned into global steps at the
// end: a new run starts wherever (epoch, step) does not increase (appended or restarted
// runs), and within a run global = (epoch - 1) * stepsPerEpoch + step, stepsPerEpoch being
// the largest step of the run's complete epochs (all but the last; the only one when the
// run has one epoch).
#include "linereader.h"

#include <algorithm>
#include <optional>
#include <string>

namespace stepscope::import::losslog {

namespace {

using model::LogSeriesKind;

struct Record
{
    std::int64_t line = 0;
    std::int32_t rank = -1;
    std::int64_t epoch = 0;
    std::int64_t step = 0;
    std::optional<double> wallTime;
    std::vector<std::pair<std::string, double>> values;
    std::optional<double> epochTimeMs;
    std::optional<double> stepTimeMs;
    std::int64_t timeLine = 0;
};

class MindSporeReader final : public LineReader
{
public:
    bool feed(std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b) override
    {
        std::size_t pos = findAnchored(line, "epoch time:");
        if (pos != std::string_view::npos)
            return feedTime(line.substr(pos + 11), lineNo, b);
        pos = findAnchored(line, "epoch:");
        if (pos == std::string_view::npos)
            return false;
        std::string_view s = line.substr(pos + 6);
        auto epoch = takeInt(s);
        if (!epoch)
            return false;
        consume(s, ",");
        skipBlanks(s);
        if (!consume(s, "step:"))
            return false;
        auto step = takeInt(s);
        if (!step)
            return false;
        Record r;
        r.line = lineNo;
        r.rank = rank;
        r.epoch = *epoch;
        r.step = *step;
        if (!consume(s, ",")) {
            b.log().addIssue(lineNo, "`epoch: E step: S` without `, loss is X` or `, name: X`");
            return true;
        }
        skipBlanks(s);
        if (consume(s, "loss is")) {
            auto v = parseNumber(s);
            if (!v) {
                b.log().addIssue(lineNo, "`loss is` not followed by a number");
                return true;
            }
            r.values.emplace_back("loss", *v);
        } else {
            for (std::string_view part : splitTrim(s, ",")) {
                std::size_t colon = part.find(':');
                auto v = colon == std::string_view::npos ? std::nullopt
                                                         : parseNumber(part.substr(colon + 1));
                if (!v) {
                    r.values.clear();
                    break;
                }
                r.values.emplace_back(std::string(trim(part.substr(0, colon))), *v);
            }
            if (r.values.empty()) {
                b.log().addIssue(lineNo, "`epoch: E, step: S,` record: values not `name: number`");
                return true;
            }
        }
        if (pos > 0)
            r.wallTime = parseTimestamp(trim(line.substr(0, pos)));
        b.noteProducer(PriorityMindSpore, "MindSpore LossMonitor/TimeMonitor");
        b.countRecord();
        m_records.push_back(std::move(r));
        return true;
    }

    void finish(LogBuilder &b) override
    {
        std::size_t begin = 0;
        bool first = true;
        while (begin < m_records.size()) {
            std::size_t end = begin + 1;
            while (end < m_records.size()
                && std::make_pair(m_records[end].epoch, m_records[end].step)
                    > std::make_pair(m_records[end - 1].epoch, m_records[end - 1].step))
                ++end;
            std::uint32_t run = first ? 0 : b.openRun(m_records[begin].line);
            first = false;
            emitRun(b, run, begin, end);
            begin = end;
        }
        // Time lines before any loss line (TimeMonitor alone): the epoch is the step.
        for (const Record &t : m_orphanTimes)
            emitTime(b, 0, t, t.epoch);
    }

private:
    bool feedTime(std::string_view s, std::int64_t lineNo, LogBuilder &b)
    {
        std::string_view rest;
        auto epochMs = parseLeadingNumber(s, &rest);
        std::size_t per = rest.find("per step time:");
        std::optional<double> stepMs;
        if (per != std::string_view::npos)
            stepMs = parseLeadingNumber(rest.substr(per + 14));
        if (!epochMs || !stepMs) {
            b.log().addIssue(lineNo, "`epoch time:` line without two numbers");
            return true;
        }
        b.noteProducer(PriorityMindSpore, "MindSpore LossMonitor/TimeMonitor");
        b.countRecord();
        Record *target = m_records.empty() ? nullptr : &m_records.back();
        if (!target || target->stepTimeMs) {
            Record orphan;
            orphan.epoch =
                target ? target->epoch + 1 : static_cast<std::int64_t>(m_orphanTimes.size()) + 1;
            orphan.epochTimeMs = epochMs;
            orphan.stepTimeMs = stepMs;
            orphan.timeLine = lineNo;
            if (!target)
                m_orphanTimes.push_back(orphan);
            return true;
        }
        target->epochTimeMs = epochMs;
        target->stepTimeMs = stepMs;
        target->timeLine = lineNo;
        return true;
    }

    void emitTime(LogBuilder &b, std::uint32_t run, const Record &r, std::int64_t global)
    {
        b.add("per step time", LogSeriesKind::StepTime, "ms", run, global, *r.stepTimeMs,
            r.timeLine, r.rank);
        b.add("epoch time", LogSeriesKind::Other, "ms", run, global, *r.epochTimeMs, r.timeLine,
            r.rank);
    }

    void emitRun(LogBuilder &b, std::uint32_t run, std::size_t begin, std::size_t end)
    {
        std::int64_t lastEpoch = m_records[end - 1].epoch;
        std::int64_t perEpoch = 0;
        std::int64_t perEpochAll = 0;
        for (std::size_t i = begin; i < end; ++i) {
            perEpochAll = std::max(perEpochAll, m_records[i].step);
            if (m_records[i].epoch < lastEpoch)
                perEpoch = std::max(perEpoch, m_records[i].step);
        }
        if (perEpoch == 0)
            perEpoch = perEpochAll;
        for (std::size_t i = begin; i < end; ++i) {
            const Record &r = m_records[i];
            std::int64_t global = (r.epoch - 1) * perEpoch + r.step;
            for (const auto &[name, value] : r.values)
                b.add(name, LogSeriesKind::Loss, "", run, global, value, r.line, r.rank);
            b.add("epoch", LogSeriesKind::Epoch, "", run, global, static_cast<double>(r.epoch),
                r.line, r.rank);
            if (r.wallTime)
                b.add("wall time", LogSeriesKind::WallTime, "s", run, global, *r.wallTime, r.line,
                    r.rank);
            if (r.stepTimeMs)
                emitTime(b, run, r, global);
        }
    }

    std::vector<Record> m_records;
    std::vector<Record> m_orphanTimes;
};

} // namespace

std::unique_ptr<LineReader> makeMindSporeReader()
{
    return std::make_unique<MindSporeReader>();
}

} // namespace stepscope::import::losslog
