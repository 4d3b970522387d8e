// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "memorytimeline.h"

#include "import/detect/filetext.h"
#include "util/decimal.h"
#include "util/saturate.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>
#include <vector>

namespace stepscope::import::torchmemory {

namespace {

using model::CategoryTimeline;
using model::MemoryCategoryCount;

constexpr int TorchCategories = 8; // PARAMETER .. AUTOGRAD_DETAIL, then 7 = unknown (None)
constexpr std::size_t CancelEvery = 1 << 16;

/// A forward-only reader over JSON text that knows just enough for lists of numbers.
class Cursor
{
public:
    explicit Cursor(std::string_view text)
        : m_text(text)
    {
    }
    void skipBlanks()
    {
        while (m_pos < m_text.size()
            && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r'
                || m_text[m_pos] == '\t'))
            ++m_pos;
    }
    bool atEnd()
    {
        skipBlanks();
        return m_pos >= m_text.size();
    }
    char peek()
    {
        skipBlanks();
        return m_pos < m_text.size() ? m_text[m_pos] : '\0';
    }
    bool eat(char c)
    {
        if (peek() != c)
            return false;
        ++m_pos;
        return true;
    }
    /// The text of a JSON scalar up to the next ',' ']' or blank (may be invalid).
    std::string_view token()
    {
        skipBlanks();
        const std::size_t begin = m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] != ',' && m_text[m_pos] != ']'
            && m_text[m_pos] != '[' && m_text[m_pos] != ' ' && m_text[m_pos] != '\n'
            && m_text[m_pos] != '\r' && m_text[m_pos] != '\t')
            ++m_pos;
        return m_text.substr(begin, m_pos - begin);
    }
    /// Skips one JSON value that is not a row: a string, a nested list or object (balanced),
    /// or a scalar token.
    void skipValue()
    {
        const char first = peek();
        if (first != '"' && first != '[' && first != '{') {
            if (token().empty() && m_pos < m_text.size())
                ++m_pos; // a stray character
            return;
        }
        int depth = 0;
        bool inString = false;
        for (; m_pos < m_text.size(); ++m_pos) {
            const char c = m_text[m_pos];
            if (inString) {
                if (c == '\\')
                    ++m_pos;
                else if (c == '"') {
                    inString = false;
                    if (depth == 0)
                        break;
                }
                continue;
            }
            if (c == '"')
                inString = true;
            else if (c == '[' || c == '{')
                ++depth;
            else if ((c == ']' || c == '}') && --depth == 0)
                break;
        }
        if (m_pos < m_text.size())
            ++m_pos;
    }
    /// Skips past the next ']' (used to resynchronise after a bad row).
    void skipPastClose()
    {
        const std::size_t close = m_text.find(']', m_pos);
        m_pos = close == std::string_view::npos ? m_text.size() : close + 1;
    }
    std::size_t pos() const { return m_pos; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
};

struct RawRow
{
    std::int64_t t = 0;
    std::int64_t action = 0;
    std::int64_t bytes = 0;
    std::int64_t category = 0;
    std::int64_t offset = 0;
};

/// Parses "[n, n, ...]" into `out` (up to `want` values). Returns false on a malformed list;
/// the cursor then stands past the list's ']' (or at the end of the text).
bool readIntList(Cursor &cur, std::vector<std::int64_t> &out, bool microsToNanos)
{
    out.clear();
    if (!cur.eat('['))
        return false;
    if (cur.eat(']'))
        return true;
    while (true) {
        const std::string_view tok = cur.token();
        const auto value = microsToNanos ? util::parseMicrosToNanos(tok) : util::parseInt(tok);
        if (!value) {
            cur.skipPastClose();
            return false;
        }
        out.push_back(*value);
        if (cur.eat(','))
            continue;
        if (cur.eat(']'))
            return true;
        cur.skipPastClose();
        return false;
    }
}

class Reader
{
public:
    Reader(const std::filesystem::path &file, const ImportContext &ctx, std::string_view text)
        : m_file(file)
        , m_ctx(ctx)
        , m_cur(text)
    {
    }

    bool readRaw(CategoryTimeline &out);
    bool readTimeline(CategoryTimeline &out);

private:
    /// The rows of the raw form, each checked for shape; false when none was valid.
    bool parseRawRows(std::vector<RawRow> &rows);
    void truncated(std::size_t rows)
    {
        m_ctx.warn(m_file,
            "the file ends before its closing ']' (cut at byte " + std::to_string(m_cur.pos())
                + "); kept the " + std::to_string(rows) + " complete rows before the cut",
            0, static_cast<std::int64_t>(m_cur.pos()));
    }
    void checkCancel(std::size_t rows) const
    {
        if (rows % CancelEvery == 0 && m_ctx.progress != nullptr)
            m_ctx.progress->checkCancel();
    }

    const std::filesystem::path &m_file;
    const ImportContext &m_ctx;
    Cursor m_cur;
};

