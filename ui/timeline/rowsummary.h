// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include "model/track.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace stepscope::ui::timeline {

/// Time per category code of one bucket or merged run: the category covering most of it
/// colours it (hundreds of short kernels, not the one longer copy among them). Codes are
/// category + 1; a tie goes to the code added first. clear() costs the codes present.
class CategoryShares
{
public:
    void add(std::uint8_t code, std::int64_t ns)
    {
        if (ns <= 0)
            return;
        if (m_ns[code] == 0)
            m_present.push_back(code);
        m_ns[code] += ns;
    }
    /// The code covering most and its time; {0, 0} when nothing was added.
    std::pair<std::uint8_t, std::int64_t> dominant() const
    {
        std::pair<std::uint8_t, std::int64_t> best {0, 0};
        for (std::uint8_t c : m_present)
            if (m_ns[c] > best.second)
                best = {c, m_ns[c]};
        return best;
    }
    void clear()
    {
        for (std::uint8_t c : m_present)
            m_ns[c] = 0;
        m_present.clear();
    }

private:
    std::array<std::int64_t, 256> m_ns {};
    std::vector<std::uint8_t> m_present;
};

/// A coverage pyramid of one row of a track, precomputed at load so that drawing a zoomed-out
/// row costs one lookup per pixel instead of a walk over (or a search among) its events.
///
/// Level 0 cuts [originNs, originNs + bucketCount0 * bucket0Ns) into equal buckets; level
/// k + 1 merges pairs of level-k buckets, up to a single bucket. Each bucket stores:
/// - the category that covers most of it, plus one (0 = nothing in the bucket);
/// - how much of the bucket is covered, quantised to 0..255.
/// Times are the track's own (relative to its Trace's origin).
///
/// Build cost is O(events + buckets) because events in a row never overlap. Rows with few
/// events get no summary (isEmpty()): searching them directly is cheap enough.
/// Immutable after build(); safe to read from any thread.
class RowSummary
{
public:
    /// Rows with fewer events than this are not summarised.
    static constexpr std::uint32_t MinEvents = 2048;

    static RowSummary build(const model::Track &track, std::uint32_t row);
    /// The same over n sorted, disjoint intervals given as arrays (the step lane's segments);
    /// codes are the value stored per interval (1..255), summarised when n >= MinEvents.
    static RowSummary build(std::size_t n, const std::int64_t *starts, const std::int64_t *ends,
        const std::uint8_t *codes);

    bool isEmpty() const { return m_levels.empty(); }
    std::int64_t originNs() const { return m_originNs; }
    std::int64_t bucket0Ns() const { return m_bucket0Ns; }
    int levelCount() const { return static_cast<int>(m_levels.size()); }
    std::int64_t bucketNs(int level) const { return m_bucket0Ns << level; }
    std::size_t bucketCount(int level) const
    {
        return m_levels[static_cast<std::size_t>(level)].size();
    }
    /// Category + 1 of what covers most of bucket b at `level`, 0 when empty.
    std::uint8_t categoryCode(int level, std::size_t b) const
    {
        return static_cast<std::uint8_t>(m_levels[static_cast<std::size_t>(level)][b] & 0xff);
    }
    /// Covered fraction of bucket b, 0..255.
    std::uint8_t coverage(int level, std::size_t b) const
    {
        return static_cast<std::uint8_t>(m_levels[static_cast<std::size_t>(level)][b] >> 8);
    }
    /// The longest interval of the row (ns): no event is wider than this, so a zoomed-out run
    /// no event could cover most of needs no search for one.
    std::int64_t longestNs() const { return m_longestNs; }
    /// The coarsest level whose buckets are at most `nsPerPixel` wide, or -1 when even level
    /// 0 is wider than a pixel (then the row is drawn from its events).
    int levelFor(double nsPerPixel) const;
    std::size_t memoryBytes() const;

private:
    std::int64_t m_originNs = 0;
    std::int64_t m_bucket0Ns = 1;
    std::int64_t m_longestNs = 0;
    std::vector<std::vector<std::uint16_t>> m_levels; // low byte: category+1, high: coverage
};

} // namespace stepscope::ui::timeline
