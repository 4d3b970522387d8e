// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// User-defined `name: value` patterns (docs/formats.md §10.7: losses printed by the user's own
// script, e.g. `Step at 30 with Perplexity: 80.38` or `val_ppl=12.5`).
#include "linereader.h"

#include <string>

namespace stepscope::import::losslog {

namespace {

using model::LogSeriesKind;

LogSeriesKind kindOf(const std::string &name)
{
    if (name.find("eval") != std::string::npos || name.find("val") == 0)
        return name.find("loss") != std::string::npos ? LogSeriesKind::EvalLoss
                                                      : LogSeriesKind::Other;
    if (name.find("loss") != std::string::npos)
        return LogSeriesKind::Loss;
    if (name.find("ppl") != std::string::npos || name.find("erplexity") != std::string::npos)
        return LogSeriesKind::Perplexity;
    return LogSeriesKind::Other;
}

class UserPatternReader final : public LineReader
{
public:
    explicit UserPatternReader(UserPattern pattern)
        : m_pattern(std::move(pattern))
        , m_kind(kindOf(m_pattern.name))
    {
    }

    bool feed(std::string_view line, std::int32_t rank, std::int64_t lineNo, LogBuilder &b) override
    {
        std::size_t pos = line.find(m_pattern.valueKey);
        if (pos == std::string_view::npos)
            return false;
        auto value = parseLeadingNumber(line.substr(pos + m_pattern.valueKey.size()));
        if (!value) {
            b.log().addIssue(lineNo, "`" + m_pattern.valueKey + "` not followed by a number");
            return true;
        }
        std::int64_t step = ++m_occurrences;
        if (!m_pattern.stepKey.empty()) {
            std::size_t s = line.find(m_pattern.stepKey);
            std::string_view rest = s == std::string_view::npos
                ? std::string_view {}
                : line.substr(s + m_pattern.stepKey.size());
            auto n = takeInt(rest);
            if (!n) {
                b.log().addIssue(lineNo, "`" + m_pattern.stepKey + "` not followed by a step");
                return true;
            }
            step = m_steps.observe(*n);
        }
        b.noteProducer(PriorityUser, "user-defined pattern");
        b.countRecord();
        b.add(m_pattern.name, m_kind, "", 0, step, *value, lineNo, rank);
        return true;
    }

private:
    UserPattern m_pattern;
    LogSeriesKind m_kind;
    std::int64_t m_occurrences = 0;
    ResetCounter m_steps;
};

} // namespace

std::unique_ptr<LineReader> makeUserPatternReader(UserPattern pattern)
{
    return std::make_unique<UserPatternReader>(std::move(pattern));
}

} // namespace stepscope::import::losslog
