// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// GRPO (Ray + Megatron) iteration records (docs/formats.md §10.5), after ANSI and Ray prefixes
// were stripped by LineCleaner:
//   INFO:root:[2025-03-21 14:30:40] iteration: 1 / 10 | timing/gen : 25.27 | actor/pg_loss : …
// A record whose fields and timestamp repeat the previous one verbatim (iterations 2 and 3
// of the sample) is kept but flagged duplicate so it is not counted as a second sample.
#include "linereader.h"

#include <string>

namespace stepscope::import::losslog {

namespace {

using model::LogSeriesKind;

class GrpoReader final : public LineReader
{
public:
    bool feed(std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b) override
    {
        std::size_t pos = findAnchored(line, "iteration:");
        if (pos == std::string_view::npos)
            return false;
        std::string_view s = line.substr(pos + 10);
        auto iteration = takeInt(s);
        if (!iteration || !consume(s, " / "))
            return false;
        auto total = takeInt(s);
        if (!total || !consume(s, " |"))
            return false;
        b.noteProducer(PriorityGrpo, "GRPO iteration record");
        b.noteTotalSteps(*total);
        std::uint32_t run = m_runs.observe(b, *iteration, lineNo);
        b.countRecord();

        std::optional<double> wall;
        std::string_view stamp;
        if (pos >= 3 && line[pos - 1] == ' ' && line[pos - 2] == ']') {
            std::size_t open = line.rfind('[', pos - 2);
            if (open != std::string_view::npos) {
                stamp = line.substr(open + 1, pos - 2 - open - 1);
                wall = parseTimestamp(stamp);
            }
        }
        std::string signature = std::string(stamp) + '\n' + std::string(s);
        bool duplicate = !m_previous.empty() && signature == m_previous;
        m_previous = std::move(signature);

        if (wall)
            b.add("wall time", LogSeriesKind::WallTime, "s", run, *iteration, *wall, lineNo, rank,
                duplicate);
        int bad = 0;
        for (std::string_view part : splitTrim(s, "|")) {
            std::size_t sep = part.find(" : ");
            if (sep == std::string_view::npos) {
                ++bad;
                continue;
            }
            std::string_view key = trim(part.substr(0, sep));
            auto value = parseNumber(part.substr(sep + 3));
            if (!value) {
                ++bad;
                continue;
            }
            LogSeriesKind kind = LogSeriesKind::Other;
            std::string_view unit;
            if (key.size() >= 4 && key.substr(key.size() - 4) == "loss")
                kind = LogSeriesKind::Loss;
            else if (key == "timing/all")
                kind = LogSeriesKind::StepTime;
            if (key.substr(0, 7) == "timing/")
                unit = "s";
            b.add(key, kind, unit, run, *iteration, *value, lineNo, rank, duplicate);
        }
        if (bad > 0)
            b.log().addIssue(lineNo, "iteration record: a field is not `key : number`");
        return true;
    }

private:
    RunTracker m_runs;
    std::string m_previous;
};

} // namespace

std::unique_ptr<LineReader> makeGrpoReader()
{
    return std::make_unique<GrpoReader>();
}

} // namespace stepscope::import::losslog
