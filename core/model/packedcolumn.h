// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace stepscope::model {

/// A column of integers kept as short offsets from a base per block of 256 values, read in
/// O(1) by index. A value below its block's base, or too far above it for an offset, is kept
/// whole in a side list by index; NullValue (a column's "none") costs an offset of its own.
/// Every value reads back exact; the column is small where values rise slowly, as event
/// starts within a row, args ids within a row and record offsets in file order do.
///
/// push_back() takes each block's first value (other than NullValue) as its base; from()
/// takes the least, so a block that jumps back (a row boundary) still fits, and keeps a block
/// with many values that do not fit whole beside the column, when that is smaller than
/// listing them (events seconds apart, args ids of a track read out of file order).
template <typename T, typename Offset, T NullValue> class PackedColumn
{
    static_assert(
        std::is_integral_v<T> && std::is_unsigned_v<Offset> && sizeof(Offset) < sizeof(T));

public:
    static constexpr unsigned BlockBits = 8;
    static constexpr std::size_t BlockSize = std::size_t {1} << BlockBits;

    /// The values, each block based at its least value.
    static PackedColumn from(const std::vector<T> &values)
    {
        PackedColumn p;
        p.reserve(values.size());
        for (std::size_t b = 0; b < values.size(); b += BlockSize) {
            const std::size_t end = std::min(values.size(), b + BlockSize);
            T base = NullValue;
            bool any = false;
            for (std::size_t i = b; i < end; ++i) {
                if (values[i] != NullValue && (!any || values[i] < base)) {
                    base = values[i];
                    any = true;
                }
            }
            p.m_base.push_back(base);
            const std::size_t listed = p.m_wide.size();
            for (std::size_t i = b; i < end; ++i)
                p.append(values[i]);
            // Whole when that is smaller than the list (and found in O(1)).
            if ((p.m_wide.size() - listed) * sizeof(p.m_wide[0]) > BlockSize * sizeof(T)) {
                p.m_wide.resize(listed);
                const std::size_t block = b >> BlockBits;
                p.m_wholeAt.resize(block + 1, NotWhole);
                p.m_wholeAt[block] = p.m_whole.size();
                p.m_whole.insert(p.m_whole.end(), values.begin() + static_cast<std::ptrdiff_t>(b),
                    values.begin() + static_cast<std::ptrdiff_t>(end));
                std::fill(
                    p.m_offset.begin() + static_cast<std::ptrdiff_t>(b), p.m_offset.end(), Wide);
            }
        }
        p.shrink_to_fit();
        return p;
    }

    std::size_t size() const { return m_offset.size(); }
    bool empty() const { return m_offset.empty(); }
    T operator[](std::size_t i) const
    {
        const Offset o = m_offset[i];
        if (o < Null)
            return static_cast<T>(m_base[i >> BlockBits] + static_cast<T>(o));
        return o == Null ? NullValue : wide(i);
    }
    void push_back(T v)
    {
        if ((m_offset.size() & (BlockSize - 1)) == 0) {
            m_base.push_back(v);
            m_baseSet = v != NullValue;
        } else if (!m_baseSet && v != NullValue) {
            m_base.back() = v;
            m_baseSet = true;
        }
        append(v);
    }
    void reserve(std::size_t n)
    {
        m_offset.reserve(n);
        m_base.reserve((n >> BlockBits) + 1);
    }
    void shrink_to_fit()
    {
        m_base.shrink_to_fit();
        m_offset.shrink_to_fit();
        m_wide.shrink_to_fit();
        m_whole.shrink_to_fit();
        m_wholeAt.shrink_to_fit();
    }
    /// Values kept whole, in the list or in whole blocks (for tests and the benchmark).
    std::size_t wideCount() const { return m_wide.size() + m_whole.size(); }
    std::size_t memoryBytes() const
    {
        return m_base.capacity() * sizeof(T) + m_offset.capacity() * sizeof(Offset)
            + m_wide.capacity() * sizeof(std::pair<std::size_t, T>) + m_whole.capacity() * sizeof(T)
            + m_wholeAt.capacity() * sizeof(std::size_t);
    }

private:
    using Unsigned = std::make_unsigned_t<T>;
    static constexpr Offset Wide = std::numeric_limits<Offset>::max();
    static constexpr Offset Null = Wide - 1;
    static constexpr std::size_t NotWhole = static_cast<std::size_t>(-1);

    /// Appends v against the last block's base.
    void append(T v)
    {
        const T base = m_base.back();
        // v - base in unsigned arithmetic: exact for any v >= base, whatever their signs.
        const auto above =
            static_cast<Unsigned>(static_cast<Unsigned>(v) - static_cast<Unsigned>(base));
        if (v == NullValue) {
            m_offset.push_back(Null);
        } else if (v >= base && above < Null) {
            m_offset.push_back(static_cast<Offset>(above));
        } else {
            m_wide.emplace_back(m_offset.size(), v);
            m_offset.push_back(Wide);
        }
    }
    T wide(std::size_t i) const
    {
        const std::size_t block = i >> BlockBits;
        if (block < m_wholeAt.size() && m_wholeAt[block] != NotWhole)
            return m_whole[m_wholeAt[block] + (i & (BlockSize - 1))];
        const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), i,
            [](const std::pair<std::size_t, T> &w, std::size_t k) { return w.first < k; });
        assert(it != m_wide.end() && it->first == i);
        return it->second;
    }

    std::vector<T> m_base; ///< per block
    std::vector<Offset> m_offset; ///< per value: an offset, Null or Wide (m_wide, m_whole)
    std::vector<std::pair<std::size_t, T>> m_wide; ///< (index, value), by index
    std::vector<T> m_whole; ///< the values of whole blocks, block after block
    /// Per block up to the last whole one: where its values begin in m_whole, or NotWhole.
    std::vector<std::size_t> m_wholeAt;
    bool m_baseSet = false; ///< push_back: the last block's base is one of its values
};

/// Event starts and args record offsets: 4 bytes per value.
using PackedInt64 =
    PackedColumn<std::int64_t, std::uint32_t, std::numeric_limits<std::int64_t>::min()>;

/// The ids dialects read from args (correlation, External id) while a load is staged: about 4
/// bytes each, as they rise with the file's order; -1 (no id) has a code of its own.
using PackedId = PackedColumn<std::int64_t, std::uint32_t, std::int64_t {-1}>;

} // namespace stepscope::model
