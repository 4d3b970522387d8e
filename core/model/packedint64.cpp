// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#include "packedint64.h"

#include <algorithm>
#include <cassert>

namespace stepscope::model {

PackedInt64 PackedInt64::from(const std::vector<std::int64_t> &values)
{
    PackedInt64 p;
    p.reserve(values.size());
    constexpr std::size_t Block = std::size_t {1} << BlockBits;
    for (std::size_t b = 0; b < values.size(); b += Block) {
        const auto first = values.begin() + static_cast<std::ptrdiff_t>(b);
        const auto last =
            values.begin() + static_cast<std::ptrdiff_t>(std::min(values.size(), b + Block));
        const std::int64_t base = *std::min_element(first, last);
        p.m_base.push_back(base);
        for (auto it = first; it != last; ++it)
            p.append(*it, base);
    }
    p.shrink_to_fit();
    return p;
}

void PackedInt64::push_back(std::int64_t v)
{
    if ((m_offset.size() & ((std::size_t {1} << BlockBits) - 1)) == 0)
        m_base.push_back(v);
    append(v, m_base.back());
}

void PackedInt64::append(std::int64_t v, std::int64_t base)
{
    // v - base in unsigned arithmetic: exact for any v >= base, whatever their signs.
    const std::uint64_t above = static_cast<std::uint64_t>(v) - static_cast<std::uint64_t>(base);
    if (v >= base && above < Wide) {
        m_offset.push_back(static_cast<std::uint32_t>(above));
        return;
    }
    m_wide.emplace_back(m_offset.size(), v);
    m_offset.push_back(Wide);
}

std::int64_t PackedInt64::wide(std::size_t i) const
{
    const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), i,
        [](const std::pair<std::size_t, std::int64_t> &w, std::size_t k) { return w.first < k; });
    assert(it != m_wide.end() && it->first == i);
    return it->second;
}

void PackedInt64::reserve(std::size_t n)
{
    m_offset.reserve(n);
    m_base.reserve((n >> BlockBits) + 1);
}

void PackedInt64::shrink_to_fit()
{
    m_base.shrink_to_fit();
    m_offset.shrink_to_fit();
    m_wide.shrink_to_fit();
}

std::size_t PackedInt64::memoryBytes() const
{
    return m_base.capacity() * sizeof(std::int64_t) + m_offset.capacity() * sizeof(std::uint32_t)
        + m_wide.capacity() * sizeof(std::pair<std::size_t, std::int64_t>);
}

} // namespace stepscope::model
