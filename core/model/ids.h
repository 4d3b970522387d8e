// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
#pragma once

#include <cstdint>
#include <functional>
#include <limits>

namespace stepscope::model {

/// A strong 32-bit index. Tags keep a string id from being passed where a track id is
/// expected. Default-constructed indices are invalid.
template <typename Tag> class Index
{
public:
    static constexpr std::uint32_t InvalidValue = std::numeric_limits<std::uint32_t>::max();

    constexpr Index() = default;
    constexpr explicit Index(std::uint32_t value)
        : m_value(value)
    {
    }

    constexpr std::uint32_t value() const { return m_value; }
    constexpr bool isValid() const { return m_value != InvalidValue; }

    friend constexpr bool operator==(Index a, Index b) { return a.m_value == b.m_value; }
    friend constexpr bool operator!=(Index a, Index b) { return a.m_value != b.m_value; }
    friend constexpr bool operator<(Index a, Index b) { return a.m_value < b.m_value; }

private:
    std::uint32_t m_value = InvalidValue;
};

using StringId = Index<struct StringTag>;
using TrackId = Index<struct TrackTag>;
using ArgsId = Index<struct ArgsTag>;

/// One event: the track that holds it and its index in that track (see Track's invariants).
struct EventRef
{
    TrackId track;
    std::uint32_t index = 0;

    friend bool operator==(EventRef a, EventRef b)
    {
        return a.track == b.track && a.index == b.index;
    }
    friend bool operator!=(EventRef a, EventRef b) { return !(a == b); }
    /// By track, then index.
    friend bool operator<(EventRef a, EventRef b)
    {
        return a.track < b.track || (a.track == b.track && a.index < b.index);
    }
};

} // namespace stepscope::model

template <typename Tag> struct std::hash<stepscope::model::Index<Tag>>
{
    std::size_t operator()(stepscope::model::Index<Tag> i) const noexcept
    {
        return std::hash<std::uint32_t>()(i.value());
    }
};
