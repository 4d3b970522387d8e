// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "logbuilder.h"

#include "util/decimal.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace stepscope::import::losslog {

LogBuilder::LogBuilder()
{
    m_log.runs.push_back({});
}

model::LogSeries &LogBuilder::series(std::string_view name, model::LogSeriesKind kind,
    std::string_view unit, std::uint32_t run, std::int32_t rank)
{
    // Readers add the fields of every record in the same order: try the series after the
    // last one used before the map (saves a string allocation and a tree walk per point).
    for (std::size_t candidate : {m_hint, std::size_t {0}}) {
        if (candidate < m_log.series.size()) {
            model::LogSeries &s = m_log.series[candidate];
            if (s.run == run && s.rank == rank && s.name == name) {
                m_hint = candidate + 1;
                return s;
            }
        }
    }
    auto key = std::make_tuple(std::string(name), run, rank);
    auto it = m_index.find(key);
    if (it != m_index.end()) {
        m_hint = it->second + 1;
        return m_log.series[it->second];
    }
    m_hint = m_log.series.size() + 1;
    model::LogSeries s;
    s.name = std::string(name);
    s.kind = kind;
    s.unit = std::string(unit);
    s.run = run;
    s.rank = rank;
    m_index.emplace(std::move(key), m_log.series.size());
    m_log.series.push_back(std::move(s));
    return m_log.series.back();
}

void LogBuilder::add(std::string_view name, model::LogSeriesKind kind, std::string_view unit,
    std::uint32_t run, std::int64_t step, double value, std::int64_t line, std::int32_t rank,
    bool duplicate)
{
    series(name, kind, unit, run, rank).add(step, value, line, duplicate);
    touchRun(run, line);
}

void LogBuilder::noteTotalSteps(std::int64_t total)
{
    if (total <= 0)
        return;
    for (auto &[name, value] : m_log.scalars) {
        if (name == "total_steps") {
            value = static_cast<double>(total);
            return;
        }
    }
    m_log.scalars.emplace_back("total_steps", static_cast<double>(total));
}

std::uint32_t LogBuilder::openRun(std::int64_t line)
{
    m_log.runs.push_back({line, line, {}});
    return static_cast<std::uint32_t>(m_log.runs.size() - 1);
}

void LogBuilder::touchRun(std::uint32_t run, std::int64_t line)
{
    model::LogRun &r = m_log.runs.at(run);
    if (line <= 0)
        return;
    if (r.firstLine == 0 || line < r.firstLine)
        r.firstLine = line;
    r.lastLine = std::max(r.lastLine, line);
}

void LogBuilder::noteProducer(int priority, std::string_view name)
{
    if (priority < m_producerPriority) {
        m_producerPriority = priority;
        m_log.producer = std::string(name);
    }
}

model::TrainingLog LogBuilder::finish()
{
    // Readers that open a run at their first record leave run 0 empty: drop it.
    bool run0Used = false;
    for (const model::LogSeries &s : m_log.series)
        run0Used = run0Used || s.run == 0;
    if (!run0Used && m_log.runs.size() > 1) {
        m_log.runs.erase(m_log.runs.begin());
        for (model::LogSeries &s : m_log.series)
            --s.run;
    }
    for (std::size_t i = 0; i < m_log.runs.size(); ++i) {
        model::LogRun &r = m_log.runs[i];
        r.label = "run " + std::to_string(i + 1);
        if (r.firstLine > 0)
            r.label +=
                " (lines " + std::to_string(r.firstLine) + "–" + std::to_string(r.lastLine) + ")";
    }
    m_index.clear();
    return std::move(m_log);
}

std::uint32_t RunTracker::observe(
    LogBuilder &builder, std::int64_t step, std::int64_t line, std::int32_t rank)
{
    const auto last = m_lastByRank.find(rank);
    if (last != m_lastByRank.end()
        && (step < last->second || (m_splitOnEqual && step == last->second))) {
        m_run = builder.openRun(line);
        m_lastByRank.clear();
    }
    m_lastByRank[rank] = step;
    m_last = step;
    return m_run;
}

std::int64_t ResetCounter::observe(std::int64_t step)
{
    if (m_previous >= 0 && step < m_previous)
        m_offset = m_last;
    m_previous = step;
    m_last = m_offset + step;
    return m_last;
}

std::string_view trim(std::string_view s)
{
    return util::trimBlanks(s);
}

void skipBlanks(std::string_view &s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
}

bool consume(std::string_view &s, std::string_view prefix)
{
    if (s.substr(0, prefix.size()) != prefix)
        return false;
    s.remove_prefix(prefix.size());
    return true;
}

std::optional<std::int64_t> takeInt(std::string_view &s)
{
    skipBlanks(s);
    std::size_t n = 0;
    std::int64_t v = 0;
    while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n])) && n < 18) {
        v = v * 10 + (s[n] - '0');
        ++n;
    }
    if (n == 0)
        return std::nullopt;
    s.remove_prefix(n);
    return v;
}

std::optional<std::int64_t> stepFromDouble(std::optional<double> v)
{
    constexpr double Limit = 4.6e18; // about 2^62
    if (!v || !std::isfinite(*v) || std::abs(*v) >= Limit)
        return std::nullopt;
    return static_cast<std::int64_t>(*v);
}