bool Reader::parseRawRows(std::vector<RawRow> &rows)
{
    if (!m_cur.eat('[')) {
        m_ctx.error(m_file, "expected a JSON list of [time, action, bytes, category] rows", 0,
            static_cast<std::int64_t>(m_cur.pos()));
        return false;
    }
    std::vector<std::int64_t> values;
    bool closed = false;
    while (!m_cur.atEnd()) {
        checkCancel(rows.size() + 1);
        if (m_cur.eat(']')) {
            closed = true;
            break;
        }
        const auto offset = static_cast<std::int64_t>(m_cur.pos());
        if (m_cur.peek() != '[') {
            // `1` or "x" among the rows: skip that element alone and read on.
            m_cur.skipValue();
            m_ctx.warn(m_file, "skipped an element that is not a row", 0, offset);
            if (!m_cur.eat(',') && m_cur.eat(']')) {
                closed = true;
                break;
            }
            continue;
        }
        const bool listOk = readIntList(m_cur, values, false);
        if (!listOk && m_cur.atEnd())
            break; // a row cut by the end of the file: reported as truncation below
        if (!listOk || values.size() != 4) {
            m_ctx.warn(m_file, "skipped a row that is not a list of 4 integers", 0, offset);
            if (!listOk && m_cur.peek() != ',' && m_cur.peek() != ']')
                m_cur.skipPastClose();
        } else if (values[3] < 0 || values[3] >= TorchCategories) {
            m_ctx.warn(m_file, "skipped a row whose category is not 0..7", 0, offset);
        } else {
            rows.push_back(RawRow {values[0], values[1], values[2], values[3], offset});
        }
        if (!m_cur.eat(',')) {
            if (m_cur.eat(']')) {
                closed = true;
                break;
            }
            if (!m_cur.atEnd()) {
                m_ctx.warn(m_file, "expected ',' or ']' between rows; skipped to the next row", 0,
                    static_cast<std::int64_t>(m_cur.pos()));
                m_cur.skipPastClose();
                m_cur.eat(',');
            }
        }
    }
    if (!closed)
        truncated(rows.size());
    return !rows.empty();
}

bool Reader::readRaw(CategoryTimeline &out)
{
    std::vector<RawRow> rows;
    if (!parseRawRows(rows))
        return false;
    // PyTorch numbers actions 1..4 (PREEXISTING, CREATE, INCREMENT_VERSION, DESTROY); torch_npu
    // numbers them 0..3. Bytes are already signed (DESTROY and the old half of an
    // INCREMENT_VERSION pair are negative), so the action only validates the row.
    std::int64_t minAction = rows.front().action;
    for (const RawRow &r : rows)
        minAction = std::min(minAction, r.action);
    const std::int64_t actionShift = minAction == 0 ? 1 : 0;
    std::optional<std::int64_t> firstTime;
    for (const RawRow &r : rows) {
        if (r.t >= 0 && (!firstTime || r.t < *firstTime))
            firstTime = r.t;
    }
    const std::int64_t t0 = firstTime.value_or(0);

    std::vector<std::size_t> order(rows.size());
    std::iota(order.begin(), order.end(), std::size_t {0});
    const auto timeOf = [&](const RawRow &r) { return r.t < 0 ? t0 : r.t; };
    if (!std::is_sorted(rows.begin(), rows.end(),
            [&](const RawRow &a, const RawRow &b) { return timeOf(a) < timeOf(b); })) {
        m_ctx.warn(m_file, "rows are not sorted by time; sorted them before summing");
        std::stable_sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return timeOf(rows[a]) < timeOf(rows[b]); });
    }

    std::array<std::int64_t, MemoryCategoryCount> totals {};
    out.timestampsNs.reserve(rows.size());
    for (auto &series : out.bytes)
        series.reserve(rows.size());
    for (std::size_t k : order) {
        const RawRow &r = rows[k];
        const std::int64_t action = r.action + actionShift;
        if (action < 1 || action > 4) {
            m_ctx.warn(m_file,
                "skipped a row whose action is not PREEXISTING, CREATE, "
                "INCREMENT_VERSION or DESTROY",
                0, r.offset);
            continue;
        }
        // Held at the int64 limits: a damaged row's size cannot overflow the running total.
        std::int64_t &total = totals[static_cast<std::size_t>(r.category)];
        total = util::satAdd(total, r.bytes);
        out.timestampsNs.push_back(timeOf(r));
        for (std::size_t c = 0; c < totals.size(); ++c)
            out.bytes[c].push_back(totals[c]);
    }
    return !out.timestampsNs.empty();
}

