// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "rowsummary.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace stepscope::ui::timeline {

namespace {

std::size_t nextPow2(std::size_t v)
{
    std::size_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

std::uint16_t pack(std::uint8_t categoryCode, std::int64_t covered, std::int64_t bucketNs)
{
    const double fraction = std::min(1.0,
        static_cast<double>(covered) / static_cast<double>(std::max<std::int64_t>(1, bucketNs)));
    auto q = static_cast<unsigned>(std::lround(fraction * 255.0));
    if (covered > 0 && q == 0)
        q = 1; // something is there: never round a present event away
    return static_cast<std::uint16_t>(categoryCode | (q << 8));
}

} // namespace

/*
 * Level 0: every event adds its overlap with each bucket it touches to that bucket's covered
 * total and to its category's share of the bucket; the bucket's category is the one that
 * covers most of it (hundreds of short kernels, not the one longer copy among them). A
 * zero-length event counts as 1 ns so that instants stay visible. Because events of one row
 * never overlap and come in time order, the buckets they touch come in order: only the last
 * bucket touched is still collecting shares. They number at most events + buckets.
 * Level k + 1: covered totals add up; the category is the pair's common one (its shares
 * added), else the one with the larger share.
 */
RowSummary RowSummary::build(const model::Track &track, std::uint32_t row)
{
    const std::uint32_t begin = track.rowBegin(row);
    const std::uint32_t end = track.rowEnd(row);
    if (end - begin < MinEvents)
        return {};
    std::vector<std::int64_t> starts(end - begin);
    std::vector<std::int64_t> ends(end - begin);
    std::vector<std::uint8_t> codes(end - begin);
    for (std::uint32_t i = begin; i < end; ++i) {
        starts[i - begin] = track.start(i);
        ends[i - begin] = track.end(i);
        codes[i - begin] = static_cast<std::uint8_t>(static_cast<unsigned>(track.category(i)) + 1);
    }
    return build(starts.size(), starts.data(), ends.data(), codes.data());
}

RowSummary RowSummary::build(
    std::size_t n, const std::int64_t *starts, const std::int64_t *ends, const std::uint8_t *codes)
{
    RowSummary s;
    if (n < MinEvents)
        return s;
    const std::int64_t origin = starts[0];
    const std::int64_t last = std::max(ends[n - 1], starts[n - 1] + 1);
    const std::int64_t span = std::max<std::int64_t>(1, last - origin);
    const std::size_t wanted = std::clamp<std::size_t>(nextPow2(n / 4), 256, std::size_t {1} << 20);
    const std::int64_t bucket0 = std::max<std::int64_t>(
        1, (span + static_cast<std::int64_t>(wanted) - 1) / static_cast<std::int64_t>(wanted));
    const auto count0 = static_cast<std::size_t>((span + bucket0 - 1) / bucket0);

    std::vector<std::int64_t> covered(count0, 0);
    std::vector<std::int64_t> best(count0, 0); ///< the share of the bucket's category
    std::vector<std::uint8_t> code(count0, 0);
    CategoryShares shares; // of the bucket still collecting them
    std::size_t open = count0;
    const auto close = [&] {
        std::tie(code[open], best[open]) = shares.dominant();
        shares.clear();
    };
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t s0 = starts[i] - origin;
        const std::int64_t e0 = std::max(ends[i] - origin, s0 + 1);
        s.m_longestNs = std::max(s.m_longestNs, e0 - s0);
        const std::uint8_t cat = codes[i];
        auto b = static_cast<std::size_t>(s0 / bucket0);
        for (; b < count0; ++b) {
            const std::int64_t bs = static_cast<std::int64_t>(b) * bucket0;
            const std::int64_t be = bs + bucket0;
            if (bs >= e0)
                break;
            const std::int64_t overlap = std::min(e0, be) - std::max(s0, bs);
            covered[b] += overlap;
            if (b != open) {
                if (open < count0)
                    close();
                open = b;
            }
            shares.add(cat, overlap);
        }
    }
    if (open < count0)
        close();
    s.m_originNs = origin;
    s.m_bucket0Ns = bucket0;
    std::int64_t bucketNs = bucket0;
    while (true) {
        std::vector<std::uint16_t> level(covered.size());
        for (std::size_t b = 0; b < covered.size(); ++b)
            level[b] = pack(code[b], covered[b], bucketNs);
        s.m_levels.push_back(std::move(level));
        if (covered.size() <= 1)
            break;
        const std::size_t next = (covered.size() + 1) / 2;
        for (std::size_t b = 0; b < next; ++b) {
            const std::size_t a = 2 * b;
            const std::size_t c = a + 1;
            std::int64_t cov = covered[a];
            std::int64_t bst = best[a];
            std::uint8_t cd = code[a];
            if (c < covered.size()) {
                cov += covered[c];
                if (code[c] == cd) {
                    bst += best[c];
                } else if (best[c] > bst) {
                    bst = best[c];
                    cd = code[c];
                }
            }
            covered[b] = cov;
            best[b] = bst;
            code[b] = cd;
        }
        covered.resize(next);
        best.resize(next);
        code.resize(next);
        bucketNs *= 2;
    }
    return s;
}

int RowSummary::levelFor(double nsPerPixel) const
{
    if (isEmpty() || nsPerPixel < static_cast<double>(m_bucket0Ns))
        return -1;
    int level = 0;
    while (level + 1 < levelCount() && static_cast<double>(bucketNs(level + 1)) <= nsPerPixel)
        ++level;
    return level;
}

std::size_t RowSummary::memoryBytes() const
{
    std::size_t bytes = 0;
    for (const auto &l : m_levels)
        bytes += l.size() * sizeof(std::uint16_t);
    return bytes;
}

} // namespace stepscope::ui::timeline