std::optional<double> parseNumber(std::string_view text, bool allowThousands)
{
    std::string_view t = trim(text);
    if (t.empty())
        return std::nullopt;
    if (allowThousands && t.find(',') != std::string_view::npos) {
        std::string plain;
        for (char c : t)
            if (c != ',')
                plain.push_back(c);
        return util::parseDouble(plain, true);
    }
    return util::parseDouble(t, true);
}

std::optional<double> parseLeadingNumber(std::string_view text, std::string_view *rest)
{
    std::string_view t = text;
    skipBlanks(t);
    std::size_t n = 0;
    auto isNumChar = [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+'
            || c == 'e' || c == 'E';
    };
    while (n < t.size() && isNumChar(t[n]))
        ++n;
    // Do not swallow a unit starting with 'e' ("1e" is not a number, "5ms" has no 'e').
    while (n > 0) {
        if (auto v = util::parseDouble(t.substr(0, n), false)) {
            if (rest)
                *rest = t.substr(n);
            return v;
        }
        --n;
    }
    // nan / inf spelled out
    for (std::string_view word : {"-inf", "inf", "nan"}) {
        if (t.size() >= word.size()) {
            bool same = true;
            for (std::size_t i = 0; i < word.size(); ++i)
                same = same
                    && std::tolower(static_cast<unsigned char>(t[i]))
                        == static_cast<unsigned char>(word[i]);
            if (same) {
                if (rest)
                    *rest = t.substr(word.size());
                return util::parseDouble(word, true);
            }
        }
    }
    return std::nullopt;
}

std::size_t findAnchored(std::string_view s, std::string_view key)
{
    if (key.empty())
        return 0;
    const char anchor = key.back();
    std::size_t pos = key.size() - 1;
    while ((pos = s.find(anchor, pos)) != std::string_view::npos) {
        // Compare backwards from the anchor, inline: most candidates fail on the first byte.
        std::size_t k = key.size() - 1;
        while (k > 0 && s[pos - (key.size() - 1) + k - 1] == key[k - 1])
            --k;
        if (k == 0)
            return pos + 1 - key.size();
        ++pos;
    }
    return std::string_view::npos;
}

std::vector<std::string_view> splitTrim(std::string_view s, std::string_view sep)
{
    std::vector<std::string_view> parts;
    std::size_t pos = 0;
    while (pos <= s.size()) {
        std::size_t next = s.find(sep, pos);
        if (next == std::string_view::npos)
            next = s.size();
        std::string_view part = trim(s.substr(pos, next - pos));
        if (!part.empty())
            parts.push_back(part);
        pos = next + sep.size();
    }
    return parts;
}

namespace {

bool digitsAt(std::string_view s, std::size_t pos, std::size_t count, int &out)
{
    if (pos + count > s.size())
        return false;
    int v = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(s[i])))
            return false;
        v = v * 10 + (s[i] - '0');
    }
    out = v;
    return true;
}

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's
// days_from_civil).
std::int64_t daysFromCivil(std::int64_t y, std::int64_t m, std::int64_t d)
{
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const std::int64_t yoe = y - era * 400;
    const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

} // namespace

std::optional<double> parseTimestamp(std::string_view s, std::size_t *length)
{
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
    if (s.size() < 19 || !digitsAt(s, 0, 4, y) || s[4] != '-' || !digitsAt(s, 5, 2, mo)
        || s[7] != '-' || !digitsAt(s, 8, 2, d) || (s[10] != ' ' && s[10] != 'T')
        || !digitsAt(s, 11, 2, h) || s[13] != ':' || !digitsAt(s, 14, 2, mi) || s[16] != ':'
        || !digitsAt(s, 17, 2, sec))
        return std::nullopt;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
        return std::nullopt;
    double seconds =
        static_cast<double>(daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec);
    std::size_t n = 19;
    if (n < s.size() && (s[n] == ',' || s[n] == '.')) {
        std::size_t k = n + 1;
        double scale = 0.1;
        double frac = 0;
        while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) {
            frac += scale * (s[k] - '0');
            scale /= 10;
            ++k;
        }
        if (k > n + 1) {
            seconds += frac;
            n = k;
        }
    }
    if (length)
        *length = n;
    return seconds;
}

std::optional<double> parseTimedelta(std::string_view s)
{
    s = trim(s);
    double days = 0;
    std::size_t comma = s.find(", ");
    if (comma != std::string_view::npos) {
        std::string_view head = s.substr(0, comma);
        auto n = takeInt(head);
        if (!n)
            return std::nullopt;
        skipBlanks(head);
        if (head != "day" && head != "days")
            return std::nullopt;
        days = static_cast<double>(*n);
        s.remove_prefix(comma + 2);
    }
    auto h = takeInt(s);
    if (!h || !consume(s, ":"))
        return std::nullopt;
    auto m = takeInt(s);
    if (!m || !consume(s, ":"))
        return std::nullopt;
    auto sec = parseNumber(s);
    if (!sec)
        return std::nullopt;
    return days * 86400 + static_cast<double>(*h) * 3600 + static_cast<double>(*m) * 60 + *sec;
}

std::string_view unitInParens(std::string_view key)
{
    key = trim(key);
    if (key.empty() || key.back() != ')')
        return {};
    std::size_t open = key.rfind('(');
    if (open == std::string_view::npos)
        return {};
    return key.substr(open + 1, key.size() - open - 2);
}

} // namespace stepscope::import::losslog