bool Reader::readTimeline(CategoryTimeline &out)
{
    std::vector<std::int64_t> times;
    if (!m_cur.eat('[') || !readIntList(m_cur, times, true)) {
        m_ctx.error(m_file, "expected [times, sizes] with times a list of numbers (us)", 0,
            static_cast<std::int64_t>(m_cur.pos()));
        return false;
    }
    if (!m_cur.eat(',') || !m_cur.eat('[')) {
        m_ctx.error(m_file, "expected the sizes list after the times list", 0,
            static_cast<std::int64_t>(m_cur.pos()));
        return false;
    }
    std::vector<std::int64_t> values;
    std::size_t index = 0;
    bool closed = false;
    while (!m_cur.atEnd()) {
        checkCancel(index + 1);
        if (m_cur.eat(']')) {
            closed = true;
            break;
        }
        const auto offset = static_cast<std::int64_t>(m_cur.pos());
        if (m_cur.peek() != '[') {
            // `1` or "x" among the sizes entries: skip that element alone and read on.
            m_cur.skipValue();
            m_ctx.warn(m_file, "skipped a sizes element that is not a list", 0, offset);
            if (!m_cur.eat(',') && m_cur.eat(']')) {
                closed = true;
                break;
            }
            continue;
        }
        const bool listOk = readIntList(m_cur, values, false);
        if (!listOk && m_cur.atEnd())
            break;
        if (!listOk || values.size() != 1 + TorchCategories) {
            m_ctx.warn(m_file, "skipped a sizes entry that is not a list of 9 integers", 0, offset);
        } else if (index < times.size()) {
            out.timestampsNs.push_back(times[index]);
            for (int c = 0; c < TorchCategories; ++c)
                out.bytes[static_cast<std::size_t>(c)].push_back(
                    values[static_cast<std::size_t>(c) + 1]);
            for (std::size_t c = TorchCategories; c < out.bytes.size(); ++c)
                out.bytes[c].push_back(0);
        }
        ++index;
        if (!m_cur.eat(',') && m_cur.peek() != ']' && !m_cur.atEnd()) {
            m_ctx.warn(m_file, "expected ',' or ']' between sizes entries", 0,
                static_cast<std::int64_t>(m_cur.pos()));
            m_cur.skipPastClose();
        }
    }
    if (!closed)
        truncated(out.timestampsNs.size());
    if (closed && index != times.size())
        m_ctx.warn(m_file,
            "times has " + std::to_string(times.size()) + " entries but sizes has "
                + std::to_string(index) + "; kept the pairs present in both");
    return !out.timestampsNs.empty();
}

} // namespace

MemoryTimelineForm sniffMemoryTimeline(std::string_view head)
{
    Cursor cur(head);
    if (!cur.eat('[') || !cur.eat('['))
        return MemoryTimelineForm::None;
    // Raw: the first element is a list of exactly 4 integers. Timeline: the first element is
    // the list of times and the second a list of lists.
    std::vector<std::int64_t> first;
    std::size_t count = 0;
    while (!cur.atEnd() && cur.peek() != ']') {
        const std::string_view tok = cur.token();
        if (!util::parseDouble(tok))
            return MemoryTimelineForm::None;
        ++count;
        if (!cur.eat(','))
            break;
    }
    if (!cur.eat(']'))
        return count > 4 ? MemoryTimelineForm::Timeline : MemoryTimelineForm::None;
    if (!cur.eat(','))
        return count == 4 ? MemoryTimelineForm::Raw : MemoryTimelineForm::None;
    if (!cur.eat('['))
        return MemoryTimelineForm::None;
    // Second element: "[n," (raw row) or "[[" (sizes list of the timeline form).
    if (cur.peek() == '[')
        return MemoryTimelineForm::Timeline;
    return count == 4 ? MemoryTimelineForm::Raw : MemoryTimelineForm::None;
}

bool readMemoryTimeline(
    const std::filesystem::path &file, const ImportContext &ctx, model::TraceBuilder &builder)
{
    if (ctx.progress != nullptr)
        ctx.progress->setStage("Reading " + ctx.relative(file));
    std::string why;
    const std::optional<std::string> text =
        detect::readFileText(file, UINT64_MAX, ctx.progress, &why);
    if (!text) {
        ctx.error(file, "cannot open the file: " + why);
        return false;
    }
    const MemoryTimelineForm form = sniffMemoryTimeline(std::string_view(*text).substr(0, 1 << 16));
    CategoryTimeline timeline;
    Reader reader(file, ctx, *text);
    bool ok = false;
    if (form == MemoryTimelineForm::Raw) {
        ok = reader.readRaw(timeline);
    } else if (form == MemoryTimelineForm::Timeline) {
        ok = reader.readTimeline(timeline);
    } else {
        ctx.error(file,
            "not a PyTorch memory timeline: expected [[time, action, bytes, "
            "category], ...] or [times, sizes]");
    }
    if (ctx.progress != nullptr)
        ctx.progress->advance(detect::fileSize(file));
    if (!ok)
        return false;

    model::Trace &trace = builder.trace();
    if (builder.trackCount() == 0 && trace.memory.categories.timestampsNs.empty()
        && trace.originNs == 0)
        trace.originNs = timeline.timestampsNs.front();
    for (std::int64_t &t : timeline.timestampsNs)
        t = util::satSub(t, trace.originNs);
    if (!trace.memory.categories.timestampsNs.empty())
        ctx.warn(file, "a second memory timeline for this rank was ignored");
    else
        trace.memory.categories = std::move(timeline);
    if (trace.metadata.format.empty())
        trace.metadata.format = "torch-memory";
    trace.metadata.sourceFiles.push_back(ctx.relative(file));
    return true;
}

} // namespace stepscope::import::torchmemory
