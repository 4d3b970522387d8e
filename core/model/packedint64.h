// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace stepscope::model {

/// A column of int64 values in about 4 bytes each, read in O(1) by index. Values are kept as
/// 32-bit offsets from a base per block of 256; a value below its block's base, or 2^32 - 1
/// or more above it, is kept whole in a side list by index. Every value is exact; the column
/// is small where values rise slowly, as event starts within a row or record offsets in file
/// order do.
///
/// push_back() takes each block's first value as its base; from() takes the least, so a
/// block that jumps back (a row boundary) still fits.
class PackedInt64
{
public:
    static constexpr unsigned BlockBits = 8;

    /// The values, each block based at its least value.
    static PackedInt64 from(const std::vector<std::int64_t> &values);

    std::size_t size() const { return m_offset.size(); }
    bool empty() const { return m_offset.empty(); }
    std::int64_t operator[](std::size_t i) const
    {
        const std::uint32_t o = m_offset[i];
        return o != Wide ? m_base[i >> BlockBits] + static_cast<std::int64_t>(o) : wide(i);
    }
    void push_back(std::int64_t v);
    void reserve(std::size_t n);
    void shrink_to_fit();
    /// Values kept whole (for tests and the benchmark).
    std::size_t wideCount() const { return m_wide.size(); }
    std::size_t memoryBytes() const;

private:
    static constexpr std::uint32_t Wide = 0xffffffffU;
    std::int64_t wide(std::size_t i) const;
    void append(std::int64_t v, std::int64_t base);

    std::vector<std::int64_t> m_base; ///< per block
    std::vector<std::uint32_t> m_offset; ///< per value; Wide: in m_wide
    std::vector<std::pair<std::size_t, std::int64_t>> m_wide; ///< (index, value), by index
};

} // namespace stepscope::model
